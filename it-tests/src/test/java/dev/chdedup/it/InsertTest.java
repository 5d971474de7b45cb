package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * INSERTs through the official driver: Statement.executeUpdate with VALUES (the update count is the number of rows
 * written) and PreparedStatement batches, on the driver's default path (one SQL text with inlined literals) and on
 * its RowBinary path ({@code beta.row_binary_for_simple_insert=true}: DESCRIBE ... FORMAT TSKV, then a RowBinary
 * body).
 */
class InsertTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static final String COLUMNS = "(id UInt64, s String, ts DateTime64(3, 'UTC'), f Nullable(Float64), dec Decimal(18, 4), d Date, tags Array(String))";
    private static final String[] STRINGS = {"plain", "it's", "back\\slash", "tab\there", "line\nbreak", "ünïcødé ✓ 😀", ""};

    @Test
    void executeUpdateReturnsRowsWritten() throws Exception {
        STUB.scalar("CREATE TABLE upd (id UInt64, s String) ENGINE = MergeTree ORDER BY id");
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            assertEquals(3, st.executeUpdate("INSERT INTO upd VALUES (1, 'one'), (2, 'two'), (3, 'three')"));
            assertEquals(1, st.executeUpdate("INSERT INTO upd (id, s) VALUES (4, 'it''s')"));
            assertEquals(10, st.executeUpdate("INSERT INTO upd SELECT number + 100, toString(number) FROM numbers(10)"));
            assertEquals(14, count(st, "upd"));
            try (ResultSet rs = st.executeQuery("SELECT id, s FROM upd WHERE id < 100 ORDER BY id")) {
                String[] expected = {"one", "two", "three", "it's"};
                for (int i = 0; i < expected.length; i++) {
                    assertTrue(rs.next());
                    assertEquals(i + 1, rs.getLong(1));
                    assertEquals(expected[i], rs.getString(2));
                }
                assertFalse(rs.next());
            }
            assertEquals("109\t9", STUB.scalar("SELECT max(id), max(s) FROM upd WHERE id >= 100"));
        }
    }

    @Test
    void preparedBatchOnDefaultPath() throws Exception {
        batchRoundTrip("batch_text", false);
    }

    @Test
    void preparedBatchOnRowBinaryPath() throws Exception {
        batchRoundTrip("batch_rowbinary", true);
    }

    @Test
    void describeAsTskvForTheRowBinaryPath() {
        STUB.scalar("CREATE TABLE desc_t (id UInt64, s String DEFAULT 'x') ENGINE = MergeTree ORDER BY id");
        String tskv = STUB.scalar("DESCRIBE TABLE desc_t FORMAT TSKV");
        String[] lines = tskv.split("\n");
        assertEquals(2, lines.length, tskv);
        assertTrue(lines[0].startsWith("name=id\ttype=UInt64\tdefault_type=\tdefault_expression=\t"), lines[0]);
        assertTrue(lines[1].startsWith("name=s\ttype=String\tdefault_type=DEFAULT\tdefault_expression=\\'x\\'\t"), lines[1]);
    }

    @Test
    void rowBinaryPathWithDefaultColumn() throws Exception {
        STUB.scalar("CREATE TABLE batch_defaults (id UInt64, s String DEFAULT 'dflt', n UInt32 DEFAULT 7) ENGINE = MergeTree ORDER BY id");
        try (Connection c = STUB.connect("beta.row_binary_for_simple_insert", "true");
             PreparedStatement ps = c.prepareStatement("INSERT INTO batch_defaults VALUES (?, ?, ?)")) {
            assertEquals("com.clickhouse.jdbc.WriterStatementImpl", ps.getClass().getName());
            for (int i = 1; i <= 4; i++) {
                ps.setLong(1, i);
                ps.setString(2, "s" + i);
                ps.setInt(3, i * 10);
                ps.addBatch();
            }
            assertArrayEquals(new int[] {1, 1, 1, 1}, ps.executeBatch());
        }
        assertEquals("1\ts1\t10\n2\ts2\t20\n3\ts3\t30\n4\ts4\t40", STUB.scalar("SELECT * FROM batch_defaults ORDER BY id"));
    }

    private void batchRoundTrip(String table, boolean rowBinary) throws Exception {
        STUB.scalar("CREATE TABLE " + table + " " + COLUMNS + " ENGINE = MergeTree ORDER BY id");
        Instant base = Instant.parse("2024-03-10T01:59:59.123Z");
        try (Connection c = rowBinary ? STUB.connect("beta.row_binary_for_simple_insert", "true") : STUB.connect();
             PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " (id, s, ts, f, dec, d, tags) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            assertEquals(rowBinary ? "com.clickhouse.jdbc.WriterStatementImpl" : "com.clickhouse.jdbc.PreparedStatementImpl", ps.getClass().getName());
            for (int i = 0; i < STRINGS.length; i++) {
                ps.setLong(1, i + 1);
                ps.setString(2, STRINGS[i]);
                ps.setObject(3, base.plusMillis(i * 1_001L));
                if (i % 2 == 0) {
                    ps.setNull(4, Types.DOUBLE);
                } else {
                    ps.setDouble(4, i + 0.25);
                }
                ps.setBigDecimal(5, new BigDecimal("-1234.5678").add(BigDecimal.valueOf(i)));
                ps.setObject(6, LocalDate.of(2024, 2, 28).plusDays(i));
                ps.setObject(7, Arrays.asList("a" + i, "b'" + i));
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            int[] ones = new int[STRINGS.length];
            Arrays.fill(ones, 1);
            assertArrayEquals(ones, counts);
        }
        assertEquals(STRINGS.length, STUB.count(table));
        try (Connection c = STUB.connect(); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, s, ts, f, dec, d, tags FROM " + table + " ORDER BY id")) {
            for (int i = 0; i < STRINGS.length; i++) {
                assertTrue(rs.next());
                assertEquals(i + 1, rs.getLong(1));
                assertEquals(BigInteger.valueOf(i + 1), rs.getObject(1));
                assertEquals(STRINGS[i], rs.getString(2));
                assertEquals(base.plusMillis(i * 1_001L), rs.getObject(3, Instant.class));
                if (i % 2 == 0) {
                    assertNull(rs.getObject(4));
                } else {
                    assertEquals(i + 0.25, rs.getDouble(4));
                }
                assertEquals(new BigDecimal("-1234.5678").add(BigDecimal.valueOf(i)), rs.getBigDecimal(5));
                assertEquals(LocalDate.of(2024, 2, 28).plusDays(i), rs.getObject(6, LocalDate.class));
                assertArrayEquals(new Object[] {"a" + i, "b'" + i}, (Object[]) rs.getArray(7).getArray());
            }
            assertFalse(rs.next());
        }
        // the same values seen without the driver: TabSeparated over plain HTTP
        assertEquals("2\tit\\'s\t2024-03-10 02:00:00.124\t1.25\t-1233.5678\t2024-02-29\t['a1','b\\'1']",
            STUB.scalar("SELECT * FROM " + table + " WHERE id = 2"));
    }

    private static long count(Statement st, String table) throws Exception {
        try (ResultSet rs = st.executeQuery("SELECT count() FROM " + table)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }
}
