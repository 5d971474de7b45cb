package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
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
 * The Bit functions beyond bitAnd, bitOr and bitXor, as ClickHouse computes them: bitCount, bitNot, bitHammingDistance,
 * bitShiftLeft and bitShiftRight (of integers, and of a String or FixedString as one big-endian number), bitRotateLeft
 * and bitRotateRight, bitTest, bitTestAll, bitTestAny and bitSlice. A function of two integers is computed in
 * ClickHouse's ResultOfBit type: the wider of the two, signed when either is.
 */
final class FunctionsBit {
    private static final String CATEGORY = "Bit";

    private FunctionsBit() {
    }

    static void register(FunctionFactory f) {
        f.register("bitCount", CATEGORY, (args, ctx) -> bitCount(args));
        f.register("bitNot", CATEGORY, (args, ctx) -> bitNot(args));
        f.register("bitHammingDistance", CATEGORY, (args, ctx) -> FunctionsBitBinary.hammingDistance(args));
        f.register("bitShiftLeft", CATEGORY, (args, ctx) -> FunctionsBitBinary.shift("bitShiftLeft", args, true));
        f.register("bitShiftRight", CATEGORY, (args, ctx) -> FunctionsBitBinary.shift("bitShiftRight", args, false));
        f.register("bitRotateLeft", CATEGORY, (args, ctx) -> FunctionsBitBinary.rotate("bitRotateLeft", args, true));
        f.register("bitRotateRight", CATEGORY, (args, ctx) -> FunctionsBitBinary.rotate("bitRotateRight", args, false));
        f.register("bitTest", CATEGORY, (args, ctx) -> FunctionsBitBinary.bitTest(args));
        f.register("bitTestAll", CATEGORY, (args, ctx) -> FunctionsBitBinary.bitTestMany("bitTestAll", args, true));
        f.register("bitTestAny", CATEGORY, (args, ctx) -> FunctionsBitBinary.bitTestMany("bitTestAny", args, false));
        f.register("bitSlice", CATEGORY, (args, ctx) -> bitSlice(args));
    }

    /** Bits of a type's values: 8 for Bool, the width of an integer. */
    static int bits(DataType t) {
        DataType u = t.unwrap();
        if (u instanceof IntType i) {
            return i.bits;
        }
        if (u instanceof BigIntType b) {
            return b.bits;
        }
        return 8;
    }

    static boolean isIntegerOrBool(DataType t) {
        DataType u = t.unwrap();
        return u instanceof IntType || u instanceof BigIntType || u instanceof BoolType;
    }

    static boolean isStringOrFixed(DataType t) {
        return t.unwrap() instanceof StringType;
    }

    /** A value of an integer type (Bool included) as its two's complement bits, sign-extended to a BigInteger. */
    static BigInteger big(Object v, DataType t) {
        if (v instanceof Boolean b) {
            return b ? BigInteger.ONE : BigInteger.ZERO;
        }
        if (v instanceof Long l) {
            DataType u = t.unwrap();
            return u instanceof IntType i && !i.signed && i.bits == 64 && l < 0 ? BigInteger.valueOf(l).add(Values.TWO_64) : BigInteger.valueOf(l);
        }
        return Values.toBigInteger(Values.toNumber(v, t));
    }

    /** A value of an integer type up to 64 bits (Bool included) as a long (UInt64 with its unsigned bits). */
    static long longOf(Object v) {
        return v instanceof Boolean b ? (b ? 1L : 0L) : (Long) v;
    }

    private static ChException illegalType(String name, DataType t) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
    }

    /** The number of set bits: of an integer's or a float's representation (UInt8; UInt16 for 256 bits), of a string's bytes (UInt64; UInt16 for a FixedString). */
    private static Evaluator bitCount(List<Evaluator> args) {
        Functions.arity("bitCount", args, 1);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        if (isStringOrFixed(u)) {
            DataType rt = ((StringType) u).fixedLength > 0 ? DataTypes.UINT16 : DataTypes.UINT64;
            return Functions.defaultForNulls(rt, args, v -> {
                long n = 0;
                for (byte b : ByteStrings.bytes((String) v[0])) {
                    n += Integer.bitCount(b & 0xFF);
                }
                return n;
            });
        }
        if (u instanceof FloatType ft) {
            return Functions.defaultForNulls(DataTypes.UINT8, args, v -> ft.is64
                ? (long) Long.bitCount(Double.doubleToRawLongBits(((Number) v[0]).doubleValue()))
                : (long) Integer.bitCount(Float.floatToRawIntBits(((Number) v[0]).floatValue())));
        }
        if (!isIntegerOrBool(u) && !(u instanceof NothingType)) {
            throw illegalType("bitCount", t);
        }
        int width = bits(u);
        DataType rt = width >= 256 ? DataTypes.UINT16 : DataTypes.UINT8;
        return Functions.defaultForNulls(rt, args, v -> {
            if (width <= 64) {
                long x = longOf(v[0]);
                return (long) Long.bitCount(width == 64 ? x : x & ((1L << width) - 1));
            }
            BigInteger x = big(v[0], t);
            return (long) (x.signum() < 0 ? x.add(BigInteger.ONE.shiftLeft(width)) : x).bitCount();
        });
    }

    /**
     * The complement: of an integer in its type (a Bool as a UInt8), of a float as the signed integer of its width
     * (its value truncated), of a string byte by byte.
     */
    private static Evaluator bitNot(List<Evaluator> args) {
        Functions.arity("bitNot", args, 1);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        if (isStringOrFixed(u)) {
            return Functions.defaultForNulls(u, args, v -> {
                byte[] b = ByteStrings.bytes((String) v[0]);
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) ~b[i];
                }
                return ByteStrings.of(b);
            });
        }
        if (u instanceof FloatType ft) {
            IntType rt = ft.is64 ? DataTypes.INT64 : DataTypes.INT32;
            return Functions.defaultForNulls(rt, args, v -> rt.wrap(~Values.toLong((Number) v[0])));
        }
        if (!isIntegerOrBool(u) && !(u instanceof NothingType)) {
            throw illegalType("bitNot", t);
        }
        if (u instanceof BigIntType) {
            return Functions.defaultForNulls(u, args, v -> u.convert(big(v[0], t).not(), DataTypes.parse("Int256")));
        }
        IntType rt = u instanceof IntType i ? i : DataTypes.UINT8;
        return Functions.defaultForNulls(rt, args, v -> rt.wrap(~longOf(v[0])));
    }

    /**
     * bitSlice(s, offset[, length]): the bits of s from the 1-based bit offset (from the end when negative) for length
     * bits (up to length bits before the end when negative; to the end when absent), packed from the first byte's
     * highest bit and padded with zero bits to whole bytes.
     */
    private static Evaluator bitSlice(List<Evaluator> args) {
        Functions.argumentCount("bitSlice", args, 2, 1);
        if (!isStringOrFixed(args.get(0).type()) && !(args.get(0).type().unwrap() instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "s", "bitSlice", "String", args.get(0).type());
        }
        String[] names = {"offset", "length"};
        for (int i = 1; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof IntType || t instanceof FloatType || t instanceof BoolType || t instanceof NothingType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i - 1], "bitSlice",
                    "(U)Int8/16/32/64 or Float", args.get(i).type());
            }
        }
        DataType to = args.get(1).type();
        DataType tl = args.size() > 2 ? args.get(2).type() : null;
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            byte[] s = ByteStrings.bytes((String) v[0]);
            long total = 8L * s.length;
            long offset = Values.toLong(Values.toNumber(v[1], to));
            if (offset == 0) {
                return "";
            }
            long start = offset > 0 ? offset - 1 : total + offset;
            long end;
            if (v.length < 3) {
                end = total;
            } else {
                long length = Values.toLong(Values.toNumber(v[2], tl));
                end = length >= 0 ? start + length : total + length;
            }
            start = Math.max(start, 0);
            end = Math.min(end, total);
            if (end <= start) {
                return "";
            }
            int n = (int) (end - start);
            byte[] out = new byte[(n + 7) / 8];
            for (int i = 0; i < n; i++) {
                long bit = start + i;
                if ((s[(int) (bit >>> 3)] >> (7 - (bit & 7)) & 1) != 0) {
                    out[i >>> 3] |= (byte) (0x80 >>> (i & 7));
                }
            }
            return ByteStrings.of(out);
        });
    }
}
