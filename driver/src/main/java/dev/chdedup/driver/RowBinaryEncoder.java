package dev.chdedup.driver;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.sql.SQLException;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Writes one column's values as {@code RowBinary}, for the column's ClickHouse type, taking the Java values the official
 * client's {@code RowBinaryFormatWriter} takes with the same conversions: integers of every width (UInt64 and wider from
 * BigInteger), floats, Decimal of every width from BigDecimal (scaled to the column's scale, the digits beyond it cut, as
 * the official writer does; a value beyond the precision is an error), String and FixedString (bytes or text, zero
 * padded), Bool, UUID, IPv4/IPv6, Enum by name or number, Nullable, LowCardinality (written as its inner type), Array,
 * Map and Tuple; dates and times as {@link RowBinaryTemporal} converts them (the instant the text path's literal names).
 * A type it cannot write gives no encoder ({@link #of} returns null), so the batch keeps the text path; a value it cannot
 * convert throws {@link Unencodable}. Instances are immutable and shared by a statement's rows.
 */
abstract class RowBinaryEncoder {
    /** A value this column's encoding cannot take (wrong class, out of range, NULL into a non-Nullable column). */
    static final class Unencodable extends SQLException {
        private static final long serialVersionUID = 1L;

        Unencodable(String message) {
            super(message, "22018");
        }
    }

    /** The ClickHouse type this encoder writes, as the server named it. */
    final String type;

    RowBinaryEncoder(String type) {
        this.type = type;
    }

    abstract void encode(Object v, RowBinaryBatch out) throws Unencodable;

    /** A {@code long} without boxing (the primitive setters); by default as its boxed value. */
    void encodeLong(long v, RowBinaryBatch out) throws Unencodable {
        encode(v, out);
    }

    Unencodable cannot(Object v) {
        return new Unencodable("Cannot write " + (v == null ? "NULL" : "a " + v.getClass().getName() + " (" + v + ")") + " as " + type);
    }

    /** The encoder of ClickHouse type {@code type} for a server in {@code serverZone}, or null where RowBinary cannot take it. */
    static RowBinaryEncoder of(String type, ZoneId serverZone) {
        try {
            return parse(type.strip(), serverZone);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static RowBinaryEncoder parse(String t, ZoneId zone) {
        int open = t.indexOf('(');
        String name = open < 0 ? t : t.substring(0, open).strip();
        List<String> args = open < 0 ? List.of() : RowBinaryTypes.arguments(t, open);
        switch (name) {
            case "Nullable": {
                RowBinaryEncoder inner = parse(args.get(0), zone);
                return inner == null ? null : new NullableEncoder(t, inner);
            }
            case "LowCardinality":
                return parse(args.get(0), zone);
            case "Int8": return new IntEncoder(t, 1, false);
            case "Int16": return new IntEncoder(t, 2, false);
            case "Int32": return new IntEncoder(t, 4, false);
            case "Int64": return new IntEncoder(t, 8, false);
            case "UInt8": return new IntEncoder(t, 1, true);
            case "UInt16": return new IntEncoder(t, 2, true);
            case "UInt32": return new IntEncoder(t, 4, true);
            case "UInt64": return new BigIntEncoder(t, 8, true);
            case "Int128": return new BigIntEncoder(t, 16, false);
            case "Int256": return new BigIntEncoder(t, 32, false);
            case "UInt128": return new BigIntEncoder(t, 16, true);
            case "UInt256": return new BigIntEncoder(t, 32, true);
            case "Float32": return new FloatEncoder(t, false);
            case "Float64": return new FloatEncoder(t, true);
            case "Bool": case "Boolean": return new BoolEncoder(t);
            case "Decimal": {
                int p = Integer.parseInt(args.get(0).strip());
                int s = args.size() > 1 ? Integer.parseInt(args.get(1).strip()) : 0;
                return new DecimalEncoder(t, p, s);
            }
            case "Decimal32": return new DecimalEncoder(t, 9, Integer.parseInt(args.get(0).strip()));
            case "Decimal64": return new DecimalEncoder(t, 18, Integer.parseInt(args.get(0).strip()));
            case "Decimal128": return new DecimalEncoder(t, 38, Integer.parseInt(args.get(0).strip()));
            case "Decimal256": return new DecimalEncoder(t, 76, Integer.parseInt(args.get(0).strip()));
            case "String": return new StringEncoder(t, -1);
            case "FixedString": return new StringEncoder(t, Integer.parseInt(args.get(0).strip()));
            case "UUID": return new UuidEncoder(t);
            case "IPv4": return new Ipv4Encoder(t);
            case "IPv6": return new Ipv6Encoder(t);
            case "Enum8": case "Enum16": return new EnumEncoder(t, name.equals("Enum8") ? 1 : 2, RowBinaryTypes.enumValues(args));
            case "Date": case "Date32": case "DateTime": case "DateTime64":
                return zone == null ? null : RowBinaryTemporal.of(t, name, args, zone);
            case "Array": {
                RowBinaryEncoder inner = parse(args.get(0), zone);
                return inner == null ? null : new ArrayEncoder(t, inner);
            }
            case "Map": {
                RowBinaryEncoder k = parse(args.get(0), zone);
                RowBinaryEncoder v = parse(args.get(1), zone);
                return k == null || v == null ? null : new MapEncoder(t, k, v);
            }
            case "Tuple": {
                List<RowBinaryEncoder> elements = new ArrayList<>();
                for (String a : args) {
                    RowBinaryEncoder e = parse(RowBinaryTypes.tupleElementType(a), zone);
                    if (e == null) {
                        return null;
                    }
                    elements.add(e);
                }
                return elements.isEmpty() ? null : new TupleEncoder(t, elements.toArray(new RowBinaryEncoder[0]));
            }
            default:
                return null;
        }
    }

    /** Nullable(T): a marker byte, 1 for NULL (nothing follows), else 0 and the value. */
    static final class NullableEncoder extends RowBinaryEncoder {
        private final RowBinaryEncoder inner;

        NullableEncoder(String type, RowBinaryEncoder inner) {
            super(type);
            this.inner = inner;
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            if (v == null) {
                out.writeByte(1);
            } else {
                out.writeByte(0);
                inner.encode(v, out);
            }
        }

        @Override
        void encodeLong(long v, RowBinaryBatch out) throws Unencodable {
            out.writeByte(0);
            inner.encodeLong(v, out);
        }
    }

    /** A whole number of a Java value: integral numbers, a BigDecimal without fraction, a Boolean as 1/0, or decimal text. */
    static BigInteger integer(Object v) {
        if (v instanceof BigInteger) {
            return (BigInteger) v;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigInteger.valueOf(((Number) v).longValue());
        }
        if (v instanceof BigDecimal) {
            try {
                return ((BigDecimal) v).toBigIntegerExact();
            } catch (ArithmeticException e) {
                return null;
            }
        }
        if (v instanceof Boolean) {
            return (Boolean) v ? BigInteger.ONE : BigInteger.ZERO;
        }
        if (v instanceof CharSequence) {
            try {
                return new BigInteger(v.toString().strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    /** Int8..Int64 and UInt8..UInt32: range-checked, as the official writer's {@code BinaryStreamUtils} checks. */
    static final class IntEncoder extends RowBinaryEncoder {
        private final int width;
        private final long min;
        private final long max;

        IntEncoder(String type, int width, boolean unsigned) {
            super(type);
            this.width = width;
            this.min = unsigned ? 0 : width == 8 ? Long.MIN_VALUE : -(1L << (width * 8 - 1));
            this.max = width == 8 ? Long.MAX_VALUE : unsigned ? (1L << (width * 8)) - 1 : (1L << (width * 8 - 1)) - 1;
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                encodeLong(((Number) v).longValue(), out);
                return;
            }
            BigInteger b = integer(v);
            if (b == null || b.bitLength() > 63) {
                throw cannot(v);
            }
            encodeLong(b.longValue(), out);
        }

        @Override
        void encodeLong(long v, RowBinaryBatch out) throws Unencodable {
            if (v < min || v > max) {
                throw cannot(v);
            }
            switch (width) {
                case 1 -> out.writeByte((int) v);
                case 2 -> out.writeShort((int) v);
                case 4 -> out.writeInt((int) v);
                default -> out.writeLong(v);
            }
        }
    }

    /** UInt64, Int128/256, UInt128/256: BigInteger or any whole number, range-checked. */
    static final class BigIntEncoder extends RowBinaryEncoder {
        private final int width;
        private final boolean unsigned;

        BigIntEncoder(String type, int width, boolean unsigned) {
            super(type);
            this.width = width;
            this.unsigned = unsigned;
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                encodeLong(((Number) v).longValue(), out);
                return;
            }
            BigInteger b = integer(v);
            if (b == null || (unsigned ? b.signum() < 0 || b.bitLength() > width * 8 : b.bitLength() > width * 8 - 1)) {
                throw cannot(v);
            }
            out.writeBigInteger(b, width);
        }

        @Override
        void encodeLong(long v, RowBinaryBatch out) throws Unencodable {
            if (unsigned && v < 0) {
                throw cannot(v);
            }
            out.writeLong(v);
            if (width > 8) {
                int fill = v < 0 ? 0xff : 0;
                for (int i = 8; i < width; i++) {
                    out.writeByte(fill);
                }
            }
        }
    }

    static final class FloatEncoder extends RowBinaryEncoder {
        private final boolean wide;

        FloatEncoder(String type, boolean wide) {
            super(type);
            this.wide = wide;
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            double d;
            if (v instanceof Number) {
                if (v instanceof Float && !wide) {
                    out.writeInt(Float.floatToRawIntBits((Float) v));
                    return;
                }
                d = ((Number) v).doubleValue();
            } else if (v instanceof CharSequence) {
                try {
                    d = Double.parseDouble(v.toString().strip());
                } catch (NumberFormatException e) {
                    throw cannot(v);
                }
            } else {
                throw cannot(v);
            }
            if (wide) {
                out.writeLong(Double.doubleToRawLongBits(d));
            } else {
                out.writeInt(Float.floatToRawIntBits((float) d));
            }
        }

        @Override
        void encodeLong(long v, RowBinaryBatch out) {
            if (wide) {
                out.writeLong(Double.doubleToRawLongBits(v));
            } else {
                out.writeInt(Float.floatToRawIntBits(v));
            }
        }
    }

    static final class BoolEncoder extends RowBinaryEncoder {
        BoolEncoder(String type) {
            super(type);
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            if (v instanceof Boolean) {
                out.writeByte((Boolean) v ? 1 : 0);
            } else if (v instanceof Number) {
                out.writeByte(((Number) v).doubleValue() != 0 ? 1 : 0);
            } else if (v instanceof CharSequence) {
                String s = v.toString().strip();
                if (s.equalsIgnoreCase("true") || s.equals("1")) {
                    out.writeByte(1);
                } else if (s.equalsIgnoreCase("false") || s.equals("0")) {
                    out.writeByte(0);
                } else {
                    throw cannot(v);
                }
            } else {
                throw cannot(v);
            }
        }
    }

    /** Decimal(P, S) of every width: the value times 10^S, its further digits cut (as the official writer), within P digits. */
    static final class DecimalEncoder extends RowBinaryEncoder {
        private final int width;
        private final int scale;
        private final BigInteger limit;

        DecimalEncoder(String type, int precision, int scale) {
            super(type);
            this.width = precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32;
            this.scale = scale;
            this.limit = BigInteger.TEN.pow(precision);
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            BigDecimal d;
            if (v instanceof BigDecimal) {
                d = (BigDecimal) v;
            } else if (v instanceof BigInteger) {
                d = new BigDecimal((BigInteger) v);
            } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                d = BigDecimal.valueOf(((Number) v).longValue());
            } else if (v instanceof Double || v instanceof Float) {
                double x = ((Number) v).doubleValue();
                if (Double.isNaN(x) || Double.isInfinite(x)) {
                    throw cannot(v);
                }
                // the text path writes Double.toString, so the value is the one that text names
                d = v instanceof Float ? new BigDecimal(v.toString()) : BigDecimal.valueOf(x);
            } else if (v instanceof CharSequence) {
                try {
                    d = new BigDecimal(v.toString().strip());
                } catch (NumberFormatException e) {
                    throw cannot(v);
                }
            } else {
                throw cannot(v);
            }
            BigInteger unscaled = d.setScale(scale, RoundingMode.DOWN).unscaledValue();
            if (unscaled.abs().compareTo(limit) >= 0) {
                throw cannot(v);
            }
            if (width == 4) {
                out.writeInt(unscaled.intValue());
            } else if (width == 8) {
                out.writeLong(unscaled.longValue());
            } else {
                out.writeBigInteger(unscaled, width);
            }
        }
    }

    /** String (varint length and bytes) or FixedString(N) (exactly N bytes, zero padded; a longer value is an error). */
    static final class StringEncoder extends RowBinaryEncoder {
        private final int fixed;

        StringEncoder(String type, int fixed) {
            super(type);
            this.fixed = fixed;
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            if (fixed < 0 && v instanceof String) {
                out.writeString((String) v);
                return;
            }
            byte[] b;
            if (v instanceof byte[]) {
                b = (byte[]) v;
            } else if (v instanceof CharSequence || v instanceof Character || v instanceof UUID) {
                if (fixed < 0) {
                    out.writeString(v instanceof CharSequence ? (CharSequence) v : v.toString());
                    return;
                }
                b = v.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            } else if (v instanceof InetAddress) {
                b = ((InetAddress) v).getHostAddress().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            } else if (v instanceof Enum) {
                b = ((Enum<?>) v).name().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            } else {
                throw cannot(v);
            }
            if (fixed < 0) {
                out.writeVarUInt(b.length);
                out.writeBytes(b, 0, b.length);
            } else {
                if (b.length > fixed) {
                    throw cannot(v);
                }
                out.writeBytes(b, 0, b.length);
                out.writeZeros(fixed - b.length);
            }
        }
    }

    /** UUID: the high 64 bits, then the low 64 bits, each little-endian. */
    static final class UuidEncoder extends RowBinaryEncoder {
        UuidEncoder(String type) {
            super(type);
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            UUID u;
            if (v instanceof UUID) {
                u = (UUID) v;
            } else if (v instanceof CharSequence) {
                try {
                    u = UUID.fromString(v.toString().strip());
                } catch (IllegalArgumentException e) {
                    throw cannot(v);
                }
            } else {
                throw cannot(v);
            }
            out.writeLong(u.getMostSignificantBits());
            out.writeLong(u.getLeastSignificantBits());
        }
    }

    /** An address from an InetAddress or from the text of a literal address (never a name lookup). */
    static InetAddress address(Object v) {
        if (v instanceof InetAddress) {
            return (InetAddress) v;
        }
        if (v instanceof CharSequence) {
            String s = v.toString().strip();
            if (!s.isEmpty() && s.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':')) {
                try {
                    return InetAddress.getByName(s);
                } catch (java.net.UnknownHostException e) {
                    return null;
                }
            }
        }
        return null;
    }

    /** IPv4: the address as a UInt32, little-endian. */
    static final class Ipv4Encoder extends RowBinaryEncoder {
        Ipv4Encoder(String type) {
            super(type);
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            InetAddress a = address(v);
            if (!(a instanceof Inet4Address)) {
                throw cannot(v);
            }
            byte[] b = a.getAddress();
            out.writeInt((b[0] & 0xff) << 24 | (b[1] & 0xff) << 16 | (b[2] & 0xff) << 8 | (b[3] & 0xff));
        }
    }

    /** IPv6: 16 bytes in network order; an IPv4 address as its IPv4-mapped form, as the server reads IPv4 text. */
    static final class Ipv6Encoder extends RowBinaryEncoder {
        Ipv6Encoder(String type) {
            super(type);
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            InetAddress a = address(v);
            if (a instanceof Inet6Address) {
                out.writeBytes(a.getAddress(), 0, 16);
            } else if (a instanceof Inet4Address) {
                out.writeZeros(10);
                out.writeByte(0xff);
                out.writeByte(0xff);
                out.writeBytes(a.getAddress(), 0, 4);
            } else {
                throw cannot(v);
            }
        }
    }

    /** Enum8/Enum16: the value of a name (a String or a Java enum's name) or a declared number. */
    static final class EnumEncoder extends RowBinaryEncoder {
        private final int width;
        private final Map<String, Integer> values;

        EnumEncoder(String type, int width, Map<String, Integer> values) {
            super(type);
            this.width = width;
            this.values = new HashMap<>(values);
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            Integer n;
            if (v instanceof CharSequence || v instanceof Enum) {
                n = values.get(v instanceof Enum ? ((Enum<?>) v).name() : v.toString());
            } else if (v instanceof Number && !(v instanceof Double) && !(v instanceof Float) && !(v instanceof BigDecimal)) {
                long x = ((Number) v).longValue();
                n = values.containsValue((int) x) && x == (int) x ? (int) x : null;
            } else {
                n = null;
            }
            if (n == null) {
                throw cannot(v);
            }
            if (width == 1) {
                out.writeByte(n);
            } else {
                out.writeShort(n);
            }
        }

        @Override
        void encodeLong(long v, RowBinaryBatch out) throws Unencodable {
            encode(v, out);
        }
    }

    /** The elements of a Java array (of objects or primitives), a List or other Collection, or a java.sql.Array. */
    static Object elements(Object v) throws Unencodable {
        if (v instanceof java.sql.Array) {
            try {
                return ((java.sql.Array) v).getArray();
            } catch (SQLException e) {
                throw new Unencodable("Cannot read the java.sql.Array: " + e.getMessage());
            }
        }
        return v;
    }

    /** Array(T): the element count as a varint, then the elements. */
    static final class ArrayEncoder extends RowBinaryEncoder {
        private final RowBinaryEncoder element;

        ArrayEncoder(String type, RowBinaryEncoder element) {
            super(type);
            this.element = element;
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            Object a = elements(v);
            if (a instanceof Collection) {
                Collection<?> c = (Collection<?>) a;
                out.writeVarUInt(c.size());
                for (Object e : c) {
                    element.encode(e, out);
                }
            } else if (a instanceof Object[]) {
                Object[] arr = (Object[]) a;
                out.writeVarUInt(arr.length);
                for (Object e : arr) {
                    element.encode(e, out);
                }
            } else if (a instanceof long[]) {
                long[] arr = (long[]) a;
                out.writeVarUInt(arr.length);
                for (long e : arr) {
                    element.encodeLong(e, out);
                }
            } else if (a instanceof int[]) {
                int[] arr = (int[]) a;
                out.writeVarUInt(arr.length);
                for (int e : arr) {
                    element.encodeLong(e, out);
                }
            } else if (a != null && a.getClass().isArray()) {
                int n = java.lang.reflect.Array.getLength(a);
                out.writeVarUInt(n);
                for (int i = 0; i < n; i++) {
                    element.encode(java.lang.reflect.Array.get(a, i), out);
                }
            } else {
                throw cannot(v);
            }
        }
    }

    /** Map(K, V): the entry count as a varint, then key and value of each entry in the map's iteration order. */
    static final class MapEncoder extends RowBinaryEncoder {
        private final RowBinaryEncoder key;
        private final RowBinaryEncoder value;

        MapEncoder(String type, RowBinaryEncoder key, RowBinaryEncoder value) {
            super(type);
            this.key = key;
            this.value = value;
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            if (!(v instanceof Map)) {
                throw cannot(v);
            }
            Map<?, ?> m = (Map<?, ?>) v;
            out.writeVarUInt(m.size());
            for (Map.Entry<?, ?> e : m.entrySet()) {
                key.encode(e.getKey(), out);
                value.encode(e.getValue(), out);
            }
        }
    }

    /** Tuple(T1, ..., Tn): the elements one after another, from a java.sql.Struct, a List or an array of exactly n values. */
    static final class TupleEncoder extends RowBinaryEncoder {
        private final RowBinaryEncoder[] elements;

        TupleEncoder(String type, RowBinaryEncoder[] elements) {
            super(type);
            this.elements = elements;
        }

        @Override
        void encode(Object v, RowBinaryBatch out) throws Unencodable {
            Object a = v;
            if (v instanceof java.sql.Struct) {
                try {
                    a = ((java.sql.Struct) v).getAttributes();
                } catch (SQLException e) {
                    throw new Unencodable("Cannot read the java.sql.Struct: " + e.getMessage());
                }
            }
            a = elements(a);
            List<?> list = a instanceof List ? (List<?>) a : a instanceof Object[] ? java.util.Arrays.asList((Object[]) a) : null;
            if (list == null || list.size() != elements.length) {
                throw cannot(v);
            }
            for (int i = 0; i < elements.length; i++) {
                elements[i].encode(list.get(i), out);
            }
        }
    }
}
