package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypeInterval;
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
import dev.chdedup.stub.types.TimeType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.UuidType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ClickHouse's FunctionAnyHash: a hash of any number of values of any types. A string hashes its bytes, a number, date,
 * address, UUID or decimal its little-endian bytes in memory (or, for a hash that says so, a value of up to 8 bytes
 * its intHash64); a tuple or map is flattened into its elements, an array hashes as the intHash of its length followed
 * by its elements, a NULL inside a tuple or an array hashes as a fixed value; each value's hash is folded into the hash
 * of those before it with the hash's own combine. A hash is 32, 64 or 128 bits, held as {low64, high64}; a keyed hash
 * takes a Tuple(UInt64, UInt64) key as its first argument. The top-level arguments have the default implementation for
 * NULLs (a NULL argument makes the result NULL).
 */
final class FunctionAnyHash {
    /** The hash of no arguments and of an empty tuple first. */
    static final long FILLER = 0xe28dbde7fe22e41cL;
    private static final long[] NULL_HASH = {0xc58ad2da03d9a871L, 0x5715f196cbea7a40L};

    /** The bytes' hash with the key (null for an unkeyed hash), {low64, high64}. */
    @FunctionalInterface
    interface Apply {
        long[] apply(long[] key, byte[] data);
    }

    /** Folds hash {@code h2} into {@code h1}. */
    @FunctionalInterface
    interface Combine {
        long[] combine(long[] key, long[] h1, long[] h2);
    }

    /** How a value of up to 8 bytes (an integer, float, date or IPv4) is hashed. */
    enum Pods { BYTES, INT_HASH_64, JAVA }

    /** The result: an unsigned or signed number of the width, or FixedString(16) for 128 bits unless UInt128. */
    private final String name;
    private final int bits;
    private final boolean signed;
    private final boolean uint128;
    private final boolean keyed;
    private final Pods pods;
    private final Apply apply;
    private final Combine combine;

    private FunctionAnyHash(String name, int bits, boolean signed, boolean uint128, boolean keyed, Pods pods, Apply apply, Combine combine) {
        this.name = name;
        this.bits = bits;
        this.signed = signed;
        this.uint128 = uint128;
        this.keyed = keyed;
        this.pods = pods;
        this.apply = apply;
        this.combine = combine;
    }

    /** An unkeyed hash of {@code bits} bits whose result is unsigned (FixedString(16) for 128 bits). */
    static FunctionAnyHash of(String name, int bits, Pods pods, Apply apply, Combine combine) {
        return new FunctionAnyHash(name, bits, false, false, false, pods, apply, combine);
    }

    /** A keyed hash: the first argument is the key. */
    static FunctionAnyHash keyed(String name, int bits, Apply apply, Combine combine) {
        return new FunctionAnyHash(name, bits, false, false, true, Pods.BYTES, apply, combine);
    }

    /** A 32-bit hash whose result is Int32. */
    static FunctionAnyHash signed32(String name, Pods pods, Apply apply, Combine combine) {
        return new FunctionAnyHash(name, 32, true, false, false, pods, apply, combine);
    }

    /** A 128-bit hash whose result is UInt128. */
    static FunctionAnyHash uint128(String name, Apply apply, Combine combine) {
        return new FunctionAnyHash(name, 128, false, true, false, Pods.BYTES, apply, combine);
    }

    void register(FunctionFactory f, String category) {
        f.register(name, category, (args, ctx) -> compile(args));
    }

    /** The little-endian bytes of hashes {@code h1} and {@code h2} of {@code bits} bits each (8 bytes for 32 or 64). */
    static byte[] pair(long[] h1, long[] h2, int bits) {
        int w = bits == 128 ? 16 : 8;
        byte[] b = new byte[2 * w];
        put(b, 0, h1, w);
        put(b, w, h2, w);
        return b;
    }

    private static void put(byte[] b, int off, long[] h, int w) {
        for (int i = 0; i < 8; i++) {
            b[off + i] = (byte) (h[0] >>> (8 * i));
            if (w == 16) {
                b[off + 8 + i] = (byte) (h[1] >>> (8 * i));
            }
        }
    }

    /** The combine that hashes the two hashes' bytes with the hash itself (ClickHouse's combineHashesFunc). */
    static Combine byApply(Apply apply, int bits) {
        return (key, h1, h2) -> apply.apply(key, pair(h1, h2, bits));
    }

    /** A 64-bit hash as {low64, 0}. */
    static long[] h64(long h) {
        return new long[] {h, 0};
    }

    /** A 32-bit hash as {low32, 0}. */
    static long[] h32(long h) {
        return new long[] {h & 0xFFFFFFFFL, 0};
    }

    private DataType resultType() {
        if (bits == 128) {
            return uint128 ? DataTypes.parse("UInt128") : DataTypes.parse("FixedString(16)");
        }
        if (bits == 32) {
            return signed ? DataTypes.INT32 : DataTypes.UINT32;
        }
        return DataTypes.UINT64;
    }

    private Object result(long[] h) {
        if (bits == 128) {
            if (uint128) {
                return new BigInteger(Long.toUnsignedString(h[1])).shiftLeft(64).or(new BigInteger(Long.toUnsignedString(h[0])));
            }
            return ByteStrings.of(pair(h, h, 128), 0, 16);
        }
        if (bits == 32) {
            return signed ? (long) (int) h[0] : h[0] & 0xFFFFFFFFL;
        }
        return h[0];
    }

    private Evaluator compile(List<Evaluator> args) {
        int first = keyed ? 1 : 0;
        List<DataType> types = new ArrayList<>();
        for (Evaluator a : args) {
            types.add(a.type());
        }
        for (int i = first; i < types.size(); i++) {
            check(types.get(i));
        }
        if (keyed && !args.isEmpty() && !Functions.isNothing(args.get(0))) {
            checkKey(args.get(0).type());
        }
        return Functions.defaultForNulls(resultType(), args, v -> {
            long[] key = keyed && v.length > 0 ? key((List<?>) v[0]) : null;
            long[] acc = null;
            for (int i = first; i < v.length; i++) {
                acc = feed(key, v[i], args.get(i).type(), acc);
            }
            return result(acc == null ? trunc(new long[] {FILLER, 0}) : acc);
        });
    }

    private static void checkKey(DataType t) {
        DataType k = t.unwrap();
        if (!(k instanceof TupleType) || ((TupleType) k).elements.size() != 2) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The key must be of type Tuple(UInt64, UInt64)");
        }
        for (int i = 0; i < 2; i++) {
            if (!((TupleType) k).elements.get(i).equals(DataTypes.UINT64)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The " + (i == 0 ? "1st" : "2nd") + " element of the key tuple is not of type UInt64");
            }
        }
    }

    private static long[] key(List<?> tuple) {
        return new long[] {((Number) tuple.get(0)).longValue(), ((Number) tuple.get(1)).longValue()};
    }

    /** Refuses the types the engine hashes through their serialization (Variant, Dynamic, JSON...), which the stub lacks. */
    private void check(DataType t) {
        DataType u = t instanceof LowCardinalityType ? t.unwrap() : t;
        if (u instanceof NullableType) {
            check(((NullableType) u).inner);
        } else if (u instanceof ArrayType) {
            check(((ArrayType) u).element);
        } else if (u instanceof TupleType) {
            ((TupleType) u).elements.forEach(this::check);
        } else if (u instanceof MapType) {
            check(((MapType) u).key);
            check(((MapType) u).value);
        } else if (!(isPod(u) || inMemory(u))) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub's " + name + " does not hash values of type " + u.name());
        }
    }

    /** The types hashed as their bytes in memory (their little-endian RowBinary form), beside the plain old data. */
    private static boolean inMemory(DataType t) {
        return t instanceof StringType || t instanceof NothingType || t instanceof BigIntType || t instanceof UuidType || t instanceof IPv6Type
            || t instanceof DecimalType || t instanceof DateTime64Type || t instanceof TimeType || t instanceof BFloat16Type
            || t instanceof DataTypeInterval;
    }

    private long[] trunc(long[] h) {
        return bits == 32 ? h32(h[0]) : bits == 64 ? h64(h[0]) : h;
    }

    private long[] fold(long[] key, long[] acc, long[] h) {
        return acc == null ? h : combine.combine(key, acc, h);
    }

    /** Folds value {@code v} of type {@code t} into {@code acc} (null before the first value), as executeForArgument. */
    private long[] feed(long[] key, Object v, DataType t, long[] acc) {
        DataType u = t instanceof LowCardinalityType ? t.unwrap() : t;
        if (u instanceof NullableType) {
            if (v == null) {
                long[] nullHash = trunc(NULL_HASH);
                if (keyed) {
                    nullHash = combine.combine(key, nullHash, new long[2]);
                }
                return fold(key, acc, nullHash);
            }
            return feed(key, v, ((NullableType) u).inner, acc);
        }
        if (u instanceof TupleType) {
            List<DataType> ts = ((TupleType) u).elements;
            List<?> vs = (List<?>) v;
            if (ts.isEmpty() && acc == null) {
                acc = trunc(new long[] {FILLER, 0});
            }
            for (int i = 0; i < ts.size(); i++) {
                acc = feed(key, vs.get(i), ts.get(i), acc);
            }
            return acc;
        }
        if (u instanceof MapType) {
            MapType m = (MapType) u;
            List<Object> entries = new ArrayList<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                entries.add(List.of(e.getKey(), e.getValue()));
            }
            return feed(key, entries, DataTypes.array(DataTypes.tuple(List.of(m.key, m.value))), acc);
        }
        if (u instanceof ArrayType) {
            DataType el = ((ArrayType) u).element;
            List<?> vs = (List<?>) v;
            long n = vs.size();
            long[] h = bits == 64 ? h64(FunctionsHashingInt.intHash64(n)) : h32(FunctionsHashingInt.intHash32(n));
            acc = fold(key, acc, h);
            for (Object e : vs) {
                acc = combine.combine(key, acc, feed(key, e, el, null));
            }
            return acc;
        }
        return fold(key, acc, scalar(key, v, u));
    }

    private long[] scalar(long[] key, Object v, DataType t) {
        if (t instanceof NothingType) {
            return new long[2];
        }
        byte[] b = ReinterpretFunctions.bytes(v, t);
        if (!isPod(t) || pods == Pods.BYTES) {
            return apply.apply(key, b);
        }
        long raw = 0;
        for (int i = b.length - 1; i >= 0; i--) {
            raw = raw << 8 | (b[i] & 0xFF);
        }
        if (pods == Pods.INT_HASH_64) {
            return h64(FunctionsHashingInt.intHash64(raw));
        }
        return javaHash(raw, b, t);
    }

    /** javaHash of an integer: a signed value of up to 32 bits is itself, an Int64 its halves xored; unsigned ones fail. */
    private long[] javaHash(long raw, byte[] b, DataType t) {
        boolean unsigned = t instanceof IntType && !((IntType) t).signed || t instanceof BoolType
            || t instanceof DateType && !((DateType) t).is32 || t instanceof DateTimeType;
        if (unsigned) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Unsigned types are not supported");
        }
        if (t instanceof FloatType || t instanceof IPv4Type) {
            return apply.apply(null, b);
        }
        int n = b.length;
        if (n == 8) {
            return h32((int) (raw ^ raw >>> 32));
        }
        return h32(raw << (64 - 8 * n) >> (64 - 8 * n));
    }

    /** The types FunctionAnyHash hashes as plain old data of up to 8 bytes (executeIntType). */
    private static boolean isPod(DataType t) {
        return t instanceof IntType || t instanceof BoolType || t instanceof EnumType || t instanceof IPv4Type || t instanceof DateType
            || t instanceof DateTimeType || t instanceof FloatType;
    }
}
