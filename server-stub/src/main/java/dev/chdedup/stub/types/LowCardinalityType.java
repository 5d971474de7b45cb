package dev.chdedup.stub.types;

import java.io.IOException;

/** LowCardinality(T): a storage hint with T's values and encodings (RowBinary is identical to T). */
public final class LowCardinalityType extends DataType {
    public final DataType inner;

    LowCardinalityType(DataType inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return "LowCardinality(" + inner.name() + ")";
    }

    @Override
    public Object defaultValue() {
        return inner.defaultValue();
    }

    @Override
    public boolean isNullable() {
        return inner.isNullable();
    }

    @Override
    public DataType unwrap() {
        return inner.unwrap();
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        inner.formatText(v, sb);
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        inner.formatQuoted(v, sb);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        return inner.parseText(r, quoted);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        inner.writeBinary(v, out);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return inner.readBinary(in);
    }

    @Override
    public int compare(Object a, Object b) {
        return inner.compare(a, b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        return inner.convert(v, from);
    }

    @Override
    public int byteSize(Object v) {
        return inner.byteSize(v);
    }
}
