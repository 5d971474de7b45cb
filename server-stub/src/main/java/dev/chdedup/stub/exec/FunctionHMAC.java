package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.bouncycastle.crypto.Digest;
import org.bouncycastle.crypto.ExtendedDigest;
import org.bouncycastle.crypto.digests.Blake2bDigest;
import org.bouncycastle.crypto.digests.Blake2sDigest;
import org.bouncycastle.crypto.digests.MD4Digest;
import org.bouncycastle.crypto.digests.MD5Digest;
import org.bouncycastle.crypto.digests.RIPEMD160Digest;
import org.bouncycastle.crypto.digests.SHA1Digest;
import org.bouncycastle.crypto.digests.SHA224Digest;
import org.bouncycastle.crypto.digests.SHA256Digest;
import org.bouncycastle.crypto.digests.SHA384Digest;
import org.bouncycastle.crypto.digests.SHA3Digest;
import org.bouncycastle.crypto.digests.SHA512Digest;
import org.bouncycastle.crypto.digests.SHA512tDigest;
import org.bouncycastle.crypto.digests.SM3Digest;
import org.bouncycastle.crypto.macs.HMac;
import org.bouncycastle.crypto.params.KeyParameter;

/**
 * ClickHouse's HMAC (category Encryption, any letter case): HMAC(algorithm, message, key) is the raw HMAC of the
 * message (String or FixedString) under the key with the digest OpenSSL names {@code algorithm} (a constant, any
 * case, OpenSSL's aliases such as sha-256 and ssl3-md5 included), as a String. The digests are Bouncy Castle's; the
 * extendable-output shake digests have no HMAC (OPENSSL_ERROR), as in OpenSSL.
 */
final class FunctionHMAC {
    private static final String NAME = "HMAC";
    private static final String SUPPORTED = "blake2b512, blake2s256, md4, md5, md5-sha1, mdc2, ripemd (aliases: RIPEMD160, ripemd), ripemd160, "
        + "rmd160 (aliases: RIPEMD160, rmd160), sha1, sha224, sha256, sha3-224, sha3-256, sha3-384, sha3-512, sha384, sha512, sha512-224, "
        + "sha512-256, shake128, shake256, sm3, ssl3-md5 (aliases: MD5, ssl3-md5), ssl3-sha1 (aliases: SHA1, ssl3-sha1)";
    private static final Map<String, Supplier<Digest>> DIGESTS = digests();

    private FunctionHMAC() {
    }

    static void register(FunctionFactory f) {
        f.registerCaseInsensitive(NAME, FunctionsAES.CATEGORY, (args, ctx) -> compile(args));
    }

    private static Map<String, Supplier<Digest>> digests() {
        Map<String, Supplier<Digest>> m = new HashMap<>();
        alias(m, MD4Digest::new, "md4");
        alias(m, MD5Digest::new, "md5", "ssl3-md5");
        alias(m, SHA1Digest::new, "sha1", "sha-1", "ssl3-sha1");
        alias(m, SHA224Digest::new, "sha224", "sha-224", "sha2-224");
        alias(m, SHA256Digest::new, "sha256", "sha-256", "sha2-256");
        alias(m, SHA384Digest::new, "sha384", "sha-384", "sha2-384");
        alias(m, SHA512Digest::new, "sha512", "sha-512", "sha2-512");
        alias(m, () -> new SHA512tDigest(224), "sha512-224", "sha-512/224", "sha2-512/224");
        alias(m, () -> new SHA512tDigest(256), "sha512-256", "sha-512/256", "sha2-512/256");
        for (int bits : new int[] {224, 256, 384, 512}) {
            alias(m, () -> new SHA3Digest(bits), "sha3-" + bits);
        }
        alias(m, RIPEMD160Digest::new, "ripemd160", "ripemd", "rmd160", "ripemd-160");
        alias(m, () -> new Blake2bDigest(512), "blake2b512");
        alias(m, () -> new Blake2sDigest(256), "blake2s256");
        alias(m, SM3Digest::new, "sm3");
        alias(m, Md5Sha1::new, "md5-sha1");
        return Map.copyOf(m);
    }

    private static void alias(Map<String, Supplier<Digest>> m, Supplier<Digest> d, String... names) {
        for (String n : names) {
            m.put(n, d);
        }
    }

    private static Evaluator compile(List<Evaluator> args) {
        Functions.arity(NAME, args, 3);
        Evaluator mode = args.get(0);
        if (!Functions.isNothing(mode) && !Functions.isString(mode.type())) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "mode", NAME, "Hash algorithm name (e.g., 'sha256')", mode.type());
        }
        String[] what = {"message", "Message to be authenticated", "key", "Secret key for HMAC"};
        for (int i = 1; i < 3; i++) {
            DataType t = args.get(i).type();
            if (!Functions.isNothing(args.get(i)) && !Functions.isString(t)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, what[2 * i - 2], NAME, what[2 * i - 1], t);
            }
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Functions.defaultForNulls(DataTypes.STRING, args, v -> null);
        }
        if (!mode.constant()) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, 1, "mode", NAME, "Hash algorithm name (e.g., 'sha256')", mode.type());
        }
        Object m = mode.eval(new Object[0]);
        if (m == null) {
            return Functions.strict(DataTypes.STRING, args, v -> null);
        }
        String algorithm = ByteStrings.toText((String) m);
        Supplier<Digest> digest = digest(algorithm);
        return Functions.strict(DataTypes.STRING, args, v -> ByteStrings.of(mac(digest.get(), Functions.bytes(v[1]), Functions.bytes(v[2]))));
    }

    private static Supplier<Digest> digest(String algorithm) {
        String key = algorithm.toLowerCase(Locale.ROOT);
        Supplier<Digest> d = DIGESTS.get(key);
        if (d != null) {
            return d;
        }
        if (key.equals("shake128") || key.equals("shake256")) {
            throw new ChException(ErrorCode.OPENSSL_ERROR, "HMAC computation failed: ");
        }
        if (key.equals("mdc2")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "HMAC with mdc2 is not supported by the stub");
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid hash algorithm: '" + algorithm + "'. Supported algorithms are: " + SUPPORTED);
    }

    static byte[] mac(Digest d, byte[] message, byte[] key) {
        HMac h = new HMac(d);
        h.init(new KeyParameter(key));
        h.update(message, 0, message.length);
        byte[] out = new byte[h.getMacSize()];
        h.doFinal(out, 0);
        return out;
    }

    /** OpenSSL's md5-sha1: the MD5 digest followed by the SHA-1 digest of the same input, over 64-byte blocks. */
    private static final class Md5Sha1 implements ExtendedDigest {
        private final MD5Digest md5 = new MD5Digest();
        private final SHA1Digest sha1 = new SHA1Digest();

        @Override
        public String getAlgorithmName() {
            return "MD5-SHA1";
        }

        @Override
        public int getDigestSize() {
            return md5.getDigestSize() + sha1.getDigestSize();
        }

        @Override
        public void update(byte in) {
            md5.update(in);
            sha1.update(in);
        }

        @Override
        public void update(byte[] in, int off, int len) {
            md5.update(in, off, len);
            sha1.update(in, off, len);
        }

        @Override
        public int doFinal(byte[] out, int off) {
            int n = md5.doFinal(out, off);
            return n + sha1.doFinal(out, off + n);
        }

        @Override
        public void reset() {
            md5.reset();
            sha1.reset();
        }

        @Override
        public int getByteLength() {
            return 64;
        }
    }
}
