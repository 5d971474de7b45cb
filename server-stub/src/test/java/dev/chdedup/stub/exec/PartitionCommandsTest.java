package dev.chdedup.stub.exec;

/**
 * The partition ALTERs of a MergeTree table as ClickHouse 26.7 answers them: DETACH PARTITION and PART (the parts go to
 * detached/, listed by system.detached_parts), ATTACH PARTITION and PART (back under new block numbers), REPLACE
 * PARTITION ... FROM and ATTACH PARTITION ... FROM another table (copies), MOVE PARTITION ... TO TABLE, FREEZE, by
 * value and by ID, with the engine's errors (an unknown detached part, a bad part name, tables of different
 * structure). The answers are the engine's, recorded through the oracle (shared/oracle).
 */
class PartitionCommandsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"DROP TABLE IF EXISTS pa", ""},
            {"DROP TABLE IF EXISTS pb", ""},
            {"DROP TABLE IF EXISTS pc", ""},
            {"CREATE TABLE pa (d Date, k UInt32) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY k", ""},
            {"CREATE TABLE pb AS pa", ""},
            {"INSERT INTO pa VALUES ('2024-01-01', 1), ('2024-02-01', 2)", ""},
            {"INSERT INTO pa VALUES ('2024-01-05', 3)", ""},
            {"ALTER TABLE pa DETACH PARTITION 202401", ""},
            {"SELECT * FROM pa ORDER BY k", "2024-02-01\t2"},
            {"SELECT name, partition_id, reason FROM system.detached_parts WHERE database = currentDatabase() AND table = 'pa' ORDER BY name", "202401_1_1_0\t202401\t\n202401_3_3_0\t202401\t"},
            {"ALTER TABLE pa ATTACH PARTITION 202401", ""},
            {"SELECT * FROM pa ORDER BY k", "2024-01-01\t1\n2024-02-01\t2\n2024-01-05\t3"},
            {"SELECT count() FROM system.detached_parts WHERE database = currentDatabase() AND table = 'pa'", "0"},
            {"ALTER TABLE pa DETACH PART '202402_2_2_0'", ""},
            {"SELECT count() FROM pa", "2"},
            {"ALTER TABLE pa ATTACH PART '202402_2_2_0'", ""},
            {"SELECT * FROM pa ORDER BY k", "2024-01-01\t1\n2024-02-01\t2\n2024-01-05\t3"},
            {"ALTER TABLE pb REPLACE PARTITION 202401 FROM pa", ""},
            {"SELECT * FROM pb ORDER BY k", "2024-01-01\t1\n2024-01-05\t3"},
            {"SELECT * FROM pa ORDER BY k", "2024-01-01\t1\n2024-02-01\t2\n2024-01-05\t3"},
            {"ALTER TABLE pb ATTACH PARTITION 202401 FROM pa", ""},
            {"SELECT count() FROM pb", "4"},
            {"ALTER TABLE pa MOVE PARTITION 202402 TO TABLE pb", ""},
            {"SELECT * FROM pa ORDER BY k", "2024-01-01\t1\n2024-01-05\t3"},
            {"SELECT * FROM pb ORDER BY k", "2024-01-01\t1\n2024-01-01\t1\n2024-02-01\t2\n2024-01-05\t3\n2024-01-05\t3"},
            {"ALTER TABLE pa ATTACH PART 'nope_1_1_0'", "Code: 233 BAD_DATA_PART_NAME"},
            {"ALTER TABLE pa DETACH PART 'nope'", "Code: 233 BAD_DATA_PART_NAME"},
            {"ALTER TABLE pa DETACH PARTITION ID '202401'", ""},
            {"ALTER TABLE pa ATTACH PARTITION ID '202401'", ""},
            {"SELECT * FROM pa ORDER BY k", "2024-01-01\t1\n2024-01-05\t3"},
            {"ALTER TABLE pa FREEZE", ""},
            {"ALTER TABLE pa FREEZE PARTITION 202401", ""},
            {"CREATE TABLE pc (x String) ENGINE = MergeTree ORDER BY x", ""},
            {"ALTER TABLE pc REPLACE PARTITION tuple() FROM pa", "Code: 122 INCOMPATIBLE_COLUMNS"},
        };
    }
}
