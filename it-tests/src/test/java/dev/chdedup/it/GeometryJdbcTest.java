package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A Geometry column through the official JDBC driver: each kind of shape written in VALUES and read back. */
class GeometryJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void geometryValuesRoundTrip() throws Exception {
        STUB.scalar("CREATE TABLE shapes (k UInt8, g Geometry) ENGINE = MergeTree ORDER BY k");
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            assertEquals(3, st.executeUpdate("INSERT INTO shapes VALUES (1, (1, 2)), (2, [(0, 0), (1, 1)]), (3, [[[(0, 0), (1, 0), (0, 1)]]])"));
            try (ResultSet rs = st.executeQuery("SELECT toString(g), toTypeName(g) FROM shapes ORDER BY k")) {
                assertTrue(rs.next());
                assertEquals("(1,2)", rs.getString(1));
                assertEquals("Geometry", rs.getString(2));
                assertTrue(rs.next());
                assertEquals("[(0,0),(1,1)]", rs.getString(1));
                assertTrue(rs.next());
                assertEquals("[[[(0,0),(1,0),(0,1)]]]", rs.getString(1));
            }
        }
    }
}
