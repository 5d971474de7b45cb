package dev.chdedup.stub.storages;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The Log family (Log, TinyLog, StripeLog): rows kept on disk in insertion order, surviving a restart. Each insert
 * is appended to {@code data.bin} in the table's data directory as one record (length, CRC32C, row count and the
 * rows in RowBinary) and fsynced before the insert is acknowledged; on load, a record cut short by a crash or failing
 * its checksum ends the file there (it is truncated back), so an insert is kept whole or not at all. The rows are
 * also held in memory for reading. ClickHouse's three engines differ in file layout only, which a client never sees.
 */
public final class StorageLog extends ChunkedStorage {
    static final String DATA_FILE = "data.bin";
    /** Bytes before a record's payload: int32 length, int32 CRC32C of the payload. */
    private static final int HEADER = 8;

    private final Path dir;

    StorageLog(String engine, List<TableColumn> tableColumns, Path dir, String createSql) throws IOException {
        super(engine, tableColumns, createSql);
        this.dir = dir;
        Files.createDirectories(dir);
        load();
    }

    private void load() throws IOException {
        Path file = dir.resolve(DATA_FILE);
        if (!Files.exists(file)) {
            return;
        }
        byte[] data = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        List<List<Object[]>> loaded = new ArrayList<>();
        int good = 0;
        while (b.remaining() >= HEADER) {
            int len = b.getInt();
            int crc = b.getInt();
            if (len < 0 || len > b.remaining()) {
                break;
            }
            CRC32C c = new CRC32C();
            c.update(data, b.position(), len);
            if ((int) c.getValue() != crc) {
                break;
            }
            loaded.add(decode(data, b.position(), len));
            b.position(b.position() + len);
            good = b.position();
        }
        if (good < data.length) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(good);
                ch.force(true);
            }
        }
        setChunks(loaded);
    }

    private List<Object[]> decode(byte[] data, int off, int len) throws IOException {
        byte[] payload = java.util.Arrays.copyOfRange(data, off, off + len);
        BinaryIn in = new BinaryIn(payload);
        long rows = in.readVarUInt();
        List<Object[]> out = new ArrayList<>();
        for (long r = 0; r < rows; r++) {
            Object[] row = new Object[columns.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = columns.get(i).type().readBinary(in);
            }
            out.add(row);
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public synchronized void write(List<Object[]> rows) throws IOException {
        if (rows.isEmpty()) {
            return;
        }
        BinaryOut payload = new BinaryOut(1024);
        payload.writeVarUInt(rows.size());
        for (Object[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                columns.get(i).type().writeBinary(r[i], payload);
            }
        }
        if (payload.size() > Integer.MAX_VALUE - HEADER) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "An insert into a " + engine() + " table is too large");
        }
        CRC32C c = new CRC32C();
        c.update(payload.array(), 0, payload.size());
        ByteBuffer head = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        head.putInt(payload.size()).putInt((int) c.getValue()).flip();
        try (FileChannel ch = FileChannel.open(dir.resolve(DATA_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.APPEND)) {
            long start = ch.size();
            try {
                ByteBuffer[] parts = {head, ByteBuffer.wrap(payload.array(), 0, payload.size())};
                while (parts[1].hasRemaining()) {
                    ch.write(parts);
                }
                ch.force(true);
            } catch (IOException e) {
                ch.truncate(start);
                throw e;
            }
        }
        appendChunk(rows);
    }

    @Override
    public synchronized void truncate() throws IOException {
        Path file = dir.resolve(DATA_FILE);
        if (Files.exists(file)) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.truncate(0);
                ch.force(true);
            }
        }
        setChunks(List.of());
    }

    @Override
    public synchronized void drop() throws IOException {
        setChunks(List.of());
        Files.deleteIfExists(dir.resolve(DATA_FILE));
        Files.deleteIfExists(dir);
    }
}
