package dev.chdedup.stub.exec;

import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.TextReader;

/** The type of {@code INTERVAL n unit} (IntervalDay, IntervalSecond, ...): a {@code Long} count of units. */
final class DataTypesInterval extends DataType {
    final String unit;

    DataTypesInterval(String unit) {
        this.unit = unit;
    }

    @Override
    public String name() {
        return "Interval" + Character.toUpperCase(unit.charAt(0)) + unit.substring(1);
    }

    @Override
    public Object defaultValue() {
        return 0L;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append(v);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        return Long.parseLong(r.readBare());
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE((Long) v, 8);
    }

    @Override
    public Object readBinary(BinaryIn in) throws java.io.IOException {
        return in.readLongLE(8);
    }

    @Override
    public int compare(Object a, Object b) {
        return Long.compare((Long) a, (Long) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        return ((Number) v).longValue();
    }
}
