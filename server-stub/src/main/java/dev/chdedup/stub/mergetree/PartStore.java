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
 * Reads and writes parts on disk, one file per part under the table directory, {@code <part name>.bin}: a header
 * (length-prefixed text: the columns ClickHouse keeps in columns.txt, then the block ids the part was inserted
 * with, one {@code block_id: <id>} line each), then the rows in RowBinary. One file per part keeps an insert to a
 * create, a write and a rename, and a removal to one unlink. A part is written under a temporary name
 * ({@code tmp_...}), optionally fsynced, then renamed to its final name (under the table's parts lock, see
 * {@link MergeTreeData}), so a crash leaves either the whole part or a temporary file that loading removes. The
 * block ids travel inside the part, so a crash between the rename and the deduplication log's record cannot
 * make a retry land twice: loading puts them back into the log.
 */
public final class PartStore {
    public static final String TMP_PREFIX = "tmp_";
    private static final String BLOCK_ID = "block_id: ";

    private PartStore() {
    }

    /** The file extension of a part. */
    public static final String EXT = ".bin";

    /** The file holding part {@code name} under {@code tableDir}. */
    public static Path pathOf(Path tableDir, String name) {
        return tableDir.resolve(name + EXT);
    }

    /** Writes a part under its final name at once (tests and tools; the server goes through {@link MergeTreeData}). */
    public static long write(Path tableDir, MergeTreePartInfo info, List<Column> columns, List<Object[]> rows, boolean fsync)
        throws IOException {
        Written w = writeTemporary(tableDir, "insert_" + info.name(), columns, rows, List.of(), fsync);
        w.publish(info);
        return w.dataBytes();
    }

    /**
     * A part written under its temporary name, not yet visible: {@link #publish} renames it to a part name,
     * {@link #discard()} drops it.
     */
    public record Written(Path tableDir, Path tmp, long dataBytes, List<String> blockIds, boolean fsync) {
        public void publish(MergeTreePartInfo info) throws IOException {
            Path dst = pathOf(tableDir, info.name());
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

        public void discard() {
            try {
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // a leftover temporary file is removed on the next load
            }
        }
    }

    /**
     * Writes a part's file under the temporary name {@code tmp_<tmpName>.bin}, with the block ids it is inserted
     * with (empty for merged and mutated parts).
     */
    public static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, List<Object[]> rows, List<String> blockIds,
                                         boolean fsync) throws IOException {
        Path tmp = tableDir.resolve(TMP_PREFIX + tmpName + EXT);
        StringBuilder header = new StringBuilder("columns format version: 1\n").append(columns.size()).append(" columns:\n");
        for (Column c : columns) {
            header.append('`').append(c.name()).append("` ").append(c.type().name()).append('\n');
        }
        for (String id : blockIds) {
            header.append(BLOCK_ID).append(id).append('\n');
        }
        byte[] head = header.toString().getBytes(StandardCharsets.UTF_8);
        BinaryOut out = new BinaryOut(Math.max(64, head.length + 10 + rows.size() * 16));
        out.writeVarUInt(head.length);
        out.write(head, 0, head.length);
        int headerBytes = out.size();
        for (Object[] r : rows) {
            for (int i = 0; i < columns.size(); i++) {
                columns.get(i).type().writeBinary(r[i], out);
            }
        }
        writeFile(tmp, out.array(), out.size(), fsync);
        return new Written(tableDir, tmp, out.size() - headerBytes, List.copyOf(blockIds), fsync);
    }

    /** Removes part {@code name} from disk (a file, or a directory of an older layout). */
    public static void delete(Path tableDir, String name) throws IOException {
        if (!Files.deleteIfExists(pathOf(tableDir, name))) {
            deleteRecursively(tableDir.resolve(name));
        }
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

    /**
     * Loads the part stored at {@code path} (a part file, or a directory with columns.txt and data.bin from an
     * older layout), converting to {@code columns} by name (missing columns get defaults).
     */
    public static DataPart read(Path path, MergeTreePartInfo info, List<Column> columns) throws IOException {
        List<String> lines;
        byte[] data;
        int offset;
        long count = -1;
        if (Files.isDirectory(path)) {
            lines = Files.readAllLines(path.resolve("columns.txt"), StandardCharsets.UTF_8);
            Path countFile = path.resolve("count.txt");
            count = Files.exists(countFile) ? Long.parseLong(Files.readString(countFile).trim()) : -1;
            data = Files.readAllBytes(path.resolve("data.bin"));
            offset = 0;
        } else {
            data = Files.readAllBytes(path);
            BinaryIn head = new BinaryIn(data);
            int len = (int) head.readVarUInt();
            offset = (int) head.position() + len;
            lines = List.of(new String(data, (int) head.position(), len, StandardCharsets.UTF_8).split("\n"));
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
                continue;
            }
            int end = l.indexOf('`', 1);
            stored.add(new Column(l.substring(1, end), DataTypes.parse(l.substring(end + 2))));
        }
        BinaryIn in = new BinaryIn(java.util.Arrays.copyOfRange(data, offset, data.length));
        int[] map = new int[columns.size()];
        for (int i = 0; i < columns.size(); i++) {
            map[i] = -1;
            for (int j = 0; j < stored.size(); j++) {
                if (stored.get(j).name().equals(columns.get(i).name())) {
                    map[i] = j;
                }
            }
        }
        List<Object[]> rows = new ArrayList<>(count >= 0 ? (int) count : 16);
        while (count >= 0 ? rows.size() < count : !in.atEnd()) {
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
            throw new ChException(ErrorCode.CORRUPTED_DATA, "Part " + path + " has trailing bytes");
        }
        long mtime = Files.getLastModifiedTime(path).toMillis() / 1000;
        return new DataPart(info, rows, mtime, data.length - offset, List.copyOf(blockIds));
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
