package dev.chdedup.stub.exec;

/**
 * Where a WITH alias is visible, held to the engine's answers: in the subqueries of the rest of its SELECT and in the
 * WITH items after it (scalar, IN and FROM subqueries, common table expressions, nested to any depth), its expression
 * resolved in the subquery, where the subquery's own aliases and the columns of its FROM hide it; and {@code *}, which
 * is the FROM's columns even where an alias has a column's name. The jdbc-v2 suite's queries took these forms.
 */
class WithScopeCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"WITH 1 AS a, (SELECT a + 1) AS b SELECT b", "2"},
            // a CTE's subquery may be parenthesized again (ParserSubquery reads a parenthesized SELECT)
            {"WITH data AS (    (SELECT number AS n     FROM numbers(10)     WHERE n > 3)) SELECT * FROM data WHERE n < 7", "4\n5\n6"},
            {"WITH d AS (((SELECT number AS n FROM numbers(10) WHERE n > 3))) SELECT count() FROM d", "6"},
            {"WITH 1 AS a SELECT (SELECT a)", "1"},
            {"WITH 1 AS a SELECT * FROM (SELECT a)", "1"},
            {"WITH 1 AS a SELECT * FROM (SELECT a + number AS z FROM numbers(2))", "1\n2"},
            {"WITH 2 AS a SELECT count() FROM numbers(5) WHERE number IN (SELECT number * a FROM numbers(3))", "3"},
            {"WITH 1 AS a, b AS (SELECT a + 1 AS c) SELECT * FROM b", "2"},
            {"WITH 5 AS number, c AS (SELECT max(number) FROM numbers(3)) SELECT * FROM c", "2"},
            {"WITH 5 AS number SELECT (SELECT max(number) FROM numbers(3))", "2"},
            {"WITH 5 AS number SELECT max(number) FROM numbers(3)", "5"},
            {"WITH number * 2 AS d, c AS (SELECT d FROM numbers(3)) SELECT * FROM c", "0\n2\n4"},
            {"WITH 2 AS k, c AS (SELECT number * k AS v FROM numbers(3)) SELECT * FROM c", "0\n2\n4"},
            {"WITH 2 AS k SELECT * FROM (SELECT number * k AS v FROM numbers(3))", "0\n2\n4"},
            {"WITH 'a' AS s SELECT (SELECT concat(s, 'b'))", "ab"},
            {"WITH 1 AS a, a + 1 AS b SELECT (SELECT b)", "2"},
            {"WITH 3 AS n SELECT * FROM (WITH 4 AS n SELECT n)", "4"},
            {"WITH 3 AS n SELECT * FROM (SELECT 4 AS n)", "4"},
            {"WITH 3 AS number SELECT * FROM numbers(2)", "0\n1"},
            {"WITH 3 AS number SELECT number FROM numbers(2)", "3\n3"},
            {"WITH 7 AS x SELECT (SELECT (SELECT x + 1))", "8"},
            {"WITH 10 AS lim SELECT sum(number) FROM (SELECT number FROM numbers(100) WHERE number < lim)", "45"},
            {"WITH 2 AS k SELECT number FROM numbers(5) WHERE number IN (SELECT number * k FROM numbers(2)) ORDER BY number", "0\n2"},
            {"EXPLAIN SYNTAX WITH 2 AS k SELECT * FROM (SELECT number * k AS v FROM numbers(3))", "WITH\n    2 AS k\nSELECT *\nFROM\n(\n    SELECT multiply(number, k) AS v\n    FROM numbers(3)\n)"},
            {"WITH 1 AS a SELECT (SELECT b)", "Code: 47 UNKNOWN_IDENTIFIER"},
        };
    }
}
