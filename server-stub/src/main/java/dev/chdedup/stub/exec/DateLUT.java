package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.SessionTimeZone;
import dev.chdedup.stub.types.TimeZones;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.zone.ZoneOffsetTransition;
import java.time.zone.ZoneRules;
import java.util.List;

/**
 * The calendar of a time zone as the date and time functions read it, after ClickHouse's DateLUTImpl: a value of Date or
 * Date32 is a day number, a DateTime or DateTime64 an instant whose day and time of day are those of its wall clock in
 * the zone the function was given, else the zone its type names, else the session's. A wall time that does not exist
 * (a spring-forward gap) is read with the offset after the change, one that exists twice with the earlier offset, as
 * DateLUTImpl::makeDateTime reads them. Week numbers follow DateLUTImpl::toYearWeek (MySQL's week modes).
 */
final class DateLUT {
    /** The week mode flags of toWeek and toYearWeek. */
    static final int MONDAY_FIRST = 1;
    static final int YEAR = 2;
    static final int FIRST_WEEKDAY = 4;
    static final int NEWYEAR_DAY = 8;

    private DateLUT() {
    }

    /** The name of the zone a DateTime or DateTime64 type names, or null. */
    static String tzName(DataType t) {
        DataType u = t.unwrap();
        return u instanceof DateTimeType ? ((DateTimeType) u).tz : u instanceof DateTime64Type ? ((DateTime64Type) u).tz : null;
    }

    /** The zone of a value of type {@code t}: the one it names, else the session's. */
    static ZoneId zoneOf(DataType t) {
        String tz = tzName(t);
        return tz == null ? SessionTimeZone.current() : TimeZones.load(tz);
    }

    /**
     * The zone argument {@code at} of a function when given (a constant String naming a zone, else the engine's
     * ILLEGAL_TYPE_OF_ARGUMENT or ILLEGAL_COLUMN), else null.
     */
    static String zoneArgument(String fn, List<Evaluator> args, int at) {
        if (args.size() <= at) {
            return null;
        }
        Evaluator z = args.get(at);
        if (!Functions.isString(z.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + z.type().name() + " of argument " + (at + 1)
                + " of function " + fn + ". Must be String (time zone)");
        }
        if (!z.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column of time zone argument of function " + fn + ", must be a constant string");
        }
        String name = Functions.constString(z);
        if (name.isEmpty()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Provided time zone must be non-empty and be a valid time zone");
        }
        TimeZones.load(name);
        return name;
    }

    /** The zone a function computes in: its zone argument at {@code at} when given, else the one of {@code t}. */
    static ZoneId zone(String fn, List<Evaluator> args, int at, DataType t) {
        String name = zoneArgument(fn, args, at);
        return name != null ? TimeZones.load(name) : zoneOf(t);
    }

    static long toLocal(long sec, ZoneId z) {
        if (z == ZoneOffset.UTC) {
            return sec;
        }
        return sec + z.getRules().getOffset(Instant.ofEpochSecond(sec)).getTotalSeconds();
    }

    /** The instant of a wall time in {@code z}: a time in a gap takes the offset after the change, a repeated one the earlier. */
    static long fromLocal(long local, ZoneId z) {
        if (z == ZoneOffset.UTC) {
            return local;
        }
        ZoneRules rules = z.getRules();
        LocalDateTime ldt = LocalDateTime.ofEpochSecond(local, 0, ZoneOffset.UTC);
        ZoneOffsetTransition change = rules.getTransition(ldt);
        ZoneOffset offset = change != null && change.isGap() ? change.getOffsetAfter() : rules.getValidOffsets(ldt).get(0);
        return local - offset.getTotalSeconds();
    }

    /** The first and last day numbers of the engine's table of days, 1900-01-01 and 2299-12-31. */
    static final long LUT_FIRST_DAY = -25567;
    static final long LUT_LAST_DAY = 120529;

    /**
     * Whether a value is outside the instants DateLUTImpl reads from its table (for any zone: from two days after
     * 1900-01-01 to two days before 2300-01-01, UTC), which it computes apart with its own formulas: only a DateTime64
     * can be, a Date32 and a DateTime always are inside.
     */
    static boolean outOfTable(Object v, DataType u) {
        if (!(u instanceof DateTime64Type)) {
            return false;
        }
        long t = (Long) v / ((DateTime64Type) u).scale();
        return t < -2208988800L + 2 * 86400 || t >= 10413792000L - 2 * 86400;
    }

    private static final java.util.Map<ZoneId, Boolean> WHOLE_HOURS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final java.util.Map<ZoneId, Boolean> WHOLE_MINUTES = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * Whether every day after the epoch (to the end of the engine's table, 2299) starts at a whole hour of UTC in
     * {@code z} ({@code unit} 3600) or a whole minute (60): DateLUTImpl's offset_is_whole_number_of_hours_during_epoch
     * and offset_is_whole_number_of_minutes_during_epoch, under which it rounds times down from the epoch, not from
     * the start of their day.
     */
    static boolean wholeSinceEpoch(ZoneId z, int unit) {
        if (z == ZoneOffset.UTC) {
            return true;
        }
        return (unit == 3600 ? WHOLE_HOURS : WHOLE_MINUTES).computeIfAbsent(z, zone -> {
            ZoneRules rules = zone.getRules();
            Instant end = Instant.ofEpochSecond(10413792000L);
            if (rules.getOffset(Instant.EPOCH).getTotalSeconds() % unit != 0) {
                return false;
            }
            for (ZoneOffsetTransition t = rules.nextTransition(Instant.EPOCH); t != null && t.getInstant().isBefore(end);
                t = rules.nextTransition(t.getInstant())) {
                if (t.getOffsetAfter().getTotalSeconds() % unit != 0) {
                    return false;
                }
            }
            return true;
        });
    }

    /**
     * DateLUTImpl::roundDown (toStartOfHour, toStartOfSecondInterval): a time rounded down to {@code divisor} seconds,
     * from the epoch in a zone of whole hours, else from the start of its day; {@code outside} for a time outside the
     * engine's table, always from the start of its day.
     */
    static long roundDown(long sec, long divisor, ZoneId z, boolean outside) {
        if (!outside && wholeSinceEpoch(z, 3600)) {
            return Math.floorDiv(sec, divisor) * divisor;
        }
        return fromDayStart(sec, divisor, z);
    }

    /** DateLUTImpl::toStartOfMinuteInterval: as {@link #roundDown}, from the epoch in a zone of whole minutes. */
    static long roundDownMinutes(long sec, long divisor, ZoneId z, boolean outside) {
        if (!outside && wholeSinceEpoch(z, 60)) {
            return Math.floorDiv(sec, divisor) * divisor;
        }
        return fromDayStart(sec, divisor, z);
    }

    /** A time rounded down to {@code divisor} seconds counted from the start of its day in {@code z}. */
    static long fromDayStart(long sec, long divisor, ZoneId z) {
        long date = fromDayNum(Math.floorDiv(toLocal(sec, z), 86400L), z);
        return date + (sec - date) / divisor * divisor;
    }

    /**
     * The second of the minute DateLUTImpl::toSecond reads: that of UTC in a zone whose offsets were whole minutes since
     * the epoch (of the instant, though the zone's offset had seconds before), else of the wall clock.
     */
    static int second(long sec, ZoneId z, boolean outside) {
        if (!outside && wholeSinceEpoch(z, 60)) {
            return (int) Math.floorMod(sec, 60L);
        }
        return (int) Math.floorMod(toLocal(sec, z), 60L);
    }

    /**
     * DateLUTImpl::timezoneOffset: the offset of the start of the day against the epoch's (the difference of their
     * starts modulo a day, as C++ takes a remainder, which a day before the epoch whose offset had seconds leaves a
     * day off), plus the change within the day and the offset at the epoch; outside the table the zone's offset.
     */
    static long timezoneOffset(long sec, ZoneId z, boolean outside) {
        ZoneRules rules = z.getRules();
        if (outside || z == ZoneOffset.UTC) {
            return rules.getOffset(Instant.ofEpochSecond(sec)).getTotalSeconds();
        }
        long day = Math.floorDiv(toLocal(sec, z), 86400L);
        long date = fromDayNum(day, z);
        long r = (date - fromDayNum(0, z)) % 86400;
        r = r > 43200 ? 86400 - r : -r;
        // the change of the offset on that day, in the table's quarters of an hour, from the time of day it happens
        ZoneOffsetTransition change = rules.nextTransition(Instant.ofEpochSecond(date - 1));
        if (change != null && (change.getDateTimeBefore().toLocalDate().toEpochDay() == day
            || change.getDateTimeAfter().toLocalDate().toEpochDay() == day)) {
            long amount = (change.getOffsetAfter().getTotalSeconds() - change.getOffsetBefore().getTotalSeconds()) / 900;
            amount = Math.max(-96, Math.min(amount, 96));
            long at = (change.getDateTimeBefore().toEpochSecond(ZoneOffset.UTC) - day * 86400L) / 900;
            if (at + amount < 0) {
                at = -amount;
            }
            if (amount != 0 && sec >= date + at * 900) {
                r += amount * 900;
            }
        }
        return r + rules.getOffset(Instant.EPOCH).getTotalSeconds();
    }

    /** toRelativeWeekNum: weeks of the Monday after, toward zero in the table and toward -inf outside it. */
    static long relativeWeek(Object v, DataType u, ZoneId z) {
        long day = dayNum(v, u, z);
        long shifted = day + 8 - dayOfWeek(day);
        return outOfTable(v, u) ? Math.floorDiv(shifted, 7) : shifted / 7;
    }

    /**
     * The instant the day {@code day} starts at in {@code z}, as DateLUTImpl's table has it: a midnight that does not
     * exist read with the offset before the change (the day starts when the clocks jump), one that exists twice the
     * second time when the clocks went back past it, else the first.
     */
    static long fromDayNum(long day, ZoneId z) {
        long local = day * 86400L;
        if (z == ZoneOffset.UTC) {
            return local;
        }
        ZoneOffsetTransition change = z.getRules().getTransition(LocalDateTime.ofEpochSecond(local, 0, ZoneOffset.UTC));
        if (change == null) {
            return fromLocal(local, z);
        }
        long pre = local - change.getOffsetBefore().getTotalSeconds();
        long post = local - change.getOffsetAfter().getTotalSeconds();
        return change.isOverlap() && change.toEpochSecond() < post ? post : pre;
    }

    /** Whole seconds since the epoch of a Date (its midnight in {@code z}), DateTime or DateTime64 value. */
    static long seconds(Object v, DataType u, ZoneId z) {
        long x = (Long) v;
        if (u instanceof DateType) {
            return fromDayNum(x, z);
        }
        if (u instanceof DateTime64Type) {
            return Math.floorDiv(x, ((DateTime64Type) u).scale());
        }
        return x;
    }

    /** The wall clock seconds since 1970-01-01 00:00:00 in {@code z} of a date or time value. */
    static long localSeconds(Object v, DataType u, ZoneId z) {
        if (u instanceof DateType) {
            return (Long) v * 86400L;
        }
        return toLocal(seconds(v, u, z), z);
    }

    /** The day number (days since 1970-01-01) of a date or time value on the wall clock of {@code z}. */
    static long dayNum(Object v, DataType u, ZoneId z) {
        if (u instanceof DateType) {
            return (Long) v;
        }
        return Math.floorDiv(localSeconds(v, u, z), 86400L);
    }

    static LocalDate date(Object v, DataType u, ZoneId z) {
        return LocalDate.ofEpochDay(dayNum(v, u, z));
    }

    /** Day of the week, 1 for Monday to 7 for Sunday. */
    static int dayOfWeek(long day) {
        return (int) Math.floorMod(day + 3, 7L) + 1;
    }

    /** The Monday of the week of {@code day}. */
    static long monday(long day) {
        return day - dayOfWeek(day) + 1;
    }

    /** The first day of the week of {@code day}: its Monday when the mode says so, else its Sunday. */
    static long firstDayOfWeek(long day, int mode) {
        if ((mode & MONDAY_FIRST) != 0) {
            return monday(day);
        }
        int dow = dayOfWeek(day);
        return dow == 7 ? day : day - dow;
    }

    static long lastDayOfWeek(long day, int mode) {
        return firstDayOfWeek(day, mode) + 6;
    }

    /** The ISO 8601 year of {@code day}: the year of its week's Thursday. */
    static int isoYear(long day) {
        return LocalDate.ofEpochDay(day + 4 - dayOfWeek(day)).getYear();
    }

    /** The Monday that ISO year {@code year} starts on. */
    static long firstDayOfIsoYear(int year) {
        long jan1 = LocalDate.of(year, 1, 1).toEpochDay();
        int dow = dayOfWeek(jan1);
        return dow <= 4 ? jan1 + 1 - dow : jan1 + 8 - dow;
    }

    static int isoWeek(long day) {
        return (int) (1 + (monday(day) - firstDayOfIsoYear(isoYear(day))) / 7);
    }

    private static int daysInYear(int year) {
        return (year & 3) == 0 && (year % 100 != 0 || year % 400 == 0 && year != 0) ? 366 : 365;
    }

    /** {year, week} of {@code day} in a week mode, as DateLUTImpl::toYearWeek counts them. */
    static int[] yearWeek(long day, int mode) {
        boolean newYearDay = (mode & NEWYEAR_DAY) != 0;
        int m = mode & 7;
        if ((m & MONDAY_FIRST) == 0) {
            m ^= FIRST_WEEKDAY;
        }
        boolean mondayFirst = (m & MONDAY_FIRST) != 0;
        boolean weekYear = (m & YEAR) != 0;
        boolean firstWeekday = (m & FIRST_WEEKDAY) != 0;
        LocalDate d = LocalDate.ofEpochDay(day);
        if (newYearDay) {
            return yearWeekOfNewYearMode(day, mondayFirst);
        }
        int year = d.getYear();
        long firstDay = LocalDate.of(year, 1, 1).toEpochDay();
        int weekday = mondayFirst ? dayOfWeek(firstDay) - 1 : dayOfWeek(firstDay + 1) - 1;
        long days;
        if (d.getMonthValue() == 1 && d.getDayOfMonth() <= 7 - weekday) {
            if (!weekYear && (firstWeekday && weekday != 0 || !firstWeekday && weekday >= 4)) {
                return new int[] {year, 0};
            }
            weekYear = true;
            year--;
            int inYear = daysInYear(year);
            firstDay -= inYear;
            weekday = (weekday + 53 * 7 - inYear) % 7;
        }
        if (firstWeekday && weekday != 0 || !firstWeekday && weekday >= 4) {
            days = day - (firstDay + (7 - weekday));
        } else {
            days = day - (firstDay - weekday);
        }
        if (weekYear && days >= 52 * 7) {
            weekday = (weekday + daysInYear(year)) % 7;
            if (!firstWeekday && weekday < 4 || firstWeekday && weekday == 0) {
                return new int[] {year + 1, 1};
            }
        }
        return new int[] {year, (int) (days / 7 + 1)};
    }

    private static int[] yearWeekOfNewYearMode(long day, boolean mondayFirst) {
        int offsetDay = mondayFirst ? 0 : 1;
        int year = LocalDate.ofEpochDay(day + 7 - dayOfWeek(day + offsetDay)).getYear();
        long first = LocalDate.of(year, 1, 1).toEpochDay();
        long thisDay = day;
        if (mondayFirst) {
            first = monday(first);
            thisDay = monday(day);
        } else {
            if (dayOfWeek(first) != 7) {
                first -= dayOfWeek(first);
            }
            if (dayOfWeek(day) != 7) {
                thisDay = day - dayOfWeek(day);
            }
        }
        return new int[] {year, (int) ((thisDay - first) / 7 + 1)};
    }
}
