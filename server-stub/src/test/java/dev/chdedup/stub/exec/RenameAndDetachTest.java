package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RENAME TABLE (several at once, into another database), EXCHANGE TABLES, DETACH and ATTACH TABLE as ClickHouse 26.7
 * answers them, with its errors (a taken name, a detached name, an unknown table or database); the answers are the
 * engine's, taken through the oracle (shared/oracle). Across a restart: a renamed or exchanged table keeps its name
 * and rows, a table detached comes back, one detached PERMANENTLY stays out until ATTACH.
 */
class RenameAndDetachTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: ClickHouse 26.7's answers, recorded from the engine (chDB 3.4.0)
        return new String[][] {
            {"DROP TABLE IF EXISTS r1", ""},
            {"DROP TABLE IF EXISTS r2", ""},
            {"DROP TABLE IF EXISTS r3", ""},
            {"DROP TABLE IF EXISTS r4", ""},
            {"DROP DATABASE IF EXISTS d2", ""},
            {"CREATE TABLE r1 (a UInt8) ENGINE = MergeTree ORDER BY a", ""},
            {"CREATE TABLE r2 (b String) ENGINE = MergeTree ORDER BY b", ""},
            {"INSERT INTO r1 VALUES (1), (2)", ""},
            {"INSERT INTO r2 VALUES ('x')", ""},
            {"RENAME TABLE r1 TO r2", "Code: 57 TABLE_ALREADY_EXISTS"},
            {"RENAME TABLE nope TO r3", "Code: 60 UNKNOWN_TABLE"},
            {"RENAME TABLE r1 TO r3", ""},
            {"SELECT * FROM r3 ORDER BY a", "1\n2"},
            {"SELECT count() FROM system.tables WHERE database = currentDatabase() AND name = 'r1'", "0"},
            {"INSERT INTO r3 VALUES (3)", ""},
            {"SELECT sum(a) FROM r3", "6"},
            {"EXCHANGE TABLES r3 AND r2", ""},
            {"SELECT * FROM r2 ORDER BY a", "1\n2\n3"},
            {"SELECT * FROM r3", "x"},
            {"EXCHANGE TABLES r3 AND nope", "Code: 60 UNKNOWN_TABLE"},
            {"DETACH TABLE r2", ""},
            {"SELECT * FROM r2", "Code: 60 UNKNOWN_TABLE"},
            {"DETACH TABLE r2", "Code: 60 UNKNOWN_TABLE"},
            {"DETACH TABLE IF EXISTS r2", ""},
            {"CREATE TABLE r2 (x UInt8) ENGINE = MergeTree ORDER BY x", "Code: 57 TABLE_ALREADY_EXISTS"},
            {"ATTACH TABLE r2", ""},
            {"SELECT * FROM r2 ORDER BY a", "1\n2\n3"},
            {"ATTACH TABLE r2", "Code: 57 TABLE_ALREADY_EXISTS"},
            {"ATTACH TABLE IF NOT EXISTS r2", ""},
            {"RENAME TABLE r2 TO r4, r3 TO r2", ""},
            {"SELECT * FROM r4 ORDER BY a", "1\n2\n3"},
            {"SELECT * FROM r2", "x"},
            {"RENAME TABLE r4 TO nodb.r4", "Code: 81 UNKNOWN_DATABASE"},
            {"CREATE DATABASE d2", ""},
            {"RENAME TABLE r4 TO d2.r4", ""},
            {"SELECT * FROM d2.r4 ORDER BY a", "1\n2\n3"},
            {"ATTACH TABLE nope", "Code: 390 CANNOT_GET_CREATE_TABLE_QUERY"},
            {"SHOW CREATE TABLE d2.r4", "CREATE TABLE d2.r4\\n(\\n    `a` UInt8\\n)\\nENGINE = MergeTree\\nORDER BY a\\nSETTINGS index_granularity = 8192"},
        };
    }

    @Test
    void namesAndDetachedTablesHoldAcrossARestart(@TempDir Path dataDir) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertAnswers(s, cases());
            assertAnswers(s, new String[][] {
                {"CREATE TABLE gone (a UInt8) ENGINE = MergeTree ORDER BY a", ""},
                {"INSERT INTO gone VALUES (5)", ""},
                {"DETACH TABLE gone PERMANENTLY", ""},
                {"DETACH TABLE r2", ""},
            });
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertAnswers(s, new String[][] {
                {"SELECT * FROM d2.r4 ORDER BY a", "1\n2\n3"},
                {"SELECT * FROM r2", "x"},
                {"SELECT count() FROM system.tables WHERE database = currentDatabase() AND name IN ('r1', 'r3', 'r4', 'gone')", "0"},
                {"SELECT * FROM gone", "Code: 60 UNKNOWN_TABLE"},
                {"CREATE TABLE gone (b UInt8) ENGINE = MergeTree ORDER BY b", "Code: 57 TABLE_ALREADY_EXISTS"},
                {"ATTACH TABLE gone", ""},
                {"SELECT * FROM gone", "5"},
            });
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertEquals("5", answer(s, "SELECT * FROM gone"));
        }
    }
}
