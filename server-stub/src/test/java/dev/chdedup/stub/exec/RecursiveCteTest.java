package dev.chdedup.stub.exec;

/**
 * WITH RECURSIVE: the base rows and each step's over the step before until one gives none, a LIMIT ending a
 * recursion that would not, TOO_DEEP_RECURSION past max_recursive_cte_evaluation_depth (1000), the engine's widened
 * column types, a column list, several CTEs; and a value bound into WITH as the JDBC driver binds a PreparedStatement's
 * parameter (it substitutes the literal into the text).
 */
class RecursiveCteTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"WITH 42 AS x SELECT x, toTypeName(x)", "42\tUInt8"},
            {"WITH 'it\\'s' AS x SELECT x, toTypeName(x)", "it\\'s\tString"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r", "1\n2\n3"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r) SELECT * FROM r LIMIT 3", "1\n2\n3"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 2000) SELECT count() FROM r", "Code: 306 TOO_DEEP_RECURSION"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 1000) SELECT count(), max(n) FROM r", "1000\t1000"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 1001) SELECT count(), max(n) FROM r", "Code: 306 TOO_DEEP_RECURSION"},
            {"WITH RECURSIVE r AS (SELECT number AS n FROM numbers(2) UNION ALL SELECT n + 10 FROM r WHERE n < 20) SELECT n FROM r ORDER BY n", "0\n1\n10\n11\n20\n21"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT toTypeName(n), sum(n) FROM r GROUP BY toTypeName(n)", "UInt64\t6"},
            {"WITH RECURSIVE r (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r", "1\n2\n3"},
            {"WITH RECURSIVE f AS (SELECT 1 AS i, toUInt64(1) AS v UNION ALL SELECT i + 1, v * (i + 1) FROM f WHERE i < 5) SELECT i, v FROM f", "1\t1\n2\t2\n3\t6\n4\t24\n5\t120"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3), s AS (SELECT n * 2 AS m FROM r) SELECT * FROM s", "2\n4\n6"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n) SELECT * FROM r", "1"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r SETTINGS max_recursive_cte_evaluation_depth = 2", "Code: 306 TOO_DEEP_RECURSION"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT * FROM r SETTINGS max_recursive_cte_evaluation_depth = 3", "1\n2\n3"},
            {"SELECT value FROM system.settings WHERE name = 'max_recursive_cte_evaluation_depth'", "1000"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT 'a' FROM r WHERE n < 3) SELECT * FROM r", "Code: 386 NO_COMMON_TYPE"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT n FROM r AS t WHERE t.n > 1", "2\n3"},
            {"WITH RECURSIVE r AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM r WHERE n < 3) SELECT count() FROM r", "3"},
        };
    }
}
