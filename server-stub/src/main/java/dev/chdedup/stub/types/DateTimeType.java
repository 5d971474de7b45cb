package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * DateTime and DateTime('tz'), held as a {@code Long} of seconds since the epoch; the text form is the local
 * time in the type's zone (or the session's, {@link SessionTimeZone}, when the type names none).
 */
public final class DateTimeType extends DataType {
    /** The zone the type names, or null for the session zone. */
    public final String tz;
    /** The named zone; for a type naming none, the session's ({@link SessionTimeZone}) applies instead. */
    private final ZoneId zone;
    private final boolean utc;

    DateTimeType(String tz) {
        this.tz = tz;
        this.zone = zoneOf(tz);
        this.utc = zone.equals(ZoneOffset.UTC) || "UTC".equals(zone.getId());
    }

    static ZoneId zoneOf(String tz) {
        if (tz == null) {
            return ZoneOffset.UTC;
        }
        return TimeZones.load(tz);
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
        return tz == null ? "DateTime" : "DateTime('" + tz + "')";
    }

    @Override
    public Object defaultValue() {
        return 0L;
    }

    long offsetSeconds(long epochSecond) {
        return utc() ? 0 : zone().getRules().getOffset(Instant.ofEpochSecond(epochSecond)).getTotalSeconds();
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        format((Long) v, zone(), utc(), sb);
    }

    /** Seconds since 1970-01-01 00:00:00 of the wall clock in this type's time zone at instant {@code sec}. */
    public long toLocalSeconds(long sec) {
        return local(sec, zone(), utc());
    }

    /**
     * {@link #toLocalSeconds} with the time zone looked up once, for a writer that converts a whole column: the
     * session's zone does not change while a query writes its result.
     */
    public java.util.function.LongUnaryOperator localSeconds() {
        if (utc()) {
            return sec -> sec;
        }
        ZoneId z = zone();
        return sec -> local(sec, z, false);
    }

    private static long local(long sec, ZoneId zone, boolean utc) {
        return sec + (utc ? 0 : zone.getRules().getOffset(Instant.ofEpochSecond(sec)).getTotalSeconds());
    }

    static void format(long sec, ZoneId zone, boolean utc, StringBuilder sb) {
        long local = local(sec, zone, utc);
        long days = Math.floorDiv(local, 86400L);
        int secOfDay = (int) Math.floorMod(local, 86400L);
        sb.append(java.time.LocalDate.ofEpochDay(days)).append(' ');
        pad2(sb, secOfDay / 3600);
        sb.append(':');
        pad2(sb, secOfDay / 60 % 60);
        sb.append(':');
        pad2(sb, secOfDay % 60);
    }

    static void pad2(StringBuilder sb, int x) {
        if (x < 10) {
            sb.append('0');
        }
        sb.append(x);
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

    /**
     * The local seconds of {@code YYYY-MM-DD hh:mm:ss} in {@code b[off, off + len)} (a valid date and time of 1970-2105),
     * or {@code Long.MIN_VALUE} for any other text, which {@link #parseText} then reads: the text formats' fast path.
     * {@link #toEpoch} makes the value of it.
     */
    public static long parseCanonicalLocal(byte[] b, int off, int len) {
        if (len != 19 || b[off + 4] != '-' || b[off + 7] != '-') {
            return Long.MIN_VALUE;
        }
        int year = digits(b, off, 4);
        int month = digits(b, off + 5, 2);
        int day = digits(b, off + 8, 2);
        long time = timeOfDay(b, off);
        if (year < 1970 || year > 2105 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || time < 0) {
            return Long.MIN_VALUE;
        }
        return epochDay(year, month, day) * 86400L + time;
    }

    /** The seconds of the {@code hh:mm:ss} at {@code off + 11} of a canonical DateTime, or -1 when it is not a valid time. */
    private static long timeOfDay(byte[] b, int off) {
        if (b[off + 10] != ' ' || b[off + 13] != ':' || b[off + 16] != ':') {
            return -1;
        }
        int hour = digits(b, off + 11, 2);
        int minute = digits(b, off + 14, 2);
        int second = digits(b, off + 17, 2);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
            return -1;
        }
        return hour * 3600L + minute * 60L + second;
    }

    private static final java.lang.invoke.VarHandle LE_LONG =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    /**
     * {@link #parseCanonicalLocal} of 19 bytes for a stream of values, most of which share their date with the value
     * before (rows in time order): the date of the last value and its seconds are kept, so such a value costs the
     * comparison of its ten date bytes and the parse of its time.
     */
    public static final class CanonicalParser {
        /** The previous value's {@code YYYY-MM-DD}: its first eight bytes as a long, and the last two. */
        private long dayHead;
        private int dayTail;
        private long daySeconds = Long.MIN_VALUE;

        /** The value of the 19 bytes at {@code off} (the caller has them in {@code b}), or Long.MIN_VALUE if not canonical. */
        public long parse(byte[] b, int off) {
            long head = (long) LE_LONG.get(b, off);
            int tail = (b[off + 8] & 0xFF) << 8 | b[off + 9] & 0xFF;
            if (daySeconds == Long.MIN_VALUE || head != dayHead || tail != dayTail) {
                long v = parseCanonicalLocal(b, off, 19);
                if (v != Long.MIN_VALUE) {
                    dayHead = head;
                    dayTail = tail;
                    daySeconds = v - v % 86400;
                }
                return v;
            }
            long time = timeOfDay(b, off);
            return time < 0 ? Long.MIN_VALUE : daySeconds + time;
        }
    }

    private static int daysInMonth(int year, int month) {
        if (month == 2) {
            return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** Days since 1970-01-01 of a date in the proleptic Gregorian calendar (years from 1970). */
    private static long epochDay(int year, int month, int day) {
        int y = month <= 2 ? year - 1 : year;
        int era = y / 400;
        int yoe = y - era * 400;
        int mp = (month + 9) % 12;
        int doy = (153 * mp + 2) / 5 + day - 1;
        int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
        return era * 146097L + doe - 719468;
    }

    /** Whether values of this type are in UTC, for the session now when the type names no zone. */
    public boolean isUtc() {
        return utc();
    }

    /** {@code n} decimal digits at {@code off}, or -1000 when one is not a digit. */
    private static int digits(byte[] b, int off, int n) {
        int x = 0;
        for (int i = 0; i < n; i++) {
            int d = b[off + i] - '0';
            if (d < 0 || d > 9) {
                return -1000;
            }
            x = x * 10 + d;
        }
        return x;
    }

    Long parse(String s) {
        long[] parsed = parseLocal(s, 0);
        if (parsed == null) {
            throw new ChException(ErrorCode.CANNOT_PARSE_DATETIME,
                "Cannot parse DateTime: value '" + s + "' is not a valid " + name());
        }
        if (parsed[2] == 1) {
            return parsed[0];
        }
        return toEpoch(parsed[0]);
    }

    /** The value of local seconds in this type's zone (the session's when it names none). */
    public long toEpoch(long localSeconds) {
        if (utc()) {
            return localSeconds;
        }
        LocalDateTime ldt = LocalDateTime.ofEpochSecond(localSeconds, 0, ZoneOffset.UTC);
        return ldt.atZone(zone()).toEpochSecond();
    }

    /**
     * Parses {@code YYYY-MM-DD[( |T)hh:mm:ss[.fff]]} or a bare epoch number. Returns {local seconds, fraction
     * scaled to {@code scale} digits, 1 if the number was already an epoch value}, or null when malformed.
     */
    /**
     * A date written {@code YYYY?MM?DD} with any punctuation for separators ({@code 2026.12.06}, {@code 2026/12/06}), as
     * ClickHouse's readDateText reads it, with dashes; anything else as it is.
     */
    static String dashedDate(String s) {
        if (s.length() >= 10 && isSeparator(s.charAt(4)) && s.charAt(4) == s.charAt(7) && s.charAt(4) != '-'
            && Character.isDigit(s.charAt(5)) && Character.isDigit(s.charAt(8)) && Character.isDigit(s.charAt(3))) {
            return s.substring(0, 4) + '-' + s.substring(5, 7) + '-' + s.substring(8);
        }
        return s;
    }

    private static boolean isSeparator(char c) {
        return c == '.' || c == '/' || c == '_' || c == ':' || c == ',';
    }

    static long[] parseLocal(String s, int scale) {
        int n = s.length();
        if (n == 0) {
            return null;
        }
        boolean digits = true;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9') && !(i == 0 && c == '-') && c != '.') {
                digits = false;
                break;
            }
        }
        s = dashedDate(s);
        if (digits && (n < 10 || s.charAt(4) != '-')) {
            int dot = s.indexOf('.');
            try {
                long whole = Long.parseLong(dot < 0 ? s : s.substring(0, dot));
                long frac = dot < 0 ? 0 : fraction(s.substring(dot + 1), scale);
                return new long[] {whole, frac, 1};
            } catch (NumberFormatException e) {
                return null;
            }
        }
        if (n < 10 || s.charAt(4) != '-' || s.charAt(7) != '-') {
            return null;
        }
        int y = num(s, 0, 4);
        int mo = num(s, 5, 7);
        int d = num(s, 8, 10);
        if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31) {
            return null;
        }
        int h = 0;
        int mi = 0;
        int se = 0;
        long frac = 0;
        if (n > 10) {
            char sep = s.charAt(10);
            if ((sep != ' ' && sep != 'T') || n < 19 || s.charAt(13) != ':' || s.charAt(16) != ':') {
                return null;
            }
            h = num(s, 11, 13);
            mi = num(s, 14, 16);
            se = num(s, 17, 19);
            if (h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) {
                return null;
            }
            int rest = 19;
            if (n > rest && s.charAt(rest) == '.') {
                int e = rest + 1;
                while (e < n && Character.isDigit(s.charAt(e))) {
                    e++;
                }
                frac = fraction(s.substring(rest + 1, e), scale);
                rest = e;
            }
            if (rest < n && !(rest == n - 1 && s.charAt(rest) == 'Z')) {
                return null;
            }
        }
        long days;
        try {
            days = java.time.LocalDate.of(y, mo, d).toEpochDay();
        } catch (java.time.DateTimeException e) {
            return null;
        }
        return new long[] {days * 86400L + h * 3600L + mi * 60L + se, frac, 0};
    }

    private static long fraction(String digits, int scale) {
        long f = 0;
        for (int i = 0; i < scale; i++) {
            f = f * 10 + (i < digits.length() ? digits.charAt(i) - '0' : 0);
        }
        return f;
    }

    private static int num(String s, int from, int to) {
        int x = 0;
        for (int i = from; i < to; i++) {
            int c = s.charAt(i) - '0';
            if (c < 0 || c > 9) {
                return -1;
            }
            x = x * 10 + c;
        }
        return x;
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE((Long) v, 4);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return in.readLongLE(4);
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
        if (f instanceof DateType) {
            return toEpoch((Long) v * 86400L);
        }
        if (f instanceof DateTime64Type) {
            return Math.floorDiv((Long) v, ((DateTime64Type) f).scale());
        }
        if (f instanceof TimeType && ((TimeType) f).is64()) {
            throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Unsupported data type in conversion function");
        }
        return Values.toLong(Values.toNumber(v, from)) & 0xFFFFFFFFL;
    }

    @Override
    public int byteSize(Object v) {
        return 4;
    }
}
