package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * ClickHouse's AES functions (FunctionsAES.h, category Encryption): encrypt and decrypt (key of exactly the cipher's
 * size, IV of the block size or none for zeros, GCM with any non-empty IV, optional AAD and a 16-byte tag after the
 * ciphertext), tryDecrypt (NULL where decrypt fails), and aes_encrypt_mysql / aes_decrypt_mysql (MySQL's rules: a
 * longer key XOR-folded into the cipher's size, a longer IV cut, ECB ignoring it, no GCM). Modes are OpenSSL's
 * {@code aes-<128|192|256>-<ecb|cbc|cfb|cfb1|cfb8|ofb|ctr|gcm>}; ECB and CBC pad with PKCS#7.
 */
final class FunctionsAES {
    static final String CATEGORY = "Encryption";
    private static final Pattern MODE = Pattern.compile("aes-(128|192|256)-([a-z0-9-]+)");
    private static final Set<String> SUPPORTED = Set.of("ecb", "cbc", "cfb", "cfb1", "cfb8", "ofb", "ctr", "gcm");
    private static final Set<String> KNOWN = Set.of("ccm", "ocb", "xts", "wrap", "wrap-pad", "cbc-hmac-sha1", "cbc-hmac-sha256");
    private static final int TAG = 16;

    private FunctionsAES() {
    }

    static void register(FunctionFactory f) {
        f.register("encrypt", CATEGORY, (args, ctx) -> compile("encrypt", args, true, false, false));
        f.register("decrypt", CATEGORY, (args, ctx) -> compile("decrypt", args, false, false, false));
        f.register("tryDecrypt", CATEGORY, (args, ctx) -> compile("tryDecrypt", args, false, false, true));
        f.register("aes_encrypt_mysql", CATEGORY, (args, ctx) -> compile("aes_encrypt_mysql", args, true, true, false));
        f.register("aes_decrypt_mysql", CATEGORY, (args, ctx) -> compile("aes_decrypt_mysql", args, false, true, false));
    }

    /** A parsed mode: the key size in bytes and OpenSSL's mode name. */
    private record Mode(String name, int keySize, String kind) {
        boolean gcm() {
            return kind.equals("gcm");
        }

        boolean hasIv() {
            return !kind.equals("ecb");
        }
    }

    private static Mode mode(String name, boolean mysql) {
        Matcher m = MODE.matcher(name);
        if (!m.matches() || !SUPPORTED.contains(m.group(2)) && !KNOWN.contains(m.group(2))) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid mode: " + name);
        }
        if (!SUPPORTED.contains(m.group(2)) || mysql && m.group(2).equals("gcm")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unsupported cipher mode");
        }
        return new Mode(name, Integer.parseInt(m.group(1)) / 8, m.group(2));
    }

    private static Evaluator compile(String name, List<Evaluator> args, boolean encrypt, boolean mysql, boolean orNull) {
        Functions.argumentCount(name, args, 3, mysql ? 1 : 2);
        String verb = encrypt ? "encryption" : "decryption";
        String[][] expected = {{"mode", verb + " mode string"}, {"input", encrypt ? "plaintext" : "ciphertext"},
            {"key", verb + " key binary string"}, {"iv", "Initialization vector binary string"}, {"additional_data", "Additional data binary string"}};
        for (int i = 0; i < args.size(); i++) {
            Evaluator a = args.get(i);
            if (!Functions.isNothing(a) && !Functions.isString(a.type())) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, expected[i][0], name, expected[i][1], a.type());
            }
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Functions.defaultForNulls(DataTypes.STRING, args, v -> null);
        }
        Evaluator modeArg = args.get(0);
        if (!modeArg.constant()) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, 1, "mode", name, expected[0][1], modeArg.type());
        }
        Object mv = modeArg.eval(new Object[0]);
        Mode mode = mv == null ? null : mode(ByteStrings.toText((String) mv), mysql);
        if (mode != null && !mode.gcm() && args.size() == 5) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "AAD can be only set for GCM-mode");
        }
        DataType result = orNull ? DataTypes.nullable(DataTypes.STRING) : DataTypes.STRING;
        Evaluator e = Functions.strict(result, args, v -> {
            byte[] input = Functions.bytes(v[1]);
            byte[] key = Functions.bytes(v[2]);
            byte[] iv = v.length > 3 ? Functions.bytes(v[3]) : null;
            byte[] aad = v.length > 4 ? Functions.bytes(v[4]) : null;
            try {
                return ByteStrings.of(run(mode, encrypt, mysql, input, key, iv, aad));
            } catch (ChException ex) {
                if (orNull && ex.code() == ErrorCode.OPENSSL_ERROR) {
                    return null;
                }
                throw ex;
            }
        });
        return e;
    }

    private static byte[] run(Mode mode, boolean encrypt, boolean mysql, byte[] input, byte[] key, byte[] iv, byte[] aad) {
        key = mysql ? foldKey(mode, key) : key;
        if (key.length != mode.keySize) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid key size: " + key.length + " expected " + mode.keySize);
        }
        if (mysql) {
            iv = !mode.hasIv() || iv == null || iv.length == 0 ? null : mysqlIv(iv);
        } else if (!mode.hasIv() && iv != null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, mode.name + " does not support IV");
        } else if (mode.gcm() && (iv == null || iv.length == 0)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid IV size 0 != expected size 12");
        } else if (iv != null && iv.length == 0) {
            iv = null;
        } else if (iv != null && !mode.gcm() && iv.length != 16) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid IV size: " + iv.length + " expected 16");
        }
        if (mode.hasIv() && iv == null) {
            iv = new byte[16];
        }
        if (!encrypt && mode.gcm() && input.length < TAG) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Encrypted data is smaller than the size of additional data for AEAD mode, cannot decrypt");
        }
        if (!encrypt && (mode.kind.equals("ecb") || mode.kind.equals("cbc")) && input.length % 16 != 0) {
            throw new ChException(ErrorCode.OPENSSL_ERROR, "Cannot decrypt: data size " + input.length + " is not a multiple of the cipher block size 16");
        }
        try {
            SecretKeySpec k = new SecretKeySpec(key, "AES");
            if (mode.kind.equals("cfb1")) {
                return cfb1(k, iv, input, encrypt);
            }
            String transform = switch (mode.kind) {
                case "ecb" -> "AES/ECB/PKCS5Padding";
                case "cbc" -> "AES/CBC/PKCS5Padding";
                case "cfb" -> "AES/CFB/NoPadding";
                case "cfb8" -> "AES/CFB8/NoPadding";
                case "ofb" -> "AES/OFB/NoPadding";
                case "ctr" -> "AES/CTR/NoPadding";
                default -> "AES/GCM/NoPadding";
            };
            Cipher c = Cipher.getInstance(transform);
            int op = encrypt ? Cipher.ENCRYPT_MODE : Cipher.DECRYPT_MODE;
            if (mode.gcm()) {
                c.init(op, k, new GCMParameterSpec(TAG * 8, iv));
                if (aad != null && aad.length > 0) {
                    c.updateAAD(aad);
                }
            } else if (mode.hasIv()) {
                c.init(op, k, new IvParameterSpec(iv));
            } else {
                c.init(op, k);
            }
            return c.doFinal(input);
        } catch (javax.crypto.BadPaddingException e) {
            throw new ChException(ErrorCode.OPENSSL_ERROR, mode.gcm() ? "EVP_DecryptFinal_ex failed: " : "Cannot decrypt: invalid PKCS#7 padding");
        } catch (GeneralSecurityException e) {
            throw new ChException(ErrorCode.OPENSSL_ERROR, "Cannot " + (encrypt ? "encrypt" : "decrypt") + ": " + e.getMessage());
        }
    }

    /** MySQL's key: a key longer than the cipher's is XOR-folded into its size; a shorter one stays (and is refused). */
    private static byte[] foldKey(Mode mode, byte[] key) {
        if (key.length <= mode.keySize) {
            return key;
        }
        byte[] folded = new byte[mode.keySize];
        for (int i = 0; i < key.length; i++) {
            folded[i % mode.keySize] ^= key[i];
        }
        return folded;
    }

    private static byte[] mysqlIv(byte[] iv) {
        if (iv.length < 16) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid IV size: " + iv.length + " expected 16");
        }
        return Arrays.copyOf(iv, 16);
    }

    /** CFB with a 1-bit feedback, most significant bit first, which the JDK does not offer. */
    private static byte[] cfb1(SecretKeySpec key, byte[] iv, byte[] input, boolean encrypt) throws GeneralSecurityException {
        Cipher ecb = Cipher.getInstance("AES/ECB/NoPadding");
        ecb.init(Cipher.ENCRYPT_MODE, key);
        byte[] register = iv.clone();
        byte[] out = new byte[input.length];
        for (int i = 0; i < input.length; i++) {
            int o = 0;
            for (int bit = 7; bit >= 0; bit--) {
                int keyBit = (ecb.doFinal(register)[0] >> 7) & 1;
                int inBit = (input[i] >> bit) & 1;
                int outBit = inBit ^ keyBit;
                o |= outBit << bit;
                shiftIn(register, encrypt ? outBit : inBit);
            }
            out[i] = (byte) o;
        }
        return out;
    }

    private static void shiftIn(byte[] register, int bit) {
        for (int j = 0; j < register.length; j++) {
            int next = j + 1 < register.length ? (register[j + 1] >> 7) & 1 : bit;
            register[j] = (byte) ((register[j] << 1) | next);
        }
    }
}
