package dev.chdedup.stub.types;

import java.io.IOException;

/**
 * A type that is another type under a different name: every value, text and binary form is {@link #inner}'s.
 * LowCardinality(T) (a storage hint) and SimpleAggregateFunction(f, T) are such types in ClickHouse.
 */
abstract class DelegatingType extends DataType {
    public final DataType inner;

    DelegatingType(DataType inner) {
        this.inner = inner;
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
