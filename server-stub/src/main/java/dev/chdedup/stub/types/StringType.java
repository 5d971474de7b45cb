package dev.chdedup.stub.types;

import java.io.IOException;

/**
 * String and FixedString(N), held as byte strings ({@link ByteStrings}: one char per byte). FixedString values
 * are padded with zero bytes to N on the wire and in text, as ClickHouse shows them.
 */
public final class StringType extends DataType {
    /** 0 for String, N for FixedString(N). */
    public final int fixedLength;

    StringType(int fixedLength) {
        this.fixedLength = fixedLength;
    }

    @Override
    public String name() {
        return fixedLength == 0 ? "String" : "FixedString(" + fixedLength + ")";
    }

    @Override
    public Object defaultValue() {
        return fixedLength == 0 ? "" : "\0".repeat(fixedLength);
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append((String) v);
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        quote((String) v, sb);
    }

    /** Appends {@code s} as a single-quoted literal with ClickHouse's escapes. */
    public static void quote(String s, StringBuilder sb) {
        sb.append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\'': sb.append("\\'"); break;
                case '\\': sb.append("\\\\"); break;
                case '\n': sb.append("\\n"); break;
                case '\t': sb.append("\\t"); break;
                case '\r': sb.append("\\r"); break;
                case '\0': sb.append("\\0"); break;
                case '\b': sb.append("\\b"); break;
                case '\f': sb.append("\\f"); break;
                default: sb.append(c);
            }
        }
        sb.append('\'');
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        String s = quoted ? r.readQuoted() : r.readRest();
        return fit(s);
    }

    private String fit(String s) {
        if (fixedLength == 0) {
            return s;
        }
        int n = s.length();
        if (n > fixedLength) {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.TOO_LARGE_STRING_SIZE,
                "Too large value for FixedString(" + fixedLength + ")");
        }
        return n == fixedLength ? s : s + "\0".repeat(fixedLength - n);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        if (fixedLength == 0) {
            out.writeString((String) v);
        } else {
            byte[] b = ByteStrings.bytes((String) v);
            out.write(b, 0, Math.min(b.length, fixedLength));
            for (int i = b.length; i < fixedLength; i++) {
                out.write(0);
            }
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        if (fixedLength == 0) {
            return in.readString();
        }
        return ByteStrings.of(in.readBytes(fixedLength));
    }

    @Override
    public int compare(Object a, Object b) {
        return ((String) a).compareTo((String) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return fit((String) v);
        }
        return fit(Values.text(v, from));
    }

    @Override
    public int byteSize(Object v) {
        return fixedLength > 0 ? fixedLength : ((String) v).length() + 1;
    }
}
