package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.common.FileNames;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
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
    public static IMergeTreeDataPart read(Path path, MergeTreePartInfo info, List<Column> columns) throws IOException {
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
