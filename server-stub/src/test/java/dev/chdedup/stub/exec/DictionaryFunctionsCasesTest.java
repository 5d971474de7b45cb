package dev.chdedup.stub.exec;

/**
 * CREATE DICTIONARY with a function among its SOURCE's values ({@code DB currentDatabase()}, {@code TABLE concat(...)}),
 * held to the engine's answers: CREATE evaluates it to a constant, SHOW CREATE shows the literal, the dictionary loads;
 * and dictGetKeys and dictGetRoot: types, conversions of the value, NULL, missing attributes and keys, complex keys.
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
        };
    }
}
