package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.List;

/**
 * Date and time parts and truncation (toYYYYMM, toStartOfMonth, toHour, ...); interval arithmetic is
 * DateOrDateTimeAddInterval's. Times are
 * taken in UTC, the stub's server time zone, unless the DateTime type names a zone.
 */
final class DateParts {
    private DateParts() {
    }

    /** Seconds since epoch, in local (type-zone) wall-clock terms, of a Date/DateTime/DateTime64 value. */
    static long localSeconds(Object v, DataType t) {
        DataType u = t.unwrap();
        long x = (Long) v;
        if (u instanceof DateType) {
            return x * 86400L;
        }
        long sec = u instanceof DateTime64Type ? Math.floorDiv(x, ((DateTime64Type) u).scale()) : x;
        Long day = (Long) DataTypes.DATE32.convert(v, u);
        long secOfDay = 0;
        String tz = u instanceof DateTimeType ? ((DateTimeType) u).tz : u instanceof DateTime64Type ? ((DateTime64Type) u).tz : null;
        java.time.ZoneId z = tz == null ? dev.chdedup.stub.types.SessionTimeZone.current() : dev.chdedup.stub.types.TimeZones.load(tz);
        if (z.equals(java.time.ZoneOffset.UTC)) {
            return sec;
        }
        LocalDateTime ldt = LocalDateTime.ofEpochSecond(sec, 0, z.getRules().getOffset(java.time.Instant.ofEpochSecond(sec)));
        secOfDay = ldt.toLocalTime().toSecondOfDay();
        return day * 86400L + secOfDay;
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " requires an argument");
        }
        Evaluator a = args.get(0);
        DataType t = a.type();
        DataType u = t.unwrap();
        if (!TypeRules.isTimeLike(u)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name
                + ". Should be a date or a date with time");
        }
        List<Evaluator> one = List.of(a);
        switch (name) {
            case "toYYYYMM": return Functions.strict(DataTypes.UINT32, one, v -> {
                LocalDate d = date(v[0], t);
                return (long) (d.getYear() * 100 + d.getMonthValue());
            });
            case "toYYYYMMDD": return Functions.strict(DataTypes.UINT32, one, v -> {
                LocalDate d = date(v[0], t);
                return (long) (d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth());
            });
            case "toYear": return Functions.strict(DataTypes.UINT16, one, v -> (long) date(v[0], t).getYear());
            case "toQuarter": return Functions.strict(DataTypes.UINT8, one, v -> (long) ((date(v[0], t).getMonthValue() + 2) / 3));
            case "toMonth": return Functions.strict(DataTypes.UINT8, one, v -> (long) date(v[0], t).getMonthValue());
            case "toDayOfMonth": return Functions.strict(DataTypes.UINT8, one, v -> (long) date(v[0], t).getDayOfMonth());
            case "toDayOfWeek": return Functions.strict(DataTypes.UINT8, one, v -> (long) date(v[0], t).getDayOfWeek().getValue());
            case "toHour": return Functions.strict(DataTypes.UINT8, one, v -> Math.floorMod(localSeconds(v[0], t), 86400L) / 3600);
            case "toMinute": return Functions.strict(DataTypes.UINT8, one, v -> Math.floorMod(localSeconds(v[0], t), 3600L) / 60);
            case "toSecond": return Functions.strict(DataTypes.UINT8, one, v -> Math.floorMod(localSeconds(v[0], t), 60L));
            case "toStartOfMonth": return Functions.strict(DataTypes.DATE, one, v -> date(v[0], t).withDayOfMonth(1).toEpochDay());
            case "toStartOfQuarter": return Functions.strict(DataTypes.DATE, one, v -> {
                LocalDate d = date(v[0], t);
                return d.withDayOfMonth(1).withMonth((d.getMonthValue() - 1) / 3 * 3 + 1).toEpochDay();
            });
            case "toStartOfYear": return Functions.strict(DataTypes.DATE, one, v -> date(v[0], t).withDayOfYear(1).toEpochDay());
            case "toMonday": case "toStartOfWeek": return Functions.strict(DataTypes.DATE, one,
                v -> ArithmeticFunctions.startOfWeek(date(v[0], t).toEpochDay()));
            case "toStartOfDay": return truncate(a, 86400L);
            case "toStartOfHour": return truncate(a, 3600L);
            case "toStartOfMinute": return truncate(a, 60L);
            case "toStartOfFiveMinutes": return truncate(a, 300L);
            case "toStartOfFifteenMinutes": return truncate(a, 900L);
            default: throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Function with name `" + name + "` does not exist");
        }
    }

    static LocalDate date(Object v, DataType t) {
        return LocalDate.ofEpochDay(Math.floorDiv(localSeconds(v, t), 86400L));
    }

    private static Evaluator truncate(Evaluator a, long unit) {
        DataType t = a.type();
        DataType u = t.unwrap();
        DataType rt = u instanceof DateTimeType ? u : DataTypes.DATETIME;
        return Functions.strict(rt, List.of(a), v -> {
            long local = localSeconds(v[0], t);
            long offset = local - epochSeconds(v[0], u);
            return Math.floorDiv(local, unit) * unit - offset;
        });
    }

    static long epochSeconds(Object v, DataType u) {
        long x = (Long) v;
        if (u instanceof DateType) {
            return x * 86400L;
        }
        if (u instanceof DateTime64Type) {
            return Math.floorDiv(x, ((DateTime64Type) u).scale());
        }
        return x;
    }
}
