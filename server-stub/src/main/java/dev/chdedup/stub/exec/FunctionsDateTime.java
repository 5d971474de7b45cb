package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypeInterval;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The registry of ClickHouse's "Dates and Times" functions (registerFunctionsDateTime): their aliases and
 * case-insensitive names, and which family compiles each. The families mirror the engine's files: DateTimeTransforms
 * (parts and starts of periods), FunctionCustomWeekToSomething (week modes), FunctionToStartOfInterval, FunctionDateDiff,
 * FunctionFormatDateTime, FunctionParseDateTime, FunctionMakeDate, FunctionChangeDate, FunctionToTimezone,
 * FunctionModifiedJulianDay, FunctionTimeSlots, FunctionDateName and DateOrDateTimeAddInterval (addDays ...).
 */
final class FunctionsDateTime {
    private FunctionsDateTime() {
    }

    /** The family's functions, as system.functions lists them. */
    static final List<String> FUNCTIONS = List.of("toYear", "toQuarter", "toMonth", "toDayOfYear", "toDayOfMonth", "toDaysInMonth",
        "toHour", "toMinute", "toSecond", "toMillisecond", "toMicrosecond", "toNanosecond", "toISOYear", "toISOWeek", "toYYYYMM",
        "toYYYYMMDD", "toYYYYMMDDhhmmss", "toDaysSinceYearZero", "toRelativeYearNum", "toRelativeQuarterNum", "toRelativeMonthNum",
        "toRelativeWeekNum", "toRelativeDayNum", "toRelativeHourNum", "toRelativeMinuteNum", "toRelativeSecondNum",
        "toMonthNumSinceEpoch", "toYearNumSinceEpoch", "toStartOfYear", "toStartOfISOYear", "toStartOfQuarter", "toStartOfMonth",
        "toMonday", "toLastDayOfMonth", "toStartOfDay", "toStartOfHour", "toStartOfMinute", "toStartOfFiveMinutes",
        "toStartOfTenMinutes", "toStartOfFifteenMinutes", "timeSlot", "toStartOfSecond", "toStartOfMillisecond",
        "toStartOfMicrosecond", "toStartOfNanosecond", "toWeek", "toYearWeek", "toStartOfWeek", "toLastDayOfWeek", "toDayOfWeek",
        "toStartOfInterval", "dateTrunc", "dateDiff", "age", "timeDiff", "formatDateTime", "formatDateTimeInJodaSyntax",
        "fromUnixTimestamp", "fromUnixTimestampInJodaSyntax", "parseDateTime", "parseDateTimeOrZero", "parseDateTimeOrNull",
        "parseDateTime64", "parseDateTime64OrZero", "parseDateTime64OrNull", "parseDateTimeInJodaSyntax",
        "parseDateTimeInJodaSyntaxOrZero", "parseDateTimeInJodaSyntaxOrNull", "parseDateTime64InJodaSyntax",
        "parseDateTime64InJodaSyntaxOrZero", "parseDateTime64InJodaSyntaxOrNull", "parseDateTimeBestEffort",
        "parseDateTimeBestEffortOrZero", "parseDateTimeBestEffortOrNull", "parseDateTime32BestEffort", "parseDateTime32BestEffortOrZero",
        "parseDateTime32BestEffortOrNull", "parseDateTime64BestEffort", "parseDateTime64BestEffortOrZero",
        "parseDateTime64BestEffortOrNull", "parseDateTimeBestEffortUS", "parseDateTimeBestEffortUSOrZero",
        "parseDateTimeBestEffortUSOrNull", "parseDateTime64BestEffortUS", "parseDateTime64BestEffortUSOrZero",
        "parseDateTime64BestEffortUSOrNull", "makeDate", "makeDate32", "makeDateTime", "makeDateTime64", "YYYYMMDDToDate",
        "YYYYMMDDToDate32", "YYYYMMDDhhmmssToDateTime", "YYYYMMDDhhmmssToDateTime64", "fromDaysSinceYearZero",
        "fromDaysSinceYearZero32", "changeYear", "changeMonth", "changeDay", "changeHour", "changeMinute", "changeSecond",
        "toTimezone", "timezoneOf", "timezoneOffset", "toUTCTimestamp", "fromUTCTimestamp", "toTimeWithFixedDate",
        "toModifiedJulianDay", "toModifiedJulianDayOrNull", "fromModifiedJulianDay", "fromModifiedJulianDayOrNull", "dateName",
        "monthName", "addDate", "subDate", "UTCTimestamp", "localtime", "nowInBlock", "nowInBlock64", "timeSlots",
        "toUnixTimestamp64Second", "fromUnixTimestamp64Second", "serverTimezone");

    /** An alias as the engine spells it, the function it names, and whether the engine takes it in any case. */
    record Alias(String name, String function, boolean caseInsensitive) {
    }

    static final List<Alias> ALIASES = List.of(new Alias("UTC_timestamp", "UTCTimestamp", true), new Alias("DATE_TRUNC", "dateTrunc", true),
        new Alias("DATE_FORMAT", "formatDateTime", true), new Alias("FROM_DAYS", "fromDaysSinceYearZero", true),
        new Alias("from_utc_timestamp", "fromUTCTimestamp", true), new Alias("FROM_UNIXTIME", "fromUnixTimestamp", true),
        new Alias("localtimestamp", "now", true), new Alias("TO_UNIXTIME", "parseDateTime", true),
        new Alias("str_to_date", "parseDateTimeOrNull", true), new Alias("DAY", "toDayOfMonth", true),
        new Alias("DAYOFMONTH", "toDayOfMonth", true), new Alias("DAYOFWEEK", "toDayOfWeek", true), new Alias("DAYOFYEAR", "toDayOfYear", true),
        new Alias("TO_DAYS", "toDaysSinceYearZero", true), new Alias("HOUR", "toHour", true), new Alias("LAST_DAY", "toLastDayOfMonth", true),
        new Alias("MICROSECOND", "toMicrosecond", true), new Alias("MILLISECOND", "toMillisecond", true), new Alias("MINUTE", "toMinute", true),
        new Alias("MONTH", "toMonth", true), new Alias("NANOSECOND", "toNanosecond", true), new Alias("QUARTER", "toQuarter", true),
        new Alias("SECOND", "toSecond", true), new Alias("date_bin", "toStartOfInterval", true), new Alias("time_bucket", "toStartOfInterval", true),
        new Alias("to_utc_timestamp", "toUTCTimestamp", true), new Alias("week", "toWeek", true), new Alias("YEAR", "toYear", true),
        new Alias("yearweek", "toYearWeek", true), new Alias("curdate", "today", true), new Alias("serverTimeZone", "serverTimezone", false),
        new Alias("timeZoneOf", "timezoneOf", false), new Alias("timeZoneOffset", "timezoneOffset", false),
        new Alias("toStartOfFiveMinute", "toStartOfFiveMinutes", false), new Alias("toTimeZone", "toTimezone", false),
        new Alias("timestampDiff", "dateDiff", false), new Alias("DATE_DIFF", "dateDiff", false), new Alias("TIMESTAMP_DIFF", "dateDiff", false),
        new Alias("date_diff", "dateDiff", false), new Alias("timestamp_diff", "dateDiff", false));

    /** The family's functions the engine takes in any case. */
    static final List<String> CASE_INSENSITIVE = List.of("subDate", "dateName", "dateDiff", "localtime", "monthName", "UTCTimestamp",
        "YYYYMMDDToDate32", "addDate", "YYYYMMDDToDate", "makeDateTime64", "makeDate32", "makeDate", "YYYYMMDDhhmmssToDateTime", "timestamp",
        "age", "timeDiff", "now64", "makeDateTime", "dateTrunc");

    private static final Map<String, String> BY_NAME = byName();

    private static Map<String, String> byName() {
        Map<String, String> m = new java.util.HashMap<>();
        for (String f : CASE_INSENSITIVE) {
            m.put(f.toLowerCase(Locale.ROOT), f);
        }
        for (Alias a : ALIASES) {
            m.put(a.caseInsensitive() ? a.name().toLowerCase(Locale.ROOT) : a.name(), a.function());
        }
        return Map.copyOf(m);
    }

    /** The function's own name for one of its aliases or case-insensitive spellings, or null. */
    static String canonical(String n) {
        String exact = BY_NAME.get(n);
        return exact != null ? exact : BY_NAME.get(n.toLowerCase(Locale.ROOT));
    }

    static boolean handles(String n) {
        return DateTimeTransforms.handles(n) || FunctionCustomWeekToSomething.handles(n) || FunctionToStartOfInterval.handles(n)
            || FunctionDateDiff.handles(n) || FunctionFormatDateTime.handles(n) || FunctionParseDateTime.handles(n) || FunctionMakeDate.handles(n)
            || FunctionChangeDate.handles(n) || FunctionToTimezone.handles(n) || FunctionModifiedJulianDay.handles(n)
            || n.equals("dateName") || n.equals("monthName") || n.equals("addDate") || n.equals("subDate") || n.equals("UTCTimestamp")
            || n.equals("localtime") || n.equals("nowInBlock") || n.equals("nowInBlock64") || n.equals("timeSlots");
    }

    static Evaluator compile(String name, List<Evaluator> args, QueryContext ctx) {
        if (DateTimeTransforms.handles(name)) {
            return DateTimeTransforms.compile(name, args);
        }
        if (FunctionCustomWeekToSomething.handles(name)) {
            return FunctionCustomWeekToSomething.compile(name, args);
        }
        if (FunctionToStartOfInterval.handles(name)) {
            return FunctionToStartOfInterval.compile(name, args);
        }
        if (FunctionDateDiff.handles(name)) {
            return FunctionDateDiff.compile(name, args);
        }
        if (FunctionFormatDateTime.handles(name)) {
            return FunctionFormatDateTime.compile(name, args);
        }
        if (FunctionParseDateTime.handles(name)) {
            return FunctionParseDateTime.compile(name, args);
        }
        if (FunctionMakeDate.handles(name)) {
            return FunctionMakeDate.compile(name, args);
        }
        if (FunctionChangeDate.handles(name)) {
            return FunctionChangeDate.compile(name, args);
        }
        if (FunctionToTimezone.handles(name)) {
            return FunctionToTimezone.compile(name, args);
        }
        if (FunctionModifiedJulianDay.handles(name)) {
            return FunctionModifiedJulianDay.compile(name, args);
        }
        switch (name) {
            case "dateName": return FunctionDateName.dateName(name, args);
            case "timeSlots": return FunctionTimeSlots.compile(name, args);
            case "monthName": return FunctionDateName.monthName(name, args);
            case "addDate": case "subDate": return addDate(name, args);
            case "UTCTimestamp": {
                Functions.argumentCount(name, args, 0, 0);
                return Evaluator.constant(DataTypes.dateTime("UTC"), ctx.now().getEpochSecond());
            }
            case "localtime": {
                Functions.argumentCount(name, args, 0, 0);
                long local = DateLUT.toLocal(ctx.now().getEpochSecond(), dev.chdedup.stub.types.SessionTimeZone.current());
                return Evaluator.constant(DataTypes.TIME, Math.floorMod(local, 86400L));
            }
            case "nowInBlock": {
                Functions.argumentCount(name, args, 0, 1);
                String tz = DateLUT.zoneArgument(name, args, 0);
                return Evaluator.of(DataTypes.dateTime(tz), r -> ctx.now().getEpochSecond());
            }
            default: {
                // nowInBlock64([precision[, zone]])
                Functions.argumentCount(name, args, 0, 2);
                int p = args.isEmpty() ? 3 : (int) Functions.constLong(args.get(0));
                String tz = DateLUT.zoneArgument(name, args, 1);
                long ticks = ctx.now().getEpochSecond() * Functions.pow10(p) + ctx.now().getNano() / Functions.pow10(9 - p);
                return Evaluator.of(DataTypes.dateTime64(p, tz), r -> ticks);
            }
        }
    }

    /** addDate(date, interval) and subDate: plus and minus of an interval (a tuple of them is refused, as the engine does). */
    private static Evaluator addDate(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 2, 0);
        DataType d = args.get(0).type().unwrap();
        if (!TypeRules.isTimeLike(d) && !Functions.isString(d) && !(d instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of 1st argument of function "
                + name + ". Should be a date, a date with time or a string");
        }
        DataType i = args.get(1).type().unwrap();
        if (!(i instanceof DataTypeInterval)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name() + " of 2nd argument of function "
                + name + ". Should be an interval");
        }
        List<Evaluator> operands = args;
        if (Functions.isString(d)) {
            operands = List.of(ConversionFunctions.cast(args.get(0), DataTypes.dateTime64(3, null)), args.get(1));
        }
        Evaluator r = DateOrDateTimeAddInterval.arith(name.equals("addDate") ? "plus" : "minus", operands);
        if (r == null) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal arguments of function " + name);
        }
        return r;
    }
}
