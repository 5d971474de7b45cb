package dev.chdedup.stub.exec;

/**
 * CREATE DICTIONARY with a function among its SOURCE's values ({@code DB currentDatabase()}, {@code TABLE concat(...)}),
 * held to the engine's answers: CREATE evaluates it to a constant, SHOW CREATE shows the literal, the dictionary loads;
 * dictGetKeys and dictGetRoot: types, conversions of the value, NULL, missing attributes and keys, complex keys; the
 * order a HASHED (ClickHouse's hash table) and a FLAT (by key) dictionary read their entries in, and dictGetDescendants'
 * walk over it (all levels, one level, keys met again).
 */
class DictionaryFunctionsCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"CREATE TABLE kv_src (id UInt64, v String) ENGINE = Memory", ""},
            {"INSERT INTO kv_src VALUES (1, 'one'), (2, 'two')", ""},
            {"CREATE DICTIONARY kv_dict (id UInt64, v String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'kv_src' DB currentDatabase())) LAYOUT(FLAT()) LIFETIME(0)", ""},
            {"SHOW CREATE DICTIONARY kv_dict", "CREATE DICTIONARY default.kv_dict\\n(\\n    `id` UInt64,\\n    `v` String\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'kv_src\\' DB \\'default\\'))\\nLIFETIME(MIN 0 MAX 0)\\nLAYOUT(FLAT())"},
            {"SELECT dictGet('kv_dict', 'v', toUInt64(2)), dictHas('kv_dict', toUInt64(3))", "two\t0"},
            {"CREATE DICTIONARY kv_dict2 (id UInt64, v String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE concat('kv_', 'src'))) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SHOW CREATE DICTIONARY kv_dict2", "CREATE DICTIONARY default.kv_dict2\\n(\\n    `id` UInt64,\\n    `v` String\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'kv_src\\'))\\nLIFETIME(MIN 0 MAX 0)\\nLAYOUT(HASHED())"},
            {"SELECT dictGetString('kv_dict2', 'v', toUInt64(1))", "one"},
            {"DROP DICTIONARY kv_dict", ""},
            {"DROP DICTIONARY kv_dict2", ""},
            {"DROP TABLE kv_src", ""},
            {"CREATE TABLE hs2 (id UInt64, parent_id UInt64, name String, n UInt8) ENGINE = Memory", ""},
            {"INSERT INTO hs2 VALUES (0, 0, 'Root', 1), (1, 0, 'L1', 1), (2, 1, 'L2', 2), (3, 1, 'L2', 2)", ""},
            {"CREATE DICTIONARY hd2 (id UInt64, parent_id UInt64 HIERARCHICAL, name String, n UInt8) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'hs2')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SELECT dictGetKeys('hd2', 'name', 'L1'), toTypeName(dictGetKeys('hd2', 'name', 'L2')), dictGetKeys('hd2', 'n', 1), dictGetKeys('hd2', 'name', 'zz'), dictGetKeys('hd2', 'n', '1')", "[1]\tArray(UInt64)\t[0,1]\t[]\t[0,1]"},
            {"SELECT dictGetKeys('hd2', 'n', 300)", "Code: 70 CANNOT_CONVERT_TYPE"},
            {"SELECT dictGetKeys('hd2', 'nope', 1)", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT dictGetKeys('hd2', 'name', 1)", "[]"},
            {"SELECT dictGetKeys('hd2', 'name', NULL)", "Code: 70 CANNOT_CONVERT_TYPE"},
            {"SELECT dictGetKeys('hd2', 'name', toNullable('L1'))", "[1]"},
            {"SELECT dictGetRoot('hd2', toNullable(3)), toTypeName(dictGetRoot('hd2', toNullable(3))), dictGetRoot('hd2', 3), dictGetRoot('hd2', 0), dictGetRoot('hd2', 77), toTypeName(dictGetRoot('hd2', 3))", "1\tNullable(UInt64)\t1\t0\t0\tUInt64"},
            {"CREATE TABLE ck_src (a UInt8, b String, v String) ENGINE = Memory", ""},
            {"INSERT INTO ck_src VALUES (1, 'x', 'p'), (2, 'y', 'q')", ""},
            {"CREATE DICTIONARY ck_dict (a UInt8, b String, v String) PRIMARY KEY a, b SOURCE(CLICKHOUSE(TABLE 'ck_src')) LAYOUT(COMPLEX_KEY_HASHED()) LIFETIME(0)", ""},
            {"SELECT dictGetKeys('ck_dict', 'v', 'q'), toTypeName(dictGetKeys('ck_dict', 'v', 'q'))", "[(2,'y')]\tArray(Tuple(UInt8, String))"},
            {"SELECT dictGetRoot('ck_dict', (1, 'x'))", "Code: 1 UNSUPPORTED_METHOD"},
            {"DROP DICTIONARY ck_dict", ""},
            {"DROP TABLE ck_src", ""},
            {"DROP DICTIONARY hd2", ""},
            {"DROP TABLE hs2", ""},
            {"CREATE TABLE hs (id UInt64, parent_id UInt64, name String) ENGINE = Memory", ""},
            {"INSERT INTO hs VALUES (0, 0, 'Root'), (1, 0, 'L1'), (2, 1, 'L2'), (3, 1, 'L2b'), (4, 2, 'x'), (5, 2, 'y'), (6, 3, 'z')", ""},
            {"CREATE DICTIONARY hd (id UInt64, parent_id UInt64 HIERARCHICAL, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'hs')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SELECT dictGetDescendants('hd', 0, 0), dictGetDescendants('hd', 0, 1), dictGetDescendants('hd', 0, 2), dictGetDescendants('hd', 0, 3), dictGetDescendants('hd', 1, 0), dictGetDescendants('hd', 1, 1), dictGetDescendants('hd', 1, 2), dictGetChildren('hd', 0), dictGetChildren('hd', 1), dictGetHierarchy('hd', 0), dictGetHierarchy('hd', 5), dictIsIn('hd', 5, 0)", "[0,1,3,2,4,5,6]\t[0,1]\t[3,2]\t[4,5,6]\t[3,2,4,5,6]\t[3,2]\t[4,5,6]\t[0,1]\t[3,2]\t[0]\t[5,2,1]\t0"},
            {"SELECT id, name FROM hd", "0\tRoot\n1\tL1\n6\tz\n4\tx\n5\ty\n3\tL2b\n2\tL2"},
            {"CREATE DICTIONARY fd (id UInt64, parent_id UInt64 HIERARCHICAL, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'hs')) LAYOUT(FLAT()) LIFETIME(0)", ""},
            {"SELECT dictGetDescendants('fd', 0, 0), dictGetDescendants('fd', 1, 2), dictGetChildren('fd', 1), dictIsIn('fd', 0, 0), dictIsIn('fd', 1, 0), dictGetHierarchy('fd', 77), dictGetRoot('fd', 0), dictGetRoot('fd', 6)", "[0,1,2,3,6,4,5]\t[6,4,5]\t[2,3]\t1\t0\t[]\t0\t1"},
            {"SELECT id FROM fd", "0\n1\n2\n3\n4\n5\n6"},
            {"CREATE TABLE hs3 (id UInt64, parent_id UInt64) ENGINE = Memory", ""},
            {"INSERT INTO hs3 SELECT number + 1, intDiv(number, 3) FROM numbers(40)", ""},
            {"CREATE DICTIONARY hd3 (id UInt64, parent_id UInt64 HIERARCHICAL) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'hs3')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SELECT dictGetDescendants('hd3', 0, 0), dictGetDescendants('hd3', 1, 2), dictGetChildren('hd3', 5)", "[1,3,2,8,9,7,22,24,23,30,28,29,25,27,26,10,12,11,36,34,35,39,38,37,33,32,31,6,4,5,18,17,16,14,15,13,40,21,19,20]\t[18,17,16,14,15,13,21,19,20]\t[18,17,16]"},
            {"SELECT groupArray(id) FROM hd3", "[10,33,14,1,15,30,18,12,17,22,16,13,28,36,39,6,21,4,5,34,32,8,24,19,23,29,31,35,11,3,38,9,7,25,20,2,37,27,26,40]"},
            {"DROP DICTIONARY hd3", ""},
            {"DROP TABLE hs3", ""},
            {"DROP DICTIONARY fd", ""},
            {"DROP DICTIONARY hd", ""},
            {"DROP TABLE hs", ""},
        };
    }
}
