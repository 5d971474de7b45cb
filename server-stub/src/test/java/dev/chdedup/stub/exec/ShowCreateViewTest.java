package dev.chdedup.stub.exec;

/**
 * SHOW CREATE of a plain view as ClickHouse 26.7 lays it out: the query's columns with their types, then AS and the
 * query as the engine's formatter writes a view's definition (a clause a line, operators with their operands in
 * parentheses, tables qualified with the view's database, joins as written). The answers are the engine's, recorded
 * through the oracle (shared/oracle).
 */
class ShowCreateViewTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"DROP VIEW IF EXISTS v1", ""},
            {"DROP VIEW IF EXISTS v2", ""},
            {"DROP VIEW IF EXISTS v3", ""},
            {"DROP TABLE IF EXISTS vt", ""},
            {"CREATE VIEW v1 AS SELECT k, count() AS c FROM (SELECT number % 3 AS k FROM numbers(10)) WHERE k > 0 GROUP BY k HAVING c > 1 ORDER BY k DESC LIMIT 5", ""},
            {"SHOW CREATE VIEW v1", "CREATE VIEW default.v1\\n(\\n    `k` UInt8,\\n    `c` UInt64\\n)\\nAS SELECT\\n    k,\\n    count() AS c\\nFROM\\n(\\n    SELECT number % 3 AS k\\n    FROM numbers(10)\\n)\\nWHERE k > 0\\nGROUP BY k\\nHAVING c > 1\\nORDER BY k DESC\\nLIMIT 5"},
            {"CREATE VIEW v2 AS SELECT a.number AS x, b.number AS y FROM numbers(3) AS a INNER JOIN numbers(3) AS b ON a.number = b.number WHERE x IN (1, 2)", ""},
            {"SHOW CREATE VIEW v2", "CREATE VIEW default.v2\\n(\\n    `x` UInt64,\\n    `y` UInt64\\n)\\nAS SELECT\\n    a.number AS x,\\n    b.number AS y\\nFROM numbers(3) AS a\\nINNER JOIN numbers(3) AS b ON a.number = b.number\\nWHERE x IN (1, 2)"},
            {"CREATE TABLE vt (id UInt64, s String, d Date) ENGINE = MergeTree ORDER BY id", ""},
            {"CREATE VIEW v3 AS SELECT id, upper(s) AS u, toYYYYMM(d) AS m FROM vt WHERE s != '' AND id < 100", ""},
            {"SHOW CREATE VIEW v3", "CREATE VIEW default.v3\\n(\\n    `id` UInt64,\\n    `u` String,\\n    `m` UInt32\\n)\\nAS SELECT\\n    id,\\n    upper(s) AS u,\\n    toYYYYMM(d) AS m\\nFROM default.vt\\nWHERE (s != \\'\\') AND (id < 100)"},
            {"SHOW CREATE TABLE v3", "CREATE VIEW default.v3\\n(\\n    `id` UInt64,\\n    `u` String,\\n    `m` UInt32\\n)\\nAS SELECT\\n    id,\\n    upper(s) AS u,\\n    toYYYYMM(d) AS m\\nFROM default.vt\\nWHERE (s != \\'\\') AND (id < 100)"},
            {"SELECT * FROM v3", ""},
        };
    }
}
