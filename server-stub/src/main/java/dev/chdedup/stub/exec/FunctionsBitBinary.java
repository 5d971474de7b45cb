package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.math.BigInteger;
import java.util.List;

/**
 * The Bit functions of a value and a bit count or position ({@link FunctionsBit} registers them): shifts, rotations,
 * bit tests and the Hamming distance.
 */
final class FunctionsBitBinary {
    private static final DataType INT256 = DataTypes.parse("Int256");

    private FunctionsBitBinary() {
    }

    private static ChException illegalTypes(String name, List<Evaluator> args) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types " + args.get(0).type().unwrap().name() + " and "
            + args.get(1).type().unwrap().name() + " of arguments of function " + name);
    }

    private static boolean nothing(DataType t) {
        return t.unwrap() instanceof NothingType;
    }

    /** ClickHouse's ResultOfBit of two integer types: the wider width, signed when either is. */
    static DataType resultOfBit(DataType a, DataType b) {
        boolean signed = TypeRules.signed(a) || TypeRules.signed(b);
        return TypeRules.intType(Math.max(FunctionsBit.bits(a), FunctionsBit.bits(b)), signed);
    }

    private static void requireIntegers(String name, List<Evaluator> args) {
        for (Evaluator a : args) {
            if (!FunctionsBit.isIntegerOrBool(a.type()) && !nothing(a.type())) {
                throw illegalTypes(name, args);
            }
        }
    }

    private static void notBig(String name, DataType shift, String what) {
        if (shift.unwrap() instanceof BigIntType) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, name + " is not implemented for big integers" + what);
        }
    }

    /**
     * bitShiftLeft and bitShiftRight: an integer in the ResultOfBit type (0 when shifted by its own width or more,
     * right shifts arithmetic for a signed result); a String as one big-endian number, growing by the bytes a left
     * shift needs and losing the bytes a right shift empties; a FixedString within its length.
     */
    static Evaluator shift(String name, List<Evaluator> args, boolean left) {
        Functions.arity(name, args, 2);
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        boolean string = FunctionsBit.isStringOrFixed(ta);
        if (!string && !FunctionsBit.isIntegerOrBool(ta) && !nothing(ta) || !FunctionsBit.isIntegerOrBool(tb) && !nothing(tb)) {
            throw illegalTypes(name, args);
        }
        notBig(left ? "BitShiftLeft" : "BitShiftRight", tb, " as second argument");
        if (string) {
            int fixed = ((StringType) ta.unwrap()).fixedLength;
            return Functions.defaultForNulls(ta.unwrap(), args, v -> {
                long b = shiftCount(v[1], tb);
                byte[] s = ByteStrings.bytes((String) v[0]);
                return ByteStrings.of(fixed > 0 ? shiftFixed(s, b, left) : shiftString(s, b, left));
            });
        }
        DataType rt = resultOfBit(ta, tb);
        int width = FunctionsBit.bits(ta);
        boolean signed = TypeRules.signed(rt);
        if (rt instanceof BigIntType) {
            return Functions.defaultForNulls(rt, args, v -> {
                long b = shiftCount(v[1], tb);
                if (b >= width) {
                    return rt.convert(BigInteger.ZERO, INT256);
                }
                BigInteger a = FunctionsBit.big(v[0], ta);
                return rt.convert(left ? a.shiftLeft((int) b) : a.shiftRight((int) b), INT256);
            });
        }
        IntType it = (IntType) rt;
        return Functions.defaultForNulls(rt, args, v -> {
            long b = shiftCount(v[1], tb);
            long a = FunctionsBit.longOf(v[0]);
            if (b >= width) {
                return 0L;
            }
            return it.wrap(left ? a << b : signed ? a >> b : a >>> b);
        });
    }

    private static long shiftCount(Object v, DataType t) {
        long b = FunctionsBit.longOf(v);
        if (b < 0 && TypeRules.signed(t)) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The number of shift positions needs to be a non-negative value");
        }
        return b < 0 ? Long.MAX_VALUE : b;
    }

    private static byte[] shiftString(byte[] s, long b, boolean left) {
        int n = s.length;
        if (b >= 8L * n) {
            return new byte[0];
        }
        int bits = (int) (b % 8);
        int bytes = (int) (b / 8);
        if (!left) {
            byte[] out = new byte[n - bytes];
            shiftRightInto(s, n - bytes, out, bits);
            return out;
        }
        byte[] out = new byte[n + bytes + (bits != 0 ? 1 : 0)];
        if (bits == 0) {
            System.arraycopy(s, 0, out, 0, n);
            return out;
        }
        int previous = 0;
        for (int i = 0; i < n; i++) {
            int c = s[i] & 0xFF;
            out[i] = (byte) (c >>> (8 - bits) | previous);
            previous = c << bits & 0xFF;
        }
        out[n] = (byte) previous;
        return out;
    }

    private static byte[] shiftFixed(byte[] s, long b, boolean left) {
        int n = s.length;
        byte[] out = new byte[n];
        if (b >= 8L * n) {
            return out;
        }
        int bits = (int) (b % 8);
        int bytes = (int) (b / 8);
        if (!left) {
            byte[] shifted = new byte[n - bytes];
            shiftRightInto(s, n - bytes, shifted, bits);
            System.arraycopy(shifted, 0, out, bytes, shifted.length);
            return out;
        }
        for (int i = bytes; i < n; i++) {
            int c = (s[i] & 0xFF) << bits;
            if (i + 1 < n && bits != 0) {
                c |= (s[i + 1] & 0xFF) >>> (8 - bits);
            }
            out[i - bytes] = (byte) c;
        }
        return out;
    }

    /** The first {@code len} bytes of {@code s} shifted right by {@code bits} (below 8) into {@code out}, of length len. */
    private static void shiftRightInto(byte[] s, int len, byte[] out, int bits) {
        for (int i = len - 1; i >= 0; i--) {
            int c = (s[i] & 0xFF) >>> bits;
            if (i > 0 && bits != 0) {
                c |= (s[i - 1] & 0xFF) << (8 - bits) & 0xFF;
            }
            out[i] = (byte) c;
        }
    }

    /** bitRotateLeft and bitRotateRight: the value in the ResultOfBit type rotated within that type's width. */
    static Evaluator rotate(String name, List<Evaluator> args, boolean left) {
        Functions.arity(name, args, 2);
        requireIntegers(name, args);
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        if (ta.unwrap() instanceof BigIntType || tb.unwrap() instanceof BigIntType) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Bit rotate is not implemented for big integers");
        }
        IntType rt = (IntType) resultOfBit(ta, tb);
        int width = rt.bits;
        long mask = width == 64 ? -1L : (1L << width) - 1;
        return Functions.defaultForNulls(rt, args, v -> {
            long a = FunctionsBit.longOf(v[0]) & mask;
            long b = FunctionsBit.longOf(v[1]);
            int k = (int) Math.floorMod(left ? b : -b, (long) width);
            if (k == 0) {
                return rt.wrap(a);
            }
            return rt.wrap((a << k | a >>> (width - k)) & mask);
        });
    }

    private static void checkPosition(long position, int width, boolean many) {
        if (position < 0 || position >= width) {
            throw new ChException(ErrorCode.PARAMETER_OUT_OF_BOUND, many ? "The bit position argument " + position
                + " is out of bounds for number" : "The bit position argument needs to a positive value and less or equal to "
                + (width - 1) + " for integer");
        }
    }

    private static boolean testBit(Object v, DataType t, long position) {
        if (v instanceof Long l) {
            return (l >>> position & 1) != 0;
        }
        return FunctionsBit.big(v, t).testBit((int) position);
    }

    /** bitTest(a, i): bit i of integer a, counted from 0 at the lowest (UInt8); i beyond a's width is PARAMETER_OUT_OF_BOUND. */
    static Evaluator bitTest(List<Evaluator> args) {
        Functions.arity("bitTest", args, 2);
        requireIntegers("bitTest", args);
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        notBig("bitTest", tb, " as second argument");
        int width = FunctionsBit.bits(ta);
        return Functions.defaultForNulls(DataTypes.UINT8, args, v -> {
            long position = TypeRules.signed(tb) || FunctionsBit.longOf(v[1]) >= 0 ? FunctionsBit.longOf(v[1]) : Long.MAX_VALUE;
            checkPosition(position, width, false);
            return testBit(v[0], ta, position) ? 1L : 0L;
        });
    }

    /** bitTestAll and bitTestAny: whether all (any) of the bits at the given unsigned positions of an integer are set. */
    static Evaluator bitTestMany(String name, List<Evaluator> args, boolean all) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be at least 2");
        }
        DataType ta = args.get(0).type();
        if (!(ta.unwrap() instanceof IntType || ta.unwrap() instanceof BigIntType || nothing(ta))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + ta.unwrap().name() + " of first argument of function " + name);
        }
        if (ta.unwrap() instanceof BigIntType) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column of argument of function " + name);
        }
        for (int i = 1; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof IntType it && !it.signed) && !(t instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of " + i + " argument of function " + name);
            }
        }
        int width = FunctionsBit.bits(ta);
        return Functions.defaultForNulls(DataTypes.UINT8, args, v -> {
            boolean result = all;
            for (int i = 1; i < v.length; i++) {
                long position = (Long) v[i];
                checkPosition(position < 0 ? Long.MAX_VALUE : position, width, true);
                boolean set = testBit(v[0], ta, position);
                result = all ? result && set : result || set;
            }
            return result ? 1L : 0L;
        });
    }

    /**
     * bitHammingDistance(a, b): the number of differing bits of two numbers, each as a 64-bit integer (a float
     * truncated; UInt8), of two big integers (UInt16 for 256 bits), of two Strings (UInt64; the longer one's extra bytes
     * all differ) or of two FixedStrings of one length (UInt16).
     */
    static Evaluator hammingDistance(List<Evaluator> args) {
        String name = "bitHammingDistance";
        Functions.arity(name, args, 2);
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        DataType ua = ta.unwrap();
        DataType ub = tb.unwrap();
        if (ua instanceof StringType sa && ub instanceof StringType sb) {
            if (sa.fixedLength != sb.fixedLength && (sa.fixedLength != 0 || sb.fixedLength != 0)) {
                throw illegalTypes(name, args);
            }
            return Functions.defaultForNulls(sa.fixedLength > 0 ? DataTypes.UINT16 : DataTypes.UINT64, args, v -> {
                byte[] x = ByteStrings.bytes((String) v[0]);
                byte[] y = ByteStrings.bytes((String) v[1]);
                long d = 0;
                for (int i = 0; i < Math.max(x.length, y.length); i++) {
                    int p = i < x.length ? x[i] & 0xFF : 0;
                    int q = i < y.length ? y[i] & 0xFF : 0;
                    d += Integer.bitCount(p ^ q);
                }
                return d;
            });
        }
        for (DataType u : List.of(ua, ub)) {
            if (!(FunctionsBit.isIntegerOrBool(u) || u instanceof FloatType || u instanceof NothingType)) {
                throw illegalTypes(name, args);
            }
        }
        boolean bigA = ua instanceof BigIntType;
        boolean bigB = ub instanceof BigIntType;
        if (bigA != bigB) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Unsupported data type combination in function 'bitHammingDistance'");
        }
        if (bigA) {
            int width = Math.max(FunctionsBit.bits(ua), FunctionsBit.bits(ub));
            BigInteger mask = BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE);
            return Functions.defaultForNulls(width >= 256 ? DataTypes.UINT16 : DataTypes.UINT8, args,
                v -> (long) FunctionsBit.big(v[0], ta).xor(FunctionsBit.big(v[1], tb)).and(mask).bitCount());
        }
        return Functions.defaultForNulls(DataTypes.UINT8, args, v -> (long) Long.bitCount(asLong(v[0]) ^ asLong(v[1])));
    }

    private static long asLong(Object v) {
        if (v instanceof Double || v instanceof Float) {
            return Values.toLong((Number) v);
        }
        return FunctionsBit.longOf(v);
    }
}
