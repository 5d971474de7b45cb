package dev.chdedup.stub.system;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.mv.PlainView;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.StringType;
import java.util.List;
import java.util.Map;

/**
 * {@code system.columns}, row by row: besides name, type and default, the SQL-standard facts ClickHouse derives from
 * the type as ClickHouse 26.7 does (character_octet_length for FixedString, numeric_precision as an integer's bit
 * width, 8 for Bool, or a Decimal's digits, with its radix, numeric_scale, datetime_precision for Date, DateTime and
 * DateTime64; looking through Nullable but not LowCardinality; NULL where they do not apply, floats included), which
 * JDBC's getColumns and information_schema.columns select.
 */
final class ColumnFacts {
    private ColumnFacts() {
    }

    static void row(SystemTable.Row row, String db, String table, String name, DataType type, long position, String defaultKind,
                    String defaultExpression, String comment, long inPartitionKey, long inSortingKey, long inPrimaryKey) {
        DataType t = type instanceof NullableType n ? n.inner : type; // the engine looks through Nullable, not LowCardinality
        Long octets = t instanceof StringType && ((StringType) t).fixedLength > 0 ? (long) ((StringType) t).fixedLength : null;
        Long precision = null;
        Long radix = null;
        Long scale = null;
        if (t instanceof IntType || t instanceof BigIntType || t instanceof BoolType) {
            precision = (long) (t instanceof IntType ? ((IntType) t).bits : t instanceof BigIntType ? ((BigIntType) t).bits : 8);
            radix = 2L;
            scale = 0L;
        } else if (t instanceof DecimalType) {
            precision = (long) ((DecimalType) t).precision;
            radix = 10L;
            scale = (long) ((DecimalType) t).scale;
        }
        Long datetimePrecision = t instanceof DateTime64Type ? (Long) (long) ((DateTime64Type) t).precision
            : t instanceof DateType || t instanceof DateTimeType ? (Long) 0L : null;
        row.set("database", db).set("table", table).set("name", name).set("type", type.name()).set("position", position)
            .set("default_kind", defaultKind).set("default_expression", defaultExpression).set("comment", comment)
            .set("is_in_partition_key", inPartitionKey).set("is_in_sorting_key", inSortingKey).set("is_in_primary_key", inPrimaryKey)
            .set("character_octet_length", octets).set("numeric_precision", precision).set("numeric_precision_radix", radix)
            .set("numeric_scale", scale).set("datetime_precision", datetimePrecision);
    }

    /**
     * system.columns: every column of every table (MergeTree ones with their defaults, keys and comments; system tables
     * with the engine's kinds and comments).
     */
    static TableSource table(SystemCatalog catalog, SystemTables system, QueryContext ctx) {
        SystemTable out = SystemTable.of("columns");
        for (String db : catalog.databaseNames()) {
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (e.getValue() instanceof StorageMergeTree) {
                    StorageMergeTree m = (StorageMergeTree) e.getValue();
                    long pos = 1;
                    Map<String, String> cl = m.definition().clauseSql();
                    for (TableColumn tc : m.definition().allColumns()) {
                        row(out.add(), db, e.getKey(), tc.name(), tc.type(), pos++,
                            tc.defaultKind() == null ? "" : tc.defaultKind(), tc.defaultSql() == null ? "" : ShowCreate.formatted(tc.defaultSql()),
                            ByteStrings.fromText(cl.getOrDefault(dev.chdedup.stub.sql.Statement.COLUMN_COMMENT + tc.name(), "")), mentions(cl.get("PARTITION BY"), tc.name()),
                            mentions(cl.get("ORDER BY"), tc.name()), mentions(cl.getOrDefault("PRIMARY KEY", cl.get("ORDER BY")), tc.name()));
                    }
                    continue;
                }
                if (e.getValue() instanceof PlainView v && !v.columns().isEmpty()) { // its declared columns, without running it
                    long pos = 1;
                    for (Column col : v.columns()) {
                        row(out.add(), db, e.getKey(), col.name(), col.type(), pos++, "", "", "", 0L, 0L, 0L);
                    }
                    continue;
                }
                List<SystemTableSchema.ColumnDef> schema = db.equals(SystemCatalog.SYSTEM) ? SystemTableSchema.of(e.getKey(), ctx.compat()) : null;
                if (schema != null) {
                    long pos = 1;
                    for (SystemTableSchema.ColumnDef d : schema) {
                        row(out.add(), db, e.getKey(), d.name(), d.type(), pos++, d.shownKind(), d.defaultExpression(),
                            ByteStrings.fromText(d.comment()), 0L, 0L, 0L);
                    }
                    continue;
                }
                TableSource t;
                try {
                    t = db.equals(SystemCatalog.SYSTEM) ? system.table(e.getKey(), ctx) : catalog.table(db, e.getKey(), ctx);
                } catch (RuntimeException unreadable) {
                    continue;
                }
                if (t == null) {
                    continue;
                }
                long pos = 1;
                for (Column col : t.columns()) {
                    row(out.add(), db, e.getKey(), col.name(), col.type(), pos++, "", "", "", 0L, 0L, 0L);
                }
            }
        }
        return out.source();
    }

    static long mentions(String sql, String col) {
        return sql != null && sql.matches("(?s).*\\b" + java.util.regex.Pattern.quote(col) + "\\b.*") ? 1L : 0L;
    }
}
