package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.time.LocalDate;
import java.util.List;

/**
 * toModifiedJulianDay and fromModifiedJulianDay with their OrNull forms, after ClickHouse's toModifiedJulianDay.cpp and
 * fromModifiedJulianDay.cpp: the Int32 day number since 1858-11-17 of a {@code YYYY-MM-DD} String or FixedString of the
 * years 0000 to 9999 (other text CANNOT_PARSE_INPUT_ASSERTION_FAILED, an impossible date CANNOT_PARSE_DATE), and the
 * String of such a day number (out of those years CANNOT_FORMAT_DATETIME); the OrNull forms give NULL instead.
 */
final class FunctionModifiedJulianDay {
    private FunctionModifiedJulianDay() {
    }

    /** 1858-11-17 as a day since the epoch. */
    private static final long MJD_EPOCH = LocalDate.of(1858, 11, 17).toEpochDay();
    private static final long MIN = LocalDate.of(0, 1, 1).toEpochDay() - MJD_EPOCH;
    private static final long MAX = LocalDate.of(9999, 12, 31).toEpochDay() - MJD_EPOCH;

    static boolean handles(String n) {
        return n.equals("toModifiedJulianDay") || n.equals("toModifiedJulianDayOrNull") || n.equals("fromModifiedJulianDay")
            || n.equals("fromModifiedJulianDayOrNull");
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 1, 0);
        boolean orNull = name.endsWith("OrNull");
        DataType t = args.get(0).type().unwrap();
        if (name.startsWith("to")) {
            if (!Functions.isString(t) && !(t instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The argument of function " + name + " must be String or FixedString");
            }
            DataType result = orNull ? DataTypes.nullable(DataTypes.INT32) : DataTypes.INT32;
            return nullable(result, args, orNull, v -> toDay(ByteStrings.toText((String) v)));
        }
        if (!TypeRules.isInteger(t) && !(t instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The argument of function " + name + " must be integral");
        }
        DataType result = orNull ? DataTypes.nullable(DataTypes.STRING) : DataTypes.STRING;
        DataType at = args.get(0).type();
        return nullable(result, args, orNull, v -> {
            long day = Values.toLong(Values.toNumber(v, at));
            if (day < MIN || day > MAX) {
                throw new ChException(ErrorCode.CANNOT_FORMAT_DATETIME, "Value cannot be represented as date because it's out of range");
            }
            LocalDate d = LocalDate.ofEpochDay(day + MJD_EPOCH);
            StringBuilder sb = new StringBuilder();
            FunctionFormatDateTime.pad(sb, d.getYear(), 4);
            sb.append('-');
            FunctionFormatDateTime.pad(sb, d.getMonthValue(), 2);
            sb.append('-');
            FunctionFormatDateTime.pad(sb, d.getDayOfMonth(), 2);
            return ByteStrings.fromText(sb.toString());
        });
    }

    /** The value, NULL for NULL, and for the OrNull forms NULL where the conversion fails. */
    private static Evaluator nullable(DataType result, List<Evaluator> args, boolean orNull, java.util.function.Function<Object, Object> fn) {
        if (!orNull) {
            return Functions.defaultForNulls(result, args, v -> fn.apply(v[0]));
        }
        Evaluator a = args.get(0);
        return Evaluator.of(result, r -> {
            Object v = a.eval(r);
            if (v == null) {
                return null;
            }
            try {
                return fn.apply(v);
            } catch (ChException e) {
                return null;
            }
        });
    }

    private static long toDay(String s) {
        if (s.length() < 10 || !digits(s, 0, 4) || s.charAt(4) != '-' || !digits(s, 5, 7) || s.charAt(7) != '-' || !digits(s, 8, 10)) {
            throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected a date in YYYY-MM-DD form");
        }
        if (s.length() > 10) {
            throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected 'eof' before: '" + s.substring(10) + "'");
        }
        int year = Integer.parseInt(s.substring(0, 4));
        int month = Integer.parseInt(s.substring(5, 7));
        int day = Integer.parseInt(s.substring(8, 10));
        try {
            return LocalDate.of(year, month, day).toEpochDay() - MJD_EPOCH;
        } catch (java.time.DateTimeException e) {
            throw new ChException(ErrorCode.CANNOT_PARSE_DATE, "Invalid date: " + s);
        }
    }

    private static boolean digits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }
}
