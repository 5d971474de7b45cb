package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.ZoneId;

/**
 * Time (an Int32 of seconds) and Time64(P) (an Int64 of 10^-P seconds), a signed span shown as {@code [-]HH:MM:SS[.f]}
 * from {@code -999:59:59} to {@code 999:59:59}, held as a {@code Long}, as ClickHouse 26.7 has them: text is read
 * right to left as seconds, {@code M:SS} or {@code H:MM:SS} (hours of one to three digits, minutes and seconds of two,
 * a minute or second of 60 and more carried over), with a fraction for Time64 (cut to P digits); a value out of range,
 * from text or a number, is clamped to it; a number is seconds (its fraction cut toward zero, kept to P digits for
 * Time64); a DateTime or DateTime64 gives its time of day on its zone's wall clock.
 */
public final class TimeType extends DataType {
    /** 999:59:59, the largest span, in seconds. */
    public static final long MAX_SECONDS = 999L * 3600 + 59 * 60 + 59;

    /** Time64's precision, or -1 for Time. */
    public final int precision;
    private final long scale;

    TimeType(int precision) {
        if (precision > 9) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Precision " + precision + " is out of bounds for Time64");
        }
        this.precision = precision;
        long s = 1;
        for (int i = 0; i < precision; i++) {
            s *= 10;
        }
        this.scale = s;
    }

    /** Whether this is Time64 (of any precision) rather than Time. */
    public boolean is64() {
        return precision >= 0;
    }

    /** Ticks per second: 10^P for Time64(P), 1 for Time. */
    public long scale() {
        return scale;
    }

    @Override
    public String name() {
        return is64() ? "Time64(" + precision + ")" : "Time";
    }

    @Override
    public Object defaultValue() {
        return 0L;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        long ticks = (Long) v;
        if (ticks < 0) {
            sb.append('-');
        }
        long abs = Math.abs(ticks);
        long seconds = abs / scale;
        long hours = seconds / 3600;
        if (hours < 10) {
            sb.append('0');
        }
        sb.append(hours).append(':');
        DateTimeType.pad2(sb, (int) (seconds / 60 % 60));
        sb.append(':');
        DateTimeType.pad2(sb, (int) (seconds % 60));
        DateTime64Type.appendFraction(abs % scale, precision, sb);
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        formatInQuotes(v, sb);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        return parse(r.readScalar(quoted));
    }

    /** Text as the engine reads a time; CANNOT_PARSE_DATETIME when it does not begin as one, CANNOT_PARSE_TEXT when it does not end as one. */
    Long parse(String s) {
        int i = 0;
        boolean negative = !s.isEmpty() && s.charAt(0) == '-';
        if (negative) {
            i++;
        }
        if (i >= s.length() || !Character.isDigit(s.charAt(i))) {
            throw new ChException(ErrorCode.CANNOT_PARSE_DATETIME, "Cannot parse time: invalid first character: Cannot parse " + name()
                + " from String");
        }
        long[] groups = new long[3];
        int n = 0;
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && i - start < 3) {
            i++;
        }
        groups[n++] = Long.parseLong(s.substring(start, i));
        while (n < 3 && i + 2 < s.length() && s.charAt(i) == ':' && Character.isDigit(s.charAt(i + 1)) && Character.isDigit(s.charAt(i + 2))) {
            groups[n++] = Long.parseLong(s.substring(i + 1, i + 3));
            i += 3;
        }
        long fraction = 0;
        if (i < s.length() && s.charAt(i) == '.' && is64()) {
            int f = ++i;
            while (i < s.length() && Character.isDigit(s.charAt(i))) {
                i++;
            }
            String digits = s.substring(f, i);
            digits = digits.length() > precision ? digits.substring(0, precision) : digits + "0".repeat(precision - digits.length());
            fraction = digits.isEmpty() ? 0 : Long.parseLong(digits);
        }
        if (i != s.length()) {
            throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse string '" + s + "' as " + name() + ": syntax error at position "
                + i + " (parsed just '" + s.substring(0, i) + "')");
        }
        long seconds = n == 1 ? groups[0] : n == 2 ? groups[0] * 60 + groups[1] : groups[0] * 3600 + groups[1] * 60 + groups[2];
        long ticks = seconds > MAX_SECONDS ? MAX_SECONDS * scale : seconds * scale + fraction;
        return negative ? -ticks : ticks;
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE((Long) v, is64() ? 8 : 4);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long v = in.readLongLE(is64() ? 8 : 4);
        return is64() ? v : (long) (int) v;
    }

    @Override
    public int compare(Object a, Object b) {
        return Long.compare((Long) a, (Long) b);
    }

    private long clamp(long ticks) {
        long max = MAX_SECONDS * scale + (scale - 1);
        return Math.max(-max, Math.min(max, ticks));
    }

    /** {@code seconds} (and 10^-P parts) as this type's ticks, clamped to the range ({@code 999:59:59} with no fraction). */
    public long ofSeconds(BigDecimal seconds) {
        BigDecimal t = seconds.multiply(BigDecimal.valueOf(scale)).setScale(0, RoundingMode.DOWN);
        BigDecimal max = BigDecimal.valueOf(MAX_SECONDS * scale);
        return t.max(max.negate()).min(max).longValueExact();
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parse((String) v);
        }
        DataType f = from.unwrap();
        if (f instanceof TimeType) {
            TimeType o = (TimeType) f;
            if (o.is64() && !is64()) {
                throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Unsupported data type in conversion function");
            }
            long t = (Long) v;
            return clamp(o.scale > scale ? t / (o.scale / scale) : t * (scale / o.scale));
        }
        if (f instanceof DateTimeType) {
            return timeOfDay((Long) v, 0, 1, ((DateTimeType) f).zone());
        }
        if (f instanceof DateTime64Type) {
            DateTime64Type d = (DateTime64Type) f;
            long t = (Long) v;
            return timeOfDay(Math.floorDiv(t, d.scale()), Math.floorMod(t, d.scale()), d.scale(), d.zone());
        }
        if (f instanceof DateType) {
            return 0L; // a date is its midnight
        }
        Number n = Values.toNumber(v, from);
        if (n instanceof Double || n instanceof Float || n instanceof BigDecimal) {
            return ofSeconds(Values.toBigDecimal(n));
        }
        return ofSeconds(BigDecimal.valueOf(Values.toLong(n)));
    }

    /** The time of day of an instant ({@code second} and {@code ticks} of 1/{@code perSecond}) on {@code zone}'s wall clock. */
    private long timeOfDay(long second, long ticks, long perSecond, ZoneId zone) {
        long offset = zone.getRules().getOffset(Instant.ofEpochSecond(second)).getTotalSeconds();
        long seconds = Math.floorMod(second + offset, 86400L);
        long frac = perSecond >= scale ? ticks / (perSecond / scale) : ticks * (scale / perSecond);
        return seconds * scale + frac;
    }

    @Override
    public int byteSize(Object v) {
        return is64() ? 8 : 4;
    }
}
