package dev.chdedup.stub.exec;

/**
 * DROP DATABASE takes each of its tables as DROP TABLE does: a materialized view stops pushing, so a database dropped
 * and made again with the same view (as test suites do between tests) inserts through the new view only. Before, the
 * old view stayed registered and every row reached the target twice. The answers are ClickHouse 26.7's, recorded
 * through the oracle (shared/oracle).
 */
class DropDatabaseTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"DROP DATABASE IF EXISTS ddv", ""},
            {"CREATE DATABASE ddv", ""},
            {"CREATE TABLE ddv.src (k UInt8) ENGINE = MergeTree ORDER BY k", ""},
            {"CREATE TABLE ddv.dst (k UInt8) ENGINE = MergeTree ORDER BY k", ""},
            {"CREATE MATERIALIZED VIEW ddv.mv TO ddv.dst AS SELECT k FROM ddv.src", ""},
            {"INSERT INTO ddv.src VALUES (1)", ""},
            {"DROP DATABASE ddv", ""},
            {"CREATE DATABASE ddv", ""},
            {"CREATE TABLE ddv.src (k UInt8) ENGINE = MergeTree ORDER BY k", ""},
            {"CREATE TABLE ddv.dst (k UInt8) ENGINE = MergeTree ORDER BY k", ""},
            {"CREATE MATERIALIZED VIEW ddv.mv TO ddv.dst AS SELECT k FROM ddv.src", ""},
            {"INSERT INTO ddv.src VALUES (2)", ""},
            {"SELECT k FROM ddv.dst ORDER BY k", "2"},
            {"DROP DATABASE ddv", ""},
        };
    }
}
