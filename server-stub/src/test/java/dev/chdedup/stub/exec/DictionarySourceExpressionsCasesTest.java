package dev.chdedup.stub.exec;

/**
 * CREATE DICTIONARY with a function among its SOURCE's values ({@code DB currentDatabase()}, {@code TABLE concat(...)}),
 * held to the engine's answers: CREATE evaluates it to a constant, SHOW CREATE shows the literal, the dictionary loads.
 */
class DictionarySourceExpressionsCasesTest extends EngineAnswers {
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
        };
    }
}
