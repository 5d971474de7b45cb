package dev.chdedup.stub.types;

import java.io.IOException;

/** Nothing: the type of a bare NULL literal (as {@code Nullable(Nothing)}); it has no values and no bytes. */
public final class NothingType extends DataType {
    @Override
    public String name() {
        return "Nothing";
    }

    @Override
    public Object defaultValue() {
        return null;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append("\\N");
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.readBare();
        return null;
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return null;
    }

    @Override
    public int compare(Object a, Object b) {
        return 0;
    }

    @Override
    public Object convert(Object v, DataType from) {
        return null;
    }
}
