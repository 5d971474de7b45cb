package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;

/**
 * IPv6, held as a 16-byte byte string ({@link ByteStrings}) in network order, so that string order is address
 * order; text in the RFC 5952 short form with an IPv4-mapped address shown as {@code ::ffff:a.b.c.d}, RowBinary
 * the 16 bytes as they are, as ClickHouse's {@code DataTypeIPv6} stores them. An IPv4 text is accepted and
 * mapped. Parsing failures are {@code CANNOT_PARSE_IPV6}.
 */
public final class IPv6Type extends DataType {
    private static final String ZERO = "\0".repeat(16);

    IPv6Type() {
    }

    @Override
    public String name() {
        return "IPv6";
    }

    @Override
    public Object defaultValue() {
        return ZERO;
    }

    public static boolean isIPv4Mapped(String b) {
        for (int i = 0; i < 10; i++) {
            if (b.charAt(i) != 0) {
                return false;
            }
        }
        return b.charAt(10) == 0xFF && b.charAt(11) == 0xFF;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        String b = (String) v;
        int[] g = new int[8];
        for (int i = 0; i < 8; i++) {
            g[i] = b.charAt(2 * i) << 8 | b.charAt(2 * i + 1);
        }
        if (isIPv4Mapped(b)) {
            sb.append("::ffff:");
            IPv4Type.format((long) g[6] << 16 | g[7], sb);
            return;
        }
        int bestStart = -1;
        int bestLen = 0;
        for (int i = 0; i < 8; ) {
            if (g[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && g[j] == 0) {
                j++;
            }
            if (j - i > bestLen) {
                bestStart = i;
                bestLen = j - i;
            }
            i = j;
        }
        if (bestLen < 2) {
            bestStart = -1;
        }
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLen - 1;
                continue;
            }
            if (i > 0 && i != bestStart + bestLen) {
                sb.append(':');
            }
            sb.append(Integer.toHexString(g[i]));
        }
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        formatInQuotes(v, sb);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.skipSpaces();
        String tok = quoted && r.peek() != '\'' && r.peek() != '"' ? readBareAddress(r) : r.readScalar(quoted);
        return parse(tok.trim());
    }

    /** An unquoted address inside a nested value: up to the next separator, colons included. */
    private static String readBareAddress(TextReader r) {
        StringBuilder sb = new StringBuilder();
        while (!r.atEnd()) {
            int c = r.peek();
            if (c == ',' || c == ']' || c == ')' || c == '}' || Character.isWhitespace(c)) {
                break;
            }
            sb.append(r.next());
        }
        return sb.toString();
    }

    String parse(String s) {
        String b = tryParse(s);
        if (b == null) {
            throw new ChException(ErrorCode.CANNOT_PARSE_IPV6, "Cannot parse IPv6 " + ByteStrings.toText(s) + ": invalid IPv6 address");
        }
        return b;
    }

    /** The 16 bytes of address {@code s} (IPv6, or IPv4 which is mapped), or null when it is not one. */
    public static String tryParse(String s) {
        long v4 = IPv4Type.tryParse(s);
        if (v4 >= 0) {
            return mapped(v4);
        }
        int[] g = new int[8];
        int n = 0;
        int gap = -1;
        int i = 0;
        int len = s.length();
        if (s.startsWith("::")) {
            gap = 0;
            i = 2;
        } else if (s.startsWith(":")) {
            return null;
        }
        while (i < len) {
            int st = i;
            int x = 0;
            while (i < len && i - st < 4 && Character.digit(s.charAt(i), 16) >= 0) {
                x = x << 4 | Character.digit(s.charAt(i), 16);
                i++;
            }
            if (i < len && s.charAt(i) == '.') {
                long tail = IPv4Type.tryParse(s.substring(st));
                if (tail < 0 || n > 6) {
                    return null;
                }
                g[n++] = (int) (tail >>> 16);
                g[n++] = (int) (tail & 0xFFFF);
                i = len;
                break;
            }
            if (i == st || n == 8) {
                return null;
            }
            g[n++] = x;
            if (i == len) {
                break;
            }
            if (s.charAt(i) != ':') {
                return null;
            }
            i++;
            if (i < len && s.charAt(i) == ':') {
                if (gap >= 0) {
                    return null;
                }
                gap = n;
                i++;
            } else if (i == len) {
                return null;
            }
        }
        if (gap < 0 ? n != 8 : n > 7) {
            return null;
        }
        int[] full = new int[8];
        if (gap < 0) {
            full = g;
        } else {
            System.arraycopy(g, 0, full, 0, gap);
            System.arraycopy(g, gap, full, 8 - (n - gap), n - gap);
        }
        char[] out = new char[16];
        for (int k = 0; k < 8; k++) {
            out[2 * k] = (char) (full[k] >>> 8);
            out[2 * k + 1] = (char) (full[k] & 0xFF);
        }
        return new String(out);
    }

    public static String mapped(long v4) {
        char[] out = new char[16];
        out[10] = 0xFF;
        out[11] = 0xFF;
        for (int k = 0; k < 4; k++) {
            out[12 + k] = (char) (v4 >>> (24 - 8 * k) & 0xFF);
        }
        return new String(out);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        byte[] b = ByteStrings.bytes((String) v);
        out.write(b, 0, 16);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return ByteStrings.of(in.readBytes(16));
    }

    @Override
    public int compare(Object a, Object b) {
        return ((String) a).compareTo((String) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        DataType f = from.unwrap();
        if (f instanceof IPv6Type) {
            return v;
        }
        if (f instanceof IPv4Type) {
            return mapped((Long) v);
        }
        if (v instanceof String) {
            String s = (String) v;
            // a FixedString(16) holds the address bytes; any other string is its text
            return f instanceof StringType && ((StringType) f).fixedLength == 16 ? s : parse(s.trim());
        }
        throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Conversion from " + from.name() + " to IPv6 is not supported");
    }

    @Override
    public int byteSize(Object v) {
        return 16;
    }
}
