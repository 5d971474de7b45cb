package dev.chdedup.stub.exec;

/**
 * Where ClickHouse 26.7 allows a trailing comma: the column list of CREATE TABLE and of INSERT, the select list, the
 * WITH list and a parenthesized tuple ({@code (1,)} is a one-element tuple); and where it does not: function
 * arguments, array literals, ORDER BY, GROUP BY, an empty element. A refused statement creates and writes nothing.
 */
class TrailingCommasTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"CREATE TABLE tcomma (a UInt8, b String,) ENGINE = Memory", ""},
            {"CREATE TABLE tcomma2 (a UInt8, b String,) ENGINE = MergeTree ORDER BY (a, b,)", ""},
            {"INSERT INTO tcomma (a, b,) VALUES (1, 'x')", ""},
            {"INSERT INTO tcomma (a,) VALUES (2)", ""},
            {"SELECT a, b, FROM tcomma ORDER BY a FORMAT TSV", "1\tx\n2\t"},
            {"WITH 1 AS x, SELECT x", "1"},
            {"SELECT (1, 2,), (1,), toTypeName((1,)), 1 IN (1, 2,)", "(1,2)\t(1)\tTuple(UInt8)\t1"},
            {"SELECT name, type FROM system.columns WHERE table = 'tcomma2' ORDER BY position", "a\tUInt8\nb\tString"},
            {"SELECT tuple(1, 2,)", "Code: 62 SYNTAX_ERROR"},
            {"SELECT [1, 2,]", "Code: 62 SYNTAX_ERROR"},
            {"SELECT a FROM tcomma ORDER BY a,", "Code: 62 SYNTAX_ERROR"},
            {"SELECT 1 GROUP BY 1,", "Code: 62 SYNTAX_ERROR"},
            {"CREATE TABLE tcomma3 (a UInt8,,) ENGINE = Memory", "Code: 62 SYNTAX_ERROR"},
            {"CREATE TABLE tcomma3 (,) ENGINE = Memory", "Code: 62 SYNTAX_ERROR"},
            {"INSERT INTO tcomma (,) VALUES (3)", "Code: 62 SYNTAX_ERROR"},
            {"SELECT count() FROM tcomma", "2"},
            {"EXISTS TABLE tcomma3", "0"},
        };
    }
}
