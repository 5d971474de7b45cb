package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** DateTime64(P[, 'tz']), held as a {@code Long} count of 10^-P seconds since the epoch. */
public final class DateTime64Type extends DataType {
    public final int precision;
    public final String tz;
    /** The named zone; for a type naming none, the session's ({@link SessionTimeZone}) applies instead. */
    private final ZoneId zone;
    private final boolean utc;
    private final long scale;

    DateTime64Type(int precision, String tz) {
        if (precision < 0 || precision > 9) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Precision " + precision + " is out of bounds for DateTime64");
        }
        this.precision = precision;
        this.tz = tz;
        this.zone = DateTimeType.zoneOf(tz);
        this.utc = zone.equals(ZoneOffset.UTC) || "UTC".equals(zone.getId());
        long s = 1;
        for (int i = 0; i < precision; i++) {
            s *= 10;
        }
        this.scale = s;
    }

    public long scale() {
        return scale;
    }

    long offsetSeconds(long epochSecond) {
        return utc() ? 0 : zone().getRules().getOffset(Instant.ofEpochSecond(epochSecond)).getTotalSeconds();
    }

    /** The zone values are shown and parsed in: the named one, or the session's. */
    ZoneId zone() {
        return tz == null ? SessionTimeZone.current() : zone;
    }

    private boolean utc() {
        return tz == null ? SessionTimeZone.isUtc() : utc;
    }

    @Override
    public String name() {
        return "DateTime64(" + precision + (tz == null ? "" : ", '" + tz + "'") + ")";
    }

    @Override
    public Object defaultValue() {
        return 0L;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        long ticks = (Long) v;
        long sec = Math.floorDiv(ticks, scale);
        long frac = Math.floorMod(ticks, scale);
        DateTimeType.format(sec, zone(), utc(), sb);
        appendFraction(frac, precision, sb);
    }

    /** {@code .} and the fraction's {@code precision} digits, zero-padded on the left; nothing for precision 0. */
    static void appendFraction(long frac, int precision, StringBuilder sb) {
        if (precision > 0) {
            sb.append('.');
            String f = Long.toString(frac);
            for (int i = f.length(); i < precision; i++) {
                sb.append('0');
            }
            sb.append(f);
        }
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        formatInQuotes(v, sb);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        String tok = r.readScalar(quoted);
        return parse(tok.trim());
    }

    Long parse(String s) {
        long[] p = DateTimeType.parseLocal(s, precision);
        if (p == null) {
            throw new ChException(ErrorCode.CANNOT_PARSE_DATETIME,
                "Cannot parse DateTime64: value '" + s + "' is not a valid " + name());
        }
        long sec = p[0];
        if (p[2] == 0 && !utc()) {
            sec = java.time.LocalDateTime.ofEpochSecond(sec, 0, ZoneOffset.UTC).atZone(zone()).toEpochSecond();
        }
        return sec * scale + (sec < 0 && p[2] == 1 && s.startsWith("-") ? -p[1] : p[1]);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE((Long) v, 8);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return in.readLongLE(8);
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
        if (f instanceof DateTime64Type) {
            DateTime64Type o = (DateTime64Type) f;
            long t = (Long) v;
            return o.scale > scale ? Math.floorDiv(t, o.scale / scale) : t * (scale / o.scale);
        }
        if (f instanceof DateTimeType) {
            return (Long) v * scale;
        }
        if (f instanceof DateType) {
            return (Long) v * 86400L * scale;
        }
        if (f instanceof TimeType && ((TimeType) f).is64()) {
            throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Unsupported data type in conversion function");
        }
        Number n = Values.toNumber(v, from);
        if (n instanceof Double || n instanceof Float || n instanceof BigDecimal) {
            return Values.toBigDecimal(n).multiply(BigDecimal.valueOf(scale)).longValue();
        }
        return Values.toLong(n) * scale;
    }
}
