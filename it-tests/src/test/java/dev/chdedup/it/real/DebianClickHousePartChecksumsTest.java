package dev.chdedup.it.real;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.compress.CompressedBlockInputStream;
import dev.chdedup.stub.compress.HashingBuffer;
import dev.chdedup.stub.types.BinaryIn;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The hash the stub writes into a part's checksums.txt ({@link HashingBuffer}) is the one a real ClickHouse 18.16 stores
 * for the same bytes: every file of a part the real server wrote (count.txt, primary.idx, the marks, the compressed
 * column files) is hashed by the stub and compared with the size and hash the server's own checksums.txt (version 4,
 * compressed) gives it.
 */
class DebianClickHousePartChecksumsTest {
    private static DebianClickHouse clickhouse;

    @BeforeAll
    static void start() throws Exception {
        clickhouse = DebianClickHouse.startOrSkip(1);
    }

    @AfterAll
    static void stop() throws Exception {
        DebianClickHouse.closeAll(clickhouse);
    }

    @Test
    void theStubHashesAFileAsClickHouseDoes() throws Exception {
        clickhouse.query(0, "CREATE TABLE sums (k UInt64, s String) ENGINE = MergeTree ORDER BY k");
        clickhouse.query(0, "INSERT INTO sums SELECT number, toString(number * 7) FROM system.numbers LIMIT 100000");
        Path part = clickhouse.tableData(0, "default", "sums").resolve("all_1_1_0");
        byte[] text = Files.readAllBytes(part.resolve("checksums.txt"));
        String head = "checksums format version: 4\n";
        assertEquals(head, new String(text, 0, head.length(), StandardCharsets.US_ASCII));
        BinaryIn in = new BinaryIn(new CompressedBlockInputStream(new ByteArrayInputStream(Arrays.copyOfRange(text, head.length(), text.length))));
        long files = in.readVarUInt();
        Map<String, long[]> recorded = new LinkedHashMap<>();
        for (long i = 0; i < files; i++) {
            String name = in.readString();
            long size = in.readVarUInt();
            long low = in.readLongLE(8);
            long high = in.readLongLE(8);
            if (in.readByte() != 0) {
                in.readVarUInt();
                in.readLongLE(8);
                in.readLongLE(8);
            }
            recorded.put(name, new long[] {size, low, high});
        }
        assertTrue(recorded.keySet().containsAll(java.util.List.of("count.txt", "primary.idx", "k.bin", "k.mrk", "s.bin", "s.mrk")),
            recorded.keySet().toString());
        for (Map.Entry<String, long[]> f : recorded.entrySet()) {
            byte[] b = Files.readAllBytes(part.resolve(f.getKey()));
            long[] h = HashingBuffer.of(b, 0, b.length);
            assertEquals(f.getValue()[0], b.length, f.getKey() + "'s size");
            assertArrayEquals(new long[] {f.getValue()[1], f.getValue()[2]}, h, f.getKey() + "'s hash (" + b.length + " bytes)");
        }
    }
}
