package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads and writes parts on disk, one directory per part under the table directory: {@code columns.txt}
 * (ClickHouse's text header), {@code count.txt}, and {@code data.bin} with the rows in RowBinary. A part is
 * written under {@code tmp_insert_<name>}, optionally fsynced, then renamed to its name, so a crash leaves either
 * the whole part or a temporary directory that loading removes.
 */
public final class PartStore {
    public static final String TMP_PREFIX = "tmp_";

    private PartStore() {
    }

    public static long write(Path tableDir, MergeTreePartInfo info, List<Column> columns, List<Object[]> rows, boolean fsync)
        throws IOException {
        Path tmp = tableDir.resolve(TMP_PREFIX + "insert_" + info.name());
        Path dst = tableDir.resolve(info.name());
        deleteRecursively(tmp);
        Files.createDirectories(tmp);
        StringBuilder header = new StringBuilder("columns format version: 1\n").append(columns.size()).append(" columns:\n");
        for (Column c : columns) {
            header.append('`').append(c.name()).append("` ").append(c.type().name()).append('\n');
        }
        writeFile(tmp.resolve("columns.txt"), header.toString().getBytes(StandardCharsets.UTF_8), fsync);
        writeFile(tmp.resolve("count.txt"), Long.toString(rows.size()).getBytes(StandardCharsets.UTF_8), fsync);
        BinaryOut out = new BinaryOut(Math.max(64, rows.size() * 16));
        for (Object[] r : rows) {
            for (int i = 0; i < columns.size(); i++) {
                columns.get(i).type().writeBinary(r[i], out);
            }
        }
        writeFile(tmp.resolve("data.bin"), out.array(), out.size(), fsync);
        try {
            Files.move(tmp, dst, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, dst);
        }
        if (fsync) {
            fsyncDir(tableDir);
        }
        return out.size();
    }

    private static void writeFile(Path p, byte[] data, boolean fsync) throws IOException {
        writeFile(p, data, data.length, fsync);
    }

    private static void writeFile(Path p, byte[] data, int len, boolean fsync) throws IOException {
        try (FileChannel ch = FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
             OutputStream os = java.nio.channels.Channels.newOutputStream(ch)) {
            os.write(data, 0, len);
            os.flush();
            if (fsync) {
                ch.force(true);
            }
        }
    }

    static void fsyncDir(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException ignored) {
            // directories cannot be opened for fsync on every platform
        }
    }

    /** Loads the part in {@code dir}, converting to {@code columns} by name (missing columns get defaults). */
    public static DataPart read(Path dir, MergeTreePartInfo info, List<Column> columns) throws IOException {
        List<String> lines = Files.readAllLines(dir.resolve("columns.txt"), StandardCharsets.UTF_8);
        List<Column> stored = new ArrayList<>();
        for (int i = 2; i < lines.size(); i++) {
            String l = lines.get(i);
            if (l.isEmpty()) {
                continue;
            }
            int end = l.indexOf('`', 1);
            stored.add(new Column(l.substring(1, end), DataTypes.parse(l.substring(end + 2))));
        }
        long count = Long.parseLong(Files.readString(dir.resolve("count.txt")).trim());
        byte[] data = Files.readAllBytes(dir.resolve("data.bin"));
        BinaryIn in = new BinaryIn(data);
        int[] map = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            map[i] = -1;
            for (int j = 0; j < stored.size(); j++) {
                if (stored.get(j).name().equals(columns.get(i).name())) {
                    map[i] = j;
                }
            }
        }
        List<Object[]> rows = new ArrayList<>((int) count);
        for (long r = 0; r < count; r++) {
            Object[] raw = new Object[stored.size()];
            for (int j = 0; j < stored.size(); j++) {
                raw[j] = stored.get(j).type().readBinary(in);
            }
            Object[] row = new Object[columns.size()];
            for (int i = 0; i < columns.size(); i++) {
                DataType t = columns.get(i).type();
                row[i] = map[i] < 0 ? t.defaultValue() : raw[map[i]];
            }
            rows.add(row);
        }
        if (!in.atEnd()) {
            throw new ChException(ErrorCode.CORRUPTED_DATA, "Part " + dir + " has trailing bytes in data.bin");
        }
        long mtime = Files.getLastModifiedTime(dir).toMillis() / 1000;
        return new DataPart(info, rows, mtime, data.length);
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
