package dev.chdedup.stub.types;

/**
 * SimpleAggregateFunction(f, T): a column of T whose values an AggregatingMergeTree merge combines with {@code f}
 * (sum, min, max, any, anyLast, groupUniqArray, ...). Every value, text and binary form is T's; only the name
 * differs, as in ClickHouse's {@code DataTypeCustomSimpleAggregateFunction}.
 */
public final class SimpleAggregateFunctionType extends DelegatingType {
    /** The function name as written, e.g. {@code sum}. */
    public final String function;

    SimpleAggregateFunctionType(String function, DataType inner) {
        super(inner);
        this.function = function;
    }

    @Override
    public String name() {
        return "SimpleAggregateFunction(" + function + ", " + inner.name() + ")";
    }
}
