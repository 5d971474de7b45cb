package dev.chdedup.stub.exec;

/**
 * Partitions as system.parts names them: {@code partition_id} (integers joined, dates as YYYYMMDD, otherwise the
 * SipHash of the values, a UUID hashed as the UInt128 field a partition value keeps) and {@code partition}, the value
 * itself ({@code tuple()} without a key, one value as text, several as a tuple of quoted values). The answers are
 * ClickHouse 26.7's, recorded through the oracle (shared/oracle).
 */
class PartitionValuesCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"DROP TABLE IF EXISTS spc1", ""},
            {"CREATE TABLE spc1 (d Date, s String, n Int32) ENGINE = MergeTree PARTITION BY (s, n) ORDER BY d", ""},
            {"INSERT INTO spc1 VALUES ('2024-01-02', 'a''b', -3), ('2024-01-03', 'c\\\\d', 4)", ""},
            {"SELECT partition, partition_id FROM system.parts WHERE database = currentDatabase() AND table = 'spc1' ORDER BY partition_id", "(\\'a\\\\\\'b\\',-3)\t8821e400f1e075786c90456420364b6a\n(\\'c\\\\\\\\d\\',4)\tb39dbed5046d32fb3b86c4b56c28e131"},
            {"DROP TABLE IF EXISTS spc2", ""},
            {"CREATE TABLE spc2 (d Date, s String) ENGINE = MergeTree PARTITION BY toYYYYMM(d) ORDER BY d", ""},
            {"INSERT INTO spc2 VALUES ('2024-01-02', 'x')", ""},
            {"SELECT partition, partition_id FROM system.parts WHERE database = currentDatabase() AND table = 'spc2'", "202401\t202401"},
            {"DROP TABLE IF EXISTS spc3", ""},
            {"CREATE TABLE spc3 (d Date, s String) ENGINE = MergeTree PARTITION BY s ORDER BY d", ""},
            {"INSERT INTO spc3 VALUES ('2024-01-02', 'x\\ty')", ""},
            {"SELECT partition, partition_id FROM system.parts WHERE database = currentDatabase() AND table = 'spc3'", "x\\ty\t5a290742e4ca7904b478314059e15a2f"},
            {"DROP TABLE IF EXISTS spc4", ""},
            {"CREATE TABLE spc4 (d Date, s String) ENGINE = MergeTree ORDER BY d", ""},
            {"INSERT INTO spc4 VALUES ('2024-01-02', 'x')", ""},
            {"SELECT partition, partition_id FROM system.parts WHERE database = currentDatabase() AND table = 'spc4'", "tuple()\tall"},
            {"DROP TABLE IF EXISTS spc5", ""},
            {"CREATE TABLE spc5 (d Date, u UUID) ENGINE = MergeTree PARTITION BY u ORDER BY d", ""},
            {"INSERT INTO spc5 VALUES ('2024-01-02', '00000000-0000-0000-0000-000000000001'), ('2024-01-02', '61f0c404-5cb3-11e7-907b-a6006ad3dba0')", ""},
            {"SELECT partition, partition_id FROM system.parts WHERE database = currentDatabase() AND table = 'spc5' ORDER BY partition", "00000000-0000-0000-0000-000000000001\tf7e807d3e00f265ad49132e6eca7b395\n61f0c404-5cb3-11e7-907b-a6006ad3dba0\t48406fdb38e23228b776558b4edfa795"},
            {"DROP TABLE IF EXISTS spc6", ""},
            {"CREATE TABLE spc6 (d DateTime, u UUID, e Enum8('a' = 1, 'b' = -2), b Bool) ENGINE = MergeTree PARTITION BY (toDate(d), u, e, b) ORDER BY d", ""},
            {"INSERT INTO spc6 VALUES ('2024-01-02 00:00:00', '00000000-0000-0000-0000-000000000001', 'b', true)", ""},
            {"SELECT partition, partition_id FROM system.parts WHERE database = currentDatabase() AND table = 'spc6'", "(\\'2024-01-02\\',\\'00000000-0000-0000-0000-000000000001\\',\\'b\\',true)\t0ef1750a1ae302b4167db2be8e828586"},
            {"DROP TABLE IF EXISTS spc7", ""},
            {"CREATE TABLE spc7 (d Date, n Int8, e Enum8('a' = 1, 'b' = -2), b Bool) ENGINE = MergeTree PARTITION BY (n, e, b) ORDER BY d", ""},
            {"INSERT INTO spc7 VALUES ('2024-01-02', -1, 'b', true)", ""},
            {"SELECT partition, partition_id FROM system.parts WHERE database = currentDatabase() AND table = 'spc7'", "(-1,\\'b\\',true)\t-1--2-1"},
            {"DROP TABLE IF EXISTS spc8", ""},
            {"CREATE TABLE spc8 (d Date, e Enum8('a' = 1, 'b' = -2)) ENGINE = MergeTree PARTITION BY d ORDER BY d", ""},
            {"INSERT INTO spc8 VALUES ('2024-01-02', 'b')", ""},
            {"SELECT partition, partition_id FROM system.parts WHERE database = currentDatabase() AND table = 'spc8'", "2024-01-02\t20240102"},
            {"SELECT partitionId(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')), partitionId(toUUID('00000000-0000-0000-0000-000000000001'), 'x')", "48406fdb38e23228b776558b4edfa795\ta3c41342d8357817b8144c2acd14daa9"},
            {"SELECT partitionId('x', true), partitionId('x', false), partitionId(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'), true)", "a94004563b1bc30b68e860e4fbf07f61\t1f67cd357a607c823915402523cb8e66\t4a9be4220a56180f005dae7720fc56ab"},
        };
    }
}
