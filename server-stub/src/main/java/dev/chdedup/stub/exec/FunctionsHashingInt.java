package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.hash.MurmurHash;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.IPv4Type;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * The hashes of one integer: intHash32 and intHash64 (ClickHouse's FunctionIntHash with its salts, also used by
 * FunctionAnyHash for array lengths and 32-bit combining), and the consistent hashes jumpConsistentHash (Lamping and
 * Veach) and kostikConsistentHash (Konstantin Oblakov's, alias yandexConsistentHash) of FunctionsConsistentHashing.
 */
final class FunctionsHashingInt {
    private FunctionsHashingInt() {
    }

    static void register(FunctionFactory f) {
        f.register("intHash32", FunctionsHashing.CATEGORY, (args, ctx) -> intHash("intHash32", args, DataTypes.UINT32));
        f.register("intHash64", FunctionsHashing.CATEGORY, (args, ctx) -> intHash("intHash64", args, DataTypes.UINT64));
        f.register("jumpConsistentHash", FunctionsHashing.CATEGORY, (args, ctx) -> consistent("jumpConsistentHash", args, false));
        f.register("kostikConsistentHash", FunctionsHashing.CATEGORY, (args, ctx) -> consistent("kostikConsistentHash", args, true));
        f.registerAlias("yandexConsistentHash", "kostikConsistentHash", false);
    }

    /** ClickHouse's IntHash32Impl: a 64-bit mix of the key with a fixed salt, to 32 bits. */
    static long intHash32(long key) {
        key ^= 0x75D9543DE018BF45L;
        key = ~key + (key << 18);
        key = key ^ (key >>> 31 | key << 33);
        key = key * 21;
        key = key ^ (key >>> 11 | key << 53);
        key = key + (key << 6);
        key = key ^ (key >>> 22 | key << 42);
        return key & 0xFFFFFFFFL;
    }

    /** ClickHouse's IntHash64Impl: MurmurHash3's fmix64 of the key with a fixed salt. */
    static long intHash64(long key) {
        return MurmurHash.fmix64(key ^ 0x4CF2D2BAAE6DA887L);
    }

    private static Evaluator intHash(String name, List<Evaluator> args, DataType result) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type().unwrap();
        boolean ok = t instanceof IntType || t instanceof DateType || t instanceof DateTimeType || t instanceof IPv4Type
            || t instanceof DecimalType && ((DecimalType) t).precision <= 18;
        if (!ok && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        boolean is64 = result == DataTypes.UINT64;
        return Functions.defaultForNulls(result, args, v -> {
            long x = t instanceof DecimalType ? ((java.math.BigDecimal) v[0]).scaleByPowerOfTen(((DecimalType) t).scale).longValue()
                : Values.toLong(Values.toNumber(v[0], t));
            return is64 ? intHash64(x) : intHash32(x);
        });
    }

    private static Evaluator consistent(String name, List<Evaluator> args, boolean kostik) {
        Functions.arity(name, args, 2);
        DataType hash = args.get(0).type().unwrap();
        DataType buckets = args.get(1).type().unwrap();
        if (!isInteger(hash)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + hash.name() + " of the first argument of function " + name);
        }
        if (hash instanceof BigIntType) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function " + name + " accepts 64-bit integers at most, got " + hash.name());
        }
        if (!isInteger(buckets)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + buckets.name() + " of the second argument of function " + name);
        }
        DataType result = kostik ? DataTypes.UINT16 : DataTypes.INT32;
        if (!args.get(1).constant()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The second argument of function " + name + " (number of buckets) must be constant");
        }
        return Functions.defaultForNulls(result, args, v -> {
            java.math.BigInteger n = Values.toBigInteger(Values.toNumber(v[1], buckets));
            if (n.signum() <= 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The second argument of function " + name + " (number of buckets) must be positive number");
            }
            long max = kostik ? 32768 : Integer.MAX_VALUE;
            if (n.compareTo(java.math.BigInteger.valueOf(max)) > 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The value of the second argument of function " + name
                    + " (number of buckets) must not be greater than " + max);
            }
            long key = Values.toLong(Values.toNumber(v[0], hash));
            return kostik ? (long) kostikConsistentHash(key, n.intValue()) : (long) jumpConsistentHash(key, n.intValue());
        });
    }

    private static boolean isInteger(DataType t) {
        return t instanceof IntType || t instanceof BigIntType || t instanceof BoolType;
    }

    /** Lamping and Veach's jump consistent hash of {@code key} into {@code buckets} buckets. */
    static int jumpConsistentHash(long key, int buckets) {
        long b = -1;
        long j = 0;
        while (j < buckets) {
            b = j;
            key = key * 2862933555777941757L + 1;
            j = (long) ((b + 1) * ((double) (1L << 31) / (double) ((key >>> 33) + 1)));
        }
        return (int) b;
    }

    /**
     * Konstantin Oblakov's O(1) consistent hash of {@code x} into {@code n} buckets, on the four 16-bit blocks a, b, c, d
     * of x (low to high): c's low k bits (2^(k-1) < n <= 2^k) choose a result below 2^k from a or b by their parity;
     * when that is not below n, the other bits decide between the upper half and the result for 2^(k-1).
     */
    static int kostikConsistentHash(long x, int n) {
        int a = (int) (x & 0xFFFF);
        int b = (int) (x >>> 16 & 0xFFFF);
        int c = (int) (x >>> 32 & 0xFFFF);
        int d = (int) (x >>> 48 & 0xFFFF);
        if (n == 1) {
            return 0;
        }
        int k = 32 - Integer.numberOfLeadingZeros(n - 1);
        int k2 = 1 << k;
        int large = forPowerOf2(a, b, c, k2);
        if (large < n) {
            return large;
        }
        int k21 = 1 << (k - 1);
        int shift = 16 - k;
        long bits = (long) (d << shift | c >>> k);
        shift++;
        bits <<= shift;
        bits |= b >>> (k - 1);
        bits <<= shift;
        bits |= a >>> (k - 1);
        long s = Long.remainderUnsigned(bits, (long) large * (large + 1));
        long large2 = s / k2 + k21;
        if (large2 < n) {
            return (int) large2;
        }
        return forPowerOf2(a, b, c, k21);
    }

    private static int forPowerOf2(int a, int b, int c, int k2) {
        int block = c & (k2 - 1);
        if (block < 2) {
            return block;
        }
        int y = 32 - Integer.numberOfLeadingZeros(block) - 1;
        int y2 = 1 << y;
        int ab = (Integer.bitCount(block) % 2 == 0 ? a : b) & (y2 - 1);
        return y2 + ab;
    }
}
