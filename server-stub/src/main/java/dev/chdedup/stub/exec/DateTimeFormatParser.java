package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads text by a MySQL or Joda format, as the instructions of ClickHouse's parseDateTime.cpp read it: each specifier
 * reads its fixed or bounded number of digits (or a name) and sets one field, text between them must match; the whole
 * text must be read. Fields not read are 1970-01-01 00:00:00 (2000 when only a day of the week is); a value out of its
 * field's range, an impossible date or a year outside the result type's (1970-2106 for DateTime, 1900-2299 for
 * DateTime64) is CANNOT_PARSE_DATETIME. A time without an offset is read in the given zone.
 */
final class DateTimeFormatParser {
    /** The fields read so far. */
    private static final class Fields {
        int year = 1970;
        int month = 1;
        int day = 1;
        int dayOfYear;
        int hour;
        int minute;
        int second;
        long fraction;
        int fractionDigits;
        boolean hour12;
        boolean pm;
        Integer offsetSeconds;
    }

    /** One step of the format: reads from {@code s} at {@code pos} and returns the position after. */
    private interface Instruction {
        int read(String s, int pos, Fields f);
    }

    private final List<Instruction> instructions;
    private final int fractionDigits;

    private DateTimeFormatParser(List<Instruction> instructions, int fractionDigits) {
        this.instructions = instructions;
        this.fractionDigits = fractionDigits;
    }

    /** How many fraction digits the format reads (the count of S of a Joda format). */
    int fractionDigits() {
        return fractionDigits;
    }

    private static ChException error(String what) {
        return new ChException(ErrorCode.CANNOT_PARSE_DATETIME, what);
    }

    /** Reads {@code min} to {@code max} digits at {@code pos}: {value, end}. */
    private static int[] number(String s, int pos, int min, int max, String fragment) {
        int end = pos;
        while (end < s.length() && end - pos < max && Character.isDigit(s.charAt(end))) {
            end++;
        }
        if (end - pos < min) {
            throw error("Unable to parse fragment " + fragment + " from " + s.substring(Math.min(pos, s.length()))
                + " because it requires " + min + " digits");
        }
        return new int[] {Integer.parseInt(s.substring(pos, end)), end};
    }

    private static int check(int v, int min, int max, String field) {
        if (v < min || v > max) {
            throw error("Value " + v + " for " + field + " must be in the range [" + min + ", " + max + "]");
        }
        return v;
    }

    private static Instruction literal(String text) {
        return (s, pos, f) -> {
            if (!s.startsWith(text, pos)) {
                throw error("Unable to parse fragment LITERAL from " + s.substring(Math.min(pos, s.length())) + " because literal " + text
                    + " is expected");
            }
            return pos + text.length();
        };
    }

    private interface Setter {
        void set(Fields f, int v);
    }

    private static Instruction digits(int min, int max, String fragment, int lo, int hi, String field, Setter set) {
        return (s, pos, f) -> {
            int[] r = number(s, pos, min, max, fragment);
            set.set(f, check(r[0], lo, hi, field));
            return r[1];
        };
    }

    private static Instruction name(String[] names, int length, String fragment, Setter set) {
        return (s, pos, f) -> {
            for (int i = 0; i < names.length; i++) {
                String n = length > 0 ? names[i].substring(0, length) : names[i];
                if (s.regionMatches(true, pos, n, 0, n.length())) {
                    set.set(f, i + 1);
                    return pos + n.length();
                }
            }
            throw error("Unable to parse fragment " + fragment + " from " + s.substring(Math.min(pos, s.length())));
        };
    }

    private static final Instruction AM_PM = (s, pos, f) -> {
        if (s.regionMatches(true, pos, "AM", 0, 2) || s.regionMatches(true, pos, "PM", 0, 2)) {
            f.pm = Character.toUpperCase(s.charAt(pos)) == 'P';
            return pos + 2;
        }
        throw error("Unable to parse fragment %p from " + s.substring(Math.min(pos, s.length())) + " because AM or PM is expected");
    };

    private static final Instruction OFFSET = (s, pos, f) -> {
        if (s.length() - pos < 5) {
            throw error("Unable to parse fragment %z from " + s.substring(pos) + " because mysqlTimezoneOffset requires size >= 5");
        }
        char sign = s.charAt(pos);
        if (sign != '+' && sign != '-') {
            throw error("Unable to parse fragment %z from " + s.substring(pos) + " because the sign is expected");
        }
        int h = number(s, pos + 1, 2, 2, "%z")[0];
        int m = number(s, pos + 3, 2, 2, "%z")[0];
        f.offsetSeconds = (sign == '-' ? -1 : 1) * (h * 3600 + m * 60);
        return pos + 5;
    };

    private static Instruction fraction(int min, int max) {
        return (s, pos, f) -> {
            int end = pos;
            while (end < s.length() && end - pos < max && Character.isDigit(s.charAt(end))) {
                end++;
            }
            if (end - pos < min) {
                throw error("Unable to parse fragment %f from " + s.substring(pos) + " because a fraction is expected");
            }
            f.fraction = Long.parseLong(s.substring(pos, end));
            f.fractionDigits = end - pos;
            return end;
        };
    }

    private static Instruction sequence(Instruction... steps) {
        return (s, pos, f) -> {
            int p = pos;
            for (Instruction i : steps) {
                p = i.read(s, p, f);
            }
            return p;
        };
    }

    private static final Instruction YEAR4 = digits(4, 4, "%Y", 0, 9999, "year", (f, v) -> f.year = v);
    private static final Instruction MONTH2 = digits(2, 2, "%m", 1, 12, "month of year", (f, v) -> f.month = v);
    private static final Instruction DAY2 = digits(2, 2, "%d", 1, 31, "day of month", (f, v) -> f.day = v);
    private static final Instruction HOUR2 = digits(2, 2, "%H", 0, 23, "hour", (f, v) -> f.hour = v);
    private static final Instruction HOUR12 = digits(2, 2, "%h", 1, 12, "hour", (f, v) -> {
        f.hour = v;
        f.hour12 = true;
    });
    private static final Instruction MINUTE2 = digits(2, 2, "%i", 0, 59, "minute", (f, v) -> f.minute = v);
    private static final Instruction SECOND2 = digits(2, 2, "%s", 0, 59, "second", (f, v) -> f.second = v);

    /** A MySQL format, as formatDateTime writes it. */
    static DateTimeFormatParser mysql(String format) {
        List<Instruction> out = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        for (int i = 0; i < format.length(); i++) {
            char c = format.charAt(i);
            if (c != '%' || i + 1 >= format.length()) {
                lit.append(c);
                continue;
            }
            char s = format.charAt(++i);
            if (s == '%' || s == 'n' || s == 't') {
                lit.append(s == '%' ? '%' : s == 'n' ? '\n' : '\t');
                continue;
            }
            if (lit.length() > 0) {
                out.add(literal(lit.toString()));
                lit.setLength(0);
            }
            out.add(mysqlInstruction(s));
        }
        if (lit.length() > 0) {
            out.add(literal(lit.toString()));
        }
        return new DateTimeFormatParser(out, 6);
    }

    private static Instruction mysqlInstruction(char s) {
        switch (s) {
            case 'Y': return YEAR4;
            case 'y': return digits(2, 2, "%y", 0, 99, "year", (f, v) -> f.year = v < 70 ? 2000 + v : 1900 + v);
            case 'C': return digits(2, 2, "%C", 0, 99, "century", (f, v) -> f.year = v * 100 + f.year % 100);
            case 'm': return MONTH2;
            case 'c': return digits(1, 2, "%c", 1, 12, "month of year", (f, v) -> f.month = v);
            case 'd': return DAY2;
            case 'e': return (str, pos, f) -> {
                int p = pos < str.length() && str.charAt(pos) == ' ' ? pos + 1 : pos;
                int[] r = number(str, p, 1, 2, "%e");
                f.day = check(r[0], 1, 31, "day of month");
                return r[1];
            };
            case 'j': return digits(3, 3, "%j", 1, 366, "day of year", (f, v) -> f.dayOfYear = v);
            case 'H': return HOUR2;
            case 'k': return digits(1, 2, "%k", 0, 23, "hour", (f, v) -> f.hour = v);
            case 'h': case 'I': return HOUR12;
            case 'l': return digits(1, 2, "%l", 1, 12, "hour", (f, v) -> {
                f.hour = v;
                f.hour12 = true;
            });
            case 'i': return MINUTE2;
            case 's': case 'S': return SECOND2;
            case 'f': return fraction(1, 6);
            case 'p': return AM_PM;
            case 'M': return name(FunctionFormatDateTime.MONTHS, 0, "%M", (f, v) -> f.month = v);
            case 'b': return name(FunctionFormatDateTime.MONTHS, 3, "%b", (f, v) -> f.month = v);
            case 'a': return name(FunctionFormatDateTime.WEEKDAYS, 3, "%a", (f, v) -> { });
            case 'W': return name(FunctionFormatDateTime.WEEKDAYS, 0, "%W", (f, v) -> { });
            case 'z': return OFFSET;
            case 'T': return sequence(HOUR2, literal(":"), MINUTE2, literal(":"), SECOND2);
            case 'R': return sequence(HOUR2, literal(":"), MINUTE2);
            case 'r': return sequence(HOUR12, literal(":"), MINUTE2, literal(" "), AM_PM);
            case 'D': return sequence(MONTH2, literal("/"), DAY2, literal("/"), mysqlInstruction('y'));
            case 'F': return sequence(YEAR4, literal("-"), MONTH2, literal("-"), DAY2);
            default: throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Unsupported fragment %" + s + " of format for parseDateTime");
        }
    }

    /** A Joda format, as formatDateTimeInJodaSyntax writes it. */
    static DateTimeFormatParser joda(String format) {
        List<Instruction> out = new ArrayList<>();
        int fraction = 0;
        int i = 0;
        while (i < format.length()) {
            char c = format.charAt(i);
            if (c == '\'') {
                int j = format.indexOf('\'', i + 1);
                if (j < 0) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "No closing single quote for literal");
                }
                out.add(literal(j == i + 1 ? "'" : format.substring(i + 1, j)));
                i = j + 1;
                continue;
            }
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z')) {
                out.add(literal(String.valueOf(c)));
                i++;
                continue;
            }
            int j = i;
            while (j < format.length() && format.charAt(j) == c) {
                j++;
            }
            int n = j - i;
            if (c == 'S') {
                fraction = n;
            }
            out.add(jodaInstruction(c, n));
            i = j;
        }
        return new DateTimeFormatParser(out, fraction);
    }

    private static Instruction jodaInstruction(char c, int n) {
        int max = Math.max(n, c == 'y' || c == 'Y' || c == 'x' ? 4 : 2);
        switch (c) {
            case 'y': case 'Y': case 'x':
                if (n == 2) {
                    return digits(2, 2, String.valueOf(c), 0, 99, "year", (f, v) -> f.year = v < 70 ? 2000 + v : 1900 + v);
                }
                return digits(1, max, String.valueOf(c), 0, 9999, "year", (f, v) -> f.year = v);
            case 'M':
                if (n >= 3) {
                    return name(FunctionFormatDateTime.MONTHS, n == 3 ? 3 : 0, "M", (f, v) -> f.month = v);
                }
                return digits(1, max, "M", 1, 12, "month of year", (f, v) -> f.month = v);
            case 'd': return digits(1, max, "d", 1, 31, "day of month", (f, v) -> f.day = v);
            case 'D': return digits(1, Math.max(n, 3), "D", 1, 366, "day of year", (f, v) -> f.dayOfYear = v);
            case 'H': return digits(1, max, "H", 0, 23, "hour", (f, v) -> f.hour = v);
            case 'k': return digits(1, max, "k", 1, 24, "hour", (f, v) -> f.hour = v % 24);
            case 'h': return digits(1, max, "h", 1, 12, "hour", (f, v) -> {
                f.hour = v;
                f.hour12 = true;
            });
            case 'K': return digits(1, max, "K", 0, 11, "hour", (f, v) -> {
                f.hour = v;
                f.hour12 = true;
            });
            case 'm': return digits(1, max, "m", 0, 59, "minute", (f, v) -> f.minute = v);
            case 's': return digits(1, max, "s", 0, 59, "second", (f, v) -> f.second = v);
            case 'S': return fraction(n, n);
            case 'a': return AM_PM;
            case 'E': return name(FunctionFormatDateTime.WEEKDAYS, n <= 3 ? 3 : 0, "E", (f, v) -> { });
            case 'e': return digits(1, max, "e", 1, 7, "day of week", (f, v) -> { });
            case 'G': return (s, pos, f) -> {
                String era = n <= 3 ? "AD" : "Anno Domini";
                if (!s.regionMatches(true, pos, era, 0, era.length())) {
                    throw error("Unable to parse fragment G from " + s.substring(Math.min(pos, s.length())));
                }
                return pos + era.length();
            };
            default: throw new ChException(ErrorCode.NOT_IMPLEMENTED, "format is not supported for " + c);
        }
    }

    /** The value of {@code s}: seconds for a DateTime, ticks of {@code precision} digits for a DateTime64. */
    long parse(String s, ZoneId zone, boolean is64, int precision) {
        Fields f = new Fields();
        int pos = 0;
        for (Instruction i : instructions) {
            pos = i.read(s, pos, f);
        }
        if (pos < s.length()) {
            throw error("Invalid format input " + s + " is malformed at " + s.substring(pos));
        }
        int minYear = is64 ? 1900 : 1970;
        int maxYear = is64 ? 2299 : 2106;
        check(f.year, minYear, maxYear, "year");
        if (f.hour12) {
            f.hour = f.hour % 12 + (f.pm ? 12 : 0);
        } else if (f.pm && f.hour < 12) {
            f.hour += 12;
        }
        long day;
        if (f.dayOfYear > 0) {
            day = LocalDate.of(f.year, 1, 1).toEpochDay() + f.dayOfYear - 1;
        } else {
            try {
                day = LocalDate.of(f.year, f.month, f.day).toEpochDay();
            } catch (java.time.DateTimeException e) {
                throw error("Invalid date, out of range (year: " + f.year + " month: " + f.month + " day_of_month: " + f.day + ")");
            }
        }
        long local = day * 86400 + f.hour * 3600L + f.minute * 60L + f.second;
        long sec = f.offsetSeconds != null ? local - f.offsetSeconds : DateLUT.fromLocal(local, zone);
        if (!is64) {
            if (sec < 0 || sec > 0xFFFFFFFFL) {
                throw error("Invalid date time " + s + " is out of range of DateTime");
            }
            return sec;
        }
        long frac = f.fraction;
        if (precision < f.fractionDigits) {
            frac /= Functions.pow10(f.fractionDigits - precision);
        } else {
            frac *= Functions.pow10(precision - f.fractionDigits);
        }
        return sec * Functions.pow10(precision) + frac;
    }
}
