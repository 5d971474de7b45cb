package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * EXPLAIN through the official JDBC driver (jdbc-v2), which classifies it as a statement with a result set, as the
 * client's own suites send it: one String column explain, one row a line. The texts are ClickHouse 26.7's (the
 * stub's ExplainTest holds many more of them).
 */
class ExplainJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static List<String> lines(Statement st, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = st.executeQuery(sql)) {
            assertEquals(1, rs.getMetaData().getColumnCount());
            assertEquals("explain", rs.getMetaData().getColumnName(1));
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    @Test
    void explainAnswersTheEnginesLines() throws Exception {
        STUB.scalar("CREATE TABLE explain_t (a UInt32, b String) ENGINE = MergeTree ORDER BY a");
        STUB.scalar("INSERT INTO explain_t VALUES (1, 'x'), (2, 'y')");
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            assertEquals(List.of(
                "SelectWithUnionQuery (children 1)",
                " ExpressionList (children 1)",
                "  SelectQuery (children 3)",
                "   ExpressionList (children 2)",
                "    Identifier a",
                "    Function plus (alias c) (children 1)",
                "     ExpressionList (children 2)",
                "      Identifier a",
                "      Literal UInt64_1",
                "   TablesInSelectQuery (children 1)",
                "    TablesInSelectQueryElement (children 1)",
                "     TableExpression (children 1)",
                "      TableIdentifier explain_t",
                "   Function greater (children 1)",
                "    ExpressionList (children 2)",
                "     Identifier a",
                "     Literal UInt64_1"), lines(st, "EXPLAIN AST SELECT a, a + 1 AS c FROM explain_t WHERE a > 1"));
            assertEquals(List.of(
                "SELECT",
                "    b,",
                "    count()",
                "FROM explain_t",
                "WHERE and(greaterOrEquals(a, 1), lessOrEquals(a, 2))",
                "GROUP BY b",
                "ORDER BY b DESC",
                "LIMIT 10"), lines(st, "EXPLAIN SYNTAX SELECT b, count() FROM explain_t WHERE a BETWEEN 1 AND 2 GROUP BY b ORDER BY b DESC LIMIT 10"));
            assertEquals(List.of(
                "Output: a",
                "",
                "Limit (preliminary LIMIT)",
                "\u2502  Limit 1",
                "\u2502  Offset 0",
                "\u2514\u2500\u2500ReadFromMergeTree (default.explain_t)",
                "      Read type: Default",
                "      Parts: 1 | Granules: 1",
                "      Output: a"), lines(st, "EXPLAIN SELECT a FROM explain_t LIMIT 1"));
            assertEquals(List.of("(Expression)", "ExpressionTransform", "  (ReadFromSystemNumbers)", "  NumbersRange 0 \u2192 1"),
                lines(st, "EXPLAIN PIPELINE SELECT number FROM numbers(10)"));
            assertTrue(st.execute("EXPLAIN PLAN header = 1 SELECT 1"), "the driver reads EXPLAIN's rows");
            try (ResultSet rs = st.getResultSet()) {
                assertTrue(rs.next());
                assertEquals("Output: 1", rs.getString(1));
            }
            try (ResultSet rs = st.executeQuery("EXPLAIN ESTIMATE SELECT * FROM explain_t")) {
                assertEquals("database", rs.getMetaData().getColumnName(1));
                assertTrue(rs.next());
                assertEquals("default", rs.getString("database"));
                assertEquals("explain_t", rs.getString("table"));
                assertEquals(1, rs.getLong("parts"));
                assertEquals(2, rs.getLong("rows"));
                assertEquals(1, rs.getLong("marks"));
            }
            SQLException e = assertThrows(SQLException.class, () -> st.executeQuery("EXPLAIN AST nosuch = 1 SELECT 1"));
            assertTrue(e.getMessage().contains("Unknown setting \"nosuch\" for EXPLAIN AST query. Supported settings: optimize, graph."
                + " (UNKNOWN_SETTING)"), e.getMessage());
        }
    }
}
