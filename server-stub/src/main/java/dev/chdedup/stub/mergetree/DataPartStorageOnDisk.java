package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.common.FileNames;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A part on disk, laid out as ClickHouse lays it out: a directory per part under the table directory, named
 * as the part, holding {@code columns.txt} (the columns, ClickHouse's text), {@code count.txt} (the row count),
 * {@code checksums.txt} (each file's size and hash as ClickHouse computes it, in the text form of its version 2) and the
 * stub's own {@code block_ids.txt} (the block ids the part was inserted with, one {@code block_id: <id>} line each,
 * when it has any). The values are uncompressed, in their binary form (for numbers, dates and strings what
 * ClickHouse's column files hold once decompressed):
 * <ul>
 *   <li>Wide, a part of more than {@link MergeTreeDataPartWriter#COMPACT_MAX_BYTES} (or of the table's
 *   {@code min_bytes_for_wide_part}): one {@code <column>.bin} per column, its name escaped as ClickHouse escapes file
 *   names ({@link FileNames#escapeForFileName}), and its marks {@code <column>.mrk2}, where each granule starts;</li>
 *   <li>Compact, a smaller part: {@code data.bin}, the columns one after another (one granule), and {@code data.mrk3},
 *   where each starts.</li>
 * </ul>
 * Both have the primary index {@code primary.idx} when the primary key starts with a column ({@link PrimaryIndex}).
 * {@link MergeTreeDataPartWriter} writes a part, {@link MergeTreeDataPartReader} reads its rows; this class loads a
 * part's small files ({@link #read}), packs a part for another replica and unpacks what one sent, links, moves and
 * removes part directories. Parts of the stub's earlier layouts (one file {@code <name>.bin}: a header, then the rows
 * in RowBinary; a directory with {@code data.bin} and no checksums) are still read. As ClickHouse's
 * {@code DataPartStorageOnDiskFull}.
 */
public final class DataPartStorageOnDisk {
    public static final String TMP_PREFIX = "tmp_";
    /** The file extension of a part of the earlier one-file layout, and of a column file. */
    public static final String EXT = ".bin";
    static final String COLUMNS_FILE = "columns.txt";
    static final String COUNT_FILE = "count.txt";
    static final String CHECKSUMS_FILE = "checksums.txt";
    static final String BLOCK_IDS_FILE = "block_ids.txt";
    static final String COMPACT_DATA_FILE = "data.bin";
    static final String COMPACT_MARKS_FILE = "data.mrk3";
    /** A line of block_ids.txt (and of the one-file layout's header): one block id. */
    static final String BLOCK_ID = "block_id: ";
    /** A line of the one-file layout's header: the row count. */
    private static final String ROWS = "rows: ";
    /** How a packed part (a directory sent as one body, {@link #bytesOf}) starts: no one-file part starts with a zero byte. */
    private static final byte[] PACKED_MAGIC = "\0MergeTreeDataPartWide 1\n".getBytes(StandardCharsets.US_ASCII);

    private DataPartStorageOnDisk() {
    }

    /** Where part {@code name} is written under {@code tableDir}: its directory. */
    public static Path pathOf(Path tableDir, String name) {
        return tableDir.resolve(name);
    }

    /** The file name of a column's data file. */
    static String columnFile(String column) {
        return FileNames.escapeForFileName(column) + EXT;
    }

    /** The files of a part directory, by name. */
    static List<Path> files(Path partDir) throws IOException {
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
     * stored column it comes from (-1: missing, read as its DEFAULT expression, else the type's default). A part
     * written before an ALTER has the table's columns as they were then: a column added since is missing, a column
     * whose type changed is converted as it is read, as ClickHouse reads such parts before a mutation rewrites them.
     */
    public record Layout(Path file, long dataOffset, List<Column> stored, List<Column> table, int[] map, Kind kind,
                         AlterConversions defaults) {
        /** Whether each column is read from a place of its own (a Wide or Compact part), not row after row. */
        public boolean byColumn() {
            return kind != Kind.ONE_FILE;
        }

        static Layout of(Path file, long dataOffset, List<Column> stored, List<Column> table) {
            return of(file, dataOffset, stored, table, AlterConversions.NONE);
        }

        static Layout of(Path file, long dataOffset, List<Column> stored, List<Column> table, AlterConversions defaults) {
            int[] map = new int[table.size()];
            for (int i = 0; i < table.size(); i++) {
                map[i] = -1;
                for (int j = 0; j < stored.size(); j++) {
                    if (stored.get(j).name().equals(table.get(i).name())) {
                        map[i] = j;
                    }
                }
                String old = defaults.renamedFrom().get(table.get(i).name());
                for (int j = 0; j < stored.size() && map[i] < 0 && old != null; j++) {
                    if (stored.get(j).name().equals(old)) {
                        map[i] = j;
                    }
                }
            }
            Kind kind = !Files.isDirectory(file) ? Kind.ONE_FILE : Files.exists(file.resolve(COMPACT_MARKS_FILE)) ? Kind.COMPACT : Kind.WIDE;
            return new Layout(file, dataOffset, stored, table, map, kind, defaults);
        }

        /**
         * Whether a row of this part needs more than picking stored values: a missing column with a DEFAULT
         * expression, or a stored column of another type than the table's.
         */
        public boolean converts() {
            for (int i = 0; i < map.length; i++) {
                if (map[i] < 0 ? defaults.of(i) != null : !stored.get(map[i]).type().equals(table.get(i).type())) {
                    return true;
                }
            }
            return false;
        }

        /** A row of the stored columns as a table row: values converted to the table's types, missing ones their defaults. */
        public Object[] toTable(Object[] raw) {
            Object[] row = new Object[table.size()];
            for (int i = 0; i < row.length; i++) {
                int j = map[i];
                if (j >= 0) {
                    DataType from = stored.get(j).type();
                    DataType to = table.get(i).type();
                    row[i] = raw[j] == null || from.equals(to) ? raw[j] : to.convert(raw[j], from);
                } else {
                    row[i] = table.get(i).type().defaultValue();
                }
            }
            for (int i = 0; i < row.length; i++) { // in table order, so a default may read columns before it
                if (map[i] < 0 && defaults.of(i) != null) {
                    row[i] = defaults.value(i, row);
                }
            }
            return row;
        }
    }

    /**
     * How a part written before an ALTER reads as the table is now (ClickHouse's AlterConversions): the DEFAULT and
     * MATERIALIZED expressions of the table's stored columns, compiled over the stored columns, for a column the part
     * lacks (added since), and the columns renamed since (new name to the name the part may still have, until the
     * RENAME's mutation rewrites it).
     */
    public record AlterConversions(List<dev.chdedup.stub.exec.Evaluator> expressions, List<Column> table, java.util.Map<String, String> renamedFrom) {
        public static final AlterConversions NONE = new AlterConversions(List.of(), List.of(), java.util.Map.of());

        dev.chdedup.stub.exec.Evaluator of(int column) {
            return column < expressions.size() ? expressions.get(column) : null;
        }

        Object value(int column, Object[] row) {
            dev.chdedup.stub.exec.Evaluator e = expressions.get(column);
            Object v = e.eval(row);
            DataType to = table.get(column).type();
            if (v == null) {
                return to.isNullable() ? null : to.defaultValue();
            }
            return e.type().equals(to) ? v : to.convert(v, e.type());
        }
    }

    /**
     * Reads the small files of the part stored at {@code path} (its directory; or a part file, or a directory with
     * columns.txt and data.bin, of an earlier layout) as table {@code columns} (missing columns get defaults); counts the
     * rows of files written before the header held the count.
     */
    public static IMergeTreeDataPart read(Path path, MergeTreePartInfo info, List<Column> columns) throws IOException {
        return read(path, info, columns, AlterConversions.NONE);
    }

    /** {@link #read(Path, MergeTreePartInfo, List)}, a missing column read as its expression of {@code defaults}. */
    public static IMergeTreeDataPart read(Path path, MergeTreePartInfo info, List<Column> columns, AlterConversions defaults) throws IOException {
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
        Layout layout = Layout.of(dataFile, offset, stored, columns, defaults);
        if (count < 0) {
            count = countRows(layout);
        }
        long mtime = Files.getLastModifiedTime(path).toMillis() / 1000;
        return new IMergeTreeDataPart(info, count, mtime, bytes, List.copyOf(blockIds), layout, path);
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
