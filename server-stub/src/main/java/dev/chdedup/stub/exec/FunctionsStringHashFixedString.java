package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.digests.KeccakDigest;
import org.bouncycastle.crypto.digests.MD4Digest;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;

/**
 * The digests of one String or FixedString, a FixedString of the digest's size (ClickHouse's
 * FunctionStringHashFixedString): MD4, MD5, RIPEMD160, SHA1, SHA224, SHA256, SHA384, SHA512, SHA512_256 and keccak256
 * (Keccak-256 as Ethereum uses it, before SHA-3's padding). The SHA and MD5 digests are the JDK's, the others Bouncy
 * Castle's.
 */
final class FunctionsStringHashFixedString {
    private FunctionsStringHashFixedString() {
    }

    /** The SQL names of the JDK's digests, to the JDK's algorithm names. */
    private static final Map<String, String> JDK = Map.of("MD5", "MD5", "SHA1", "SHA-1", "SHA224", "SHA-224", "SHA256",
        "SHA-256", "SHA384", "SHA-384", "SHA512", "SHA-512", "SHA512_256", "SHA-512/256");

    /** The SQL names of Bouncy Castle's digests. */
    private static final Map<String, Supplier<Digest>> BC = Map.of("MD4", MD4Digest::new, "RIPEMD160", RIPEMD160Digest::new,
        "keccak256", () -> new KeccakDigest(256));

    static void register(FunctionFactory f) {
        JDK.forEach((name, algorithm) -> f.register(name, FunctionsHashing.CATEGORY, (args, ctx) -> digest(name, args, b -> jdk(algorithm, b),
            jdk(algorithm, new byte[0]).length)));
        BC.forEach((name, digest) -> f.register(name, FunctionsHashing.CATEGORY, (args, ctx) -> digest(name, args, b -> bc(digest.get(), b),
            digest.get().getDigestSize())));
    }

    /** The MD5 digest of {@code b}. */
    static byte[] md5(byte[] b) {
        return jdk("MD5", b);
    }

    private static Evaluator digest(String name, List<Evaluator> args, java.util.function.Function<byte[], byte[]> fn, int size) {
        Functions.arity(name, args, 1);
        Evaluator a = args.get(0);
        if (!Functions.isString(a.type()) && !Functions.isNothing(a)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function " + name);
        }
        return Functions.defaultForNulls(DataTypes.parse("FixedString(" + size + ")"), args,
            v -> ByteStrings.of(fn.apply(ByteStrings.bytes((String) v[0]))));
    }

    private static byte[] jdk(String algorithm, byte[] b) {
        try {
            return MessageDigest.getInstance(algorithm).digest(b);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK always has " + algorithm, e);
        }
    }

    private static byte[] bc(Digest d, byte[] b) {
        d.update(b, 0, b.length);
        byte[] out = new byte[d.getDigestSize()];
        d.doFinal(out, 0);
        return out;
    }
}
