package dev.chdedup.stub.types;

import java.io.IOException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;

/** Date (UInt16 days) and Date32 (Int32 days), both held as a {@code Long} day number since 1970-01-01. */
public final class DateType extends DataType {
    public final boolean is32;

    DateType(boolean is32) {
        this.is32 = is32;
    }

    @Override
    public String name() {
        return is32 ? "Date32" : "Date";
    }

    @Override
    public Object defaultValue() {
        return 0L;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append(LocalDate.ofEpochDay((Long) v));
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        sb.append('\'').append(LocalDate.ofEpochDay((Long) v)).append('\'');
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.skipSpaces();
        boolean q = quoted && (r.peek() == '\'' || r.peek() == '"');
        String tok = q ? r.readQuoted() : quoted ? r.readBare() : r.readRest();
        return parse(tok.trim());
    }

    Long parse(String s) {
        try {
            if (!s.isEmpty() && s.chars().allMatch(Character::isDigit) && s.length() != 8) {
                return clamp(Long.parseLong(s));
            }
            if (s.length() == 8 && s.chars().allMatch(Character::isDigit)) {
                s = s.substring(0, 4) + "-" + s.substring(4, 6) + "-" + s.substring(6);
            }
            if (s.length() > 10) {
                s = s.substring(0, 10);
            }
            return clamp(LocalDate.parse(DateTimeType.dashedDate(s)).toEpochDay());
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.CANNOT_PARSE_DATE,
                "Cannot parse date: value '" + s + "' is not a valid " + name());
        }
    }

    private long clamp(long days) {
        if (is32) {
            return Math.max(-25567, Math.min(120529, days));
        }
        return Math.max(0, Math.min(65535, days));
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE((Long) v, is32 ? 4 : 2);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long x = in.readLongLE(is32 ? 4 : 2);
        return is32 ? (long) (int) x : x;
    }

    @Override
    public int compare(Object a, Object b) {
        return Long.compare((Long) a, (Long) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parse(((String) v).trim());
        }
        DataType f = from.unwrap();
        if (f instanceof DateTimeType) {
            return clamp(Math.floorDiv((Long) v + ((DateTimeType) f).offsetSeconds((Long) v), 86400L));
        }
        if (f instanceof DateTime64Type) {
            DateTime64Type t = (DateTime64Type) f;
            long sec = Math.floorDiv((Long) v, t.scale());
            return clamp(Math.floorDiv(sec + t.offsetSeconds(sec), 86400L));
        }
        if (f instanceof DateType) {
            return clamp((Long) v);
        }
        return clamp(Values.toLong(Values.toNumber(v, from)));
    }

    @Override
    public int byteSize(Object v) {
        return is32 ? 4 : 2;
    }
}
