package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.chdedup.driver.SqlText.Kind;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The statement classification, target, placeholder splitting and VALUES-tuple detection the driver decides once per statement. */
class SqlTextTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
        INSERT INTO t VALUES (1, 'a')                                       | INSERT_VALUES
        insert into t values (1)                                            | INSERT_VALUES
        Insert Into t Values(1)                                             | INSERT_VALUES
        INSERT INTO db.t VALUES (1)                                         | INSERT_VALUES
        INSERT INTO db.t (id, s) VALUES (?, ?)                              | INSERT_VALUES
        INSERT INTO `my db`.`my table` (`select`, `values`) VALUES (1, 2)   | INSERT_VALUES
        INSERT INTO "db"."t" VALUES (1)                                     | INSERT_VALUES
        INSERT INTO TABLE t VALUES (1)                                      | INSERT_VALUES
        INSERT INTO values_log VALUES (1)                                   | INSERT_VALUES
        INSERT INTO select_log (format_id) VALUES (1)                       | INSERT_VALUES
        INSERT INTO t SETTINGS async_insert = 1 VALUES (1)                  | INSERT_VALUES
        INSERT INTO t VALUES ('SELECT 1'), ('FORMAT')                       | INSERT_VALUES
        INSERT INTO FUNCTION remote('h', db.t) VALUES (1)                   | INSERT_VALUES
        INSERT INTO t FORMAT JSONEachRow {"id": 1}                          | INSERT_FORMAT
        insert into db.t (id) format CSV                                    | INSERT_FORMAT
        INSERT INTO t FORMAT RowBinary                                      | INSERT_FORMAT
        INSERT INTO t                                                       | INSERT_FORMAT
        INSERT INTO t SELECT number FROM numbers(10)                        | INSERT_SELECT
        insert into db.t (id, s) select number, 'VALUES' from numbers(10)   | INSERT_SELECT
        INSERT INTO t WITH 1 AS x SELECT x                                  | INSERT_SELECT
        SELECT 1                                                            | OTHER
        select * from t where s = 'INSERT INTO t VALUES (1)'                | OTHER
        WITH x AS (SELECT 1) SELECT * FROM x                                | OTHER
        CREATE TABLE t (id UInt64) ENGINE = MergeTree ORDER BY id           | OTHER
        INSERTX INTO t VALUES (1)                                           | OTHER
        INSERT1 INTO t VALUES (1)                                           | OTHER
        ALTER TABLE t DELETE WHERE 1                                        | OTHER
        SHOW TABLES                                                         | OTHER
        ''                                                                  | OTHER
        """)
    void classifiesStatements(String sql, Kind expected) {
        assertEquals(expected, SqlText.classify(sql), sql);
    }

    @Test
    void leadingCommentsAndWhiteSpaceAreSkipped() {
        assertEquals(Kind.INSERT_VALUES, SqlText.classify("-- load the rows\n  INSERT INTO t VALUES (1)"));
        assertEquals(Kind.INSERT_VALUES, SqlText.classify("/* a comment */ INSERT INTO t VALUES (1)"));
        assertEquals(Kind.INSERT_VALUES, SqlText.classify("/* one */ -- two\n/* three\n spanning */\n\t insert into t values (1)"));
        assertEquals(Kind.INSERT_SELECT, SqlText.classify("-- x\nINSERT INTO t SELECT 1"));
        assertEquals(Kind.INSERT_FORMAT, SqlText.classify("/**/INSERT INTO t FORMAT CSV"));
        assertEquals(Kind.OTHER, SqlText.classify("-- INSERT INTO t VALUES (1)\nSELECT 1"));
        assertEquals(Kind.OTHER, SqlText.classify("/* INSERT INTO t VALUES (1) */ SELECT 1"));
        assertEquals(Kind.OTHER, SqlText.classify("-- only a comment"));
    }

    @Test
    void commentsAfterTheTableDoNotDecideTheKind() {
        assertEquals(Kind.INSERT_VALUES, SqlText.classify("INSERT INTO t /* SELECT */ VALUES (1)"));
        assertEquals(Kind.INSERT_VALUES, SqlText.classify("INSERT INTO t -- then SELECT them\nVALUES (1)"));
        assertEquals(Kind.INSERT_SELECT, SqlText.classify("INSERT INTO t -- VALUES\nSELECT 1"));
        assertEquals(Kind.INSERT_SELECT, SqlText.classify("INSERT INTO t /* FORMAT CSV */ SELECT 1"));
    }

    @Test
    void readsTheTarget() {
        assertArrayEquals(new String[] {null, "t"}, SqlText.insertTarget("INSERT INTO t VALUES (1)"));
        assertArrayEquals(new String[] {"db", "t"}, SqlText.insertTarget("insert into db.t values (1)"));
        assertArrayEquals(new String[] {"db", "t"}, SqlText.insertTarget("/* c */ INSERT INTO db.t(id) VALUES (1)"));
        assertArrayEquals(new String[] {"my db", "my`table"}, SqlText.insertTarget("INSERT INTO `my db`.`my``table` VALUES (1)"));
        assertArrayEquals(new String[] {"db", "t"}, SqlText.insertTarget("INSERT INTO \"db\".\"t\" FORMAT CSV"));
        assertArrayEquals(new String[] {null, "t"}, SqlText.insertTarget("INSERT INTO TABLE t SELECT 1"));
        assertArrayEquals(new String[] {"db", "t_1"}, SqlText.insertTarget("INSERT\nINTO\n  db.t_1\nSELECT 1"));
        assertNull(SqlText.insertTarget("INSERT t VALUES (1)"));
        assertNull(SqlText.insertTarget("INSERT INTO a.b.c VALUES (1)"));
    }

    @Test
    void splitsAtPlaceholdersOutsideQuotesAndComments() {
        assertEquals(List.of("INSERT INTO t VALUES (", ", ", ")"), SqlText.splitPlaceholders("INSERT INTO t VALUES (?, ?)"));
        assertEquals(List.of("INSERT INTO t VALUES ('?', ", ", `?`, \"?\", '\\'?')"),
            SqlText.splitPlaceholders("INSERT INTO t VALUES ('?', ?, `?`, \"?\", '\\'?')"));
        assertEquals(List.of("INSERT INTO t VALUES ('it''s ?', ", ")"), SqlText.splitPlaceholders("INSERT INTO t VALUES ('it''s ?', ?)"));
        assertEquals(List.of("INSERT INTO t /* ? */ VALUES (", ") -- ?"), SqlText.splitPlaceholders("INSERT INTO t /* ? */ VALUES (?) -- ?"));
        assertEquals(List.of("INSERT INTO t -- ?\nVALUES (", ")"), SqlText.splitPlaceholders("INSERT INTO t -- ?\nVALUES (?)"));
        assertEquals(List.of("SELECT 1"), SqlText.splitPlaceholders("SELECT 1"));
        assertEquals(List.of("", ""), SqlText.splitPlaceholders("?"));
    }

    @Test
    void countsTheRowsOfAnInsertValues() {
        assertEquals(3, SqlText.valuesRowCount("INSERT INTO t VALUES (1, 'a'), (2, '(b), (c)'), (3, tuple(1, 2))"));
        assertEquals(2, SqlText.valuesRowCount("insert into t (a) values(1)(2) ; -- two\n"));
        assertEquals(1, SqlText.valuesRowCount("INSERT INTO values_t (`values`) VALUES ([(1, 2)]) /* one */"));
        assertEquals(-1, SqlText.valuesRowCount("INSERT INTO t SELECT 1"));
        assertEquals(-1, SqlText.valuesRowCount("INSERT INTO t VALUES (1), 'x'"));
        assertEquals(-1, SqlText.valuesRowCount("INSERT INTO t VALUES (1), (2"));
        assertEquals(-1, SqlText.valuesRowCount("INSERT INTO t VALUES (1)) , (2)"));
    }

    @Test
    void findsTheValuesTupleThatEndsTheStatement() {
        String sql = "INSERT INTO t (a, b) VALUES (?, ?)";
        assertEquals(sql.indexOf("(?"), SqlText.valuesTupleStart(sql));
        String lower = "insert into t values(?, lower(?))  ;  ";
        assertEquals(lower.indexOf("(?"), SqlText.valuesTupleStart(lower));
        String quoted = "INSERT INTO t VALUES (?, 'VALUES (x)', ?)";
        assertEquals(quoted.indexOf("(?"), SqlText.valuesTupleStart(quoted));
        String nested = "INSERT INTO t VALUES (?, (?, ?), [?])";
        assertEquals(nested.indexOf("(?"), SqlText.valuesTupleStart(nested));
        String named = "INSERT INTO values_t (`values`) VALUES (?)";
        assertEquals(named.indexOf("(?"), SqlText.valuesTupleStart(named));
    }

    @Test
    void noValuesTupleWhenTheStatementContinuesOrHasNone() {
        assertEquals(-1, SqlText.valuesTupleStart("INSERT INTO t VALUES (?), (?)"));
        assertEquals(-1, SqlText.valuesTupleStart("INSERT INTO t SELECT ?"));
        assertEquals(-1, SqlText.valuesTupleStart("INSERT INTO t FORMAT CSV"));
        assertEquals(-1, SqlText.valuesTupleStart("INSERT INTO t VALUES"));
        assertEquals(-1, SqlText.valuesTupleStart("INSERT INTO t VALUES ?"));
    }
}
