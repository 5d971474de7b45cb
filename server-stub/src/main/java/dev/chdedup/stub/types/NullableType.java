package dev.chdedup.stub.types;

import java.io.IOException;

/** Nullable(T): null or a value of T; {@code \N} in text, a marker byte in RowBinary. */
public final class NullableType extends DataType {
    public final DataType inner;

    NullableType(DataType inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return "Nullable(" + inner.name() + ")";
    }

    @Override
    public Object defaultValue() {
        return null;
    }

    @Override
    public boolean isNullable() {
        return true;
    }

    @Override
    public DataType unwrap() {
        return inner.unwrap();
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("\\N");
        } else {
            inner.formatText(v, sb);
        }
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("NULL");
        } else {
            inner.formatQuoted(v, sb);
        }
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        int p = r.pos();
        if (quoted) {
            if (r.tryWord("NULL")) {
                return null;
            }
        } else {
            String rest = r.readRest();
            if (rest.equals("\\N") || rest.equals("NULL")) {
                return null;
            }
            r.pos(p);
        }
        return inner.parseText(r, quoted);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        if (v == null) {
            out.write(1);
        } else {
            out.write(0);
            inner.writeBinary(v, out);
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return in.readByte() != 0 ? null : inner.readBinary(in);
    }

    @Override
    public int compare(Object a, Object b) {
        return inner.compare(a, b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        return v == null ? null : inner.convert(v, from);
    }

    @Override
    public int byteSize(Object v) {
        return 1 + (v == null ? 0 : inner.byteSize(v));
    }
}
