package dev.chdedup.stub.exec;

import dev.chdedup.stub.compress.CityHash128;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.TupleType;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * xxHash32 and xxHash64 of any number of scalar values (a string's bytes, another value's little-endian bytes in memory,
 * each hashed with seed 0 and folded into the hash of those before it as the engine folds them), and the digests MD5,
 * SHA1, SHA224, SHA256, SHA384, SHA512 and SHA512_256 of one String or FixedString, a FixedString of the digest's size.
 * The xxHash is lz4-java's, the digests the JDK's. Mirrors ClickHouse's FunctionsHashing.h (ImplXxHash32,
 * ImplXxHash64, FunctionStringHashFixedString).
 */
final class HashFunctions {
    private HashFunctions() {
    }

    private static final XXHash32 XXH32 = XXHashFactory.safeInstance().hash32();
    private static final XXHash64 XXH64 = XXHashFactory.safeInstance().hash64();

    /** The engine's hash of no arguments, FunctionAnyHash's initial value. */
    private static final long NO_ARGUMENTS = 0xe28dbde7fe22e41cL;

    /** The SQL names of the digests, to the JDK's algorithm names. */
    private static final Map<String, String> DIGESTS = Map.of("MD5", "MD5", "SHA1", "SHA-1", "SHA224", "SHA-224", "SHA256",
        "SHA-256", "SHA384", "SHA-384", "SHA512", "SHA-512", "SHA512_256", "SHA-512/256");

    /** The names this class compiles, as system.functions lists them. */
    static final List<String> NAMES = List.of("MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA512_256", "xxHash32",
        "xxHash64");

    static boolean handles(String n) {
        return NAMES.contains(n);
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        String algorithm = DIGESTS.get(name);
        if (algorithm != null) {
            return digest(name, algorithm, args);
        }
        boolean is64 = name.equals("xxHash64");
        DataType result = is64 ? DataTypes.UINT64 : DataTypes.UINT32;
        if (args.isEmpty()) {
            return Evaluator.constant(result, is64 ? NO_ARGUMENTS : NO_ARGUMENTS & 0xFFFFFFFFL);
        }
        DataType[] types = new DataType[args.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = args.get(i).type().unwrap();
            if (types[i] instanceof ArrayType || types[i] instanceof TupleType || types[i] instanceof MapType) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub's " + name + " hashes scalar values only, not "
                    + types[i].name());
            }
        }
        return Functions.defaultForNulls(result, args, v -> {
            long h = 0;
            for (int i = 0; i < v.length; i++) {
                byte[] b = ReinterpretFunctions.bytes(v[i], types[i]);
                if (is64) {
                    long x = XXH64.hash(b, 0, b.length, 0);
                    h = i == 0 ? x : CityHash128.hash128to64(h, x);
                } else {
                    long x = XXH32.hash(b, 0, b.length, 0) & 0xFFFFFFFFL;
                    h = i == 0 ? x : (intHash32(h) ^ x) & 0xFFFFFFFFL;
                }
            }
            return h;
        });
    }

    /** ClickHouse's IntHash32Impl: intHash32 with its fixed salt. */
    private static long intHash32(long key) {
        key ^= 0x75D9543DE018BF45L;
        key = ~key + (key << 18);
        key = key ^ (key >>> 31 | key << 33);
        key = key * 21;
        key = key ^ (key >>> 11 | key << 53);
        key = key + (key << 6);
        key = key ^ (key >>> 22 | key << 42);
        return key & 0xFFFFFFFFL;
    }

    private static Evaluator digest(String name, String algorithm, List<Evaluator> args) {
        Functions.arity(name, args, 1);
        Evaluator a = args.get(0);
        if (!Functions.isString(a.type()) && !Functions.isNothing(a)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
        }
        int size = newDigest(algorithm).getDigestLength();
        return Functions.defaultForNulls(DataTypes.parse("FixedString(" + size + ")"), args,
            v -> ByteStrings.of(newDigest(algorithm).digest(ByteStrings.bytes((String) v[0]))));
    }

    private static MessageDigest newDigest(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has " + algorithm, e);
        }
    }
}
