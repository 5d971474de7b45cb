package dev.chdedup.stub.types;

/** LowCardinality(T): a storage hint with T's values and encodings (RowBinary is identical to T). */
public final class LowCardinalityType extends DelegatingType {
    LowCardinalityType(DataType inner) {
        super(inner);
    }

    @Override
    public String name() {
        return "LowCardinality(" + inner.name() + ")";
    }
}
