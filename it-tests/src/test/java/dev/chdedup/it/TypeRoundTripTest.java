package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every type the stub supports, written as VALUES literals through the driver and read back with
 * {@code executeQuery} (RowBinaryWithNamesAndTypes, natively compressed or not), each value compared exactly
 * through the ResultSet getters an application would use. The columns and their expected values live in
 * {@link TypeCases}.
 */
class TypeRoundTripTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @BeforeAll
    static void createAndFill() throws Exception {
        String columns = TypeCases.COLUMNS.stream().map(c -> c.name() + " " + c.type()).collect(Collectors.joining(", "));
        List<String> rows = new ArrayList<>();
        for (int r = 0; r < TypeCases.ROWS; r++) {
            int row = r;
            rows.add("(" + row + ", " + TypeCases.COLUMNS.stream().map(c -> c.cells().get(row).literal()).collect(Collectors.joining(", ")) + ")");
        }
        try (Connection c = STUB.connect(); Statement st = c.createStatement()) {
            st.execute("CREATE TABLE types (row UInt8, " + columns + ") ENGINE = MergeTree ORDER BY row");
            assertEquals(TypeCases.ROWS, st.executeUpdate("INSERT INTO types VALUES " + String.join(", ", rows)));
        }
    }

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {true, false})
    void everyTypeRoundTrips(boolean compress) throws Exception {
        List<String> failures = new ArrayList<>();
        try (Connection c = STUB.connect("compress", Boolean.toString(compress)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT * FROM types ORDER BY row")) {
            ResultSetMetaData md = rs.getMetaData();
            assertEquals(TypeCases.COLUMNS.size() + 1, md.getColumnCount());
            for (int i = 0; i < TypeCases.COLUMNS.size(); i++) {
                TypeCases.Column col = TypeCases.COLUMNS.get(i);
                assertEquals(col.name(), md.getColumnName(i + 2));
                assertEquals(col.reportedType(), md.getColumnTypeName(i + 2), col.name());
            }
            for (int r = 0; r < TypeCases.ROWS; r++) {
                assertTrue(rs.next(), "row " + r);
                assertEquals(r, rs.getInt("row"));
                for (TypeCases.Column col : TypeCases.COLUMNS) {
                    failures.addAll(col.check(rs, r));
                }
            }
            assertFalse(rs.next());
        }
        assertEquals("", String.join("\n", failures), failures.size() + " mismatches");
    }

    /**
     * Every value read through the driver goes back in through a PreparedStatement batch (the driver's SQL literals,
     * or its RowBinary writer); the copy must print exactly like the original.
     */
    @ParameterizedTest(name = "rowBinary={0}")
    @ValueSource(booleans = {false, true})
    void everyTypeSurvivesAPreparedStatementCopy(boolean rowBinary) throws Exception {
        String copy = rowBinary ? "types_copy_rowbinary" : "types_copy_text";
        String columns = TypeCases.COLUMNS.stream().map(c -> c.name() + " " + c.type()).collect(Collectors.joining(", "));
        STUB.scalar("CREATE TABLE " + copy + " (row UInt8, " + columns + ") ENGINE = MergeTree ORDER BY row");
        int n = TypeCases.COLUMNS.size() + 1;
        String placeholders = String.join(", ", java.util.Collections.nCopies(n, "?"));
        try (Connection c = rowBinary ? STUB.connect("beta.row_binary_for_simple_insert", "true") : STUB.connect();
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT * FROM types ORDER BY row");
             java.sql.PreparedStatement ps = c.prepareStatement("INSERT INTO " + copy + " VALUES (" + placeholders + ")")) {
            while (rs.next()) {
                for (int i = 1; i <= n; i++) {
                    ps.setObject(i, driverInput(rs, i, rowBinary));
                }
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            assertEquals(TypeCases.ROWS, counts.length);
        }
        assertEquals(STUB.scalar("SELECT * FROM types ORDER BY row"), STUB.scalar("SELECT * FROM " + copy + " ORDER BY row"));
    }

    /** The last instant the driver's text path can write: it renders instants as {@code fromUnixTimestamp64Nano(<Int64 ns>)}. */
    private static final java.time.Instant LAST_NANO_INSTANT = java.time.Instant.ofEpochSecond(0, Long.MAX_VALUE);

    /**
     * A value read by the driver in the form its PreparedStatement writes back unambiguously: instants for date-times
     * (no JVM time zone involved; beyond 2262 the text path's nanosecond literal overflows, so those go as text),
     * LocalDate for dates (its RowBinary writer rejects java.sql.Date), and for tuples its own {@code Tuple} on the
     * text path (a plain Object[] is written as an array literal) but an Object[] for the RowBinary writer (which
     * rejects {@code Tuple}); the RowBinary writer also needs arrays as Java arrays (it writes no bytes at all for the
     * driver's own java.sql.Array).
     */
    private static Object driverInput(ResultSet rs, int i, boolean rowBinary) throws java.sql.SQLException {
        int type = rs.getMetaData().getColumnType(i);
        if (type == java.sql.Types.TIMESTAMP || type == java.sql.Types.TIMESTAMP_WITH_TIMEZONE) {
            java.time.ZonedDateTime v = rs.getObject(i, java.time.ZonedDateTime.class);
            return !rowBinary && v != null && v.toInstant().isAfter(LAST_NANO_INSTANT) ? rs.getString(i) : v;
        }
        if (type == java.sql.Types.DATE) {
            return rs.getObject(i, java.time.LocalDate.class);
        }
        Object v = rs.getObject(i);
        if (rowBinary && v instanceof java.sql.Array a) {
            return a.getArray();
        }
        return !rowBinary && rs.getMetaData().getColumnTypeName(i).startsWith("Tuple(") ? new com.clickhouse.data.Tuple((Object[]) v) : v;
    }

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {true, false})
    void dateTimeWithZoneIsTheRightInstant(boolean compress) throws Exception {
        try (Connection c = STUB.connect("compress", Boolean.toString(compress)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT toUnixTimestamp(dtb), toUnixTimestamp(dt), toString(toDateTime(dt, 'Asia/Kolkata')), toString(dtb) FROM types ORDER BY row")) {
            long[] berlin = {1719828000L, 1705303800L, 1711848600L};
            long[] utc = {4294967295L, 0L, 1704164645L};
            String[] kolkata = {"2106-02-07 11:58:15", "1970-01-01 05:30:00", "2024-01-02 08:34:05"};
            String[] berlinText = {"2024-07-01 12:00:00", "2024-01-15 08:30:00", "2024-03-31 03:30:00"};
            for (int r = 0; r < TypeCases.ROWS; r++) {
                assertTrue(rs.next());
                assertEquals(berlin[r], rs.getLong(1), "row " + r);
                assertEquals(utc[r], rs.getLong(2), "row " + r);
                assertEquals(kolkata[r], rs.getString(3), "row " + r);
                assertEquals(berlinText[r], rs.getString(4), "row " + r);
            }
        }
    }

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {true, false})
    void largeResultSpanningManyCompressedBlocks(boolean compress) throws Exception {
        int n = 300_000;
        try (Connection c = STUB.connect("compress", Boolean.toString(compress)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT number, toString(number) AS s, [number, number + 1] AS a FROM numbers(" + n + ")")) {
            long i = 0;
            while (rs.next()) {
                assertEquals(i, rs.getLong(1));
                if (i % 997 == 0) {
                    assertEquals(Long.toString(i), rs.getString(2));
                    assertEquals(BigInteger.valueOf(i + 1), ((Object[]) rs.getArray(3).getArray())[1]);
                }
                i++;
            }
            assertEquals(n, i);
        }
    }

    @ParameterizedTest(name = "compress={0}")
    @ValueSource(booleans = {true, false})
    void emptyResultHasColumnsAndNoRows(boolean compress) throws Exception {
        try (Connection c = STUB.connect("compress", Boolean.toString(compress)); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT row, dec FROM types WHERE row > 100")) {
            assertEquals(2, rs.getMetaData().getColumnCount());
            assertEquals("Decimal(18, 4)", rs.getMetaData().getColumnTypeName(2));
            assertFalse(rs.next());
        }
        // as text, ClickHouse drops a Decimal's trailing zeros (output_format_decimal_trailing_zeros = 0)
        assertEquals("0\t0.0000000001\t1", STUB.scalar("SELECT dec, dec38, dec128 FROM types WHERE row = 2"));
    }
}
