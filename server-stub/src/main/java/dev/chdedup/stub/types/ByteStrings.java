package dev.chdedup.stub.types;

import java.nio.charset.StandardCharsets;

/**
 * The one representation of String and FixedString values: a {@code java.lang.String} whose chars are all
 * below 256, one char per byte (an ISO-8859-1 "byte string"), because a ClickHouse String is bytes, not text.
 * Java's compact strings keep such a value at one byte per char, as small as a {@code byte[]}, and every
 * String-typed code path keeps working; comparing two byte strings with {@link String#compareTo} is the
 * unsigned bytewise order ClickHouse uses. Names (columns, tables, settings, types) stay ordinary Java text;
 * this class converts at the edges where text becomes a value (SQL literals, enum names) or a value is shown as
 * text (UTF-8-aware functions, names read from an input header). A string with a char of 256 or more cannot be
 * a byte string: {@link #bytes} encodes it as UTF-8, so text that reaches a value writer by mistake is still
 * written as its UTF-8 bytes rather than truncated.
 */
public final class ByteStrings {
    private ByteStrings() {
    }

    /** The byte string of {@code n} bytes of {@code b} from {@code off}, one char per byte. */
    public static String of(byte[] b, int off, int n) {
        return new String(b, off, n, StandardCharsets.ISO_8859_1);
    }

    public static String of(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static final java.lang.invoke.VarHandle BE_LONG =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);

    /**
     * Compares {@code an} bytes of {@code a} from {@code ai} with {@code bn} bytes of {@code b} from {@code bi} as
     * ClickHouse compares Strings (unsigned bytes, a prefix first): negative, zero or positive. Eight bytes at a time,
     * as one big-endian unsigned number, which is faster than {@code Arrays.compareUnsigned} on the short values
     * columns mostly hold.
     */
    public static int compare(byte[] a, int ai, int an, byte[] b, int bi, int bn) {
        int n = Math.min(an, bn);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            long x = (long) BE_LONG.get(a, ai + i);
            long y = (long) BE_LONG.get(b, bi + i);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < n; i++) {
            int d = (a[ai + i] & 0xFF) - (b[bi + i] & 0xFF);
            if (d != 0) {
                return d;
            }
        }
        return an - bn;
    }

    /** The bytes of a byte string (UTF-8 for a string that holds a char of 256 or more: text, not bytes). */
    public static byte[] bytes(String s) {
        int n = s.length();
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c > 0xFF) {
                return s.getBytes(StandardCharsets.UTF_8);
            }
            b[i] = (byte) c;
        }
        return b;
    }

    /** The byte string holding the UTF-8 encoding of {@code text}; ASCII text is returned as it is. */
    public static String fromText(String text) {
        if (isAscii(text)) {
            return text;
        }
        return of(text.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code bytes} decoded as UTF-8 (an invalid sequence becomes U+FFFD); ASCII is returned as it is. */
    public static String toText(String bytes) {
        if (isAscii(bytes)) {
            return bytes;
        }
        return new String(bytes(bytes), StandardCharsets.UTF_8);
    }

    /**
     * SQL held as bytes (an expression cut out of Values input) as text for the SQL lexer: valid UTF-8 is decoded,
     * and every other byte becomes a {@code \xHH} escape, which a quoted literal (the one place SQL carries raw
     * bytes) turns back into that byte.
     */
    public static String toSqlText(String bytes) {
        if (isAscii(bytes)) {
            return bytes;
        }
        StringBuilder sb = new StringBuilder(bytes.length() + 8);
        for (int i = 0; i < bytes.length(); ) {
            int k = utf8SequenceLength(bytes, i);
            if (k == 0) {
                sb.append(String.format("\\x%02X", (int) bytes.charAt(i)));
                i++;
            } else {
                sb.append(k == 1 ? String.valueOf(bytes.charAt(i)) : toText(bytes.substring(i, i + k)));
                i += k;
            }
        }
        return sb.toString();
    }

    public static boolean isAscii(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** The number of UTF-8 code points in a byte string: the bytes that are not continuation bytes. */
    public static long codePoints(String s) {
        long n = 0;
        for (int i = 0, len = s.length(); i < len; i++) {
            if ((s.charAt(i) & 0xC0) != 0x80) {
                n++;
            }
        }
        return n;
    }

    /**
     * The length of the well-formed UTF-8 sequence of byte string {@code s} at {@code i} (1 to 4), or 0 if the
     * byte there does not start one (a stray continuation byte, an overlong form, a surrogate, a truncation).
     */
    public static int utf8SequenceLength(CharSequence s, int i) {
        int b = s.charAt(i);
        if (b < 0x80) {
            return 1;
        }
        int k;
        int min;
        if (b >= 0xC2 && b <= 0xDF) {
            k = 2;
            min = 0x80;
        } else if (b >= 0xE0 && b <= 0xEF) {
            k = 3;
            min = 0x800;
        } else if (b >= 0xF0 && b <= 0xF4) {
            k = 4;
            min = 0x10000;
        } else {
            return 0;
        }
        if (i + k > s.length()) {
            return 0;
        }
        int cp = b & (0x3F >> (k - 1));
        for (int j = 1; j < k; j++) {
            int c = s.charAt(i + j);
            if ((c & 0xC0) != 0x80 || c > 0xFF) {
                return 0;
            }
            cp = cp << 6 | (c & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || cp >= 0xD800 && cp <= 0xDFFF) {
            return 0;
        }
        return k;
    }
}
