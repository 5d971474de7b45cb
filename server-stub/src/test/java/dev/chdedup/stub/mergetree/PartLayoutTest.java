package dev.chdedup.stub.mergetree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.compress.CityHash128;
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
 * A part on disk is laid out as ClickHouse lays out a Wide part: a directory with columns.txt, count.txt,
 * checksums.txt (each file's size and CityHash128) and a file per column under its escaped name; a part of the
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
    void aPartIsADirectoryOfColumnFiles(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE t (k UInt64, `s s` String, n Nested(a UInt8)) ENGINE = MergeTree ORDER BY k"
                + " SETTINGS non_replicated_deduplication_window = 10");
            query(s, "INSERT INTO t VALUES (2, 'bb', [7]), (1, 'a', [])");
            Path part = data.resolve("data/default/t/all_1_1_0");
            assertTrue(Files.isDirectory(part), "the part's directory");
            try (Stream<Path> files = Files.list(part)) {
                assertEquals(List.of("block_ids.txt", "checksums.txt", "columns.txt", "count.txt", "k.bin", "n%2Ea.bin", "s%20s.bin"),
                    files.map(f -> f.getFileName().toString()).sorted().toList());
            }
            assertEquals("columns format version: 1\n3 columns:\n`k` UInt64\n`s s` String\n`n.a` Array(UInt8)\n",
                Files.readString(part.resolve("columns.txt")));
            assertEquals("2", Files.readString(part.resolve("count.txt")));
            BinaryOut k = new BinaryOut(16);
            k.writeLongLE(1, 8);
            k.writeLongLE(2, 8);
            assertArrayEquals(k.toByteArray(), Files.readAllBytes(part.resolve("k.bin")), "the key column in key order");
            assertArrayEquals(new byte[] {1, 'a', 2, 'b', 'b'}, Files.readAllBytes(part.resolve("s%20s.bin")));
            assertTrue(Files.readString(part.resolve("block_ids.txt")).startsWith("block_id: all_"), "the block id stays with the part");
            String checksums = Files.readString(part.resolve("checksums.txt"));
            assertTrue(checksums.startsWith("checksums format version: 2\n6 files:\n"), checksums);
            for (String f : List.of("block_ids.txt", "columns.txt", "count.txt", "k.bin", "n%2Ea.bin", "s%20s.bin")) {
                byte[] b = Files.readAllBytes(part.resolve(f));
                long[] h = CityHash128.hash128(b);
                assertTrue(checksums.contains(f + "\n\tsize: " + b.length + "\n\thash: " + Long.toUnsignedString(h[0]) + " "
                    + Long.toUnsignedString(h[1]) + "\n\tcompressed: 0\n"), f + " in " + checksums);
            }
            assertEquals("1\ta\t[]\n2\tbb\t[7]", query(s, "SELECT * FROM t ORDER BY k"));
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
        byte[] good = PartStore.bytesOf(part);
        String packed = new String(good, StandardCharsets.ISO_8859_1).replace("count.txt", "../../x.t");
        ChException e = assertThrows(ChException.class,
            () -> PartStore.writeFetched(table, "fetch_all_1_1_0", packed.getBytes(StandardCharsets.ISO_8859_1)));
        assertTrue(e.getMessage().contains("../../x.t"), e.getMessage());
        assertFalse(Files.exists(data.resolve("x.t")) || Files.exists(data.getParent().resolve("x.t")));
        try (Stream<Path> files = Files.list(table)) {
            assertEquals(List.of("all_1_1_0"), files.map(f -> f.getFileName().toString()).toList(), "nothing of the refused part is left");
        }
        Path fetched = PartStore.writeFetched(table, "fetch_ok", good);
        assertEquals("1", Files.readString(fetched.resolve("count.txt")));
        assertArrayEquals(good, PartStore.bytesOf(fetched), "a part packs to the same body wherever it is");
    }

    @Test
    void aQueryReadsOnlyTheColumnsItNames(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE t (k UInt64, s String, j Tuple(a UInt8, b String)) ENGINE = MergeTree ORDER BY k");
            query(s, "INSERT INTO t VALUES (1, 'a', (5, 'x')), (2, 'b', (6, 'y'))");
            // the s column's file is gone: a query that reads it fails, the others never open it
            Files.delete(data.resolve("data/default/t/all_1_1_0/s.bin"));
            assertEquals("3", query(s, "SELECT sum(k) FROM t"));
            assertEquals("2", query(s, "SELECT count() FROM t"));
            assertEquals("2\t6", query(s, "SELECT t.k, tupleElement(j, 1) FROM t AS t WHERE k > 1"));
            assertEquals("1\n2", query(s, "SELECT k FROM t ORDER BY k"));
            for (String reads : List.of("SELECT * FROM t", "SELECT s FROM t", "SELECT k FROM t WHERE s = 'a'", "SELECT max(length(t.s)) FROM t AS t",
                "SELECT k FROM t WHERE k IN (SELECT 1)")) {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/"))
                    .POST(HttpRequest.BodyPublishers.ofString(reads)).build(), HttpResponse.BodyHandlers.ofString());
                assertTrue(r.statusCode() != 200 && r.body().contains("Cannot read part all_1_1_0"), reads + " reads s: " + r.body());
            }
        }
    }
}
