package dev.chdedup.stub.system;

import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;

/**
 * One row of {@code system.columns}: besides name, type and default, the SQL-standard facts ClickHouse derives from
 * the type (character_octet_length for FixedString, numeric_precision as bit width or decimal digits with its
 * radix, numeric_scale, datetime_precision for DateTime64; NULL where they do not apply), which JDBC's getColumns
 * selects.
 */
final class ColumnFacts {
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
}
