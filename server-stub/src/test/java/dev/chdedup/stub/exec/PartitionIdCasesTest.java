package dev.chdedup.stub.exec;

/**
 * Partition ids of keys that are not integers or dates (strings, tuples, floats): the hex of the 128-bit
 * SipHash of the values, its bytes in memory order as MergeTreePartition::getID writes them, in part names,
 * {@code _partition_id}, system.parts and partitionId(), each value hashed as its Field (unsigned and dates as UInt64,
 * signed as Int64, strings with their size), and the engine's refusal of a Float partition key, held to its answers.
 */
class PartitionIdCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"DROP TABLE IF EXISTS pid_s", ""},
            {"DROP TABLE IF EXISTS pid_t", ""},
            {"DROP TABLE IF EXISTS pid_f", ""},
            {"DROP TABLE IF EXISTS pid_f3", ""},
            {"DROP TABLE IF EXISTS pid_f6", ""},
            {"CREATE TABLE pid_s (s String, v UInt8) ENGINE = MergeTree PARTITION BY s ORDER BY v", ""},
            {"INSERT INTO pid_s VALUES ('a', 1), ('hello', 2), ('', 3)", ""},
            {"SELECT DISTINCT _partition_id, s FROM pid_s ORDER BY s", "f64abffc6c96f8ef72c783f1b9426e19\t\n51fbadfb0deeea70ceafbd3c7c8aef25\ta\n21818ffeee1ae033898614f81c7c3c75\thello"},
            {"SELECT partition_id FROM system.parts WHERE table = 'pid_s' AND active ORDER BY partition_id", "21818ffeee1ae033898614f81c7c3c75\n51fbadfb0deeea70ceafbd3c7c8aef25\nf64abffc6c96f8ef72c783f1b9426e19"},
            {"CREATE TABLE pid_t (a UInt8, b String, v UInt8) ENGINE = MergeTree PARTITION BY (a, b) ORDER BY v", ""},
            {"INSERT INTO pid_t VALUES (1, 'x', 1), (2, 'y', 2)", ""},
            {"SELECT DISTINCT _partition_id, a, b FROM pid_t ORDER BY a", "bd6586c0d68c80edc69ab9e40058cc20\t1\tx\n3d89da471d7eab2ee258abf4e3cc2d25\t2\ty"},
            {"CREATE TABLE pid_f (f Float64, v UInt8) ENGINE = MergeTree PARTITION BY f ORDER BY v", "Code: 36 BAD_ARGUMENTS"},
            {"INSERT INTO pid_f VALUES (1.5, 1), (-2.25, 2)", "Code: 60 UNKNOWN_TABLE"},
            {"SELECT DISTINCT _partition_id, f FROM pid_f ORDER BY f", "Code: 60 UNKNOWN_TABLE"},
            {"SELECT partitionId('a'), partitionId('a', 1), partitionId(toDate('2024-01-02')), partitionId(1.5)", "51fbadfb0deeea70ceafbd3c7c8aef25\te8ee2e35136ae10e4042274fd5b3dfdf\t20240102\t11876ff8640afac37203e8651c527cea"},
            {"CREATE TABLE pid_f3 (f Float64, v UInt8) ENGINE = MergeTree PARTITION BY (v, f) ORDER BY v", "Code: 36 BAD_ARGUMENTS"},
            {"CREATE TABLE pid_f6 (f Float64, v UInt8) ENGINE = MergeTree PARTITION BY f ORDER BY v SETTINGS allow_floating_point_partition_key = 1", ""},
            {"INSERT INTO pid_f6 VALUES (1.5, 1), (-2.25, 2)", ""},
            {"SELECT DISTINCT _partition_id, f FROM pid_f6 ORDER BY f", "2801c697a90460908266327253a98802\t-2.25\n11876ff8640afac37203e8651c527cea\t1.5"},
            {"SELECT partitionId(1, 'x'), partitionId(toUInt8(1), 'x'), partitionId(toInt8(-1), 'x'), partitionId(300, 'x'), partitionId(toDate('2024-01-02'), 'x'), partitionId(toInt32(5), 'x')", "bd6586c0d68c80edc69ab9e40058cc20\tbd6586c0d68c80edc69ab9e40058cc20\t66be9a4b9b49db5fe65a33d1a1e5d7cf\t9cfe03ace04bbdd2b083566e286d9eb9\t2cdbbb3cae627446b7168f7978345625\t8b0720f3410da3d5accf6e2fd15c4fb2"},
        };
    }
}
