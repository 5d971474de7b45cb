package dev.chdedup.stub.types;

import java.io.IOException;

/**
 * SimpleAggregateFunction(f, T): a column of T whose values an AggregatingMergeTree merge combines with {@code f}
 * (sum, min, max, any, anyLast, groupUniqArray, ...). Every value, text and binary form is T's; only the name
 * differs, as in ClickHouse's {@code DataTypeCustomSimpleAggregateFunction}.
 */
public final class SimpleAggregateFunctionType extends DataType {
    /** The function name as written, e.g. {@code sum}. */
    public final String function;
    public final DataType inner;

    SimpleAggregateFunctionType(String function, DataType inner) {
        this.function = function;
        this.inner = inner;
    }

    @Override
    public String name() {
        return "SimpleAggregateFunction(" + function + ", " + inner.name() + ")";
    }

    @Override
    public Object defaultValue() {
        return inner.defaultValue();
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

    @Override
    public boolean isNullable() {
        return inner.isNullable();
    }

    @Override
    public DataType unwrap() {
        return inner.unwrap();
    }
}
