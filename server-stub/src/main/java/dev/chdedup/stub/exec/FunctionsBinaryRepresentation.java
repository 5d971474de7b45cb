package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IPv4Type;
import dev.chdedup.stub.types.IPv6Type;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.UuidType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.UUID;

/**
 * hex, unhex, bin and unbin (ClickHouse's FunctionsBinaryRepresentation): a value's bytes as hexadecimal or binary
 * digits, and back. Integers (dates, times and Bool as the integers they hold) show their bytes big-endian with the
 * leading zero bytes dropped (one byte at least); floats and decimals their bytes in memory order (little-endian);
 * strings, UUIDs, IP addresses and aggregate function states their bytes as stored.
 */
final class FunctionsBinaryRepresentation {
    private static final String CATEGORY = "Encoding";

    private FunctionsBinaryRepresentation() {
    }

    static void register(FunctionFactory f) {
        f.registerCaseInsensitive("hex", CATEGORY, (args, ctx) -> encode("hex", args, true));
        f.registerCaseInsensitive("bin", CATEGORY, (args, ctx) -> encode("bin", args, false));
        f.registerCaseInsensitive("unhex", CATEGORY, (args, ctx) -> decode("unhex", args, true));
        f.registerCaseInsensitive("unbin", CATEGORY, (args, ctx) -> decode("unbin", args, false));
    }

    private static Evaluator encode(String name, List<Evaluator> args, boolean hex) {
        Functions.arity(name, args, 1);
        DataType t = TypeRules.stripNullable(args.get(0).type());
        if (t instanceof dev.chdedup.stub.types.DateTime64Type) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column " + t.name() + " of argument of function " + name);
        }
        boolean ok = t instanceof IntType || t instanceof BigIntType || t instanceof BoolType || t instanceof FloatType
            || t instanceof BFloat16Type || t instanceof DecimalType || t instanceof StringType || t instanceof UuidType
            || t instanceof IPv4Type || t instanceof IPv6Type || t instanceof DateTimeType
            || t instanceof DateType && !((DateType) t).is32 || t instanceof dev.chdedup.stub.types.AggregateFunctionType
            || StringArguments.isNull(t);
        if (!ok) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        return Functions.strict(DataTypes.STRING, args, v -> digits(bytes(v[0], t), hex));
    }

    /** The bytes {@code hex} and {@code bin} show for a value of type {@code t}. */
    static byte[] bytes(Object v, DataType t) {
        if (t instanceof StringType || t instanceof IPv6Type) {
            return ByteStrings.bytes((String) v);
        }
        if (t instanceof dev.chdedup.stub.types.AggregateFunctionType) {
            // an aggregate function's state: its serialized bytes
            return ByteStrings.bytes(Values.text(v, t));
        }
        if (t instanceof UuidType) {
            UUID u = (UUID) v;
            return java.nio.ByteBuffer.allocate(16).putLong(u.getMostSignificantBits()).putLong(u.getLeastSignificantBits()).array();
        }
        if (t instanceof IPv4Type) {
            return java.nio.ByteBuffer.allocate(4).putInt((int) (long) (Long) v).array();
        }
        if (t instanceof FloatType ft) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(ft.is64 ? 8 : 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            return ft.is64 ? b.putDouble(((Number) v).doubleValue()).array() : b.putFloat(((Number) v).floatValue()).array();
        }
        if (t instanceof BFloat16Type) {
            int bits = Float.floatToRawIntBits(((Number) v).floatValue()) >>> 16;
            return new byte[] {(byte) bits, (byte) (bits >>> 8)};
        }
        if (t instanceof DecimalType d) {
            BigInteger unscaled = ((BigDecimal) v).setScale(d.scale, java.math.RoundingMode.DOWN).unscaledValue();
            return littleEndian(unscaled, d.precision <= 9 ? 4 : d.precision <= 18 ? 8 : d.precision <= 38 ? 16 : 32);
        }
        // an integer: its bytes big-endian in the type's width, leading zero bytes dropped
        int width = t instanceof DateType ? 2 : t instanceof DateTimeType ? 4 : TypeRules.bits(t) / 8;
        BigInteger n = v instanceof Boolean ? (((Boolean) v) ? BigInteger.ONE : BigInteger.ZERO) : Values.toBigInteger(Values.toNumber(v, t));
        byte[] le = littleEndian(n, width);
        int top = width - 1;
        while (top > 0 && le[top] == 0) {
            top--;
        }
        byte[] out = new byte[top + 1];
        for (int i = 0; i <= top; i++) {
            out[i] = le[top - i];
        }
        return out;
    }

    /** The low {@code width} bytes of a two's complement integer, least significant first. */
    private static byte[] littleEndian(BigInteger n, int width) {
        byte[] out = new byte[width];
        for (int i = 0; i < width; i++) {
            out[i] = n.shiftRight(8 * i).byteValue();
        }
        return out;
    }

    static String digits(byte[] bytes, boolean hex) {
        StringBuilder sb = new StringBuilder(bytes.length * (hex ? 2 : 8));
        for (byte b : bytes) {
            if (hex) {
                sb.append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16))).append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            } else {
                for (int k = 7; k >= 0; k--) {
                    sb.append((b >> k & 1) == 1 ? '1' : '0');
                }
            }
        }
        return sb.toString();
    }

    /**
     * unhex and unbin: each pair of hexadecimal digits (a digit that is none counting as 0xFF, wrapped as the engine
     * computes it) or each eight binary digits (any character but '0' counting as 1) makes a byte; an odd count makes
     * the first byte of the first digits alone (for unbin, none when they are zeros and bytes follow).
     */
    private static Evaluator decode(String name, List<Evaluator> args, boolean hex) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type();
        if (!Functions.isString(t) && !StringArguments.isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        int per = hex ? 2 : 8;
        return Functions.strict(DataTypes.STRING, args, v -> {
            String s = (String) v[0];
            int n = (s.length() + per - 1) / per;
            byte[] out = new byte[n];
            int first = s.length() - (n - 1) * per;
            int pos = 0;
            int from = 0;
            for (int k = 0; k < n; k++) {
                int len = k == 0 ? first : per;
                if (k == 0 && !hex && len < per && n > 1 && s.substring(0, len).chars().allMatch(c -> c == '0')) {
                    // unbin drops a short first group of zeros when bytes follow
                    pos += len;
                    from = 1;
                    continue;
                }
                int value = 0;
                for (int j = 0; j < len; j++) {
                    char c = s.charAt(pos++);
                    value = hex ? value * 16 + nibble(c) : value << 1 | (c != '0' ? 1 : 0);
                }
                out[k] = (byte) value;
            }
            return ByteStrings.of(out, from, n - from);
        });
    }

    private static int nibble(char c) {
        int d = Character.digit(c, 16);
        return d < 0 || c > 0x7F ? 0xFF : d;
    }
}
