package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.common.FileNames;
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
 * Reads and writes parts on disk as ClickHouse lays out a Wide part: a directory per part under the table directory,
 * named as the part, holding {@code columns.txt} (the columns, ClickHouse's text), {@code count.txt} (the row count),
 * one {@code <column>.bin} per column (its values one after another, uncompressed, in their binary form: for
 * numbers, dates and strings what ClickHouse's column files hold once decompressed), {@code block_ids.txt} (the
 * block ids the part was inserted with, one {@code block_id: <id>} line each, when it has any; the stub's own file) and
 * {@code checksums.txt} (each file's size and CityHash128, in the text form of ClickHouse's version 2). Column file
 * names are escaped as ClickHouse escapes them ({@link FileNames#escapeForFileName}). Parts are written and read as
 * streams, a buffer per column: memory never holds a part's rows. A part is written under a temporary name
 * ({@code tmp_...}), optionally fsynced, then renamed to its final name (under the table's parts lock, see
 * {@link MergeTreeData}), so a crash leaves either the whole part or a temporary directory that loading removes. The
 * block ids travel inside the part, so a crash between the rename and the deduplication log's record cannot make a
 * retry land twice: loading puts them back into the log. Parts of the stub's earlier layouts (one file
 * {@code <name>.bin}: a header, then the rows in RowBinary; a directory with {@code data.bin}) are still read.
 */
public final class PartStore {
    public static final String TMP_PREFIX = "tmp_";
    /** The file extension of a part of the earlier one-file layout, and of a column file. */
    public static final String EXT = ".bin";
    static final String COLUMNS_FILE = "columns.txt";
    static final String COUNT_FILE = "count.txt";
    static final String CHECKSUMS_FILE = "checksums.txt";
    static final String BLOCK_IDS_FILE = "block_ids.txt";
    private static final String BLOCK_ID = "block_id: ";
    private static final String ROWS = "rows: ";
    private static final int WRITE_BUFFER = 1 << 16;
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
            FileChannel[] files = new FileChannel[width];
            BinaryOut[] bufs = new BinaryOut[width];
            long count = 0;
            long bytes = 0;
            Checksums sums = new Checksums();
            boolean[] drained = new boolean[width];
            try {
                for (int c = 0; c < width; c++) {
                    files[c] = create(tmp.resolve(columnFile(columns.get(c).name())));
                    bufs[c] = new BinaryOut(WRITE_BUFFER + 1024);
                }
                while (rows.hasNext()) {
                    Object[] r = rows.next();
                    for (int c = 0; c < width; c++) {
                        columns.get(c).type().writeBinary(r[c], bufs[c]);
                        if (bufs[c].size() >= WRITE_BUFFER) {
                            bytes += drain(files[c], bufs[c]);
                            drained[c] = true;
                        }
                    }
                    count++;
                }
                for (int c = 0; c < width; c++) {
                    if (!drained[c]) {
                        sums.add(columnFile(columns.get(c).name()), bufs[c].array(), bufs[c].size());
                    }
                    bytes += drain(files[c], bufs[c]);
                    if (fsync) {
                        files[c].force(true);
                    }
                }
            } finally {
                for (FileChannel f : files) {
                    if (f != null) {
                        f.close();
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

    /** {@link #writeTemporary(Path, String, List, Iterator, List, boolean)} of columnar rows: each column's file in one go. */
    public static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, ColumnRows rows, List<String> blockIds,
                                         boolean fsync) throws IOException {
        IColumn[] data = rows.columns();
        if (data.length != columns.size()) {
            throw new IllegalArgumentException(data.length + " columns for a part of " + columns.size());
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
                    boolean drained = false;
                    for (int r = 0; r < n; r++) {
                        col.writeBinary(r, buf);
                        if (buf.size() >= WRITE_BUFFER) {
                            bytes += drain(ch, buf);
                            drained = true;
                        }
                    }
                    if (!drained) {
                        sums.add(name, buf.array(), buf.size());
                    }
                    bytes += drain(ch, buf);
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
        writeSmall(tmp, COLUMNS_FILE, cols.toString(), fsync, sums);
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
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
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
     * A part's checksums.txt, ClickHouse's text form of version 2: the file count, then each file's name, size and
     * CityHash128 (two decimal halves), uncompressed. The hashes of what was written from memory are taken there; the
     * other files (column files larger than a buffer) are read back.
     */
    static final class Checksums {
        private final java.util.TreeMap<String, String> lines = new java.util.TreeMap<>();

        void add(String name, byte[] b, int n) {
            long[] h = dev.chdedup.stub.compress.CityHash128.hash128(b, 0, n);
            lines.put(name, name + "\n\tsize: " + n + "\n\thash: " + Long.toUnsignedString(h[0]) + ' ' + Long.toUnsignedString(h[1])
                + "\n\tcompressed: 0\n");
        }

        String text(Path partDir) throws IOException {
            for (Path f : files(partDir)) {
                String name = f.getFileName().toString();
                if (!name.equals(CHECKSUMS_FILE) && !lines.containsKey(name)) {
                    byte[] b = Files.readAllBytes(f);
                    add(name, b, b.length);
                }
            }
            StringBuilder sb = new StringBuilder("checksums format version: 2\n").append(lines.size()).append(" files:\n");
            lines.values().forEach(sb::append);
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

    /**
     * Where a part's rows are on disk and how to read them as table rows: the part's directory (Wide) or the data file
     * of an earlier layout and the offset of its first row, the columns stored there and, for each table column, the
     * stored column it comes from (-1: missing, read as the default).
     */
    public record Layout(Path file, long dataOffset, List<Column> stored, List<Column> table, int[] map, boolean wide) {
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
            return new Layout(file, dataOffset, stored, table, map, Files.isDirectory(file));
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
                    raw[j] = l.stored().get(j).type().readBinary(l.wide() ? ins[j] : ins[0]);
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
         * default); the rows {@link #next} would give. A Wide part's columns are read each from its own file.
         */
        public ColumnRows nextColumns(int max) {
            return nextColumns(max, null);
        }

        /**
         * {@link #nextColumns(int)} of the table columns {@code needed} marks (null: all): of a Wide part only their
         * files are opened and decoded; a column not needed is its default, which the query does not look at.
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
                if (l.wide()) {
                    for (int j = 0; j < stored.length; j++) {
                        if (!read[j]) {
                            continue;
                        }
                        IColumn.Mutable c = stored[j];
                        BinaryIn in = ins[j];
                        for (int r = 0; r < n; r++) {
                            c.readBinary(in);
                        }
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
            for (int i = 0; i < l.map().length; i++) {
                if (l.map()[i] >= 0 && (needed == null || i < needed.length && needed[i] || !l.wide())) {
                    read[l.map()[i]] = true;
                }
            }
            if (!l.wide() || needed == null) {
                java.util.Arrays.fill(read, true);
            }
            return read;
        }

        private void open() throws IOException {
            open(null);
        }

        /** Opens the files of the stored columns {@code read} marks (null: all) that are not open yet. */
        private void open(boolean[] read) throws IOException {
            Layout l = part.layout();
            if (l.wide()) {
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
