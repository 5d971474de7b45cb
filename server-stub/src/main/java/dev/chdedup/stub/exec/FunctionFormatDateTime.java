package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.SessionTimeZone;
import dev.chdedup.stub.types.TimeZones;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * formatDateTime (DATE_FORMAT) and formatDateTimeInJodaSyntax, and fromUnixTimestamp and fromUnixTimestampInJodaSyntax
 * with a format, after ClickHouse's formatDateTime.cpp: the format, a constant String, is compiled once into a list of
 * steps that each append a part of the value read on the wall clock of the zone argument, else the value's zone. The
 * MySQL specifiers are the engine's with its default settings (%M is the month name, %f six digits of the fraction, %e
 * and %l unpadded... as it prints them); an unknown one is BAD_ARGUMENTS, %U %v %x %X NOT_IMPLEMENTED. A Joda letter
 * repeated pads its number to the repeat count (yy alone is two digits), MMM and EEE are short names and four or more
 * full names, quoted text is literal and '' a quote; a letter the engine does not format is NOT_IMPLEMENTED.
 */
final class FunctionFormatDateTime {
    private FunctionFormatDateTime() {
    }

    /** The parts of one value a step reads. */
    record Parts(LocalDate date, int secondOfDay, long fractionNanos, int offsetSeconds, ZoneId zone) {
        int hour() {
            return secondOfDay / 3600;
        }

        int hour12() {
            int h = hour() % 12;
            return h == 0 ? 12 : h;
        }
    }

    interface Step {
        void append(Parts p, StringBuilder sb);
    }

    static boolean handles(String n) {
        return n.equals("formatDateTime") || n.equals("formatDateTimeInJodaSyntax") || n.equals("fromUnixTimestampInJodaSyntax")
            || n.equals("fromUnixTimestamp");
    }

    static final String[] MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December"};
    static final String[] WEEKDAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};

    static Evaluator compile(String name, List<Evaluator> args) {
        boolean joda = name.endsWith("JodaSyntax");
        boolean fromUnix = name.startsWith("fromUnixTimestamp");
        if (name.equals("fromUnixTimestamp") && args.size() == 1) {
            return ConversionFunctions.compile("toDateTime", args);
        }
        if (args.size() < 2 || args.size() > 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name + " doesn't match: passed "
                + args.size() + ", should be 2 or 3");
        }
        Evaluator a = args.get(0);
        DataType u = a.type().unwrap();
        boolean integer = u instanceof IntType;
        if (!(DateTimeTransforms.isDateOrTime(u) || fromUnix && integer || u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of first argument of function " + name
                + (fromUnix ? " when arguments size is 2 or 3. Should be a integer or a date with time" : ". Should be a date or a date with time"));
        }
        Evaluator f = args.get(1);
        if (!Functions.isString(f.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + f.type().name() + " of second argument of function " + name
                + ". Must be String.");
        }
        if (!f.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
        }
        String tz = DateLUT.zoneArgument(name, args, 2);
        ZoneId fixed = tz != null ? TimeZones.load(tz) : null;
        List<Step> steps = joda ? joda(Functions.constString(f)) : mysql(Functions.constString(f), u instanceof DateType);
        // an integer is seconds since the epoch: up to 32 bits as a UInt32, wider as it is
        DataType value = integer ? DataTypes.DATETIME : u;
        boolean narrow = integer && ((IntType) u).bits < 64;
        return Functions.defaultForNulls(DataTypes.STRING, List.of(a), v -> {
            ZoneId z = fixed != null ? fixed : integer ? SessionTimeZone.current() : DateLUT.zoneOf(u);
            Object x = narrow ? ((Long) v[0] & 0xFFFFFFFFL) : v[0];
            StringBuilder sb = new StringBuilder();
            Parts p = parts(x, value, z);
            for (Step s : steps) {
                s.append(p, sb);
            }
            return ByteStrings.fromText(sb.toString());
        });
    }

    static Parts parts(Object v, DataType u, ZoneId z) {
        long sec = DateLUT.seconds(v, u, z);
        long local = u instanceof DateType ? (Long) v * 86400L : DateLUT.toLocal(sec, z);
        long nanos = 0;
        if (u instanceof DateTime64Type) {
            DateTime64Type t = (DateTime64Type) u;
            nanos = Math.floorMod((Long) v, t.scale()) * Functions.pow10(9 - t.precision);
        }
        if (u instanceof DateType) {
            return new Parts(LocalDate.ofEpochDay((Long) v), 0, 0, (int) (local - sec), z);
        }
        boolean outside = DateLUT.outOfTable(v, u);
        int offset = (int) DateLUT.timezoneOffset(sec, z, outside);
        int secondOfDay = (int) Math.floorMod(local, 86400L);
        // the second as the engine reads it (of UTC in a zone of whole minutes)
        secondOfDay += DateLUT.second(sec, z, outside) - secondOfDay % 60;
        return new Parts(LocalDate.ofEpochDay(Math.floorDiv(local, 86400L)), secondOfDay, nanos, offset, z);
    }

    static void pad(StringBuilder sb, long v, int width) {
        String s = Long.toString(Math.abs(v));
        if (v < 0) {
            sb.append('-');
        }
        for (int i = s.length(); i < width; i++) {
            sb.append('0');
        }
        sb.append(s);
    }

    private static Step number(java.util.function.ToLongFunction<Parts> f, int width) {
        return (p, sb) -> pad(sb, f.applyAsLong(p), width);
    }

    private static Step literal(String s) {
        return (p, sb) -> sb.append(s);
    }

    private static List<Step> mysql(String format, boolean isDate) {
        List<Step> steps = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%') {
                lit.append(c);
                continue;
            }
            if (i + 1 >= format.length()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "'%' must not be the last character in the format string, use '%%' instead");
            }
            char s = format.charAt(++i);
            if (s == '%' || s == 'n' || s == 't') {
                lit.append(s == '%' ? '%' : s == 'n' ? '\n' : '\t');
                continue;
            }
            if (lit.length() > 0) {
                steps.add(literal(lit.toString()));
                lit.setLength(0);
            }
            steps.add(mysqlStep(format, s, isDate));
        }
        if (lit.length() > 0) {
            steps.add(literal(lit.toString()));
        }
        return steps;
    }

    private static Step mysqlStep(String format, char s, boolean isDate) {
        switch (s) {
            case 'a': return (p, sb) -> sb.append(WEEKDAYS[p.date().getDayOfWeek().getValue() - 1], 0, 3);
            case 'b': return (p, sb) -> sb.append(MONTHS[p.date().getMonthValue() - 1], 0, 3);
            case 'c': case 'm': return number(p -> p.date().getMonthValue(), 2);
            case 'C': return number(p -> p.date().getYear() / 100, 2);
            case 'd': return number(p -> p.date().getDayOfMonth(), 2);
            case 'D': return (p, sb) -> {
                pad(sb, p.date().getMonthValue(), 2);
                sb.append('/');
                pad(sb, p.date().getDayOfMonth(), 2);
                sb.append('/');
                pad(sb, p.date().getYear() % 100, 2);
            };
            case 'e': return number(p -> p.date().getDayOfMonth(), 1);
            case 'f': return number(p -> p.fractionNanos() / 1000, 6);
            case 'F': return (p, sb) -> {
                pad(sb, p.date().getYear(), 4);
                sb.append('-');
                pad(sb, p.date().getMonthValue(), 2);
                sb.append('-');
                pad(sb, p.date().getDayOfMonth(), 2);
            };
            case 'g': return number(p -> DateLUT.isoYear(p.date().toEpochDay()) % 100, 2);
            case 'G': return number(p -> DateLUT.isoYear(p.date().toEpochDay()), 4);
            case 'h': case 'I': case 'l': return number(Parts::hour12, 2);
            case 'H': case 'k': return number(Parts::hour, 2);
            case 'i': return number(p -> p.secondOfDay() / 60 % 60, 2);
            case 'j': return number(p -> p.date().getDayOfYear(), 3);
            case 'M': return (p, sb) -> sb.append(MONTHS[p.date().getMonthValue() - 1]);
            case 'p': return (p, sb) -> sb.append(p.hour() < 12 ? "AM" : "PM");
            case 'Q': return number(p -> (p.date().getMonthValue() + 2) / 3, 1);
            case 'r': return (p, sb) -> {
                pad(sb, p.hour12(), 2);
                sb.append(':');
                pad(sb, p.secondOfDay() / 60 % 60, 2);
                sb.append(p.hour() < 12 ? " AM" : " PM");
            };
            case 'R': return (p, sb) -> {
                pad(sb, p.hour(), 2);
                sb.append(':');
                pad(sb, p.secondOfDay() / 60 % 60, 2);
            };
            case 's': case 'S': return number(p -> p.secondOfDay() % 60, 2);
            case 'T': return (p, sb) -> {
                pad(sb, p.hour(), 2);
                sb.append(':');
                pad(sb, p.secondOfDay() / 60 % 60, 2);
                sb.append(':');
                pad(sb, p.secondOfDay() % 60, 2);
            };
            case 'u': return number(p -> p.date().getDayOfWeek().getValue(), 1);
            case 'V': return number(p -> DateLUT.isoWeek(p.date().toEpochDay()), 2);
            case 'w': return number(p -> p.date().getDayOfWeek().getValue() % 7, 1);
            case 'W': return (p, sb) -> sb.append(WEEKDAYS[p.date().getDayOfWeek().getValue() - 1]);
            case 'y': return number(p -> p.date().getYear() % 100, 2);
            case 'Y': return number(p -> p.date().getYear(), 4);
            case 'z':
                if (isDate) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal argument of type Date for function timezoneOffset");
                }
                return (p, sb) -> {
                    int o = p.offsetSeconds();
                    sb.append(o < 0 ? '-' : '+');
                    pad(sb, Math.abs(o) / 3600, 2);
                    pad(sb, Math.abs(o) / 60 % 60, 2);
                };
            case 'U': throw new ChException(ErrorCode.NOT_IMPLEMENTED, "format is not supported for WEEK (Sun-Sat)");
            case 'v': throw new ChException(ErrorCode.NOT_IMPLEMENTED, "format is not supported for WEEK (Mon-Sun)");
            case 'x': throw new ChException(ErrorCode.NOT_IMPLEMENTED, "format is not supported for YEAR for week (Mon-Sun)");
            case 'X': throw new ChException(ErrorCode.NOT_IMPLEMENTED, "format is not supported for YEAR for week (Sun-Sat)");
            default:
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Incorrect syntax '" + format + "', symbol is not supported '" + s
                    + "' for function formatDateTime");
        }
    }

    private static List<Step> joda(String format) {
        List<Step> steps = new ArrayList<>();
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c == '\'') {
                if (i + 1 < format.length() && format.charAt(i + 1) == '\'') {
                    steps.add(literal("'"));
                    i += 2;
                    continue;
                }
                StringBuilder lit = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= format.length()) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "No closing single quote for literal");
                    }
                    if (format.charAt(j) == '\'') {
                        if (j + 1 < format.length() && format.charAt(j + 1) == '\'') {
                            lit.append('\'');
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    lit.append(format.charAt(j++));
                }
                steps.add(literal(lit.toString()));
                i = j + 1;
                continue;
            }
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
                steps.add(literal(String.valueOf(c)));
                i++;
                continue;
            }
            int j = i;
            while (j < format.length() && format.charAt(j) == c) {
                j++;
            }
            steps.add(jodaStep(c, j - i));
            i = j;
        }
        return steps;
    }

    private static Step jodaStep(char c, int n) {
        switch (c) {
            case 'G': return (p, sb) -> sb.append(n <= 3 ? "AD" : "Anno Domini");
            case 'C': return number(p -> p.date().getYear() / 100, n);
            case 'Y': case 'y': return n == 2 ? number(p -> p.date().getYear() % 100, 2) : number(p -> p.date().getYear(), n);
            case 'x': return number(p -> DateLUT.isoYear(p.date().toEpochDay()), n);
            case 'w': return number(p -> DateLUT.isoWeek(p.date().toEpochDay()), n);
            case 'e': return number(p -> p.date().getDayOfWeek().getValue(), n);
            case 'E': return (p, sb) -> {
                String w = WEEKDAYS[p.date().getDayOfWeek().getValue() - 1];
                sb.append(n <= 3 ? w.substring(0, 3) : w);
            };
            case 'D': return number(p -> p.date().getDayOfYear(), n);
            case 'M':
                if (n >= 3) {
                    return (p, sb) -> {
                        String m = MONTHS[p.date().getMonthValue() - 1];
                        sb.append(n == 3 ? m.substring(0, 3) : m);
                    };
                }
                return number(p -> p.date().getMonthValue(), n);
            case 'd': return number(p -> p.date().getDayOfMonth(), n);
            case 'a': return (p, sb) -> sb.append(p.hour() < 12 ? "AM" : "PM");
            case 'K': return number(p -> p.hour() % 12, n);
            case 'h': return number(Parts::hour12, n);
            case 'H': return number(Parts::hour, n);
            case 'k': return number(p -> p.hour() == 0 ? 24 : p.hour(), n);
            case 'm': return number(p -> p.secondOfDay() / 60 % 60, n);
            case 's': return number(p -> p.secondOfDay() % 60, n);
            case 'S': {
                int digits = Math.min(n, 9);
                return number(p -> p.fractionNanos() / Functions.pow10(9 - digits), digits);
            }
            case 'z':
                if (n < 4) {
                    throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Short name time zone is not yet supported");
                }
                return (p, sb) -> sb.append(FunctionToTimezone.zoneName(p.zone(), null));
            case 'Z': throw new ChException(ErrorCode.NOT_IMPLEMENTED, "format is not supported for TIMEZONE_OFFSET_ID");
            default: throw new ChException(ErrorCode.NOT_IMPLEMENTED, "format is not supported for " + c);
        }
    }
}
