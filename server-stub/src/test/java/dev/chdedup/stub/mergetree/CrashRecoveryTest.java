package dev.chdedup.stub.mergetree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
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
 * What a crash leaves behind is cleaned up on restart: a temporary part file (a write that never reached its
 * rename) is removed and never shows up as data, a merged part whose sources are still on disk covers them, and
 * every committed part comes back.
 */
class CrashRecoveryTest {
    private final HttpClient http = HttpClient.newHttpClient();

    private String query(StubServer s, String sql) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8)))
            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body().trim();
    }

    private static List<Path> files(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.toList();
        }
    }

    @Test
    void temporaryPartsFromACrashAreRemovedAndCommittedPartsSurvive(@TempDir Path data) throws Exception {
        Path tableDir;
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE t (k UInt32, v String) ENGINE = MergeTree ORDER BY k");
            query(s, "SYSTEM STOP MERGES t");
            query(s, "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
            query(s, "INSERT INTO t VALUES (3, 'c')");
            tableDir = data.resolve("data").resolve("default").resolve("t");
            // a crash in the middle of a write: the temporary part exists with a column cut short, the rename never
            // happened; and the temporary file of the earlier one-file layout
            Path tmp = Files.createDirectory(tableDir.resolve(DataPartStorageOnDisk.TMP_PREFIX + "insert_all_9_9_0"));
            Files.write(tmp.resolve("k.bin"), new byte[] {5, 'g', 'a', 'r'});
            Files.write(tableDir.resolve(DataPartStorageOnDisk.TMP_PREFIX + "insert_all_8_8_0" + DataPartStorageOnDisk.EXT), new byte[] {5, 'g', 'a', 'r'});
            s.stop();
            // a crash between writing a merged part and removing its sources: both are on disk
            List<Path> parts = files(tableDir).stream().filter(p -> Files.exists(p.resolve("checksums.txt"))
                && !p.getFileName().toString().startsWith(DataPartStorageOnDisk.TMP_PREFIX)).toList();
            assertEquals(2, parts.size(), parts.toString());
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            assertEquals("3", query(s, "SELECT count() FROM t"));
            assertFalse(files(tableDir).stream().anyMatch(p -> p.getFileName().toString().startsWith(DataPartStorageOnDisk.TMP_PREFIX)),
                "temporary files are removed on load");
            query(s, "OPTIMIZE TABLE t FINAL");
            assertEquals("all_1_2_1", query(s, "SELECT name FROM system.parts WHERE table = 't'"));
        }
        // simulate the sources of that merge surviving a crash next to the merged part
        MergeTreeDataPartWriter.write(tableDir, MergeTreePartInfo.parse("all_1_1_0"), List.of(new dev.chdedup.stub.data.Column("k", dev.chdedup.stub.types.DataTypes.UINT32),
            new dev.chdedup.stub.data.Column("v", dev.chdedup.stub.types.DataTypes.STRING)), List.<Object[]>of(new Object[] {1L, "a"}), false);
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            assertEquals("3", query(s, "SELECT count() FROM t"), "a covered source part is not counted twice");
            assertEquals("all_1_2_1", query(s, "SELECT name FROM system.parts WHERE table = 't'"));
            assertTrue(Files.notExists(DataPartStorageOnDisk.pathOf(tableDir, "all_1_1_0")), "the covered part is removed");
        }
    }

    @Test
    void mutatedPartsComeBackAfterARestart(@TempDir Path data) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(data).build().start()) {
            query(s, "CREATE TABLE m (k UInt32, v String) ENGINE = MergeTree ORDER BY k");
            query(s, "INSERT INTO m VALUES (1, 'a'), (2, 'b')");
            query(s, "ALTER TABLE m UPDATE v = 'z' WHERE k = 2");
            query(s, "CREATE VIEW mv_plain AS SELECT count() AS c FROM m");
            s.restart();
            assertEquals("2", query(s, "SELECT c FROM mv_plain"), "a plain view comes back after a restart");
            assertEquals("1\ta\n2\tz", query(s, "SELECT k, v FROM m ORDER BY k"));
            assertTrue(query(s, "SELECT name FROM system.parts WHERE table = 'm'").matches("all_1_1_0_\\d+"));
        }
    }
}
