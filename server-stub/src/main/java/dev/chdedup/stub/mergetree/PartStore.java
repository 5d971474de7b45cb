package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * Reads and writes parts on disk, one file per part under the table directory, {@code <part name>.bin}: a header
 * (length-prefixed text: the columns ClickHouse keeps in columns.txt, the row count, then the block ids the part
 * was inserted with, one {@code block_id: <id>} line each), then the rows in RowBinary. One file per part keeps an
 * insert to a create, a write and a rename, and a removal to one unlink. Parts are written and read as streams:
 * memory holds one buffer per open part, never a part's rows. A part is written under a temporary name
 * ({@code tmp_...}), optionally fsynced, then renamed to its final name (under the table's parts lock, see
 * {@link MergeTreeData}), so a crash leaves either the whole part or a temporary file that loading removes. The
 * block ids travel inside the part, so a crash between the rename and the deduplication log's record cannot
 * make a retry land twice: loading puts them back into the log.
 */
public final class PartStore {
    public static final String TMP_PREFIX = "tmp_";
    /** The file extension of a part. */
    public static final String EXT = ".bin";
    private static final String BLOCK_ID = "block_id: ";
    private static final String ROWS = "rows: ";
    /** The row count is written with this many digits, so it can be filled in once the rows are written. */
    private static final int ROW_DIGITS = 19;
    private static final int WRITE_BUFFER = 1 << 16;

    private PartStore() {
    }

    /** The file holding part {@code name} under {@code tableDir}. */
    public static Path pathOf(Path tableDir, String name) {
        return tableDir.resolve(name + EXT);
    }

    /** Writes a part under its final name at once (tests and tools; the server goes through {@link MergeTreeData}). */
    public static long write(Path tableDir, MergeTreePartInfo info, List<Column> columns, List<Object[]> rows, boolean fsync)
        throws IOException {
        Written w = writeTemporary(tableDir, "insert_" + info.name(), columns, rows.iterator(), List.of(), fsync);
        w.publish(info);
        return w.dataBytes();
    }

    /**
     * A part written under its temporary name, not yet visible: {@link #publish} renames it to a part name,
     * {@link #discard()} drops it.
     */
    public record Written(Path tableDir, Path tmp, long rows, long dataBytes, long dataOffset, List<String> blockIds, boolean fsync) {
        public void publish(MergeTreePartInfo info) throws IOException {
            Path dst = pathOf(tableDir, info.name());
            if (tmp.equals(dst)) {
                return;
            }
            if (Files.exists(dst)) {
                throw new ChException(ErrorCode.DUPLICATE_DATA_PART, "Part " + info.name() + " already exists on disk");
            }
            try {
                Files.move(tmp, dst, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dst);
            }
            if (fsync) {
                fsyncDir(tableDir);
            }
        }

        /** This file renamed to {@code info}'s final name, still outside the part set (a replicated insert before its commit). */
        public Written published(MergeTreePartInfo info) throws IOException {
            publish(info);
            return new Written(tableDir, pathOf(tableDir, info.name()), rows, dataBytes, dataOffset, blockIds, fsync);
        }

        public void discard() {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a leftover temporary file is removed on the next load
            }
        }
    }

    /**
     * Writes rows (already in key order) as a part file under the temporary name {@code tmp_<tmpName>.bin}, with the
     * block ids it is inserted with (empty for merged and mutated parts), streaming: one buffer at a time.
     */
    public static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, Iterator<Object[]> rows, List<String> blockIds,
                                         boolean fsync) throws IOException {
        Path tmp = tableDir.resolve(TMP_PREFIX + tmpName + EXT);
        StringBuilder header = new StringBuilder("columns format version: 1\n").append(columns.size()).append(" columns:\n");
        for (Column c : columns) {
            header.append('`').append(c.name()).append("` ").append(c.type().name()).append('\n');
        }
        int countAt = header.length() + ROWS.length();
        header.append(ROWS).append("0".repeat(ROW_DIGITS)).append('\n');
        for (String id : blockIds) {
            header.append(BLOCK_ID).append(id).append('\n');
        }
        byte[] head = header.toString().getBytes(StandardCharsets.UTF_8);
        BinaryOut out = new BinaryOut(WRITE_BUFFER + 1024);
        out.writeVarUInt(head.length);
        int prefix = out.size();
        out.write(head, 0, head.length);
        long dataOffset = out.size();
        long count = 0;
        long written = 0;
        boolean ok = false;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            while (rows.hasNext()) {
                Object[] r = rows.next();
                for (int i = 0; i < columns.size(); i++) {
                    columns.get(i).type().writeBinary(r[i], out);
                }
                count++;
                if (out.size() >= WRITE_BUFFER) {
                    written += drain(ch, out);
                }
            }
            written += drain(ch, out);
            byte[] digits = String.format("%0" + ROW_DIGITS + "d", count).getBytes(StandardCharsets.US_ASCII);
            ch.write(ByteBuffer.wrap(digits), prefix + countAt);
            if (fsync) {
                ch.force(true);
            }
            ok = true;
        } finally {
            if (!ok) {
                Files.deleteIfExists(tmp);
            }
        }
        return new Written(tableDir, tmp, count, written - dataOffset, dataOffset, List.copyOf(blockIds), fsync);
    }

    private static long drain(FileChannel ch, BinaryOut out) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(out.array(), 0, out.size());
        while (b.hasRemaining()) {
            ch.write(b);
        }
        long n = out.size();
        out.reset();
        return n;
    }

    /** Removes part {@code name} from disk (a file, or a directory of an older layout). */
    public static void delete(Path tableDir, String name) throws IOException {
        if (!Files.deleteIfExists(pathOf(tableDir, name))) {
            deleteRecursively(tableDir.resolve(name));
        }
    }

    static void fsyncDir(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException ignored) {
            // directories cannot be opened for fsync on every platform
        }
    }

    /**
     * Where a part's rows are on disk and how to read them as table rows: the data file, the offset of the first
     * row, the columns stored there and, for each table column, the stored column it comes from (-1: missing, read
     * as the default).
     */
    public record Layout(Path file, long dataOffset, List<Column> stored, List<Column> table, int[] map) {
        static Layout of(Path file, long dataOffset, List<Column> stored, List<Column> table) {
            int[] map = new int[table.size()];
            for (int i = 0; i < table.size(); i++) {
                map[i] = -1;
                for (int j = 0; j < stored.size(); j++) {
                    if (stored.get(j).name().equals(table.get(i).name())) {
                        map[i] = j;
                    }
                }
            }
            return new Layout(file, dataOffset, stored, table, map);
        }

        /** The same layout for the file after a rename. */
        Layout at(Path renamed) {
            return new Layout(renamed, dataOffset, stored, table, map);
        }
    }

    /**
     * Reads the header of the part stored at {@code path} (a part file, or a directory with columns.txt and data.bin
     * from an older layout) as table {@code columns} (missing columns get defaults); counts the rows of files
     * written before the header held the count.
     */
    public static DataPart read(Path path, MergeTreePartInfo info, List<Column> columns) throws IOException {
        List<String> lines;
        Path dataFile;
        long offset;
        long count = -1;
        if (Files.isDirectory(path)) {
            lines = Files.readAllLines(path.resolve("columns.txt"), StandardCharsets.UTF_8);
            Path countFile = path.resolve("count.txt");
            count = Files.exists(countFile) ? Long.parseLong(Files.readString(countFile).trim()) : -1;
            dataFile = path.resolve("data.bin");
            offset = 0;
        } else {
            dataFile = path;
            try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
                BinaryIn head = new BinaryIn(Channels.newInputStream(ch));
                int len = (int) head.readVarUInt();
                if (len < 0 || len > 1 << 24) {
                    throw new ChException(ErrorCode.CORRUPTED_DATA, "Part " + info.name() + " has a corrupted header");
                }
                offset = head.position() + len;
                lines = List.of(new String(head.readBytes(len), StandardCharsets.UTF_8).split("\n"));
            }
        }
        List<Column> stored = new ArrayList<>();
        List<String> blockIds = new ArrayList<>();
        for (int i = 2; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isEmpty()) {
                continue;
            }
            if (l.startsWith(BLOCK_ID)) {
                blockIds.add(l.substring(BLOCK_ID.length()));
            } else if (l.startsWith(ROWS)) {
                count = Long.parseLong(l.substring(ROWS.length()));
            } else {
                int end = l.indexOf('`', 1);
                stored.add(new Column(l.substring(1, end), DataTypes.parse(l.substring(end + 2))));
            }
        }
        Layout layout = Layout.of(dataFile, offset, stored, columns);
        long bytes = Files.size(dataFile) - offset;
        if (count < 0) {
            count = countRows(layout);
        }
        long mtime = Files.getLastModifiedTime(path).toMillis() / 1000;
        return new DataPart(info, count, mtime, bytes, List.copyOf(blockIds), layout, path);
    }

    private static long countRows(Layout layout) throws IOException {
        try (FileChannel ch = FileChannel.open(layout.file(), StandardOpenOption.READ)) {
            ch.position(layout.dataOffset());
            BinaryIn in = new BinaryIn(Channels.newInputStream(ch));
            long n = 0;
            while (!in.atEnd()) {
                for (Column c : layout.stored()) {
                    c.type().readBinary(in);
                }
                n++;
            }
            return n;
        }
    }

    /**
     * A part's rows as they are decoded from its file. It holds a lease on the file from the start (so a merge or drop
     * that removes the part meanwhile leaves the file in place until the reader is done) and opens it only at the
     * first row, so a query over many parts has one file open at a time. Exhausting or closing it ends the lease.
     */
    public static final class RowReader implements Iterator<Object[]>, AutoCloseable {
        private final DataPart part;
        private FileChannel channel;
        private BinaryIn in;
        private long left;
        private boolean closed;

        RowReader(DataPart part) {
            this.part = part;
            this.left = part.rowCount();
        }

        public DataPart part() {
            return part;
        }

        /** Whether this reader holds its part's file open now. */
        boolean isOpen() {
            return channel != null && channel.isOpen();
        }

        @Override
        public boolean hasNext() {
            if (left > 0) {
                return true;
            }
            close();
            return false;
        }

        @Override
        public Object[] next() {
            if (left <= 0) {
                throw new java.util.NoSuchElementException();
            }
            try {
                if (in == null) {
                    channel = part.file().open();
                    channel.position(part.layout().dataOffset());
                    in = new BinaryIn(Channels.newInputStream(channel));
                }
                Layout l = part.layout();
                Object[] raw = new Object[l.stored().size()];
                for (int j = 0; j < raw.length; j++) {
                    raw[j] = l.stored().get(j).type().readBinary(in);
                }
                left--;
                if (l.map().length == raw.length && isIdentity(l.map())) {
                    return raw;
                }
                Object[] row = new Object[l.table().size()];
                for (int i = 0; i < row.length; i++) {
                    row[i] = l.map()[i] < 0 ? l.table().get(i).type().defaultValue() : raw[l.map()[i]];
                }
                return row;
            } catch (IOException e) {
                close();
                // the message reaches the client: the part, never a server path
                throw new ChException(ErrorCode.CORRUPTED_DATA, "Cannot read part " + part.name());
            }
        }

        private static boolean isIdentity(int[] map) {
            for (int i = 0; i < map.length; i++) {
                if (map[i] != i) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                if (channel != null) {
                    channel.close();
                }
            } catch (IOException ignored) {
                // nothing to do
            } finally {
                part.file().release();
            }
        }
    }

    public static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        if (Files.isDirectory(p)) {
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(p)) {
                for (Path c : ds) {
                    deleteRecursively(c);
                }
            }
        }
        Files.deleteIfExists(p);
    }
}
