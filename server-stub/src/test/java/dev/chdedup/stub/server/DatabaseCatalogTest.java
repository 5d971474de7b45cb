package dev.chdedup.stub.server;

import dev.chdedup.stub.common.FileNames;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile database and table names ({@code ..}, {@code .}, absolute paths, {@code ../../x}, separators, percent
 * signs) go through every statement that touches files, across a restart, and nothing outside the data directory
 * changes: canary files and directories around it and a canary table inside it stay as they were.
 */
class DatabaseCatalogTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path outer;

    private static HttpResponse<String> post(StubServer s, String sql) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/")).POST(HttpRequest.BodyPublishers.ofString(sql)).build(),
            HttpResponse.BodyHandlers.ofString());
    }

    private static String ok(StubServer s, String sql) throws Exception {
        HttpResponse<String> r = post(s, sql);
        assertEquals(200, r.statusCode(), sql + " -> " + r.body());
        return r.body().trim();
    }

    private static String quoted(String name) {
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    /** Every file and directory under {@code dir} but outside {@code skip}, with the content of the files. */
    private static Map<String, String> snapshot(Path dir, Path skip) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                if (p.startsWith(skip)) {
                    continue;
                }
                m.put(dir.relativize(p).toString(), Files.isDirectory(p) ? "<dir>" : Files.readString(p));
            }
        }
        return m;
    }

    private List<String> hostileNames() {
        List<String> names = new ArrayList<>(List.of("..", ".", "../..", "../canary", "../../canary", "../../../canary",
            "../../../../canary", "a/b", "%2E%2E", "..%2F..", "a b", "x\\y", "naïve", "default/../..", "./.", "...", "\u0001", "a`b", "x'y"));
        names.add(outer.resolve("canary").toString());
        names.add(outer.resolve("canary").resolve("inner").toString());
        return names;
    }

    @Test
    void hostileNamesNeverTouchAnythingOutsideTheDataDirectory() throws Exception {
        Path dataDir = outer.resolve("dd");
        Files.createDirectories(outer.resolve("canary").resolve("inner"));
        Files.writeString(outer.resolve("canary").resolve("inner").resolve("keep.txt"), "canary");
        Files.writeString(outer.resolve("canary.sql"), "canary sql");
        Files.createDirectories(outer.resolve("data"));
        Files.writeString(outer.resolve("data").resolve("keep.txt"), "canary data");
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            ok(s, "CREATE TABLE keep (k Int32) ENGINE = MergeTree ORDER BY k");
            ok(s, "INSERT INTO keep VALUES (1), (2)");
            Files.createDirectories(dataDir.resolve("data").resolve("canary"));
            Files.writeString(dataDir.resolve("data").resolve("canary").resolve("keep.txt"), "inside canary");
            Map<String, String> before = snapshot(outer, dataDir);
            Map<String, String> insideBefore = snapshot(dataDir.resolve("data").resolve("canary"), dataDir.resolve("none"));
            List<String> names = hostileNames();
            for (String n : names) {
                String t = quoted(n);
                ok(s, "CREATE TABLE " + t + " (k Int32) ENGINE = MergeTree ORDER BY k");
                ok(s, "INSERT INTO " + t + " VALUES (7)");
                ok(s, "CREATE DATABASE " + t);
                ok(s, "CREATE TABLE " + t + "." + t + " (k Int32) ENGINE = MergeTree ORDER BY k");
                ok(s, "CREATE MATERIALIZED VIEW " + t + "." + quoted(n + "/../mv") + " ENGINE = MergeTree ORDER BY k AS SELECT k FROM " + t + "." + t);
                ok(s, "INSERT INTO " + t + "." + t + " VALUES (8), (9)");
                ok(s, "OPTIMIZE TABLE " + t + "." + t + " FINAL");
            }
            s.restart();
            assertEquals("2", ok(s, "SELECT count() FROM keep"));
            for (String n : names) {
                String t = quoted(n);
                assertEquals("1\t7", ok(s, "SELECT count(), sum(k) FROM " + t), n);
                assertEquals("2\t17", ok(s, "SELECT count(), sum(k) FROM " + t + "." + t), n);
                assertEquals("2\t17", ok(s, "SELECT count(), sum(k) FROM " + t + "." + quoted(n + "/../mv")), n);
                ok(s, "TRUNCATE TABLE " + t);
                assertEquals("0", ok(s, "SELECT count() FROM " + t), n);
                ok(s, "DROP TABLE " + t);
                ok(s, "DROP DATABASE " + t);
                assertEquals(before, snapshot(outer, dataDir), "after dropping " + n);
                assertEquals(insideBefore, snapshot(dataDir.resolve("data").resolve("canary"), dataDir.resolve("none")), n);
                assertEquals("2", ok(s, "SELECT count() FROM keep"), "after dropping " + n);
            }
            s.restart();
            assertEquals("2", ok(s, "SELECT count() FROM keep"));
            assertEquals("keep", ok(s, "SHOW TABLES"));
        }
        assertEquals("canary", Files.readString(outer.resolve("canary").resolve("inner").resolve("keep.txt")));
        assertEquals("canary sql", Files.readString(outer.resolve("canary.sql")));
        assertEquals("canary data", Files.readString(outer.resolve("data").resolve("keep.txt")));
        assertEquals("inside canary", Files.readString(dataDir.resolve("data").resolve("canary").resolve("keep.txt")));
    }

    @Test
    void namesAreEscapedAsClickHouseDoesAndPlainNamesStayAsTheyAre() {
        assertEquals("plain_Name_09", FileNames.escapeForFileName("plain_Name_09"));
        assertEquals("%2E%2E", FileNames.escapeForFileName(".."));
        assertEquals("%2Fx%2Fy", FileNames.escapeForFileName("/x/y"));
        assertEquals("na%C3%AFve", FileNames.escapeForFileName("naïve"));
        for (String n : hostileNames()) {
            assertEquals(n, FileNames.unescapeForFileName(FileNames.escapeForFileName(n)));
        }
    }

    @Test
    void emptyNamesAreRefusedAndWriteNothing(@TempDir Path dataDir) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            for (String sql : List.of("CREATE DATABASE ``", "CREATE TABLE `` (k Int32) ENGINE = MergeTree ORDER BY k")) {
                HttpResponse<String> r = post(s, sql);
                assertTrue(r.body().contains("(BAD_ARGUMENTS)") || r.body().contains("(SYNTAX_ERROR)"), sql + " -> " + r.body());
            }
            assertEquals("", ok(s, "SHOW TABLES"));
            try (Stream<Path> l = Files.list(dataDir.resolve("metadata"))) {
                assertEquals(List.of("default"), l.map(p -> p.getFileName().toString()).toList());
            }
        }
    }

    @Test
    void dataDirectoriesWrittenWithRawNamesStillLoad(@TempDir Path dataDir) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            ok(s, "CREATE DATABASE `my-db`");
            ok(s, "CREATE TABLE `my-db`.`my-table` (k Int32) ENGINE = MergeTree ORDER BY k");
            ok(s, "INSERT INTO `my-db`.`my-table` VALUES (5)");
        }
        // lay the directory out as a stub that did not escape names wrote it
        Files.move(dataDir.resolve("metadata/my%2Ddb/my%2Dtable.sql"), dataDir.resolve("metadata/my%2Ddb/my-table.sql"));
        Files.move(dataDir.resolve("metadata/my%2Ddb"), dataDir.resolve("metadata/my-db"));
        Files.move(dataDir.resolve("data/my%2Ddb/my%2Dtable"), dataDir.resolve("data/my%2Ddb/my-table"));
        Files.move(dataDir.resolve("data/my%2Ddb"), dataDir.resolve("data/my-db"));
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertEquals("5", ok(s, "SELECT sum(k) FROM `my-db`.`my-table`"));
            ok(s, "INSERT INTO `my-db`.`my-table` VALUES (6)");
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertEquals("11", ok(s, "SELECT sum(k) FROM `my-db`.`my-table`"));
        }
        assertTrue(Files.isDirectory(dataDir.resolve("data/my%2Ddb/my%2Dtable")));
    }
}
