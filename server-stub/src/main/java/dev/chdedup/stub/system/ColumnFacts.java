package dev.chdedup.stub.system;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code system.columns}, row by row: besides name, type and default, the SQL-standard facts ClickHouse derives from
 * the type (character_octet_length for FixedString, numeric_precision as bit width or decimal digits with its
 * radix, numeric_scale, datetime_precision for DateTime64; NULL where they do not apply), which JDBC's getColumns
 * selects.
 */
final class ColumnFacts {
    private static Column c(String n, String type) {
        return new Column(n, DataTypes.parse(type));
    }

    private ColumnFacts() {
    }

    static Object[] row(String db, String table, String name, DataType type, long position, String defaultKind,
                        String defaultExpression, String comment, long inPartitionKey, long inSortingKey, long inPrimaryKey) {
        DataType t = type.unwrap();
        Long octets = t instanceof StringType && ((StringType) t).fixedLength > 0 ? (long) ((StringType) t).fixedLength : null;
        Long precision = null;
        Long radix = null;
        Long scale = null;
        if (t instanceof IntType || t instanceof BigIntType) {
            precision = (long) (t instanceof IntType ? ((IntType) t).bits : ((BigIntType) t).bits);
            radix = 2L;
            scale = 0L;
        } else if (t instanceof FloatType) {
            precision = ((FloatType) t).is64 ? 53L : 24L;
            radix = 2L;
        } else if (t instanceof DecimalType) {
            precision = (long) ((DecimalType) t).precision;
            radix = 10L;
            scale = (long) ((DecimalType) t).scale;
        }
        Long datetimePrecision = t instanceof DateTime64Type ? (long) ((DateTime64Type) t).precision : null;
        return new Object[] {db, table, name, type.name(), position, defaultKind, defaultExpression, 0L, 0L, 0L, comment,
            inPartitionKey, inSortingKey, inPrimaryKey, 0L, "", octets, precision, radix, scale, datetimePrecision};
    }

    /** system.columns: every column of every table (MergeTree ones with their defaults, keys and comments). */
    static TableSource table(SystemCatalog catalog, SystemTables system, QueryContext ctx) {
        List<Column> cols = List.of(c("database", "String"), c("table", "String"), c("name", "String"), c("type", "String"),
            c("position", "UInt64"), c("default_kind", "String"), c("default_expression", "String"),
            c("data_compressed_bytes", "UInt64"), c("data_uncompressed_bytes", "UInt64"), c("marks_bytes", "UInt64"),
            c("comment", "String"), c("is_in_partition_key", "UInt8"), c("is_in_sorting_key", "UInt8"),
            c("is_in_primary_key", "UInt8"), c("is_in_sampling_key", "UInt8"), c("compression_codec", "String"),
            c("character_octet_length", "Nullable(UInt64)"), c("numeric_precision", "Nullable(UInt64)"),
            c("numeric_precision_radix", "Nullable(UInt64)"), c("numeric_scale", "Nullable(UInt64)"),
            c("datetime_precision", "Nullable(UInt64)"));
        List<Object[]> rows = new ArrayList<>();
        for (String db : catalog.databaseNames()) {
            if (db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (e.getValue() instanceof StorageMergeTree) {
                    StorageMergeTree m = (StorageMergeTree) e.getValue();
                    long pos = 1;
                    Map<String, String> cl = m.definition().clauseSql();
                    for (TableColumn tc : m.definition().allColumns()) {
                        rows.add(row(db, e.getKey(), tc.name(), tc.type(), pos++,
                            tc.defaultKind() == null ? "" : tc.defaultKind(), tc.defaultSql() == null ? "" : tc.defaultSql(),
                            ByteStrings.fromText(cl.getOrDefault(dev.chdedup.stub.sql.Statement.COLUMN_COMMENT + tc.name(), "")), mentions(cl.get("PARTITION BY"), tc.name()),
                            mentions(cl.get("ORDER BY"), tc.name()), mentions(cl.getOrDefault("PRIMARY KEY", cl.get("ORDER BY")), tc.name())));
                    }
                    continue;
                }
                if (db.equals("system") && e.getKey().equals("columns")) {
                    continue;
                }
                TableSource t;
                try {
                    t = db.equals("system") ? system.table(e.getKey(), ctx) : catalog.table(db, e.getKey(), ctx);
                } catch (RuntimeException unreadable) {
                    continue;
                }
                if (t == null) {
                    continue;
                }
                long pos = 1;
                for (Column col : t.columns()) {
                    rows.add(row(db, e.getKey(), col.name(), col.type(), pos++, "", "", "", 0L, 0L, 0L));
                }
            }
        }
        return SystemTables.snapshot(cols, rows);
    }

    static long mentions(String sql, String col) {
        return sql != null && sql.matches("(?s).*\\b" + java.util.regex.Pattern.quote(col) + "\\b.*") ? 1L : 0L;
    }
}
