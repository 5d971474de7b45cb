package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Binary data in a String column through the official JDBC driver: bytes bound with {@code setBytes} (every
 * byte value, invalid UTF-8, a PNG-sized blob) are stored as those bytes, and {@code getBytes} returns them
 * unchanged (with the driver's {@code binary_string_support}, without which the driver itself decodes every
 * String as UTF-8, as it does against a real server); and a value inserted as a {@code \xHH} literal reads back
 * as its bytes.
 */
class BinaryStringTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static byte[] blob(long seed, int n) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** The driver's own RowBinary insert writer (beta.row_binary_for_simple_insert) refuses a byte[] for String. */
    @Test
    void setBytesAndGetBytesRoundTrip() throws Exception {
        String table = "blobs";
        STUB.scalar("CREATE TABLE " + table + " (id UInt32, b String) ENGINE = MergeTree ORDER BY id");
        byte[][] values = new byte[5][];
        values[0] = blob(1, 1328);
        values[1] = new byte[256];
        for (int i = 0; i < 256; i++) {
            values[1][i] = (byte) i;
        }
        values[2] = new byte[] {(byte) 0xFF, (byte) 0xFE};
        values[3] = new byte[0];
        values[4] = new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, '\r', '\\', '\''};
        try (Connection c = STUB.connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, b) VALUES (?, ?)")) {
            for (int i = 0; i < values.length; i++) {
                ps.setInt(1, i);
                ps.setBytes(2, values[i]);
                ps.addBatch();
            }
            ps.executeBatch();
        }
        try (Connection c = STUB.connect("binary_string_support", "true"); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, b, length(b), hex(b) FROM " + table + " ORDER BY id")) {
            for (int i = 0; i < values.length; i++) {
                assertTrue(rs.next(), "row " + i);
                assertEquals(i, rs.getInt(1));
                assertEquals(HexFormat.of().withUpperCase().formatHex(values[i]), rs.getString(4), "hex of value " + i);
                assertEquals(values[i].length, rs.getLong(3), "length of value " + i);
                assertArrayEquals(values[i], rs.getBytes(2), "value " + i);
            }
        }
    }

    @Test
    void escapedLiteralsReadBackAsBytes() throws Exception {
        STUB.scalar("CREATE TABLE lit (s String) ENGINE = MergeTree ORDER BY s");
        try (Connection c = STUB.connect("binary_string_support", "true"); Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO lit VALUES ('\\xFF\\x80')");
            try (ResultSet rs = st.executeQuery("SELECT s, hex(s) FROM lit")) {
                assertTrue(rs.next());
                assertEquals("FF80", rs.getString(2));
                assertArrayEquals(new byte[] {(byte) 0xFF, (byte) 0x80}, rs.getBytes(1));
            }
        }
    }
}
