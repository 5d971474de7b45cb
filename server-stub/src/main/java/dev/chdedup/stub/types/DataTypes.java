package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The type factory: parses ClickHouse type names ({@code Array(Nullable(String))}, {@code Enum8('a' = 1)},
 * SQL aliases such as {@code BIGINT}) into {@link DataType} instances, cached by name. Mirrors ClickHouse's
 * {@code DataTypeFactory}.
 */
public final class DataTypes {
    public static final IntType INT8 = new IntType(8, true);
    public static final IntType INT16 = new IntType(16, true);
    public static final IntType INT32 = new IntType(32, true);
    public static final IntType INT64 = new IntType(64, true);
    public static final IntType UINT8 = new IntType(8, false);
    public static final IntType UINT16 = new IntType(16, false);
    public static final IntType UINT32 = new IntType(32, false);
    public static final IntType UINT64 = new IntType(64, false);
    public static final FloatType FLOAT32 = new FloatType(false);
    public static final FloatType FLOAT64 = new FloatType(true);
    public static final BoolType BOOL = new BoolType();
    /** Time: a signed span of seconds. */
    public static final TimeType TIME = new TimeType(-1);
    public static final StringType STRING = new StringType(0);
    public static final DateType DATE = new DateType(false);
    public static final DateType DATE32 = new DateType(true);
    public static final DateTimeType DATETIME = new DateTimeType(null);
    public static final UuidType UUID = new UuidType();
    public static final NothingType NOTHING = new NothingType();
    public static final IPv4Type IPV4 = new IPv4Type();
    public static final IPv6Type IPV6 = new IPv6Type();
    public static final BFloat16Type BFLOAT16 = new BFloat16Type();

    private static final Map<String, DataType> CACHE = new ConcurrentHashMap<>();

    private DataTypes() {
    }

    public static DataType nullable(DataType t) {
        return t.isNullable() || t instanceof NullableType ? t : new NullableType(t);
    }

    public static DataType array(DataType t) {
        return new ArrayType(t);
    }

    public static DataType tuple(List<DataType> ts) {
        return new TupleType(ts, null);
    }

    /** A tuple whose elements are named {@code names} (null for an unnamed tuple). */
    public static DataType tuple(List<DataType> ts, List<String> names) {
        return new TupleType(ts, names);
    }

    /**
     * A type's name as toTypeName, DESCRIBE and SHOW CREATE print it under print_pretty_type_names (on by default): a
     * Tuple with element names has each element on a line of its own, four spaces deeper per level from {@code indent},
     * as ClickHouse's IDataType::getPrettyName does, inside arrays and maps too; other types as they are.
     */
    public static String prettyName(DataType t, int indent) {
        if (t instanceof TupleType tt && tt.names != null && !tt.names.isEmpty()) {
            StringBuilder sb = new StringBuilder("Tuple(\n");
            for (int i = 0; i < tt.elements.size(); i++) {
                if (i > 0) {
                    sb.append(",\n");
                }
                sb.append("    ".repeat(indent + 1)).append(tt.names.get(i)).append(' ').append(prettyName(tt.elements.get(i), indent + 1));
            }
            return sb.append(')').toString();
        }
        // an array or map of no named tuple keeps its own name (Ring, QBit's)
        if (t instanceof ArrayType at && !prettyName(at.element, indent).equals(at.element.name())) {
            return "Array(" + prettyName(at.element, indent) + ")";
        }
        if (t instanceof MapType mt && !(prettyName(mt.key, indent) + prettyName(mt.value, indent)).equals(mt.key.name() + mt.value.name())) {
            return "Map(" + prettyName(mt.key, indent) + ", " + prettyName(mt.value, indent) + ")";
        }
        return t.name();
    }

    public static DataType map(DataType k, DataType v) {
        return new MapType(k, v);
    }

    public static DataType decimal(int p, int s) {
        return new DecimalType(p, s);
    }

    public static DataType dateTime64(int p, String tz) {
        return new DateTime64Type(p, tz);
    }

    public static DataType dateTime(String tz) {
        return tz == null ? DATETIME : new DateTimeType(tz);
    }

    /** Parses a type name, throwing {@code UNKNOWN_TYPE} or {@code SYNTAX_ERROR} for a bad one. */
    public static DataType parse(String name) {
        DataType t = CACHE.get(name);
        if (t != null) {
            return t;
        }
        Parser p = new Parser(name);
        t = p.type();
        p.skip();
        if (p.pos != name.length()) {
            throw new ChException(ErrorCode.SYNTAX_ERROR, "Cannot parse data type '" + name + "' at position " + (p.pos + 1));
        }
        if (CACHE.size() < 10_000) {
            CACHE.put(name, t);
        }
        return t;
    }

    private static final class Parser {
        final String s;
        int pos;

        Parser(String s) {
            this.s = s;
        }

        void skip() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        boolean eat(char c) {
            skip();
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        void need(char c) {
            if (!eat(c)) {
                throw new ChException(ErrorCode.SYNTAX_ERROR,
                    "Cannot parse data type '" + s + "': expected '" + c + "' at position " + (pos + 1));
            }
        }

        String ident() {
            skip();
            int st = pos;
            while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                pos++;
            }
            if (st == pos) {
                throw new ChException(ErrorCode.SYNTAX_ERROR, "Cannot parse data type '" + s + "' at position " + (pos + 1));
            }
            return s.substring(st, pos);
        }

        long number() {
            skip();
            int st = pos;
            if (pos < s.length() && (s.charAt(pos) == '-' || s.charAt(pos) == '+')) {
                pos++;
            }
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            try {
                return Long.parseLong(s.substring(st, pos));
            } catch (NumberFormatException e) {
                throw new ChException(ErrorCode.SYNTAX_ERROR, "Cannot parse data type '" + s + "': expected a number");
            }
        }

        String quoted() {
            skip();
            TextReader r = new TextReader(s, pos, s.length());
            String v = r.readQuoted();
            pos = r.pos();
            return v;
        }

        int intArg() {
            return (int) number();
        }

        DataType type() {
            String id = ident();
            String lower = id.toLowerCase();
            switch (lower) {
                case "nullable": { need('('); DataType t = type(); need(')'); return nullable(t); }
                case "lowcardinality": { need('('); DataType t = type(); need(')'); return new LowCardinalityType(t); }
                case "array": { need('('); DataType t = type(); need(')'); return new ArrayType(t); }
                case "qbit": {
                    need('(');
                    DataType t = type();
                    need(',');
                    int n = intArg();
                    need(')');
                    return qbit(t, n);
                }
                case "map": { need('('); DataType k = type(); need(','); DataType v = type(); need(')'); return new MapType(k, v); }
                case "tuple": return tupleArgs();
                case "fixedstring": { need('('); int n = intArg(); need(')'); return new StringType(n); }
                case "decimal": case "numeric": case "dec": {
                    int p = 10;
                    int sc = 0;
                    if (eat('(')) {
                        p = intArg();
                        if (eat(',')) {
                            sc = intArg();
                        }
                        need(')');
                    }
                    return new DecimalType(p, sc);
                }
                case "decimal32": { need('('); int sc = intArg(); need(')'); return new DecimalType(9, sc); }
                case "decimal64": { need('('); int sc = intArg(); need(')'); return new DecimalType(18, sc); }
                case "decimal128": { need('('); int sc = intArg(); need(')'); return new DecimalType(38, sc); }
                case "decimal256": { need('('); int sc = intArg(); need(')'); return new DecimalType(76, sc); }
                case "datetime": case "timestamp": case "datetime32": {
                    String tz = null;
                    if (eat('(')) {
                        tz = quoted();
                        need(')');
                    }
                    return dateTime(tz);
                }
                case "datetime64": {
                    if (!eat('(')) {
                        return new DateTime64Type(3, null); // ClickHouse's default precision
                    }
                    int p = intArg();
                    String tz = null;
                    if (eat(',')) {
                        tz = quoted();
                    }
                    need(')');
                    return new DateTime64Type(p, tz);
                }
                case "intervalnanosecond": case "intervalmicrosecond": case "intervalmillisecond": case "intervalsecond":
                case "intervalminute": case "intervalhour": case "intervalday": case "intervalweek": case "intervalmonth":
                case "intervalquarter": case "intervalyear":
                    return new DataTypeInterval(lower.substring("interval".length()));
                case "time": {
                    if (eat('(')) {
                        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Specifying timezone for Time type is not allowed");
                    }
                    return TIME;
                }
                case "time64": {
                    if (!eat('(')) {
                        return new TimeType(3); // ClickHouse's default precision
                    }
                    int p = intArg();
                    if (eat(',')) {
                        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Specifying timezone for Time64 type is not allowed");
                    }
                    need(')');
                    if (p > 9) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "DataTypeTime64 scale " + p + " is too large, maximum is 9");
                    }
                    return new TimeType(p);
                }
                case "simpleaggregatefunction": {
                    need('(');
                    String fn = functionName();
                    need(',');
                    DataType t = type();
                    need(')');
                    return new SimpleAggregateFunctionType(fn, t);
                }
                case "aggregatefunction": {
                    need('(');
                    String fn = functionName();
                    List<DataType> args = new ArrayList<>();
                    while (eat(',')) {
                        args.add(type());
                    }
                    need(')');
                    return new AggregateFunctionType(fn, args);
                }
                case "nested": return nestedArgs();
                case "variant": {
                    need('(');
                    List<DataType> vs = new ArrayList<>();
                    do {
                        vs.add(type());
                    } while (eat(','));
                    need(')');
                    return new VariantType(vs);
                }
                case "dynamic": return DynamicType.parse(withRawArgs("Dynamic"));
                case "json": return JsonType.parse(withRawArgs("JSON"));
                case "enum8": case "enum16": case "enum": return enumArgs(lower.equals("enum16") ? 16 : 8, lower.equals("enum"));
                default:
                    DataType simple = simple(lower);
                    if (simple == null) {
                        throw new ChException(ErrorCode.UNKNOWN_TYPE, "Unknown data type family: " + id);
                    }
                    if (eat('(')) {
                        // SQL-style length or precision hints such as VARCHAR(255) or INT(11) are accepted and ignored
                        do {
                            number();
                        } while (eat(','));
                        need(')');
                    }
                    return simple;
            }
        }

        DataType tupleArgs() {
            need('(');
            List<DataType> ts = new ArrayList<>();
            List<String> names = new ArrayList<>();
            boolean named = false;
            do {
                skip();
                int save = pos;
                String first = ident();
                skip();
                if (pos < s.length() && Character.isLetter(s.charAt(pos))) {
                    names.add(first);
                    named = true;
                    ts.add(type());
                } else {
                    pos = save;
                    names.add(null);
                    ts.add(type());
                }
            } while (eat(','));
            need(')');
            return new TupleType(ts, named ? names : null);
        }

        /** An aggregate function name with its parameters as written, e.g. {@code quantiles(0.5, 0.9)}. */
        String functionName() {
            skip();
            int st = pos;
            ident();
            skip();
            if (pos < s.length() && s.charAt(pos) == '(') {
                int depth = 0;
                do {
                    char c = s.charAt(pos++);
                    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
                } while (depth > 0 && pos < s.length());
            }
            return s.substring(st, pos);
        }

        /** {@code family}, with its parenthesised arguments as written when it has any (kept, not applied). */
        String withRawArgs(String family) {
            skip();
            if (pos >= s.length() || s.charAt(pos) != '(') {
                return family;
            }
            int st = pos;
            int depth = 0;
            do {
                char c = s.charAt(pos++);
                depth += c == '(' ? 1 : c == ')' ? -1 : 0;
            } while (depth > 0 && pos < s.length());
            if (depth > 0) {
                throw new ChException(ErrorCode.SYNTAX_ERROR, "Cannot parse data type '" + s + "': expected ')'");
            }
            return family + s.substring(st, pos);
        }

        /** Nested(n1 T1, ...) unflattened: an array of named tuples under the Nested name. */
        DataType nestedArgs() {
            need('(');
            List<DataType> ts = new ArrayList<>();
            List<String> names = new ArrayList<>();
            StringBuilder shown = new StringBuilder("Nested(");
            do {
                String n = ident();
                DataType t = type();
                if (!names.isEmpty()) {
                    shown.append(", ");
                }
                names.add(n);
                ts.add(t);
                shown.append(n).append(' ').append(t.name());
            } while (eat(','));
            need(')');
            return new ArrayType(new TupleType(ts, names), shown.append(')').toString());
        }

        DataType enumArgs(int bits, boolean auto) {
            need('(');
            Map<String, Long> m = new LinkedHashMap<>();
            long next = 1;
            do {
                String n = quoted();
                long code;
                if (eat('=')) {
                    code = number();
                } else {
                    code = next;
                }
                next = code + 1;
                if (m.put(n, code) != null) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Duplicate names in enum: '" + n + "'");
                }
            } while (eat(','));
            need(')');
            if (auto) {
                bits = m.values().stream().allMatch(c -> c >= -128 && c <= 127) ? 8 : 16;
            }
            long min = bits == 8 ? -128 : -32768;
            long max = bits == 8 ? 127 : 32767;
            for (long c : m.values()) {
                if (c < min || c > max) {
                    throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Value " + c + " for element is out of range for Enum" + bits);
                }
            }
            return new EnumType(bits, m);
        }
    }

    private static DataType simple(String lower) {
        switch (lower) {
            case "int8": case "tinyint": case "byte": case "int1": return INT8;
            case "int16": case "smallint": return INT16;
            case "int32": case "int": case "integer": case "mediumint": return INT32;
            case "int64": case "bigint": return INT64;
            case "uint8": return UINT8;
            case "uint16": return UINT16;
            case "uint32": return UINT32;
            case "uint64": return UINT64;
            case "int128": return new BigIntType(128, true);
            case "uint128": return new BigIntType(128, false);
            case "int256": return new BigIntType(256, true);
            case "uint256": return new BigIntType(256, false);
            case "float32": case "float": case "real": return FLOAT32;
            case "float64": case "double": return FLOAT64;
            case "bool": case "boolean": return BOOL;
            case "string": case "varchar": case "text": case "char": case "blob": case "longtext": case "binary": case "varbinary":
                return STRING;
            case "date": return DATE;
            case "date32": return DATE32;
            case "uuid": return UUID;
            case "nothing": return NOTHING;
            case "ipv4": case "inet4": return IPV4;
            case "ipv6": case "inet6": return IPV6;
            case "bfloat16": return BFLOAT16;
            case "point": return Geo.POINT;
            case "ring": return Geo.RING;
            case "linestring": return Geo.LINE_STRING;
            case "multilinestring": return Geo.MULTI_LINE_STRING;
            case "polygon": return Geo.POLYGON;
            case "multipolygon": return Geo.MULTI_POLYGON;
            case "geometry": return Geo.GEOMETRY;
            default: return null;
        }
    }

    /**
     * QBit(T, N), a vector of N values of T (Int8, BFloat16, Float32 or Float64): an array of exactly N elements under its
     * own name, as it reads and writes in every format (ClickHouse keeps it transposed into bit planes, which no format shows).
     */
    public static DataType qbit(DataType element, int dimension) {
        String e = element.name();
        if (!e.equals("Int8") && !e.equals("BFloat16") && !e.equals("Float32") && !e.equals("Float64")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "QBit data type only supports Int8, BFloat16, Float32, or Float64 as element type."
                + " Got: " + e);
        }
        return new ArrayType(element, "QBit(" + e + ", " + dimension + ")", dimension);
    }

    /** Whether {@code t} is one of the geo types, which the binary type encoding names as custom types. */
    public static boolean isGeo(DataType t) {
        return Geo.NAMES.contains(t.name());
    }

    /** The geo types: Point is Tuple(Float64, Float64), the rest nest arrays of it, each under its own name. */
    private static final class Geo {
        static final DataType POINT = new TupleType(List.of(FLOAT64, FLOAT64), null, "Point");
        static final DataType RING = new ArrayType(POINT, "Ring");
        static final DataType LINE_STRING = new ArrayType(POINT, "LineString");
        static final DataType MULTI_LINE_STRING = new ArrayType(LINE_STRING, "MultiLineString");
        static final DataType POLYGON = new ArrayType(RING, "Polygon");
        static final DataType MULTI_POLYGON = new ArrayType(POLYGON, "MultiPolygon");
        /** Any one of them: their Variant, under the name Geometry. */
        static final DataType GEOMETRY = new VariantType(List.of(POINT, RING, LINE_STRING, MULTI_LINE_STRING, POLYGON, MULTI_POLYGON), "Geometry");
        static final java.util.Set<String> NAMES = java.util.Set.of("Point", "Ring", "LineString", "MultiLineString", "Polygon",
            "MultiPolygon", "Geometry");
    }

    /**
     * The width in bytes of a type whose values are {@code Long}s written as that many little-endian bytes (the
     * integers up to 64 bits, Date, Date32, DateTime, DateTime64, Enum8/16), or 0: the types a column keeps in a
     * {@code long[]}.
     */
    public static int fixedLongWidth(DataType t) {
        if (t instanceof IntType) {
            return ((IntType) t).bits / 8;
        }
        if (t instanceof DateTimeType) {
            return 4;
        }
        if (t instanceof DateTime64Type) {
            return 8;
        }
        if (t instanceof TimeType) {
            return ((TimeType) t).is64() ? 8 : 4;
        }
        if (t instanceof DateType) {
            return ((DateType) t).is32 ? 4 : 2;
        }
        if (t instanceof EnumType) {
            return ((EnumType) t).bits / 8;
        }
        return 0;
    }

    /** Whether a {@link #fixedLongWidth} type's value is its bytes sign-extended (Int8-32, Date32, Enum, Time). */
    public static boolean isSignedLong(DataType t) {
        return t instanceof IntType && ((IntType) t).signed || t instanceof DateType && ((DateType) t).is32 || t instanceof EnumType
            || t instanceof TimeType;
    }
}
