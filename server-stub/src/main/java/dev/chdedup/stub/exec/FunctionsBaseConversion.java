package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.math.BigInteger;
import java.util.Base64;
import java.util.List;

/**
 * The base32, base58 and base64 codings of a String or FixedString (ClickHouse's FunctionBase32Conversion,
 * FunctionBase58Conversion and FunctionBase64Conversion): the Encode forms; the Decode forms, INCORRECT_DATA for text
 * that is not the coding; the tryDecode forms, an empty string for it. base64 is RFC 4648's with padding (ASCII
 * whitespace ignored when decoding), base64URL its URL-safe alphabet without padding (accepted when decoding),
 * base32 RFC 4648's alphabet (either case when decoding) with padding and no stray bits, base58 Bitcoin's alphabet.
 */
final class FunctionsBaseConversion {
    private static final String BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    private static final String BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

    private FunctionsBaseConversion() {
    }

    /** A coding: bytes to text, and text to bytes or null for text that is not the coding. */
    private interface Coding {
        String encode(byte[] b);

        byte[] decode(String text);
    }

    static void register(FunctionFactory f) {
        add(f, "base64", new Coding() {
            public String encode(byte[] b) {
                return Base64.getEncoder().encodeToString(b);
            }

            public byte[] decode(String text) {
                return base64(text, false);
            }
        });
        add(f, "base64URL", new Coding() {
            public String encode(byte[] b) {
                return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
            }

            public byte[] decode(String text) {
                return base64(text, true);
            }
        });
        add(f, "base32", new Coding() {
            public String encode(byte[] b) {
                return base32Encode(b);
            }

            public byte[] decode(String text) {
                return base32Decode(text);
            }
        });
        add(f, "base58", new Coding() {
            public String encode(byte[] b) {
                return base58Encode(b);
            }

            public byte[] decode(String text) {
                return base58Decode(text);
            }
        });
        f.registerAlias("TO_BASE64", "base64Encode", true);
        f.registerAlias("FROM_BASE64", "base64Decode", true);
    }

    private static void add(FunctionFactory f, String base, Coding coding) {
        String c = FunctionsString.CATEGORY;
        f.register(base + "Encode", c, (args, ctx) -> build(base + "Encode", args, v -> ByteStrings.of(coding.encode(Functions.bytes(v)).getBytes())));
        f.register(base + "Decode", c, (args, ctx) -> build(base + "Decode", args, v -> {
            byte[] b = coding.decode((String) v);
            if (b == null) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Invalid " + base + "Decode value (" + ByteStrings.toText((String) v) + "), cannot be decoded");
            }
            return ByteStrings.of(b);
        }));
        String tryName = "try" + Character.toUpperCase(base.charAt(0)) + base.substring(1) + "Decode";
        f.register(tryName, c, (args, ctx) -> build(tryName, args, v -> {
            byte[] b = coding.decode((String) v);
            return b == null ? "" : ByteStrings.of(b);
        }));
    }

    private static Evaluator build(String name, List<Evaluator> args, java.util.function.UnaryOperator<Object> fn) {
        Functions.argumentCount(name, args, 1, 0);
        DataType t = args.get(0).type();
        if (!Functions.isString(t) && !StringArguments.isNull(t)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, name.endsWith("Encode") ? "arg" : "encoded", name,
                "String or FixedString", t);
        }
        return Functions.strict(DataTypes.STRING, args, v -> fn.apply(v[0]));
    }

    /** base64 text (ASCII whitespace aside) as bytes, or null; {@code url}: the URL-safe alphabet, padding optional. */
    private static byte[] base64(String text, boolean url) {
        StringBuilder sb = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (url) {
                sb.append(c == '-' ? '+' : c == '_' ? '/' : c);
            } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != 0x0B) {
                sb.append(c);
            }
        }
        if (url) {
            while (sb.length() % 4 != 0) {
                sb.append('=');
            }
        }
        if (sb.length() % 4 != 0) {
            return null;
        }
        try {
            return Base64.getDecoder().decode(sb.toString());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String base32Encode(byte[] b) {
        StringBuilder sb = new StringBuilder((b.length + 4) / 5 * 8);
        for (int i = 0; i < b.length; i += 5) {
            int n = Math.min(5, b.length - i);
            long block = 0;
            for (int j = 0; j < 5; j++) {
                block = block << 8 | (j < n ? b[i + j] & 0xFF : 0);
            }
            int chars = (n * 8 + 4) / 5;
            for (int k = 0; k < 8; k++) {
                sb.append(k < chars ? BASE32.charAt((int) (block >>> (35 - 5 * k)) & 31) : '=');
            }
        }
        return sb.toString();
    }

    /** Padded base32 text as bytes, or null: whole 8-character groups, a valid padding, no stray set bits. */
    private static byte[] base32Decode(String text) {
        if (text.length() % 8 != 0) {
            return null;
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < text.length(); i += 8) {
            int chars = 8;
            while (chars > 0 && text.charAt(i + chars - 1) == '=') {
                chars--;
            }
            int bytes = chars * 5 / 8;
            boolean last = i + 8 == text.length();
            if (chars < 8 && (!last || chars != 2 && chars != 4 && chars != 5 && chars != 7)) {
                return null;
            }
            long block = 0;
            for (int k = 0; k < 8; k++) {
                int d = k < chars ? BASE32.indexOf(Character.toUpperCase(text.charAt(i + k))) : 0;
                if (d < 0) {
                    return null;
                }
                block = block << 5 | d;
            }
            if ((block & ((1L << (40 - bytes * 8)) - 1)) != 0) {
                return null;
            }
            for (int k = 0; k < bytes; k++) {
                out.write((int) (block >>> (32 - 8 * k)));
            }
        }
        return out.toByteArray();
    }

    private static String base58Encode(byte[] b) {
        int zeros = 0;
        while (zeros < b.length && b[zeros] == 0) {
            zeros++;
        }
        StringBuilder sb = new StringBuilder();
        BigInteger n = new BigInteger(1, b);
        BigInteger radix = BigInteger.valueOf(58);
        while (n.signum() > 0) {
            BigInteger[] qr = n.divideAndRemainder(radix);
            sb.append(BASE58.charAt(qr[1].intValue()));
            n = qr[0];
        }
        return "1".repeat(zeros) + sb.reverse();
    }

    private static byte[] base58Decode(String text) {
        int ones = 0;
        while (ones < text.length() && text.charAt(ones) == '1') {
            ones++;
        }
        BigInteger n = BigInteger.ZERO;
        BigInteger radix = BigInteger.valueOf(58);
        for (int i = ones; i < text.length(); i++) {
            int d = BASE58.indexOf(text.charAt(i));
            if (d < 0) {
                return null;
            }
            n = n.multiply(radix).add(BigInteger.valueOf(d));
        }
        byte[] value = n.signum() == 0 ? new byte[0] : n.toByteArray();
        int skip = value.length > 0 && value[0] == 0 ? 1 : 0;
        byte[] out = new byte[ones + value.length - skip];
        System.arraycopy(value, skip, out, ones, value.length - skip);
        return out;
    }
}
