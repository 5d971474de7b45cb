package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IPv4Type;
import dev.chdedup.stub.types.IPv6Type;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.UuidType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Small functions of ClickHouse's "Other" category: the MAC address conversions (MACNumToString, MACStringToNum,
 * MACStringToOUI), identity, ignore, materialize, isConstant, toColumnTypeName, defaultValueOfArgumentType,
 * defaultValueOfTypeName, getSizeOfEnumType, countDigits, digits, isDecimalOverflow, byteSize, errorCodeToName,
 * getMergeTreeSetting and getSettingOrDefault.
 */
final class FunctionsOther {
    private static final String CATEGORY = "Other";

    private FunctionsOther() {
    }

    static void register(FunctionFactory f) {
        f.register("MACNumToString", CATEGORY, (args, ctx) -> macNumToString(args));
        f.register("MACStringToNum", CATEGORY, (args, ctx) -> macStringTo("MACStringToNum", args, 6, 17));
        f.register("MACStringToOUI", CATEGORY, (args, ctx) -> macStringTo("MACStringToOUI", args, 3, 8));
        f.register("identity", CATEGORY, (args, ctx) -> {
            Functions.arity("identity", args, 1);
            Evaluator a = args.get(0);
            return Evaluator.of(a.type(), a::eval);
        });
        f.register("ignore", CATEGORY, (args, ctx) -> Evaluator.constant(DataTypes.UINT8, 0L));
        f.register("materialize", CATEGORY, (args, ctx) -> {
            Functions.arity("materialize", args, 1);
            Evaluator a = args.get(0);
            return Evaluator.of(a.type(), a::eval);
        });
        f.register("isConstant", CATEGORY, (args, ctx) -> {
            Functions.arity("isConstant", args, 1);
            return Evaluator.constant(DataTypes.UINT8, args.get(0).constant() ? 1L : 0L);
        });
        f.register("toColumnTypeName", CATEGORY, (args, ctx) -> {
            Functions.arity("toColumnTypeName", args, 1);
            String name = columnName(args.get(0).type());
            return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(args.get(0).constant() ? "Const(" + name + ")" : name));
        });
        f.register("defaultValueOfArgumentType", CATEGORY, (args, ctx) -> {
            Functions.arity("defaultValueOfArgumentType", args, 1);
            return defaultOf(args.get(0).type());
        });
        f.register("defaultValueOfTypeName", CATEGORY, (args, ctx) -> {
            Functions.arity("defaultValueOfTypeName", args, 1);
            Evaluator a = args.get(0);
            if (!a.constant() || !(a.type().unwrap() instanceof StringType)) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN,
                    "The argument of function defaultValueOfTypeName must be a constant string describing type");
            }
            return defaultOf(DataTypes.parse(Functions.constString(a)));
        });
        f.register("getSizeOfEnumType", CATEGORY, (args, ctx) -> {
            Functions.arity("getSizeOfEnumType", args, 1);
            if (!(args.get(0).type().unwrap() instanceof EnumType e)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The argument for function getSizeOfEnumType must be Enum");
            }
            return Evaluator.constant(e.bits == 8 ? DataTypes.UINT8 : DataTypes.UINT16, (long) e.elements().size());
        });
        f.register("countDigits", CATEGORY, (args, ctx) -> countDigits(args));
        f.register("isDecimalOverflow", CATEGORY, (args, ctx) -> isDecimalOverflow(args));
        f.register("byteSize", CATEGORY, (args, ctx) -> Evaluator.of(DataTypes.UINT64, r -> {
            long n = 0;
            for (Evaluator a : args) {
                n += byteSize(a.eval(r), a.type());
            }
            return n;
        }));
        f.register("errorCodeToName", CATEGORY, (args, ctx) -> errorCodeToName(args));
        f.register("digits", CATEGORY, (args, ctx) -> digits(args));
        f.register("getMergeTreeSetting", CATEGORY, (args, ctx) -> {
            Functions.arity("getMergeTreeSetting", args, 1);
            String name = Functions.constString(args.get(0));
            RecordedSettings.Row row = RecordedSettings.mergeTreeSettings().get(name);
            if (row == null) {
                throw new ChException(ErrorCode.UNKNOWN_SETTING, "Unknown setting '" + name + "'");
            }
            return MiscFunctions.settingConstant(row.type(), row.defaultValue());
        });
        f.register("getSettingOrDefault", CATEGORY, (args, ctx) -> {
            Functions.arity("getSettingOrDefault", args, 2);
            try {
                return MiscFunctions.compile("getSetting", args.subList(0, 1), ctx);
            } catch (ChException e) {
                if (e.code() != ErrorCode.UNKNOWN_SETTING) {
                    throw e;
                }
                return args.get(1);
            }
        });
    }

    /**
     * digits(n, offset[, length]): the number the decimal digits of |n| from the 1-based offset (from the end when
     * negative) for length digits (up to length digits before the end when negative) make, as a UInt64; 0 when none.
     */
    private static Evaluator digits(List<Evaluator> args) {
        Functions.argumentCount("digits", args, 2, 1);
        String[] names = {"number", "offset", "length"};
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof IntType) && !(t instanceof NothingType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i], "digits",
                    "Int8/Int16/Int32/Int64/UInt8/UInt16/UInt32/UInt64", args.get(i).type());
            }
        }
        DataType t = args.get(0).type();
        return Functions.defaultForNulls(DataTypes.UINT64, args, v -> {
            String s = FunctionsBit.big(v[0], t).abs().toString();
            long offset = (Long) v[1];
            if (offset == 0) {
                throw new ChException(ErrorCode.ZERO_ARRAY_OR_TUPLE_INDEX, "Indices in number are 1-based");
            }
            long n = s.length();
            long start = offset > 0 ? offset - 1 : n + offset;
            long end = v.length < 3 ? n : (Long) v[2] >= 0 ? start + (Long) v[2] : n + (Long) v[2];
            start = Math.max(start, 0);
            end = Math.min(end, n);
            return end <= start ? 0L : new BigInteger(s.substring((int) start, (int) end)).longValue();
        });
    }

    /** The engine's error names by code (functions/error_codes.tsv, recorded from errorCodeToName on the engine). */
    private static final class ErrorNames {
        static final Map<Long, String> BY_CODE = load();

        private static Map<Long, String> load() {
            Map<Long, String> m = new java.util.HashMap<>();
            try (java.io.InputStream in = FunctionsOther.class.getResourceAsStream("/functions/error_codes.tsv")) {
                if (in == null) {
                    throw new IllegalStateException("missing resource /functions/error_codes.tsv");
                }
                for (String line : new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).split("\n")) {
                    int tab = line.indexOf('\t');
                    if (tab > 0) {
                        m.put(Long.parseLong(line.substring(0, tab)), line.substring(tab + 1));
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            return m;
        }
    }

    /** errorCodeToName(code): the name of a ClickHouse error code, '' for a number that is none; a LowCardinality(String). */
    private static Evaluator errorCodeToName(List<Evaluator> args) {
        Functions.arity("errorCodeToName", args, 1);
        DataType t = args.get(0).type();
        if (!FunctionsMath.isNumber(t.unwrap()) && !(t.unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The argument of function errorCodeToName must have simple numeric type, possibly Nullable");
        }
        if (Functions.isNothing(args.get(0))) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        DataType rt = DataTypes.parse("LowCardinality(String)");
        Evaluator a = args.get(0);
        return Evaluator.of(rt, r -> {
            Object v = a.eval(r);
            // a decimal is read by its unscaled integer, as the engine reads the column's values
            long code = v == null ? 0 : v instanceof BigDecimal d ? d.unscaledValue().longValue()
                : dev.chdedup.stub.types.Values.toLong(dev.chdedup.stub.types.Values.toNumber(v, t));
            return ByteStrings.fromText(v == null ? "" : ErrorNames.BY_CODE.getOrDefault(code, ""));
        });
    }

    private static Evaluator macNumToString(List<Evaluator> args) {
        Functions.arity("MACNumToString", args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof IntType i && !i.signed && i.bits == 64) && !(t instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function MACNumToString, expected UInt64");
        }
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            long x = (Long) v[0];
            StringBuilder sb = new StringBuilder(17);
            for (int shift = 40; shift >= 0; shift -= 8) {
                sb.append(String.format("%02X", x >>> shift & 0xFF));
                if (shift > 0) {
                    sb.append(':');
                }
            }
            return sb.toString();
        });
    }

    private static int hexDigit(char c) {
        int d = Character.digit(c, 16);
        return d < 0 ? 255 : d;
    }

    /**
     * MACStringToNum and MACStringToOUI: the first {@code octets} two-digit hexadecimal groups of the text at every third
     * position (the separators are not looked at), as a UInt64; 0 for a text of another length than the function takes.
     */
    private static Evaluator macStringTo(String name, List<Evaluator> args, int octets, int minLength) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType s && s.fixedLength == 0) && !(t instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        return Functions.defaultForNulls(DataTypes.UINT64, args, v -> {
            String s = (String) v[0];
            if (s.length() < minLength || s.length() > 17) {
                return 0L;
            }
            long r = 0;
            for (int i = 0; i < octets; i++) {
                r = r << 8 | hexDigit(s.charAt(3 * i)) * 16L + hexDigit(s.charAt(3 * i + 1));
            }
            return r;
        });
    }

    /** The name ClickHouse gives the column holding values of the type (a Date is a UInt16 column, a decimal a Decimal32...). */
    static String columnName(DataType t) {
        if (t instanceof NullableType n) {
            return "Nullable(" + columnName(n.inner) + ")";
        }
        if (t instanceof LowCardinalityType) {
            return "LowCardinality(" + columnName(t.unwrap()) + ")";
        }
        if (t instanceof ArrayType a) {
            return "Array(" + columnName(a.element) + ")";
        }
        if (t instanceof TupleType tt) {
            List<String> names = new ArrayList<>();
            tt.elements.forEach(e -> names.add(columnName(e)));
            return "Tuple(" + String.join(", ", names) + ")";
        }
        if (t instanceof MapType m) {
            return "Map(" + columnName(m.key) + ", " + columnName(m.value) + ")";
        }
        if (t instanceof BoolType) {
            return "UInt8";
        }
        if (t instanceof DateType d) {
            return d.name().equals("Date32") ? "Int32" : "UInt16";
        }
        if (t instanceof DateTimeType) {
            return "UInt32";
        }
        if (t instanceof DateTime64Type) {
            return "DateTime64";
        }
        if (t instanceof DecimalType d) {
            return d.precision <= 9 ? "Decimal32" : d.precision <= 18 ? "Decimal64" : d.precision <= 38 ? "Decimal128" : "Decimal256";
        }
        if (t instanceof EnumType e) {
            return e.bits == 8 ? "Int8" : "Int16";
        }
        return t.name();
    }

    private static Evaluator defaultOf(DataType t) {
        return Evaluator.constant(t, t.isNullable() ? null : t.defaultValue());
    }

    /** countDigits(x): the decimal digits of an integer, or of a decimal's unscaled value (1 for 0); a UInt8. */
    private static Evaluator countDigits(List<Evaluator> args) {
        Functions.arity("countDigits", args, 1);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        if (!(u instanceof IntType || u instanceof BigIntType || u instanceof DecimalType || u instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "x", "countDigits", "(U)Int* or Decimal", t);
        }
        return Functions.defaultForNulls(DataTypes.UINT8, args, v -> {
            BigInteger x = v[0] instanceof BigDecimal d ? d.unscaledValue() : FunctionsBit.big(v[0], t);
            return (long) x.abs().toString().length();
        });
    }

    /** isDecimalOverflow(d[, p]): whether the decimal's unscaled value has more digits than p (its type's precision by default). */
    private static Evaluator isDecimalOverflow(List<Evaluator> args) {
        Functions.argumentCount("isDecimalOverflow", args, 1, 1);
        DataType t = args.get(0).type();
        if (!(t.unwrap() instanceof DecimalType d)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function isDecimalOverflow");
        }
        int precision = args.size() > 1 ? (int) Functions.constLong(args.get(1)) : d.precision;
        return Functions.defaultForNulls(DataTypes.UINT8, args.subList(0, 1), v -> {
            BigInteger x = ((BigDecimal) v[0]).setScale(d.scale).unscaledValue().abs();
            return precision < 76 && x.compareTo(BigInteger.TEN.pow(precision)) >= 0 ? 1L : 0L;
        });
    }

    /** The bytes ClickHouse's byteSize counts for a value: its fixed width, a string's bytes and offset, an array's elements and offset. */
    static long byteSize(Object v, DataType t) {
        if (t instanceof NullableType n) {
            return 1 + (v == null || n.inner.unwrap() instanceof NothingType ? 0 : byteSize(v, n.inner));
        }
        DataType u = t.unwrap();
        if (u instanceof NothingType) {
            return 0;
        }
        if (u instanceof StringType s) {
            return s.fixedLength > 0 ? s.fixedLength : ByteStrings.bytes((String) v).length + 8L;
        }
        if (u instanceof ArrayType a) {
            long n = 8;
            for (Object e : (List<?>) v) {
                n += byteSize(e, a.element);
            }
            return n;
        }
        if (u instanceof TupleType tt) {
            long n = 0;
            List<?> l = (List<?>) v;
            for (int i = 0; i < l.size(); i++) {
                n += byteSize(l.get(i), tt.elements.get(i));
            }
            return n;
        }
        if (u instanceof MapType m) {
            long n = 8;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                n += byteSize(e.getKey(), m.key) + byteSize(e.getValue(), m.value);
            }
            return n;
        }
        if (u instanceof IntType i) {
            return i.bits / 8;
        }
        if (u instanceof BigIntType b) {
            return b.bits / 8;
        }
        if (u instanceof FloatType f) {
            return f.is64 ? 8 : 4;
        }
        if (u instanceof DecimalType d) {
            return d.precision <= 9 ? 4 : d.precision <= 18 ? 8 : d.precision <= 38 ? 16 : 32;
        }
        if (u instanceof DateType d) {
            return d.name().equals("Date32") ? 4 : 2;
        }
        if (u instanceof EnumType e) {
            return e.bits / 8;
        }
        if (u instanceof BoolType) {
            return 1;
        }
        if (u instanceof DateTimeType || u instanceof IPv4Type) {
            return 4;
        }
        if (u instanceof UuidType || u instanceof IPv6Type) {
            return 16;
        }
        return u.byteSize(v);
    }
}
