package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TTL as ClickHouse 26.7 applies it: a table's DELETE rules (with WHERE) and a column's TTL take effect when a part is
 * written (the stub applies them as it writes an insert's part, where the engine runs a TTL merge right after it, so
 * the recorded answers are read after OPTIMIZE FINAL, when the engine's are certain), an expired value being its
 * type's default; OPTIMIZE and MATERIALIZE TTL apply them to parts written before; MODIFY TTL (materialized at once), REMOVE TTL, MODIFY COLUMN ... REMOVE TTL;
 * SHOW CREATE writes them as the engine. The dates are far in the past or the future, so the answers hold on any day
 * until 2089. The answers are the engine's, recorded through the oracle (shared/oracle); the definition survives a
 * restart.
 */
class TtlTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"DROP TABLE IF EXISTS ttl1", ""},
            {"CREATE TABLE ttl1 (d DateTime, x UInt32, s String TTL d + INTERVAL 1 DAY) ENGINE=MergeTree ORDER BY x TTL d + INTERVAL 1 MONTH DELETE WHERE x > 5, d + INTERVAL 10 YEAR", ""},
            {"SHOW CREATE TABLE ttl1", "CREATE TABLE default.ttl1\\n(\\n    `d` DateTime,\\n    `x` UInt32,\\n    `s` String TTL d + toIntervalDay(1)\\n)\\nENGINE = MergeTree\\nORDER BY x\\nTTL d + toIntervalMonth(1) WHERE x > 5, d + toIntervalYear(10)\\nSETTINGS index_granularity = 8192"},
            {"INSERT INTO ttl1 VALUES ('2020-01-01 00:00:00', 1, 'a'), ('2020-01-01 00:00:00', 9, 'b'), ('2099-01-01 00:00:00', 10, 'c'), ('2010-01-01 00:00:00', 2, 'z')", ""},
            {"OPTIMIZE TABLE ttl1 FINAL", ""},
            {"SELECT x, s FROM ttl1 ORDER BY x", "1\t"},
            {"ALTER TABLE ttl1 MODIFY TTL d + INTERVAL 50 YEAR", ""},
            {"SHOW CREATE TABLE ttl1", "CREATE TABLE default.ttl1\\n(\\n    `d` DateTime,\\n    `x` UInt32,\\n    `s` String TTL d + toIntervalDay(1)\\n)\\nENGINE = MergeTree\\nORDER BY x\\nTTL d + toIntervalYear(50)\\nSETTINGS index_granularity = 8192"},
            {"ALTER TABLE ttl1 MODIFY TTL d + INTERVAL 12 YEAR", ""},
            {"OPTIMIZE TABLE ttl1 FINAL", ""},
            {"SELECT x, s FROM ttl1 ORDER BY x", "1\t"},
            {"ALTER TABLE ttl1 REMOVE TTL", ""},
            {"ALTER TABLE ttl1 REMOVE TTL", "Code: 36 BAD_ARGUMENTS"},
            {"SHOW CREATE TABLE ttl1", "CREATE TABLE default.ttl1\\n(\\n    `d` DateTime,\\n    `x` UInt32,\\n    `s` String TTL d + toIntervalDay(1)\\n)\\nENGINE = MergeTree\\nORDER BY x\\nSETTINGS index_granularity = 8192"},
            {"INSERT INTO ttl1 VALUES ('2010-01-01 00:00:00', 4, 'w')", ""},
            {"OPTIMIZE TABLE ttl1 FINAL", ""},
            {"SELECT x, s FROM ttl1 ORDER BY x", "1\t\n4\t"},
            {"ALTER TABLE ttl1 MODIFY COLUMN s REMOVE TTL", ""},
            {"INSERT INTO ttl1 VALUES ('2010-01-01 00:00:00', 5, 'v')", ""},
            {"OPTIMIZE TABLE ttl1 FINAL", ""},
            {"SELECT x, s FROM ttl1 ORDER BY x", "1\t\n4\t\n5\tv"},
            {"SHOW CREATE TABLE ttl1", "CREATE TABLE default.ttl1\\n(\\n    `d` DateTime,\\n    `x` UInt32,\\n    `s` String\\n)\\nENGINE = MergeTree\\nORDER BY x\\nSETTINGS index_granularity = 8192"},
            {"DROP TABLE IF EXISTS ttl2", ""},
            {"CREATE TABLE ttl2 (d Date, k UInt8) ENGINE = MergeTree ORDER BY k TTL d + toIntervalDay(30)", ""},
            {"INSERT INTO ttl2 VALUES ('2000-01-01', 1), ('2100-01-01', 2)", ""},
            {"OPTIMIZE TABLE ttl2 FINAL", ""},
            {"SELECT * FROM ttl2", "2100-01-01\t2"},
            {"OPTIMIZE TABLE ttl2 FINAL", ""},
            {"OPTIMIZE TABLE ttl2 FINAL", ""},
            {"SELECT * FROM ttl2", "2100-01-01\t2"},
            {"ALTER TABLE ttl2 MATERIALIZE TTL", ""},
            {"OPTIMIZE TABLE ttl2 FINAL", ""},
            {"SELECT * FROM ttl2", "2100-01-01\t2"},
        };
    }

    @Test
    void theTtlIsKeptAcrossARestart(@TempDir Path dir) throws Exception {
        String create;
        try (StubServer s = StubServer.builder().port(0).dataDir(dir).build().start()) {
            answer(s, "CREATE TABLE kept (d Date, k UInt8, v String TTL d + INTERVAL 1 DAY) ENGINE = MergeTree ORDER BY k"
                + " TTL d + INTERVAL 1 YEAR WHERE k > 1");
            create = answer(s, "SHOW CREATE TABLE kept");
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(dir).build().start()) {
            assertEquals(create, answer(s, "SHOW CREATE TABLE kept"));
            answer(s, "INSERT INTO kept VALUES ('2001-01-01', 1, 'a'), ('2001-01-01', 2, 'b'), ('2100-01-01', 3, 'c')");
            assertEquals("1\t\n3\tc", answer(s, "SELECT k, v FROM kept ORDER BY k"));
        }
    }
}
