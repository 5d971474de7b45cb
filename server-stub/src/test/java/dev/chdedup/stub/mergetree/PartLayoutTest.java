package dev.chdedup.stub.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.compress.HashingBuffer;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.server.StubServer;
import dev.chdedup.stub.types.BinaryOut;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A part on disk is laid out as ClickHouse lays out its parts: a directory with columns.txt, count.txt,
 * checksums.txt (each file's size and hash, as ClickHouse computes it) and a file per column under its escaped name
 * (Wide) or the columns in data.bin with their marks (Compact); a part of the
 * earlier one-file layout still loads, is read and is merged into the new layout; a part another replica sends
 * cannot name a file outside its directory.
 */
class PartLayoutTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private String query(StubServer s, String sql) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body().trim();
    }

    @Test
    void aLargePartIsADirectoryOfColumnFiles(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE t (k UInt64, `s s` String, n Nested(a UInt8)) ENGINE = MergeTree ORDER BY k"
                + " SETTINGS non_replicated_deduplication_window = 10");
            query(s, "INSERT INTO t SELECT 200000 - number, toString(number % 10), [number % 7] FROM numbers(200000) SETTINGS insert_deduplication_token = 'big'");
            Path part = data.resolve("data/default/t/all_1_1_0");
            assertTrue(Files.isDirectory(part), "the part's directory");
            try (Stream<Path> files = Files.list(part)) {
                assertEquals(List.of("block_ids.txt", "checksums.txt", "columns.txt", "count.txt", "k.bin", "k.mrk2", "n%2Ea.bin", "n%2Ea.mrk2",
                        "primary.idx", "s%20s.bin", "s%20s.mrk2"),
                    files.map(f -> f.getFileName().toString()).sorted().toList());
            }
            assertEquals("columns format version: 1\n3 columns:\n`k` UInt64\n`s s` String\n`n.a` Array(UInt8)\n",
                Files.readString(part.resolve("columns.txt")));
            assertEquals("200000", Files.readString(part.resolve("count.txt")));
            byte[] k = Files.readAllBytes(part.resolve("k.bin"));
            assertEquals(200000 * 8, k.length);
            assertEquals(1, k[0], "the key column in key order: 1, 2, ...");
            assertEquals(2, k[8]);
            assertTrue(Files.readString(part.resolve("block_ids.txt")).startsWith("block_id: all_"), "the block id stays with the part");
            checkChecksums(part, List.of("block_ids.txt", "count.txt", "k.bin", "k.mrk2", "n%2Ea.bin", "n%2Ea.mrk2", "primary.idx", "s%20s.bin",
                "s%20s.mrk2"));
            assertEquals("1\t9\t[2]\n2\t8\t[1]", query(s, "SELECT * FROM t ORDER BY k LIMIT 2"));
        }
    }

    @Test
    void aSmallPartIsCompact(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE t (k UInt64, s String) ENGINE = MergeTree ORDER BY k");
            query(s, "INSERT INTO t VALUES (2, 'bb'), (1, 'a')");
            Path part = data.resolve("data/default/t/all_1_1_0");
            try (Stream<Path> files = Files.list(part)) {
                assertEquals(List.of("checksums.txt", "columns.txt", "count.txt", "data.bin", "data.mrk3", "primary.idx"),
                    files.map(f -> f.getFileName().toString()).sorted().toList(), "no block ids: the table keeps no deduplication log");
            }
            BinaryOut expected = new BinaryOut(64);
            expected.writeLongLE(1, 8);
            expected.writeLongLE(2, 8);
            expected.write(new byte[] {1, 'a', 2, 'b', 'b'}, 0, 5);
            assertArrayEquals(expected.toByteArray(), Files.readAllBytes(part.resolve("data.bin")), "k's values, then s's");
            BinaryOut marks = new BinaryOut(64);
            for (long v : new long[] {0, 0, 16, 0, 2}) {
                marks.writeLongLE(v, 8);
            }
            assertArrayEquals(marks.toByteArray(), Files.readAllBytes(part.resolve("data.mrk3")), "each column's start, then the rows");
            checkChecksums(part, List.of("count.txt", "data.bin", "data.mrk3", "primary.idx"));
            assertEquals("1\ta\n2\tbb", query(s, "SELECT * FROM t ORDER BY k"));
            assertEquals("bb", query(s, "SELECT s FROM t WHERE k = 2"));
            query(s, "INSERT INTO t VALUES (3, 'c')");
            query(s, "OPTIMIZE TABLE t FINAL");
            assertEquals("1\ta\n2\tbb\n3\tc", query(s, "SELECT * FROM t ORDER BY k"));
            assertTrue(Files.exists(data.resolve("data/default/t/all_1_2_1/data.mrk3")), "a small merged part is Compact too");
        }
    }

    private static void checkChecksums(Path part, List<String> files) throws Exception {
        String checksums = Files.readString(part.resolve("checksums.txt"));
        assertTrue(checksums.startsWith("checksums format version: 2\n" + files.size() + " files:\n"), checksums);
        for (String f : files) {
            byte[] b = Files.readAllBytes(part.resolve(f));
            long[] h = HashingBuffer.of(b, 0, b.length);
            assertTrue(checksums.contains(f + "\n\tsize: " + b.length + "\n\thash: " + Long.toUnsignedString(h[0]) + " "
                + Long.toUnsignedString(h[1]) + "\n\tcompressed: 0\n"), f + " in " + checksums);
        }
    }

    @Test
    void aPartOfTheOneFileLayoutIsReadAndMergedIntoTheNewLayout(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE t (k UInt64, s String) ENGINE = MergeTree ORDER BY k");
            query(s, "INSERT INTO t VALUES (3, 'c')");
        }
        // all_5_5_0 as the earlier build wrote it: a header (length-prefixed), then the rows in RowBinary
        Path table = data.resolve("data/default/t");
        String header = "columns format version: 1\n2 columns:\n`k` UInt64\n`s` String\nrows: 0000000000000000002\nblock_id: all_1_2\n";
        BinaryOut old = new BinaryOut(64);
        old.writeVarUInt(header.length());
        old.write(header.getBytes(StandardCharsets.UTF_8), 0, header.length());
        old.writeLongLE(1, 8);
        old.writeString("a");
        old.writeLongLE(2, 8);
        old.writeString("b");
        Files.write(table.resolve("all_5_5_0.bin"), old.toByteArray());
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            assertEquals("1\ta\n2\tb\n3\tc", query(s, "SELECT * FROM t ORDER BY k"));
            query(s, "OPTIMIZE TABLE t FINAL");
            assertEquals("all_1_5_1", query(s, "SELECT name FROM system.parts WHERE table = 't' AND active"));
            assertEquals("1\ta\n2\tb\n3\tc", query(s, "SELECT * FROM t ORDER BY k"));
            assertTrue(Files.isDirectory(table.resolve("all_1_5_1")), "the merged part is a directory");
        }
    }

    @Test
    void aSentPartCannotWriteOutsideItsDirectory(@TempDir Path data) throws Exception {
        Path table = Files.createDirectories(data.resolve("t"));
        Path part = Files.createDirectory(table.resolve("all_1_1_0"));
        Files.writeString(part.resolve("count.txt"), "1");
        byte[] good = DataPartStorageOnDisk.bytesOf(part);
        String packed = new String(good, StandardCharsets.ISO_8859_1).replace("count.txt", "../../x.t");
        ChException e = assertThrows(ChException.class,
            () -> DataPartStorageOnDisk.writeFetched(table, "fetch_all_1_1_0", packed.getBytes(StandardCharsets.ISO_8859_1)));
        assertTrue(e.getMessage().contains("../../x.t"), e.getMessage());
        assertFalse(Files.exists(data.resolve("x.t")) || Files.exists(data.getParent().resolve("x.t")));
        try (Stream<Path> files = Files.list(table)) {
            assertEquals(List.of("all_1_1_0"), files.map(f -> f.getFileName().toString()).toList(), "nothing of the refused part is left");
        }
        Path fetched = DataPartStorageOnDisk.writeFetched(table, "fetch_ok", good);
        assertEquals("1", Files.readString(fetched.resolve("count.txt")));
        assertArrayEquals(good, DataPartStorageOnDisk.bytesOf(fetched), "a part packs to the same body wherever it is");
    }

    @Test
    void aQueryReadsOnlyTheColumnsItNames(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE t (k UInt64, s String, j Tuple(a UInt8, b String)) ENGINE = MergeTree ORDER BY k");
            query(s, "INSERT INTO t SELECT number + 1, 'abc', (number % 100, 'x') FROM numbers(200000)"); // a Wide part
            // the s column's file is gone: a query that reads it fails, the others never open it
            Files.delete(data.resolve("data/default/t/all_1_1_0/s.bin"));
            assertEquals("20000100000", query(s, "SELECT sum(k) FROM t"));
            assertEquals("200000", query(s, "SELECT count() FROM t"));
            assertEquals("2\t1", query(s, "SELECT t.k, tupleElement(j, 1) FROM t AS t WHERE k = 2"));
            assertEquals("1\n2", query(s, "SELECT k FROM t ORDER BY k LIMIT 2"));
            for (String reads : List.of("SELECT * FROM t", "SELECT s FROM t", "SELECT k FROM t WHERE s = 'a'", "SELECT max(length(t.s)) FROM t AS t",
                "SELECT k FROM t WHERE k IN (SELECT 1)")) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/"))
                    .POST(HttpRequest.BodyPublishers.ofString(reads)).build(), HttpResponse.BodyHandlers.ofString());
                assertTrue(r.statusCode() != 200 && r.body().contains("Cannot read part all_1_1_0"), reads + " reads s: " + r.body());
            }
        }
    }
}
