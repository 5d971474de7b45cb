package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.common.FileNames;
import dev.chdedup.stub.compress.HashingBuffer;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
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
 * Reads and writes parts on disk as ClickHouse lays them out: a directory per part under the table directory, named
 * as the part, holding {@code columns.txt} (the columns, ClickHouse's text), {@code count.txt} (the row count),
 * {@code checksums.txt} (each file's size and hash as ClickHouse computes it, in the text form of its version 2) and the
 * stub's own {@code block_ids.txt} (the block ids the part was inserted with, one {@code block_id: <id>} line each,
 * when it has any). The values are uncompressed, in their binary form (for numbers, dates and strings what
 * ClickHouse's column files hold once decompressed):
 * <ul>
 *   <li>Wide, a part of more than {@link #COMPACT_MAX_BYTES}: one {@code <column>.bin} per column, its name escaped as
 *   ClickHouse escapes file names ({@link FileNames#escapeForFileName});</li>
 *   <li>Compact, a smaller part: {@code data.bin}, the columns one after another (one granule), and {@code data.mrk3},
 *   where each starts.</li>
 * </ul>
 * Parts are written and read as streams, a buffer per column: memory never holds a large part's rows. A part is
 * written under a temporary name ({@code tmp_...}), optionally fsynced, then renamed to its final name (under the
 * table's parts lock, see {@link MergeTreeData}), so a crash leaves either the whole part or a temporary directory
 * that loading removes. The block ids travel inside the part, so a crash between the rename and the deduplication
 * log's record cannot make a retry land twice: loading puts them back into the log. Parts of the stub's earlier
 * layouts (one file {@code <name>.bin}: a header, then the rows in RowBinary; a directory with {@code data.bin}
 * and no checksums) are still read.
 */
public final class PartStore {
    public static final String TMP_PREFIX = "tmp_";
    /** The file extension of a part of the earlier one-file layout, and of a column file. */
    public static final String EXT = ".bin";
    static final String COLUMNS_FILE = "columns.txt";
    static final String COUNT_FILE = "count.txt";
    static final String CHECKSUMS_FILE = "checksums.txt";
    static final String BLOCK_IDS_FILE = "block_ids.txt";
    static final String COMPACT_DATA_FILE = "data.bin";
    static final String COMPACT_MARKS_FILE = "data.mrk3";
    /** A part whose values take at most this many bytes is written Compact (ClickHouse: {@code min_bytes_for_wide_part}). */
    static final long COMPACT_MAX_BYTES = 1 << 20;
    private static final String BLOCK_ID = "block_id: ";
    private static final String ROWS = "rows: ";
    private static final int WRITE_BUFFER = 1 << 16;
    /** Rows of a column written into the buffer at a time: a few kilobytes of fixed-width values. */
    private static final int WRITE_ROWS = 1024;
    /** How a packed part (a directory sent as one body, {@link #bytesOf}) starts: no one-file part starts with a zero byte. */
    private static final byte[] PACKED_MAGIC = "\0MergeTreeDataPartWide 1\n".getBytes(StandardCharsets.US_ASCII);

    private PartStore() {
    }

    /** Where part {@code name} is written under {@code tableDir}: its directory. */
    public static Path pathOf(Path tableDir, String name) {
        return tableDir.resolve(name);
    }

    /** The file name of a column's data file. */
    static String columnFile(String column) {
        return FileNames.escapeForFileName(column) + EXT;
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
            Path dst = finalPath(info);
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

        /** Where the part goes: its directory, or for a part of the one-file layout (a fetched old part) its file. */
        Path finalPath(MergeTreePartInfo info) {
            return Files.isDirectory(tmp) ? pathOf(tableDir, info.name()) : tableDir.resolve(info.name() + EXT);
        }

        /** This part renamed to {@code info}'s final name, still outside the part set (a replicated insert before its commit). */
        public Written published(MergeTreePartInfo info) throws IOException {
            Path dst = finalPath(info);
            publish(info);
            return new Written(tableDir, dst, rows, dataBytes, dataOffset, blockIds, fsync);
        }

        public void discard() {
            try {
                deleteRecursively(tmp);
            } catch (IOException ignored) {
                // a leftover temporary part is removed on the next load
            }
        }
    }

    /**
     * Writes rows (already in key order) as a part under the temporary name {@code tmp_<tmpName>}, with the block ids it
     * is inserted with (empty for merged and mutated parts), streaming: a buffer per column. The rows of a columnar
     * piece ({@link #iterator}) are written column after column from their columns.
     */
    public static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, Iterator<Object[]> rows, List<String> blockIds,
                                         boolean fsync) throws IOException {
        if (rows instanceof ColumnRowIterator) {
            return writeTemporary(tableDir, tmpName, columns, ((ColumnRowIterator) rows).rows, blockIds, fsync);
        }
        Path tmp = tableDir.resolve(TMP_PREFIX + tmpName);
        boolean ok = false;
        try {
            Files.createDirectory(tmp);
            int width = columns.size();
            BinaryOut[] bufs = new BinaryOut[width];
            for (int c = 0; c < width; c++) {
                bufs[c] = new BinaryOut(1024);
            }
            // the rows stay in the buffers while the part is small (then it is Compact); past that each column streams
            // to its own file (Wide)
            FileChannel[] files = null;
            HashingBuffer[] hashes = null;
            long count = 0;
            long bytes = 0;
            long buffered = 0;
            Checksums sums = new Checksums();
            try {
                while (rows.hasNext()) {
                    Object[] r = rows.next();
                    for (int c = 0; c < width; c++) {
                        BinaryOut b = bufs[c];
                        int before = b.size();
                        columns.get(c).type().writeBinary(r[c], b);
                        if (files == null) {
                            buffered += b.size() - before;
                        } else if (b.size() >= WRITE_BUFFER) {
                            bytes += drain(files[c], b, hashes[c]);
                        }
                    }
                    count++;
                    if (files == null && buffered > COMPACT_MAX_BYTES) {
                        files = new FileChannel[width];
                        hashes = new HashingBuffer[width];
                        for (int c = 0; c < width; c++) {
                            String name = columnFile(columns.get(c).name());
                            files[c] = create(tmp.resolve(name));
                            hashes[c] = sums.file(name);
                            bytes += drain(files[c], bufs[c], hashes[c]);
                        }
                    }
                }
                if (files == null) {
                    bytes = writeCompact(tmp, bufs, count, fsync, sums);
                } else {
                    for (int c = 0; c < width; c++) {
                        bytes += drain(files[c], bufs[c], hashes[c]);
                        if (fsync) {
                            files[c].force(true);
                        }
                    }
                }
            } finally {
                if (files != null) {
                    for (FileChannel f : files) {
                        if (f != null) {
                            f.close();
                        }
                    }
                }
            }
            Written w = finishPart(tableDir, tmp, columns, count, bytes, blockIds, fsync, sums);
            ok = true;
            return w;
        } finally {
            if (!ok) {
                deleteRecursively(tmp);
            }
        }
    }

    /**
     * Writes a Compact part's data: {@code data.bin}, the columns' values one column after another (one granule), and
     * {@code data.mrk3}, its marks: for each column the offset where it starts and its offset in the (uncompressed)
     * block, 0, then the granule's row count, each a UInt64. Returns the data bytes.
     */
    private static long writeCompact(Path tmp, BinaryOut[] columns, long rows, boolean fsync, Checksums sums) throws IOException {
        BinaryOut marks = new BinaryOut(16 * columns.length + 8);
        long offset = 0;
        for (BinaryOut c : columns) {
            marks.writeLongLE(offset, 8);
            marks.writeLongLE(0, 8);
            offset += c.size();
        }
        marks.writeLongLE(rows, 8);
        byte[] data = new byte[(int) offset];
        int at = 0;
        for (BinaryOut c : columns) {
            System.arraycopy(c.array(), 0, data, at, c.size());
            at += c.size();
        }
        writeSmall(tmp, COMPACT_DATA_FILE, data, fsync, sums);
        writeSmall(tmp, COMPACT_MARKS_FILE, marks.toByteArray(), fsync, sums);
        return offset;
    }

    /** {@link #writeTemporary(Path, String, List, Iterator, List, boolean)} of columnar rows: each column's file in one go. */
    public static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, ColumnRows rows, List<String> blockIds,
                                         boolean fsync) throws IOException {
        IColumn[] data = rows.columns();
        if (data.length != columns.size()) {
            throw new IllegalArgumentException(data.length + " columns for a part of " + columns.size());
        }
        long estimate = 0;
        for (IColumn c : data) {
            estimate += c.byteSize();
        }
        if (estimate <= COMPACT_MAX_BYTES) {
            return writeTemporary(tableDir, tmpName, columns, rows.iterator(), blockIds, fsync); // a small part: Compact
        }
        Path tmp = tableDir.resolve(TMP_PREFIX + tmpName);
        boolean ok = false;
        try {
            Files.createDirectory(tmp);
            BinaryOut buf = new BinaryOut(WRITE_BUFFER + 1024);
            long bytes = 0;
            int n = rows.size();
            Checksums sums = new Checksums();
            for (int c = 0; c < data.length; c++) {
                String name = columnFile(columns.get(c).name());
                try (FileChannel ch = create(tmp.resolve(name))) {
                    IColumn col = data[c];
                    HashingBuffer hash = sums.file(name);
                    for (int r = 0; r < n; r += WRITE_ROWS) {
                        col.writeBinary(r, Math.min(WRITE_ROWS, n - r), buf);
                        if (buf.size() >= WRITE_BUFFER) {
                            bytes += drain(ch, buf, hash);
                        }
                    }
                    bytes += drain(ch, buf, hash);
                    if (fsync) {
                        ch.force(true);
                    }
                }
            }
            Written w = finishPart(tableDir, tmp, columns, n, bytes, blockIds, fsync, sums);
            ok = true;
            return w;
        } finally {
            if (!ok) {
                deleteRecursively(tmp);
            }
        }
    }

    /** The rows of a columnar piece as an iterator that {@link #writeTemporary} recognises and writes from the columns. */
    public static Iterator<Object[]> iterator(List<Object[]> rows) {
        return rows instanceof ColumnRows ? new ColumnRowIterator((ColumnRows) rows) : rows.iterator();
    }

    private static final class ColumnRowIterator implements Iterator<Object[]> {
        final ColumnRows rows;
        int next;

        ColumnRowIterator(ColumnRows rows) {
            this.rows = rows;
        }

        @Override
        public boolean hasNext() {
            return next < rows.size();
        }

        @Override
        public Object[] next() {
            return rows.get(next++);
        }
    }

    private static FileChannel create(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /** Writes a part's small files once its column files are written: columns, count, block ids, then the checksums. */
    private static Written finishPart(Path tableDir, Path tmp, List<Column> columns, long count, long dataBytes, List<String> blockIds,
                                      boolean fsync, Checksums sums) throws IOException {
        StringBuilder cols = new StringBuilder("columns format version: 1\n").append(columns.size()).append(" columns:\n");
        for (Column c : columns) {
            cols.append('`').append(c.name()).append("` ").append(c.type().name()).append('\n');
        }
        writeSmall(tmp, COLUMNS_FILE, cols.toString(), fsync, null); // as in ClickHouse, the checksums leave columns.txt out
        writeSmall(tmp, COUNT_FILE, Long.toString(count), fsync, sums);
        if (!blockIds.isEmpty()) {
            StringBuilder ids = new StringBuilder();
            for (String id : blockIds) {
                ids.append(BLOCK_ID).append(id).append('\n');
            }
            writeSmall(tmp, BLOCK_IDS_FILE, ids.toString(), fsync, sums);
        }
        writeSmall(tmp, CHECKSUMS_FILE, sums.text(tmp), fsync, null);
        if (fsync) {
            fsyncDir(tmp);
        }
        return new Written(tableDir, tmp, count, dataBytes, 0, List.copyOf(blockIds), fsync);
    }

    private static void writeSmall(Path dir, String name, String text, boolean fsync, Checksums sums) throws IOException {
        writeSmall(dir, name, text.getBytes(StandardCharsets.UTF_8), fsync, sums);
    }

    private static void writeSmall(Path dir, String name, byte[] bytes, boolean fsync, Checksums sums) throws IOException {
        if (sums != null) {
            sums.add(name, bytes, bytes.length);
        }
        try (FileChannel ch = create(dir.resolve(name))) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            if (fsync) {
                ch.force(true);
            }
        }
    }

    /**
     * A part's checksums.txt, ClickHouse's text form of version 2: the file count, then each file's name, size and hash
     * (two decimal halves), uncompressed; columns.txt and checksums.txt themselves are not listed, as in ClickHouse. The hash is the one ClickHouse stores, {@link HashingBuffer}'s, taken as each
     * file is written; a file written otherwise is read back.
     */
    static final class Checksums {
        private final java.util.TreeMap<String, HashingBuffer> files = new java.util.TreeMap<>();

        /** The hash of file {@code name}, to be fed with its bytes as they are written. */
        HashingBuffer file(String name) {
            HashingBuffer h = new HashingBuffer();
            files.put(name, h);
            return h;
        }

        void add(String name, byte[] b, int n) {
            file(name).update(b, 0, n);
        }

        String text(Path partDir) throws IOException {
            for (Path f : files(partDir)) {
                String name = f.getFileName().toString();
                if (!name.equals(CHECKSUMS_FILE) && !name.equals(COLUMNS_FILE) && !files.containsKey(name)) {
                    byte[] b = Files.readAllBytes(f);
                    add(name, b, b.length);
                }
            }
            StringBuilder sb = new StringBuilder("checksums format version: 2\n").append(files.size()).append(" files:\n");
            files.forEach((name, h) -> {
                long[] hash = h.hash();
                sb.append(name).append("\n\tsize: ").append(h.size()).append("\n\thash: ").append(Long.toUnsignedString(hash[0])).append(' ')
                    .append(Long.toUnsignedString(hash[1])).append("\n\tcompressed: 0\n");
            });
            return sb.toString();
        }
    }

    /** The files of a part directory, by name. */
    private static List<Path> files(Path partDir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(partDir)) {
            for (Path f : ds) {
                files.add(f);
            }
        }
        files.sort(java.util.Comparator.comparing(f -> f.getFileName().toString()));
        return files;
    }

    /**
     * A part on disk as one body, for the replicas' exchange: a Wide part's files packed (their names, sizes and bytes,
     * by name), a part of the one-file layout its file.
     */
    public static byte[] bytesOf(Path part) throws IOException {
        if (!Files.isDirectory(part)) {
            return Files.readAllBytes(part);
        }
        BinaryOut out = new BinaryOut(1 << 16);
        out.write(PACKED_MAGIC, 0, PACKED_MAGIC.length);
        List<Path> files = files(part);
        out.writeVarUInt(files.size());
        for (Path f : files) {
            byte[] b = Files.readAllBytes(f);
            out.writeString(f.getFileName().toString());
            out.writeVarUInt(b.length);
            out.write(b, 0, b.length);
        }
        return out.toByteArray();
    }

    /**
     * Writes a part another replica sent ({@link #bytesOf}) under the temporary name {@code tmp_<tmpName>}: a directory
     * of its files, or the file of a part of the one-file layout. Returns where it is. A file name that is not a plain
     * name is CORRUPTED_DATA: nothing is written outside the part's directory.
     */
    public static Path writeFetched(Path tableDir, String tmpName, byte[] body) throws IOException {
        if (body.length < PACKED_MAGIC.length || !java.util.Arrays.equals(body, 0, PACKED_MAGIC.length, PACKED_MAGIC, 0, PACKED_MAGIC.length)) {
            Path tmp = tableDir.resolve(TMP_PREFIX + tmpName + EXT);
            Files.write(tmp, body);
            return tmp;
        }
        Path tmp = tableDir.resolve(TMP_PREFIX + tmpName);
        boolean ok = false;
        try {
            Files.createDirectory(tmp);
            BinaryIn in = new BinaryIn(java.util.Arrays.copyOfRange(body, PACKED_MAGIC.length, body.length));
            long n = in.readVarUInt();
            for (long i = 0; i < n; i++) {
                String name = in.readString();
                if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals(".") || name.equals("..")) {
                    throw new ChException(ErrorCode.CORRUPTED_DATA, "A fetched part has a file named '" + name + "'");
                }
                long size = in.readVarUInt();
                if (size < 0 || size > Integer.MAX_VALUE) {
                    throw new ChException(ErrorCode.CORRUPTED_DATA, "A fetched part's file " + name + " has a bad size");
                }
                byte[] b = new byte[(int) size];
                in.readFully(b, 0, b.length);
                Files.write(tmp.resolve(name), b, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            }
            ok = true;
            return tmp;
        } catch (java.io.EOFException e) {
            throw new ChException(ErrorCode.CORRUPTED_DATA, "A fetched part ends early");
        } finally {
            if (!ok) {
                deleteRecursively(tmp);
            }
        }
    }

    /** A hard link of each of a part's files (a copy where links fail) under {@code tmp}: a mutation that keeps the data. */
    static void linkFiles(Path source, Path tmp) throws IOException {
        if (!Files.isDirectory(source)) {
            link(source, tmp);
            return;
        }
        Files.createDirectory(tmp);
        for (Path f : files(source)) {
            link(f, tmp.resolve(f.getFileName().toString()));
        }
    }

    private static void link(Path from, Path to) throws IOException {
        try {
            Files.createLink(to, from);
        } catch (UnsupportedOperationException | IOException e) {
            Files.copy(from, to);
        }
    }

    /** {@link #drain(FileChannel, BinaryOut)}, the bytes going through the file's hash too. */
    private static long drain(FileChannel ch, BinaryOut out, HashingBuffer hash) throws IOException {
        hash.update(out.array(), 0, out.size());
        return drain(ch, out);
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

    /** Removes part {@code name} from disk (its directory, or its file of the one-file layout). */
    public static void delete(Path tableDir, String name) throws IOException {
        if (!Files.deleteIfExists(tableDir.resolve(name + EXT))) {
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

    /** How a part keeps its rows: a file per column, one file of columns with marks, or the earlier one file of rows. */
    public enum Kind { WIDE, COMPACT, ONE_FILE }

    /**
     * Where a part's rows are on disk and how to read them as table rows: the part's directory (Wide) or the data file
     * of an earlier layout and the offset of its first row, the columns stored there and, for each table column, the
     * stored column it comes from (-1: missing, read as the default).
     */
    public record Layout(Path file, long dataOffset, List<Column> stored, List<Column> table, int[] map, Kind kind) {
        /** Whether each column is read from a place of its own (a Wide or Compact part), not row after row. */
        public boolean byColumn() {
            return kind != Kind.ONE_FILE;
        }

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
            Kind kind = !Files.isDirectory(file) ? Kind.ONE_FILE : Files.exists(file.resolve(COMPACT_MARKS_FILE)) ? Kind.COMPACT : Kind.WIDE;
            return new Layout(file, dataOffset, stored, table, map, kind);
        }
    }

    /**
     * Reads the small files of the part stored at {@code path} (its directory; or a part file, or a directory with
     * columns.txt and data.bin, of an earlier layout) as table {@code columns} (missing columns get defaults); counts the
     * rows of files written before the header held the count.
     */
    public static DataPart read(Path path, MergeTreePartInfo info, List<Column> columns) throws IOException {
        List<String> lines;
        Path dataFile;
        long offset;
        long count = -1;
        long bytes;
        List<String> blockIds = new ArrayList<>();
        if (Files.isDirectory(path) && Files.exists(path.resolve(CHECKSUMS_FILE))) {
            lines = Files.readAllLines(path.resolve(COLUMNS_FILE), StandardCharsets.UTF_8);
            count = Long.parseLong(Files.readString(path.resolve(COUNT_FILE)).trim());
            Path ids = path.resolve(BLOCK_IDS_FILE);
            for (String l : Files.exists(ids) ? Files.readAllLines(ids, StandardCharsets.UTF_8) : List.<String>of()) {
                if (l.startsWith(BLOCK_ID)) {
                    blockIds.add(l.substring(BLOCK_ID.length()));
                }
            }
            dataFile = path;
            offset = 0;
            bytes = 0;
            for (Path f : files(path)) {
                bytes += Files.size(f);
            }
        } else if (Files.isDirectory(path)) {
            lines = Files.readAllLines(path.resolve(COLUMNS_FILE), StandardCharsets.UTF_8);
            Path countFile = path.resolve(COUNT_FILE);
            count = Files.exists(countFile) ? Long.parseLong(Files.readString(countFile).trim()) : -1;
            dataFile = path.resolve("data.bin");
            offset = 0;
            bytes = Files.size(dataFile);
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
            bytes = Files.size(dataFile) - offset;
        }
        List<Column> stored = new ArrayList<>();
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
     * A part's rows as they are decoded from its files. It holds a lease on the part from the start (so a merge or drop
     * that removes the part meanwhile leaves its files in place until the reader is done) and opens them only at the
     * first row, so a query over many parts has one part open at a time. Exhausting or closing it ends the lease.
     */
    public static final class RowReader implements Iterator<Object[]>, AutoCloseable {
        private final DataPart part;
        /** The part's data file (one-file layout), or one file per stored column (Wide). */
        private FileChannel[] channels;
        private BinaryIn[] ins;
        /** A Compact part's column starts in data.bin, and its end. */
        private long[] compactStarts;
        private long left;
        private boolean closed;

        RowReader(DataPart part) {
            this.part = part;
            this.left = part.rowCount();
        }

        public DataPart part() {
            return part;
        }

        /** Whether this reader holds its part's files open now. */
        boolean isOpen() {
            if (channels != null) {
                for (FileChannel c : channels) {
                    if (c != null && c.isOpen()) {
                        return true;
                    }
                }
            }
            return false;
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
                open();
                Layout l = part.layout();
                Object[] raw = new Object[l.stored().size()];
                for (int j = 0; j < raw.length; j++) {
                    raw[j] = l.stored().get(j).type().readBinary(l.byColumn() ? ins[j] : ins[0]);
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
                throw corrupted();
            }
        }

        /**
         * Up to {@code max} next rows decoded straight into columns, in table order (a column the part lacks is its
         * default): the rows {@link #next} would give, of the table columns {@code needed} marks (null: all); of a Wide
         * or Compact part only their values are read and decoded; a column not needed is its default, which the query
         * does not look at.
         */
        public ColumnRows nextColumns(int max, boolean[] needed) {
            int n = (int) Math.min(max, left);
            if (n <= 0) {
                throw new java.util.NoSuchElementException();
            }
            try {
                Layout l = part.layout();
                boolean[] read = storedNeeded(l, needed);
                open(read);
                IColumn.Mutable[] stored = Columns.mutable(l.stored(), n);
                if (l.byColumn()) {
                    for (int j = 0; j < stored.length; j++) {
                        if (!read[j]) {
                            continue;
                        }
                        stored[j].readBinary(ins[j], n);
                    }
                } else {
                    for (int r = 0; r < n; r++) {
                        for (IColumn.Mutable c : stored) {
                            c.readBinary(ins[0]);
                        }
                    }
                }
                left -= n;
                IColumn[] raw = Columns.finish(stored);
                if (needed == null && l.map().length == raw.length && isIdentity(l.map())) {
                    return new ColumnRows(raw, n);
                }
                IColumn[] cols = new IColumn[l.table().size()];
                for (int i = 0; i < cols.length; i++) {
                    Column t = l.table().get(i);
                    int j = l.map()[i];
                    cols[i] = j >= 0 && read[j] ? raw[j] : Columns.repeat(t.type(), t.type().defaultValue(), n);
                }
                return new ColumnRows(cols, n);
            } catch (IOException e) {
                throw corrupted();
            }
        }

        private ChException corrupted() {
            close();
            // the message reaches the client: the part, never a server path
            return new ChException(ErrorCode.CORRUPTED_DATA, "Cannot read part " + part.name());
        }

        /** The stored columns to read: those behind a needed table column (every one of a one-file part, which is read whole). */
        private static boolean[] storedNeeded(Layout l, boolean[] needed) {
            boolean[] read = new boolean[l.stored().size()];
            if (!l.byColumn() || needed == null) {
                java.util.Arrays.fill(read, true);
                return read;
            }
            for (int i = 0; i < l.map().length; i++) {
                if (l.map()[i] >= 0 && i < needed.length && needed[i]) {
                    read[l.map()[i]] = true;
                }
            }
            return read;
        }

        private void open() throws IOException {
            open(null);
        }

        /** Opens the files of the stored columns {@code read} marks (null: all) that are not open yet. */
        private void open(boolean[] read) throws IOException {
            Layout l = part.layout();
            if (l.kind() == Kind.COMPACT) {
                openCompact(read);
                return;
            }
            if (l.kind() == Kind.WIDE) {
                List<Column> stored = l.stored();
                if (ins == null) {
                    channels = new FileChannel[stored.size()];
                    ins = new BinaryIn[stored.size()];
                }
                for (int j = 0; j < channels.length; j++) {
                    if (ins[j] == null && (read == null || read[j])) {
                        if (left < part.rowCount()) {
                            throw new IllegalStateException("a column is read from a part after its rows were read without it");
                        }
                        channels[j] = part.file().open(columnFile(stored.get(j).name()));
                        ins[j] = new BinaryIn(Channels.newInputStream(channels[j]));
                    }
                }
                return;
            }
            if (ins == null) {
                channels = new FileChannel[] {part.file().open()};
                channels[0].position(l.dataOffset());
                ins = new BinaryIn[] {new BinaryIn(Channels.newInputStream(channels[0]))};
            }
        }

        /**
         * A Compact part: one channel on data.bin, and for each column to read a cursor from where its marks say it
         * starts to where the next one starts (positional reads, so the cursors do not disturb each other).
         */
        private void openCompact(boolean[] read) throws IOException {
            int width = part.layout().stored().size();
            if (channels == null) {
                channels = new FileChannel[] {part.file().open(COMPACT_DATA_FILE)};
                ins = new BinaryIn[width];
                long[] starts = new long[width + 1];
                try (FileChannel m = part.file().open(COMPACT_MARKS_FILE)) {
                    BinaryIn marks = new BinaryIn(Channels.newInputStream(m));
                    for (int j = 0; j < width; j++) {
                        starts[j] = marks.readLongLE(8);
                        marks.readLongLE(8);
                    }
                }
                starts[width] = channels[0].size();
                compactStarts = starts;
            }
            for (int j = 0; j < width; j++) {
                if (ins[j] == null && (read == null || read[j])) {
                    if (left < part.rowCount()) {
                        throw new IllegalStateException("a column is read from a part after its rows were read without it");
                    }
                    ins[j] = new BinaryIn(new RangeInputStream(channels[0], compactStarts[j], compactStarts[j + 1]));
                }
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
                if (channels != null) {
                    for (FileChannel c : channels) {
                        if (c != null) {
                            c.close();
                        }
                    }
                }
            } catch (IOException ignored) {
                // nothing to do
            } finally {
                part.file().release();
            }
        }
    }

    /** Bytes {@code [from, to)} of a file read by position, so several such streams can share one channel. */
    private static final class RangeInputStream extends java.io.InputStream {
        private final FileChannel channel;
        private long pos;
        private final long end;

        RangeInputStream(FileChannel channel, long from, long to) {
            this.channel = channel;
            this.pos = from;
            this.end = to;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (pos >= end) {
                return -1;
            }
            int n = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(len, end - pos)), pos);
            if (n > 0) {
                pos += n;
            }
            return n;
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
