package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Through the official clients, a result column without an alias carries the name a real ClickHouse gives it
 * ({@code plus(k, 1)}, {@code count()}, {@code or(false, 1)}), so code that reads a column by that name works against
 * the stub as against the server; and floats read back as the server writes them.
 */
class ColumnNamesJdbcTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static final String QUERY = "SELECT k + 1, count(*), k = 1, FALSE OR 1, CAST(k AS String), [k, 2], k AS named, 1e22, 1.50"
        + " FROM (SELECT toUInt8(1) AS k) GROUP BY k";
    private static final List<String> NAMES = List.of("plus(k, 1)", "count()", "equals(k, 1)", "or(false, 1)", "CAST(k, 'String')",
        "[k, 2]", "named", "1e22", "1.5");

    @Test
    void theJdbcDriverSeesTheServersColumnNames() throws Exception {
        try (Connection c = STUB.connect(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(QUERY)) {
            ResultSetMetaData md = rs.getMetaData();
            List<String> names = new ArrayList<>();
            for (int i = 1; i <= md.getColumnCount(); i++) {
                names.add(md.getColumnLabel(i));
            }
            assertEquals(NAMES, names);
            assertTrue(rs.next());
            assertEquals(2, rs.getInt("plus(k, 1)"));
            assertEquals(1, rs.getLong("count()"));
            assertEquals("1", rs.getString("CAST(k, 'String')"));
            assertEquals(1e22, rs.getDouble("1e22"));
        }
    }

    @Test
    void clientV2RecordsAreReadByTheServersColumnNames() throws Exception {
        try (Client client = STUB.newClient()) {
            List<GenericRecord> rows = client.queryAll(QUERY);
            assertEquals(1, rows.size());
            GenericRecord r = rows.get(0);
            assertEquals(2, r.getInteger("plus(k, 1)"));
            assertEquals(1, r.getLong("count()"));
            assertTrue(r.getBoolean("or(false, 1)"));
            assertEquals("1", r.getString("CAST(k, 'String')"));
        }
        try (Client client = STUB.newClient()) {
            String text = new String(client.query("SELECT 1e21, 1e20, 0.000001, 1.5e-7, toFloat32(0.1) FORMAT TSV").get().getInputStream().readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
            assertEquals("1e21\t100000000000000000000\t0.000001\t1.5e-7\t0.1\n", text);
        }
    }
}
