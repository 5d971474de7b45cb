package dev.chdedup.stub.exec;

import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TimeType;
import dev.chdedup.stub.types.UuidType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;

/**
 * Type inference rules: the type of a literal, the result type of arithmetic and the common supertype of
 * if/array branches, and value comparison across types, following ClickHouse's rules where the stub needs them.
 */
public final class TypeRules {
    private TypeRules() {
    }

    /** The smallest type ClickHouse gives a literal: 1 is UInt8, -1 Int8, 1.5 Float64. */
    public static DataType literalType(Object v) {
        if (v == null) {
            return DataTypes.nullable(DataTypes.NOTHING);
        }
        if (v instanceof Long) {
            long x = (Long) v;
            if (x >= 0) {
                return x <= 0xFF ? DataTypes.UINT8 : x <= 0xFFFF ? DataTypes.UINT16 : x <= 0xFFFFFFFFL ? DataTypes.UINT32 : DataTypes.UINT64;
            }
            return x >= -128 ? DataTypes.INT8 : x >= -32768 ? DataTypes.INT16 : x >= Integer.MIN_VALUE ? DataTypes.INT32 : DataTypes.INT64;
        }
        if (v instanceof BigInteger) {
            BigInteger b = (BigInteger) v;
            if (b.signum() >= 0 && b.bitLength() <= 64) {
                return DataTypes.UINT64;
            }
            return DataTypes.parse(b.signum() >= 0 && b.bitLength() <= 128 ? "UInt128" : "Int128");
        }
        if (v instanceof Double) {
            return DataTypes.FLOAT64;
        }
        if (v instanceof Boolean) {
            return DataTypes.BOOL;
        }
        return DataTypes.STRING;
    }

    /** The literal value in its type's representation (UInt64 literals above Long.MAX as unsigned bits). */
    public static Object literalValue(Object v) {
        if (v instanceof BigInteger && ((BigInteger) v).signum() >= 0 && ((BigInteger) v).bitLength() == 64) {
            return ((BigInteger) v).longValue();
        }
        return v;
    }

    public static boolean isNumeric(DataType t) {
        DataType u = t.unwrap();
        return u instanceof IntType || u instanceof FloatType || u instanceof DecimalType || u instanceof BigIntType
            || u instanceof BoolType;
    }

    /**
     * Whether the Pretty and Markdown formats align a column of {@code t} to the right, as ClickHouse's
     * shouldAlignRightInPrettyFormats: numbers, dates, times (Nullable too); not Bool, Enum, UUID, addresses or strings.
     */
    public static boolean alignsRight(DataType t) {
        DataType u = t.unwrap();
        return u instanceof IntType || u instanceof FloatType || u instanceof DecimalType || u instanceof BigIntType || isTimeLike(u)
            || u instanceof TimeType;
    }

    public static boolean isInteger(DataType t) {
        DataType u = t.unwrap();
        return u instanceof IntType || u instanceof BigIntType || u instanceof BoolType;
    }

    static int bits(DataType t) {
        DataType u = t.unwrap();
        if (u instanceof IntType) {
            return ((IntType) u).bits;
        }
        if (u instanceof BigIntType) {
            return ((BigIntType) u).bits;
        }
        return 8;
    }

    static boolean signed(DataType t) {
        DataType u = t.unwrap();
        if (u instanceof IntType) {
            return ((IntType) u).signed;
        }
        if (u instanceof BigIntType) {
            return ((BigIntType) u).signed;
        }
        return false;
    }

    public static DataType intType(int bits, boolean signed) {
        if (bits > 64) {
            return DataTypes.parse((signed ? "Int" : "UInt") + Math.min(bits, 256));
        }
        switch (bits) {
            case 8: return signed ? DataTypes.INT8 : DataTypes.UINT8;
            case 16: return signed ? DataTypes.INT16 : DataTypes.UINT16;
            case 32: return signed ? DataTypes.INT32 : DataTypes.UINT32;
            default: return signed ? DataTypes.INT64 : DataTypes.UINT64;
        }
    }

    /** Smallest type that holds both (numbers, strings, dates), for if/multiIf/array/UNION. */
    public static DataType common(List<DataType> types) {
        DataType mixed = variantOrDynamicSupertype(types);
        if (mixed != null) {
            return mixed;
        }
        DataType acc = null;
        boolean nullable = false;
        for (DataType t : types) {
            if (t.isNullable()) {
                nullable = true;
            }
            DataType u = stripNullable(t);
            if (u.unwrap() instanceof NothingType) {
                continue;
            }
            acc = acc == null ? u : common2(acc, u);
        }
        if (acc == null) {
            acc = DataTypes.NOTHING;
        }
        return nullable ? DataTypes.nullable(acc) : acc;
    }

    /**
     * The supertype of types of which one is Dynamic (that Dynamic) or a Variant (a Variant of all their variants and
     * other types, Nullable stripped), as ClickHouse's getLeastSupertype has it; null when none is.
     */
    private static DataType variantOrDynamicSupertype(List<DataType> types) {
        java.util.LinkedHashSet<DataType> variants = new java.util.LinkedHashSet<>();
        boolean anyVariant = false;
        for (DataType t : types) {
            DataType u = t.unwrap();
            if (u instanceof dev.chdedup.stub.types.DynamicType) {
                return u;
            }
            if (u instanceof dev.chdedup.stub.types.VariantType) {
                anyVariant = true;
                variants.addAll(((dev.chdedup.stub.types.VariantType) u).variants);
            } else if (!(stripNullable(t).unwrap() instanceof NothingType)) {
                variants.add(stripNullable(t));
            }
        }
        return anyVariant ? DataTypes.parse("Variant(" + String.join(", ", variants.stream().map(DataType::name).toList()) + ")") : null;
    }

    private static boolean fitsFloat32(DataType u) {
        return u.equals(DataTypes.FLOAT32) || u instanceof BoolType || u instanceof IntType i && i.bits <= 16;
    }

    public static DataType stripNullable(DataType t) {
        if (t instanceof dev.chdedup.stub.types.NullableType) {
            return ((dev.chdedup.stub.types.NullableType) t).inner;
        }
        if (t instanceof dev.chdedup.stub.types.LowCardinalityType) {
            return stripNullable(((dev.chdedup.stub.types.LowCardinalityType) t).inner);
        }
        return t;
    }

    private static DataType common2(DataType a, DataType b) {
        if (a.equals(b)) {
            return a;
        }
        DataType ua = a.unwrap();
        DataType ub = b.unwrap();
        if (ua.equals(ub)) {
            return ua;
        }
        if (ua instanceof TimeType && ub instanceof TimeType) {
            // Time and Time64(P): Time64 of the larger precision
            return DataTypes.parse("Time64(" + Math.max(0, Math.max(((TimeType) ua).precision, ((TimeType) ub).precision)) + ")");
        }
        if (ua instanceof FloatType || ub instanceof FloatType) {
            if (isNumeric(ua) && isNumeric(ub)) {
                // Float32 holds Float32 and the integers of up to 16 bits exactly, as ClickHouse's getLeastSupertype has it
                return fitsFloat32(ua) && fitsFloat32(ub) ? DataTypes.FLOAT32 : DataTypes.FLOAT64;
            }
        }
        if (ua instanceof DecimalType || ub instanceof DecimalType) {
            if (isNumeric(ua) && isNumeric(ub)) {
                // the larger scale, and room for the integer's digits besides it, in the smallest decimal width that holds
                // that and the widest decimal of the two (Decimal(9, 2) and UInt8 are a Decimal(9, 2), and UInt32 a Decimal(18, 2))
                int s = Math.max(ua instanceof DecimalType ? ((DecimalType) ua).scale : 0, ub instanceof DecimalType ? ((DecimalType) ub).scale : 0);
                int digits = Math.max(integerDigits(ua), integerDigits(ub)) + s;
                int widest = Math.max(ua instanceof DecimalType ? ((DecimalType) ua).precision : 0, ub instanceof DecimalType ? ((DecimalType) ub).precision : 0);
                int need = Math.max(digits, widest);
                return DataTypes.decimal(need <= 9 ? 9 : need <= 18 ? 18 : need <= 38 ? 38 : 76, s);
            }
        }
        if (isInteger(ua) && isInteger(ub)) {
            boolean s = signed(ua) || signed(ub);
            int bits = Math.max(bits(ua), bits(ub));
            if (s && (!signed(ua) && bits(ua) >= bits || !signed(ub) && bits(ub) >= bits)) {
                bits = bits * 2;
            }
            return intType(Math.min(bits, 64), s);
        }
        if (isDateTimeOrDate(ua) && isDateTimeOrDate(ub)
            && (ua instanceof DateTimeType || ua instanceof DateTime64Type || ub instanceof DateTimeType || ub instanceof DateTime64Type)) {
            return commonDateTime(ua, ub);
        }
        if (ua instanceof StringType && ub instanceof StringType) {
            return DataTypes.STRING;
        }
        if (ua instanceof EnumType && ub instanceof StringType || ub instanceof EnumType && ua instanceof StringType) {
            return DataTypes.STRING;
        }
        // arrays of a common element (an empty array's Array(Nothing) takes the other's), tuples element by element
        if (ua instanceof dev.chdedup.stub.types.ArrayType aa && ub instanceof dev.chdedup.stub.types.ArrayType ab) {
            return DataTypes.array(common(List.of(aa.element, ab.element)));
        }
        if (ua instanceof dev.chdedup.stub.types.TupleType ta && ub instanceof dev.chdedup.stub.types.TupleType tb
                && ta.elements.size() == tb.elements.size() && ta.names == null && tb.names == null) {
            List<DataType> elements = new java.util.ArrayList<>();
            for (int i = 0; i < ta.elements.size(); i++) {
                elements.add(common(List.of(ta.elements.get(i), tb.elements.get(i))));
            }
            return DataTypes.tuple(elements);
        }
        throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.NO_COMMON_TYPE,
            "There is no supertype for types " + a.name() + ", " + b.name());
    }

    private static boolean isDateTimeOrDate(DataType t) {
        return t instanceof DateTimeType || t instanceof DateTime64Type || t instanceof DateType;
    }

    /**
     * The supertype of a DateTime or DateTime64 and another of them or a Date, as ClickHouse's getLeastSupertype: the
     * wider of the two, zone and all (a DateTime64 over a DateTime over a Date, of two DateTime64 the larger precision,
     * the first of equals), except that a Date32 and a DateTime meet in DateTime64(0).
     */
    private static DataType commonDateTime(DataType a, DataType b) {
        if (a instanceof DateType && ((DateType) a).is32 && b instanceof DateTimeType
            || b instanceof DateType && ((DateType) b).is32 && a instanceof DateTimeType) {
            return DataTypes.dateTime64(0, null);
        }
        return width(b) > width(a) ? b : a;
    }

    private static int width(DataType t) {
        return t instanceof DateTime64Type ? 2 + ((DateTime64Type) t).precision : t instanceof DateTimeType ? 1 : 0;
    }

    /** The digits an integer type's values can have (0 for a decimal: ClickHouse counts only the integers'). */
    private static int integerDigits(DataType t) {
        if (t instanceof DecimalType) {
            return 0;
        }
        if (t instanceof BoolType) {
            return 1;
        }
        int bits = bits(t);
        boolean signed = signed(t);
        return bits == 8 ? 3 : bits == 16 ? 5 : bits == 32 ? 10 : bits == 64 ? (signed ? 19 : 20) : bits == 128 ? 39 : 77;
    }

    /** Compares two non-null values of possibly different types, converting strings to the other side's type. */
    public static int compare(Object a, DataType ta, Object b, DataType tb) {
        DataType ua = ta.unwrap();
        DataType ub = tb.unwrap();
        if (ua.equals(ub)) {
            return ua.compare(a, b);
        }
        if (ua instanceof StringType && !(ub instanceof StringType)) {
            return -compare(b, tb, a, ta);
        }
        if (ub instanceof StringType && !(ua instanceof StringType)) {
            if (ua instanceof EnumType) {
                return ((EnumType) ua).nameOf((Long) a).compareTo((String) b);
            }
            return ua.compare(a, ua.convert(b, ub));
        }
        if (ua instanceof TimeType && ub instanceof TimeType) {
            // ticks of different precisions compared at the finer one
            long sa = ((TimeType) ua).scale();
            long sb = ((TimeType) ub).scale();
            return sa == sb ? Long.compare((Long) a, (Long) b)
                : BigInteger.valueOf((Long) a).multiply(BigInteger.valueOf(sb)).compareTo(BigInteger.valueOf((Long) b).multiply(BigInteger.valueOf(sa)));
        }
        if (ua instanceof IntType && ub instanceof IntType) {
            long x = (Long) a;
            long y = (Long) b;
            boolean xu = !((IntType) ua).signed && ((IntType) ua).bits == 64 && x < 0;
            boolean yu = !((IntType) ub).signed && ((IntType) ub).bits == 64 && y < 0;
            if (xu || yu) {
                return xu && yu ? Long.compareUnsigned(x, y) : xu ? 1 : -1;
            }
            return Long.compare(x, y);
        }
        if (isTimeLike(ua) && isTimeLike(ub)) {
            return Long.compare(toEpochNanos(a, ua), toEpochNanos(b, ub));
        }
        if ((isNumeric(ua) || isTimeLike(ua)) && (isNumeric(ub) || isTimeLike(ub))) {
            Number x = Values.toNumber(a, ua);
            Number y = Values.toNumber(b, ub);
            if ((x instanceof Double || x instanceof Float) || (y instanceof Double || y instanceof Float)) {
                return Double.compare(x.doubleValue(), y.doubleValue());
            }
            return Values.toBigDecimal(x).compareTo(Values.toBigDecimal(y));
        }
        if (ua instanceof UuidType || ub instanceof UuidType) {
            return String.valueOf(a).compareTo(String.valueOf(b));
        }
        try {
            return ua.compare(a, ua.convert(b, ub));
        } catch (RuntimeException e) {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.NO_COMMON_TYPE,
                "Cannot compare " + ta.name() + " with " + tb.name());
        }
    }

    static boolean isTimeLike(DataType u) {
        return u instanceof DateType || u instanceof DateTimeType || u instanceof DateTime64Type;
    }

    static long toEpochNanos(Object v, DataType u) {
        long x = (Long) v;
        if (u instanceof DateType) {
            return x * 86400L * 1_000_000_000L;
        }
        if (u instanceof DateTimeType) {
            return x * 1_000_000_000L;
        }
        long scale = ((DateTime64Type) u).scale();
        return BigDecimal.valueOf(x).multiply(BigDecimal.valueOf(1_000_000_000L / scale)).longValue();
    }

    /** Whether {@code t} is Variant or Dynamic, which ORDER BY and GROUP BY keys refuse unless allowed. */
    static boolean isVariantOrDynamic(DataType t) {
        DataType b = t.unwrap();
        return b instanceof dev.chdedup.stub.types.VariantType || b instanceof dev.chdedup.stub.types.DynamicType;
    }
}
