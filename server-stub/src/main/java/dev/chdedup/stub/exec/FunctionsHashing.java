package dev.chdedup.stub.exec;

import static dev.chdedup.stub.exec.FunctionAnyHash.byApply;
import static dev.chdedup.stub.exec.FunctionAnyHash.h32;
import static dev.chdedup.stub.exec.FunctionAnyHash.h64;

import dev.chdedup.stub.compress.CityHash128;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.FunctionAnyHash.Apply;
import dev.chdedup.stub.exec.FunctionAnyHash.Combine;
import dev.chdedup.stub.exec.FunctionAnyHash.Pods;
import dev.chdedup.stub.hash.FarmHash;
import dev.chdedup.stub.hash.MetroHash64;
import dev.chdedup.stub.hash.MurmurHash;
import dev.chdedup.stub.hash.WyHash;
import dev.chdedup.stub.hash.XXH3;
import dev.chdedup.stub.hash.SipHash;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.List;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHash64;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The hashes of any values (ClickHouse's FunctionsHashing.h, each a {@link FunctionAnyHash} with its hash of bytes and
 * its way to fold two hashes): sipHash64/128 (keyed and reference forms), halfMD5, cityHash64, farmHash64,
 * farmFingerprint64, metroHash64, wyHash64, the MurmurHash family,
 * javaHash, javaHashUTF16LE, hiveHash, xxHash32/64, xxh3, xxh3_128; and URLHash and xxHash64Spark. The integer hashes are in {@link FunctionsHashingInt},
 * the digests in {@link FunctionsStringHashFixedString}.
 */
final class FunctionsHashing {
    static final String CATEGORY = "Hash";

    private static final XXHash32 XXH32 = XXHashFactory.safeInstance().hash32();
    private static final XXHash64 XXH64 = XXHashFactory.safeInstance().hash64();

    private FunctionsHashing() {
    }

    static void register(FunctionFactory f) {
        Combine int32 = (k, h1, h2) -> h32(FunctionsHashingInt.intHash32(h1[0]) ^ h2[0]);
        Combine int64 = (k, h1, h2) -> h64(FunctionsHashingInt.intHash64(h1[0]) ^ h2[0]);
        Combine city = (k, h1, h2) -> h64(CityHash128.hash128to64(h1[0], h2[0]));

        Apply sip64 = (k, b) -> h64(new SipHash().update(b).get64());
        anyHash(f, "sipHash64", 64, Pods.BYTES, sip64, byApply(sip64, 64));
        Apply sip64Keyed = (k, b) -> h64(new SipHash(k[0], k[1]).update(b).get64());
        FunctionAnyHash.keyed("sipHash64Keyed", 64, sip64Keyed, byApply(sip64Keyed, 64)).register(f, CATEGORY);
        Apply sip128 = (k, b) -> new SipHash().update(b).get128();
        anyHash(f, "sipHash128", 128, Pods.BYTES, sip128, byApply(sip128, 128));
        Apply sip128Keyed = (k, b) -> new SipHash(k[0], k[1]).update(b).get128();
        FunctionAnyHash.keyed("sipHash128Keyed", 128, sip128Keyed, byApply(sip128Keyed, 128)).register(f, CATEGORY);
        Apply sip128Reference = (k, b) -> SipHash.reference(0, 0).update(b).getReference128();
        anyHash(f, "sipHash128Reference", 128, Pods.BYTES, sip128Reference, byApply(sip128Reference, 128));
        Apply sip128ReferenceKeyed = (k, b) -> SipHash.reference(k[0], k[1]).update(b).getReference128();
        FunctionAnyHash.keyed("sipHash128ReferenceKeyed", 128, sip128ReferenceKeyed, byApply(sip128ReferenceKeyed, 128)).register(f, CATEGORY);
        Apply halfMD5 = (k, b) -> h64(halfMD5(b));
        anyHash(f, "halfMD5", 64, Pods.BYTES, halfMD5, byApply(halfMD5, 64));

        anyHash(f, "murmurHash2_32", 32, Pods.BYTES, (k, b) -> h32(MurmurHash.murmur2_32(b, 0)), int32);
        anyHash(f, "murmurHash2_64", 64, Pods.BYTES, (k, b) -> h64(MurmurHash.murmur64A(b, 0)), int64);
        anyHash(f, "gccMurmurHash", 64, Pods.BYTES, (k, b) -> h64(MurmurHash.murmur64A(b, 0xc70f6907L)), int64);
        anyHash(f, "kafkaMurmurHash", 32, Pods.BYTES, (k, b) -> h32(MurmurHash.murmur2_32(b, 0x9747b28c) & 0x7fffffff), int32);
        anyHash(f, "murmurHash3_32", 32, Pods.BYTES, (k, b) -> h32(MurmurHash.murmur3_32(b, 0)), int32);
        anyHash(f, "murmurHash3_64", 64, Pods.BYTES, (k, b) -> {
            long[] h = MurmurHash.murmur3_128(b, 0);
            return h64(h[0] ^ h[1]);
        }, int64);
        Apply murmur3_128 = (k, b) -> MurmurHash.murmur3_128(b, 0);
        anyHash(f, "murmurHash3_128", 128, Pods.BYTES, murmur3_128, byApply(murmur3_128, 128));

        Combine notCombinable = (k, h1, h2) -> {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Java hash is not combineable for multiple arguments");
        };
        FunctionAnyHash.signed32("javaHash", Pods.JAVA, (k, b) -> h32(javaHash(b)), notCombinable).register(f, CATEGORY);
        FunctionAnyHash.signed32("javaHashUTF16LE", Pods.BYTES, (k, b) -> h32(javaHashUTF16LE(b)), notCombinable).register(f, CATEGORY);
        FunctionAnyHash.signed32("hiveHash", Pods.BYTES, (k, b) -> h32(javaHash(b) & 0x7FFFFFFF), (k, h1, h2) -> {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Hive hash is not combineable for multiple arguments");
        }).register(f, CATEGORY);

        anyHash(f, "cityHash64", 64, Pods.INT_HASH_64, (k, b) -> h64(CityHash128.hash64(b, 0, b.length)), city);
        anyHash(f, "farmFingerprint64", 64, Pods.INT_HASH_64, (k, b) -> h64(FarmHash.fingerprint64(b)),
            (k, h1, h2) -> h64(FarmHash.fingerprint(h1[0], h2[0])));
        anyHash(f, "farmHash64", 64, Pods.INT_HASH_64, (k, b) -> h64(FarmHash.hash64(b)), city);
        anyHash(f, "metroHash64", 64, Pods.INT_HASH_64, (k, b) -> h64(MetroHash64.hash(b, 0)), city);
        Apply wy = (k, b) -> h64(WyHash.hash(b, 0));
        anyHash(f, "wyHash64", 64, Pods.BYTES, wy, byApply(wy, 64));
        anyHash(f, "xxh3", 64, Pods.BYTES, (k, b) -> h64(XXH3.hash64(b)), city);
        Apply xxh3_128 = (k, b) -> XXH3.hash128(b);
        FunctionAnyHash.uint128("xxh3_128", xxh3_128, byApply(xxh3_128, 128)).register(f, CATEGORY);
        anyHash(f, "xxHash32", 32, Pods.BYTES, (k, b) -> h32(XXH32.hash(b, 0, b.length, 0)), int32);
        anyHash(f, "xxHash64", 64, Pods.BYTES, (k, b) -> h64(XXH64.hash(b, 0, b.length, 0)), city);

        f.register("URLHash", CATEGORY, (args, ctx) -> urlHash(args));
        FunctionsHashingInt.register(f);
        FunctionsStringHashFixedString.register(f);
        FunctionsStringHash.register(f);
        FunctionIcebergHash.register(f);
        f.register("xxHash64Spark", CATEGORY, (args, ctx) -> xxHash64Spark(args));
    }

    private static void anyHash(FunctionFactory f, String name, int bits, Pods pods, Apply apply, Combine combine) {
        FunctionAnyHash.of(name, bits, pods, apply, combine).register(f, CATEGORY);
    }

    /** Spark's xxhash64 of a string: XXH64 with seed 42, an Int64; NULL hashes as the seed. */
    private static Evaluator xxHash64Spark(List<Evaluator> args) {
        Functions.arity("xxHash64Spark", args, 1);
        Evaluator a = args.get(0);
        DataType t = a.type().unwrap();
        if (!(t instanceof StringType && ((StringType) t).fixedLength == 0) && !Functions.isNothing(a)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function xxHash64Spark. "
                + "Must be String or NULL");
        }
        final long seed = 42;
        return Evaluator.of(DataTypes.INT64, r -> {
            Object v = a.eval(r);
            if (v == null) {
                return seed;
            }
            byte[] b = ByteStrings.bytes((String) v);
            return XXH64.hash(b, 0, b.length, seed);
        });
    }

    /** The first 8 bytes of the MD5 digest as a big-endian number. */
    static long halfMD5(byte[] b) {
        byte[] d = FunctionsStringHashFixedString.md5(b);
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = h << 8 | (d[i] & 0xFF);
        }
        return h;
    }

    /** Java's String.hashCode over the bytes as signed chars. */
    static int javaHash(byte[] b) {
        int h = 0;
        for (byte x : b) {
            h = 31 * h + x;
        }
        return h;
    }

    /** Java's String.hashCode of UTF-16LE text (a leading byte-order mark skipped). */
    private static int javaHashUTF16LE(byte[] b) {
        int start = b.length >= 2 && (b[0] & 0xFF) == 0xFF && (b[1] & 0xFF) == 0xFE ? 2 : 0;
        if ((b.length - start) % 2 != 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Arguments for javaHashUTF16LE must be in the form of UTF-16");
        }
        int h = 0;
        for (int i = start; i < b.length; i += 2) {
            h = 31 * h + ((b[i] & 0xFF) | (b[i + 1] & 0xFF) << 8);
        }
        return h;
    }

    /** URLHash(url[, level]): CityHash64 of the URL (or of its first level parts) without a trailing '/', '?' or '#'. */
    private static Evaluator urlHash(List<Evaluator> args) {
        if (args.size() != 1 && args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function URLHash doesn't match: passed "
                + args.size() + ", should be 1 or 2.");
        }
        DataType url = args.get(0).type().unwrap();
        if (!(url instanceof StringType) || ((StringType) url).fixedLength != 0) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of argument of function URLHash");
        }
        DataType level = args.size() == 2 ? args.get(1).type().unwrap() : null;
        if (level != null && !(level instanceof IntType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name() + " of argument of function URLHash");
        }
        return Functions.defaultForNulls(DataTypes.UINT64, args, v -> {
            byte[] b = ByteStrings.bytes((String) v[0]);
            int len = level == null ? b.length : levelLength(Values.toLong(Values.toNumber(v[1], level)), b);
            if (len > 0 && (b[len - 1] == '/' || b[len - 1] == '?' || b[len - 1] == '#')) {
                len--;
            }
            return CityHash128.hash64(b, 0, len);
        });
    }

    private static boolean isSeparator(byte c) {
        return c == '/' || c == '?' || c == '#';
    }

    /**
     * The length of the URL's first {@code level} parts after the scheme and host (level 0: the scheme and host with the
     * slash after it); a URL without "scheme://" is one part; 0 when it has fewer parts.
     */
    private static int levelLength(long level, byte[] s) {
        int end = s.length;
        int pos = 0;
        while (pos < end && (s[pos] > 'a' && s[pos] < 'z' || s[pos] > '0' && s[pos] < '9')) {
            pos++;
        }
        if (pos == 0 || pos == end || !(pos + 3 < end && s[pos] == ':' && s[pos + 1] == '/' && s[pos + 2] == '/')) {
            return level == 0 ? end : 0;
        }
        pos += 3;
        while (pos < end && !isSeparator(s[pos])) {
            pos++;
        }
        if (pos != end) {
            pos++;
        }
        if (level == 0) {
            return pos;
        }
        long current = 0;
        while (current != level && pos < end) {
            while (pos < end && isSeparator(s[pos])) {
                pos++;
            }
            if (pos == end) {
                break;
            }
            while (pos < end && !isSeparator(s[pos])) {
                pos++;
            }
            if (pos != end) {
                pos++;
            }
            current++;
        }
        return current == level ? pos : 0;
    }
}
