package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link DatabaseMetaData} through the official JDBC driver, as Flyway, Liquibase, Hibernate validation, jOOQ and
 * DBeaver call it: tables, columns (names, types, nullability, positions, defaults), primary keys, type info,
 * functions, table types, schemas; and {@code PreparedStatement.getMetaData()} (which sends {@code DESCRIBE (query)}).
 */
class JdbcMetadataTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    @BeforeAll
    static void schema() {
        STUB.scalar("CREATE TABLE orders (id UInt64, customer String, amount Nullable(Decimal(10, 2)),"
            + " created DateTime DEFAULT now(), note String COMMENT 'free text') ENGINE = MergeTree ORDER BY (id, customer)");
        STUB.scalar("CREATE TABLE audit (at DateTime, what String) ENGINE = MergeTree ORDER BY at");
    }

    private static List<String> column(ResultSet rs, String name) throws Exception {
        List<String> out = new ArrayList<>();
        while (rs.next()) {
            out.add(rs.getString(name));
        }
        return out;
    }

    @Test
    void getTablesListsTheDatabaseTables() throws Exception {
        try (Connection c = STUB.connect(); ResultSet rs = c.getMetaData().getTables(null, "default", "%", null)) {
            Set<String> names = new TreeSet<>();
            while (rs.next()) {
                assertEquals("default", rs.getString("TABLE_SCHEM"));
                assertEquals("TABLE", rs.getString("TABLE_TYPE"), "the driver maps the engine to a JDBC table type");
                names.add(rs.getString("TABLE_NAME"));
            }
            assertEquals(Set.of("audit", "orders"), names);
        }
        try (Connection c = STUB.connect(); ResultSet rs = c.getMetaData().getTables(null, "default", "ord%", new String[] {"TABLE"})) {
            assertEquals(List.of("orders"), column(rs, "TABLE_NAME"));
        }
    }

    @Test
    void getColumnsDescribesEachColumn() throws Exception {
        try (Connection c = STUB.connect(); ResultSet rs = c.getMetaData().getColumns(null, "default", "orders", "%")) {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString("COLUMN_NAME"));
                assertEquals(names.size(), rs.getInt("ORDINAL_POSITION"));
                switch (rs.getString("COLUMN_NAME")) {
                    case "id":
                        assertEquals("UInt64", rs.getString("TYPE_NAME"));
                        assertEquals(DatabaseMetaData.columnNoNulls, rs.getInt("NULLABLE"));
                        assertEquals("NO", rs.getString("IS_NULLABLE"));
                        break;
                    case "customer":
                        assertEquals(Types.VARCHAR, rs.getInt("DATA_TYPE"));
                        break;
                    case "amount":
                        assertEquals(Types.DECIMAL, rs.getInt("DATA_TYPE"));
                        assertEquals(10, rs.getInt("COLUMN_SIZE"));
                        assertEquals(2, rs.getInt("DECIMAL_DIGITS"));
                        assertEquals(DatabaseMetaData.columnNullable, rs.getInt("NULLABLE"));
                        assertEquals("YES", rs.getString("IS_NULLABLE"));
                        break;
                    case "created":
                        assertEquals("now()", rs.getString("COLUMN_DEF"));
                        break;
                    case "note":
                        assertEquals("free text", rs.getString("REMARKS"));
                        break;
                    default:
                        break;
                }
            }
            assertEquals(List.of("id", "customer", "amount", "created", "note"), names);
        }
    }

    @Test
    void getPrimaryKeysFollowsTheSortingKey() throws Exception {
        try (Connection c = STUB.connect(); ResultSet rs = c.getMetaData().getPrimaryKeys(null, "default", "orders")) {
            Set<String> keys = new TreeSet<>();
            while (rs.next()) {
                keys.add(rs.getString("COLUMN_NAME") + ":" + rs.getShort("KEY_SEQ") + ":" + rs.getString("PK_NAME"));
            }
            assertEquals(Set.of("id:1:PRIMARY", "customer:2:PRIMARY"), keys);
        }
    }

    @Test
    void getTypeInfoListsTheDataTypeFamilies() throws Exception {
        try (Connection c = STUB.connect(); ResultSet rs = c.getMetaData().getTypeInfo()) {
            Set<String> types = new TreeSet<>(column(rs, "TYPE_NAME"));
            assertTrue(types.containsAll(Set.of("UInt8", "Int64", "String", "DateTime64", "Decimal", "Array", "Nullable")), types.toString());
        }
    }

    @Test
    void getFunctionsAndTableTypesAndSchemas() throws Exception {
        try (Connection c = STUB.connect()) {
            DatabaseMetaData md = c.getMetaData();
            try (ResultSet rs = md.getFunctions(null, null, "array%")) {
                List<String> fns = column(rs, "FUNCTION_NAME");
                assertTrue(fns.contains("arrayJoin") && fns.contains("arrayMap"), fns.toString());
                assertFalse(fns.contains("count"), "only names LIKE the pattern");
            }
            try (ResultSet rs = md.getTableTypes()) {
                List<String> types = column(rs, "TABLE_TYPE");
                assertTrue(types.contains("TABLE") && types.contains("VIEW"), types.toString());
            }
            try (ResultSet rs = md.getSchemas()) {
                List<String> schemas = column(rs, "TABLE_SCHEM");
                assertTrue(schemas.contains("default") && schemas.contains("system"), schemas.toString());
            }
            try (ResultSet rs = md.getCatalogs()) {
                assertEquals("TABLE_CAT", rs.getMetaData().getColumnName(1));
            }
            try (ResultSet rs = md.getImportedKeys(null, "default", "orders")) {
                assertFalse(rs.next(), "ClickHouse has no foreign keys");
            }
        }
    }

    @Test
    void preparedStatementMetadataDescribesTheResult() throws Exception {
        try (Connection c = STUB.connect(); PreparedStatement ps = c.prepareStatement("SELECT id, amount, count() AS n FROM orders WHERE id = ? GROUP BY id, amount")) {
            ResultSetMetaData md = ps.getMetaData();
            assertEquals(3, md.getColumnCount());
            assertEquals("id", md.getColumnName(1));
            assertEquals("UInt64", md.getColumnTypeName(1));
            assertEquals("Nullable(Decimal(10, 2))", md.getColumnTypeName(2));
            assertEquals(ResultSetMetaData.columnNullable, md.isNullable(2));
            assertEquals("n", md.getColumnName(3));
        }
    }
}
