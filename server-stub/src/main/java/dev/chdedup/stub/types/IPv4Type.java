package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;

/**
 * IPv4, held as a {@code Long} between 0 and 2^32-1 (the address as a big-endian number); text {@code a.b.c.d},
 * RowBinary a little-endian UInt32, as ClickHouse's {@code DataTypeIPv4} stores it. Parsing failures are
 * {@code CANNOT_PARSE_IPV4}.
 */
public final class IPv4Type extends DataType {
    IPv4Type() {
    }

    @Override
    public String name() {
        return "IPv4";
    }

    @Override
    public Object defaultValue() {
        return 0L;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        format((Long) v, sb);
    }

    public static void format(long a, StringBuilder sb) {
        sb.append(a >>> 24 & 0xFF).append('.').append(a >>> 16 & 0xFF).append('.').append(a >>> 8 & 0xFF).append('.').append(a & 0xFF);
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        formatInQuotes(v, sb);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        String tok = r.readScalar(quoted);
        return parse(tok.trim());
    }

    /** The address {@code s} in dotted-quad form, or -1 when it is not one. */
    public static long tryParse(String s) {
        long a = 0;
        int parts = 0;
        int i = 0;
        int n = s.length();
        while (parts < 4) {
            int st = i;
            int x = 0;
            while (i < n && i - st < 3 && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                x = x * 10 + s.charAt(i) - '0';
                i++;
            }
            if (i == st || x > 255) {
                return -1;
            }
            a = a << 8 | x;
            parts++;
            if (parts < 4) {
                if (i >= n || s.charAt(i) != '.') {
                    return -1;
                }
                i++;
            }
        }
        return i == n ? a : -1;
    }

    Long parse(String s) {
        long a = tryParse(s);
        if (a < 0) {
            throw new ChException(ErrorCode.CANNOT_PARSE_IPV4, "Cannot parse IPv4 " + ByteStrings.toText(s) + ": invalid IPv4 address");
        }
        return a;
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE((Long) v, 4);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return in.readLongLE(4) & 0xFFFFFFFFL;
    }

    @Override
    public int compare(Object a, Object b) {
        return Long.compare((Long) a, (Long) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parse(((String) v).trim());
        }
        DataType f = from.unwrap();
        if (f instanceof IPv4Type) {
            return v;
        }
        if (f instanceof IPv6Type) {
            String b = (String) v;
            if (!IPv6Type.isIPv4Mapped(b)) {
                throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "IPv6 " + Values.text(v, f) + " in column is not in IPv4 mapping block");
            }
            long a = 0;
            for (int i = 12; i < 16; i++) {
                a = a << 8 | b.charAt(i);
            }
            return a;
        }
        if (f instanceof IntType || f instanceof BigIntType) {
            return Values.toLong(Values.toNumber(v, from)) & 0xFFFFFFFFL;
        }
        throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Conversion from " + from.name() + " to IPv4 is not supported");
    }

    @Override
    public int byteSize(Object v) {
        return 4;
    }
}
