package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.math.BigInteger;

/** Int8..Int64 and UInt8..UInt64, all held as {@code Long}; UInt64 keeps its unsigned bits. */
public final class IntType extends DataType {
    public final int bits;
    public final boolean signed;
    private final String name;
    /** The smallest and largest value as a {@code long}, for the widths below 64 bits (unused for 64: every long is one). */
    private final long min;
    private final long max;

    IntType(int bits, boolean signed) {
        this.bits = bits;
        this.signed = signed;
        this.name = (signed ? "Int" : "UInt") + bits;
        this.min = bits == 64 ? Long.MIN_VALUE : signed ? -(1L << (bits - 1)) : 0;
        this.max = bits == 64 ? Long.MAX_VALUE : signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
    }

    /**
     * Whether {@code x}, read as a decimal number that fits a signed long, is a value of this type: in range, and for
     * UInt64 not negative (the text of a value at or above 2^63 is longer than such a number).
     */
    public boolean holdsDecimal(long x) {
        return bits == 64 ? signed || x >= 0 : x >= min && x <= max;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Object defaultValue() {
        return 0L;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        long x = (Long) v;
        if (!signed && bits == 64 && x < 0) {
            sb.append(Long.toUnsignedString(x));
        } else {
            sb.append(x);
        }
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.skipSpaces();
        boolean q = quoted && (r.peek() == '\'' || r.peek() == '"');
        String tok = q ? r.readQuoted() : quoted ? r.readBare() : r.readRest();
        return parse(tok);
    }

    /** Parses a decimal integer, refusing values out of this type's range. */
    public Long parse(String tok) {
        int n = tok.length();
        if (n > 0 && n < 19) {
            int i = 0;
            boolean neg = false;
            char c0 = tok.charAt(0);
            if (c0 == '-' || c0 == '+') {
                neg = c0 == '-';
                i = 1;
            }
            if (i < n) {
                long x = 0;
                for (; i < n; i++) {
                    int d = tok.charAt(i) - '0';
                    if (d < 0 || d > 9) {
                        break;
                    }
                    x = x * 10 + d;
                }
                if (i == n) {
                    return checkRange(neg ? -x : x, tok);
                }
            }
        }
        try {
            BigInteger b = new BigInteger(tok.startsWith("+") ? tok.substring(1) : tok);
            if (!fits(b)) {
                throw outOfRange(tok);
            }
            return b.longValue();
        } catch (NumberFormatException e) {
            throw TextReader.cannotParse(this, tok);
        }
    }

    private Long checkRange(long x, String tok) {
        if (bits == 64) {
            if (!signed && x < 0) {
                throw outOfRange(tok);
            }
            return x;
        }
        long min = signed ? -(1L << (bits - 1)) : 0;
        long max = signed ? (1L << (bits - 1)) - 1 : (1L << bits) - 1;
        if (x < min || x > max) {
            throw outOfRange(tok);
        }
        return x;
    }

    private boolean fits(BigInteger b) {
        if (signed) {
            return b.bitLength() < bits;
        }
        return b.signum() >= 0 && b.bitLength() <= bits;
    }

    private ChException outOfRange(String tok) {
        return new ChException(ErrorCode.CANNOT_PARSE_TEXT,
            "Cannot parse string '" + tok + "' as " + name + ": value is out of range of the type");
    }

    /** Wraps {@code x} to this type's width, as ClickHouse's integer casts do. */
    public long wrap(long x) {
        if (bits == 64) {
            return x;
        }
        long mask = (1L << bits) - 1;
        long u = x & mask;
        if (signed && (u & (1L << (bits - 1))) != 0) {
            u |= ~mask;
        }
        return u;
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE((Long) v, bits / 8);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long x = in.readLongLE(bits / 8);
        return signed ? wrap(x) : x;
    }

    @Override
    public int compare(Object a, Object b) {
        long x = (Long) a;
        long y = (Long) b;
        return signed ? Long.compare(x, y) : Long.compareUnsigned(x, y);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof Long && !(from.unwrap() instanceof TimeType)) {
            return wrap((Long) v);
        }
        if (v instanceof String) {
            return parse(((String) v).trim());
        }
        return wrap(Values.toLong(Values.toNumber(v, from)));
    }

    @Override
    public int byteSize(Object v) {
        return bits / 8;
    }
}
