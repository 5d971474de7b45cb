package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A QBit column through the official JDBC driver: vectors written in VALUES, read back as text and by type. */
class QBitJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @Test
    void vectorsRoundTrip() throws Exception {
        STUB.scalar("CREATE TABLE vectors (k UInt8, v QBit(Float32, 3)) ENGINE = MergeTree ORDER BY k");
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            assertEquals(2, st.executeUpdate("INSERT INTO vectors VALUES (1, [1, 2, 3]), (2, [0.5, 0, -1])"));
            try (ResultSet rs = st.executeQuery("SELECT toString(v), toTypeName(v) FROM vectors ORDER BY k")) {
                assertTrue(rs.next());
                assertEquals("[1,2,3]", rs.getString(1));
                assertEquals("QBit(Float32, 3)", rs.getString(2));
                assertTrue(rs.next());
                assertEquals("[0.5,0,-1]", rs.getString(1));
            }
            java.sql.SQLException e = org.junit.jupiter.api.Assertions.assertThrows(java.sql.SQLException.class,
                () -> st.executeUpdate("INSERT INTO vectors VALUES (3, [1, 2])"));
            assertTrue(e.getMessage().contains("SIZES_OF_ARRAYS_DONT_MATCH"), e.getMessage());
        }
    }
}
