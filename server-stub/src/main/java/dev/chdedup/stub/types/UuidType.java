package dev.chdedup.stub.types;

import java.io.IOException;
import java.util.UUID;

/** UUID, held as {@code java.util.UUID}; RowBinary writes the high 64 bits first, then the low. */
public final class UuidType extends DataType {
    @Override
    public String name() {
        return "UUID";
    }

    @Override
    public Object defaultValue() {
        return new UUID(0, 0);
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append(v);
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        sb.append('\'').append(v).append('\'');
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        String s = quoted ? r.readQuoted() : r.readRest().trim();
        return parse(s);
    }

    private UUID parse(String s) {
        if (s.length() != 36) {
            throw TextReader.cannotParse(this, s);
        }
        try {
            return UUID.fromString(s);
        } catch (IllegalArgumentException e) {
            throw TextReader.cannotParse(this, s);
        }
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        UUID u = (UUID) v;
        out.writeLongLE(u.getMostSignificantBits(), 8);
        out.writeLongLE(u.getLeastSignificantBits(), 8);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long hi = in.readLongLE(8);
        long lo = in.readLongLE(8);
        return new UUID(hi, lo);
    }

    @Override
    public int compare(Object a, Object b) {
        UUID x = (UUID) a;
        UUID y = (UUID) b;
        int c = Long.compareUnsigned(x.getMostSignificantBits(), y.getMostSignificantBits());
        return c != 0 ? c : Long.compareUnsigned(x.getLeastSignificantBits(), y.getLeastSignificantBits());
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof UUID) {
            return v;
        }
        return parse(String.valueOf(v).trim());
    }

    @Override
    public int byteSize(Object v) {
        return 16;
    }
}
