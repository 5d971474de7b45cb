package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code CREATE TEMPORARY TABLE} over HTTP sessions: the table (Memory by default) is seen by later queries of the
 * same session only, not by another session nor without one, and it shadows a permanent table of the same name;
 * system.tables lists it for its session only, with database '' and is_temporary = 1.
 */
class TemporaryTablesTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static ClickHouseHttp.Response in(String session, String sql) {
        return STUB.http().post("session_id=" + session, sql);
    }

    @Test
    void aTemporaryTableBelongsToItsSession() {
        assertEquals(200, in("s1", "CREATE TEMPORARY TABLE tmp (x UInt8)").status());
        assertEquals(200, in("s1", "INSERT INTO tmp VALUES (1), (2)").status());
        assertEquals("2", in("s1", "SELECT count() FROM tmp").text().strip());
        assertTrue(in("s1", "DESCRIBE TABLE tmp").text().startsWith("x\tUInt8\t"));
        ClickHouseHttp.Response other = in("s2", "SELECT count() FROM tmp");
        assertEquals(404, other.status(), other.text());
        assertTrue(other.text().contains("UNKNOWN_TABLE"), other.text());
        assertEquals(404, STUB.http().postSql("SELECT count() FROM tmp").status(), "not without a session either");
        assertEquals(200, in("s1", "DROP TABLE tmp").status());
        assertEquals(404, in("s1", "SELECT count() FROM tmp").status());
    }

    @Test
    void aTemporaryTableShadowsAPermanentOne() {
        STUB.scalar("CREATE TABLE shadowed (x UInt8) ENGINE = MergeTree ORDER BY x");
        STUB.scalar("INSERT INTO shadowed VALUES (7)");
        assertEquals(200, in("s3", "CREATE TEMPORARY TABLE shadowed (x UInt8) ENGINE = Memory").status());
        assertEquals("0", in("s3", "SELECT count() FROM shadowed").text().strip());
        assertEquals("7", in("s3", "SELECT x FROM default.shadowed").text().strip(), "a qualified name is the permanent table");
        ClickHouseHttp.Response again = in("s3", "CREATE TEMPORARY TABLE shadowed (x UInt8)");
        assertTrue(again.text().contains("TABLE_ALREADY_EXISTS"), again.text());
        ClickHouseHttp.Response withDb = in("s3", "CREATE TEMPORARY TABLE default.t2 (x UInt8)");
        assertTrue(withDb.text().contains("BAD_DATABASE_FOR_TEMPORARY_TABLE"), withDb.text());
    }

    @Test
    void systemTablesListsASessionsTemporaryTables() {
        assertEquals(200, in("s4", "CREATE TEMPORARY TABLE listed (x UInt8)").status());
        assertEquals(200, in("s4", "INSERT INTO listed VALUES (1), (2), (3)").status());
        String sql = "SELECT database, name, engine, is_temporary, total_rows FROM system.tables WHERE name = 'listed'";
        assertEquals("\tlisted\tMemory\t1\t3\n", in("s4", sql).text());
        assertEquals("", in("s5", sql).text(), "another session does not see it");
        assertEquals("", STUB.http().postSql(sql).text(), "nor a query without a session");
        assertEquals(200, in("s4", "DROP TABLE listed").status());
        assertEquals("", in("s4", sql).text(), "gone once dropped");
    }
}
