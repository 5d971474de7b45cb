package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.List;

/**
 * The type of {@code INTERVAL n unit}, IntervalNanosecond ... IntervalYear, after ClickHouse's DataTypeInterval: an
 * Int64 count of units, held as a {@code Long}; a column may have it, CAST reads a number (cut toward zero) or a
 * string of an integer, its binary type encoding is 0x22 and the unit's IntervalKind.
 */
public final class DataTypeInterval extends DataType {
    /** The units in IntervalKind's order, lower case (nanosecond ... year). */
    public static final List<String> UNITS = List.of("nanosecond", "microsecond", "millisecond", "second", "minute", "hour", "day", "week",
        "month", "quarter", "year");

    public final String unit;

    public DataTypeInterval(String unit) {
        if (!UNITS.contains(unit)) {
            throw new IllegalArgumentException("no interval unit " + unit);
        }
        this.unit = unit;
    }

    /** ClickHouse's IntervalKind number of the unit. */
    public int kind() {
        return UNITS.indexOf(unit);
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
        return parse(r.readScalar(quoted));
    }

    private Long parse(String s) {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse string '" + s + "' as " + name() + ": syntax error at begin of string");
        }
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
        if (v instanceof String) {
            return parse((String) v);
        }
        return Values.toLong(Values.toNumber(v, from));
    }
}
