package dev.chdedup.stub.exec;

/**
 * optimize_on_insert: each part an insert writes to a Replacing, Summing, Collapsing or Aggregating MergeTree table is
 * merged as its engine merges parts (one row per key, the latest or highest version, sums, collapsed pairs, merged
 * states), per partition, before it is written; off by the setting; a MergeTree table keeps every row. The answers are
 * ClickHouse 26.7's, recorded through the oracle (shared/oracle).
 */
class OptimizeOnInsertCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"CREATE TABLE ooi_r (k UInt8, v UInt8) ENGINE = ReplacingMergeTree ORDER BY k", ""},
            {"INSERT INTO ooi_r VALUES (1, 1), (1, 2), (2, 3), (1, 0)", ""},
            {"SELECT * FROM ooi_r ORDER BY k", "1\t0\n2\t3"},
            {"CREATE TABLE ooi_rv (k UInt8, v UInt8, ver UInt32) ENGINE = ReplacingMergeTree(ver) ORDER BY k", ""},
            {"INSERT INTO ooi_rv VALUES (1, 1, 5), (1, 2, 3), (2, 3, 1)", ""},
            {"SELECT * FROM ooi_rv ORDER BY k", "1\t1\t5\n2\t3\t1"},
            {"CREATE TABLE ooi_s (k UInt8, v UInt64, w Int32) ENGINE = SummingMergeTree ORDER BY k", ""},
            {"INSERT INTO ooi_s VALUES (1, 1, -1), (1, 2, 1), (2, 3, 0), (3, 0, 0)", ""},
            {"SELECT * FROM ooi_s ORDER BY k", "1\t3\t0\n2\t3\t0"},
            {"CREATE TABLE ooi_c (k UInt8, v UInt8, s Int8) ENGINE = CollapsingMergeTree(s) ORDER BY k", ""},
            {"INSERT INTO ooi_c VALUES (1, 1, 1), (1, 1, -1), (2, 3, 1), (2, 4, 1)", ""},
            {"SELECT * FROM ooi_c ORDER BY k, v", "2\t4\t1"},
            {"CREATE TABLE ooi_a (k UInt8, v AggregateFunction(sum, UInt64)) ENGINE = AggregatingMergeTree ORDER BY k", ""},
            {"INSERT INTO ooi_a SELECT number % 2, sumState(number) FROM numbers(10) GROUP BY number", ""},
            {"SELECT count(), sum(k) FROM ooi_a", "2\t1"},
            {"INSERT INTO ooi_r SETTINGS optimize_on_insert = 0 VALUES (3, 1), (3, 2)", ""},
            {"SELECT * FROM ooi_r ORDER BY k, v", "1\t0\n2\t3\n3\t1\n3\t2"},
            {"CREATE TABLE ooi_p (p UInt8, k UInt8, v UInt8) ENGINE = ReplacingMergeTree PARTITION BY p ORDER BY k", ""},
            {"INSERT INTO ooi_p VALUES (1, 1, 1), (2, 1, 2), (1, 1, 3)", ""},
            {"SELECT * FROM ooi_p ORDER BY p, k", "1\t1\t3\n2\t1\t2"},
            {"CREATE TABLE ooi_m (k UInt8, v UInt8) ENGINE = MergeTree ORDER BY k", ""},
            {"INSERT INTO ooi_m VALUES (1, 1), (1, 2)", ""},
            {"SELECT * FROM ooi_m ORDER BY k, v", "1\t1\n1\t2"},
        };
    }
}
