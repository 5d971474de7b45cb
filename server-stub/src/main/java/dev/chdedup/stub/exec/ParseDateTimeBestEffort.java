package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Reads a date and time in any of the shapes ClickHouse's parseDateTimeBestEffort (src/IO/parseDateTimeBestEffort.cpp)
 * takes: a Unix timestamp of 9 or 10 digits (13 with milliseconds), YYYYMMDD[hhmmss], YYYY-MM-DD and YYYY/M/D with any one
 * delimiter, DD/MM/YYYY (MM/DD/YYYY for the US variant), a month as a word (Jan ... December), hh:mm[:ss[.f]], AM and PM,
 * a weekday word, and a zone offset ({@code Z}, {@code +hh[:mm]}, {@code -hhmm}, UTC, GMT, MSK, MSD); a missing day or
 * month is 1, a missing year this year (or last year when the date would be in the future). A wall time without offset
 * is read in the given zone. The text must be read to its end, else CANNOT_PARSE_TEXT; a shape it does not take is
 * CANNOT_PARSE_DATETIME.
 */
final class ParseDateTimeBestEffort {
    private final String s;
    private int pos;

    private ParseDateTimeBestEffort(String s) {
        this.s = s;
    }

    /** The result: whole seconds since the epoch, and the fraction's digits (value and how many). */
    record Result(long seconds, long fraction, int fractionDigits) {
        /** The value in ticks of 10^-scale seconds. */
        long ticks(int scale) {
            long f = fraction;
            if (scale < fractionDigits) {
                f /= Functions.pow10(fractionDigits - scale);
            } else {
                f *= Functions.pow10(scale - fractionDigits);
            }
            return seconds * Functions.pow10(scale) + f;
        }
    }

    /** Whole seconds of {@code text} read in {@code zone}, or the engine's exception. */
    static long seconds(String text, ZoneId zone) {
        return parse(text, zone, false).seconds();
    }

    /** {@code text} read as parseDateTimeBestEffort[US] reads it, to its end; the engine's exception when it cannot. */
    static Result parse(String text, ZoneId zone, boolean us) {
        ParseDateTimeBestEffort p = new ParseDateTimeBestEffort(text);
        Result r = p.read(zone, us);
        if (p.pos < text.length()) {
            throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse string '" + text + "' as DateTime: syntax error at position "
                + p.pos + " (parsed just '" + text.substring(0, p.pos) + "')");
        }
        return r;
    }

    /** {@link #parse}, or null where it would throw. */
    static Result tryParse(String text, ZoneId zone, boolean us) {
        try {
            return parse(text, zone, us);
        } catch (ChException e) {
            return null;
        }
    }

    private static ChException error(String what) {
        return new ChException(ErrorCode.CANNOT_PARSE_DATETIME, "Cannot read DateTime: " + what);
    }

    private boolean eof() {
        return pos >= s.length();
    }

    private char peek() {
        return s.charAt(pos);
    }

    private boolean check(char c) {
        if (!eof() && peek() == c) {
            pos++;
            return true;
        }
        return false;
    }

    /** Up to {@code max} digits at the position, as a string. */
    private String digits(int max) {
        int start = pos;
        while (!eof() && peek() >= '0' && peek() <= '9' && pos - start < max) {
            pos++;
        }
        return s.substring(start, pos);
    }

    private String alpha(int max) {
        int start = pos;
        while (!eof() && isAlpha(peek()) && pos - start < max) {
            pos++;
        }
        return s.substring(start, pos);
    }

    private static boolean isAlpha(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    private static int num(String d, int from, int to) {
        return Integer.parseInt(d.substring(from, to));
    }

    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};
    private static final java.util.Set<String> NAMES = java.util.Set.of("january", "february", "march", "april", "june", "july",
        "august", "september", "october", "november", "december", "monday", "tuesday", "wednesday", "thursday", "friday",
        "saturday", "sunday");

    private static int month(String word) {
        String w = word.length() >= 3 ? word.substring(0, 3).toLowerCase(java.util.Locale.ROOT) : "";
        for (int i = 0; i < MONTHS.length; i++) {
            if (MONTHS[i].equals(w)) {
                return i + 1;
            }
        }
        return 0;
    }

    private static boolean fullName(String word) {
        return NAMES.contains(word.toLowerCase(java.util.Locale.ROOT));
    }

    private Result read(ZoneId zone, boolean us) {
        int year = 0;
        int month = 0;
        int day = 0;
        int hour = 0;
        int minute = 0;
        int second = 0;
        boolean hasTime = false;
        boolean hasFraction = false;
        long fraction = 0;
        int fractionDigits = 0;
        boolean hasOffset = false;
        boolean offsetNegative = false;
        int offsetHour = 0;
        int offsetMinute = 0;
        boolean am = false;
        boolean pm = false;
        boolean commaBetween = false;
        while (!eof()) {
            if ((year != 0 && !hasTime || year == 0 && hasTime) && peek() == ',') {
                commaBetween = true;
                pos++;
                if (eof()) {
                    break;
                }
            }
            String d = "";
            if (year == 0 || !hasTime) {
                d = digits(19);
                int n = d.length();
                if (n == 13 && year == 0 && !hasTime) {
                    return new Result(Long.parseLong(d.substring(0, 10)), num(d, 10, 13), 3);
                }
                if ((n == 10 || n == 9) && year == 0 && !hasTime) {
                    long sec = Long.parseLong(d);
                    long f = 0;
                    int fd = 0;
                    if (check('.')) {
                        String fs = digits(19);
                        fd = Math.min(fs.length(), 18);
                        f = fd == 0 ? 0 : Long.parseLong(fs.substring(0, fd));
                    }
                    return new Result(sec, f, fd);
                }
                if (n == 14 && year == 0 && !hasTime) {
                    year = num(d, 0, 4);
                    month = num(d, 4, 6);
                    day = num(d, 6, 8);
                    hour = num(d, 8, 10);
                    minute = num(d, 10, 12);
                    second = num(d, 12, 14);
                    hasTime = true;
                } else if (n == 8 && year == 0) {
                    year = num(d, 0, 4);
                    month = num(d, 4, 6);
                    day = num(d, 6, 8);
                } else if (n == 6) {
                    if (year == 0 && month == 0) {
                        year = num(d, 0, 4);
                        month = num(d, 4, 6);
                    } else if (!hasTime) {
                        hour = num(d, 0, 2);
                        minute = num(d, 2, 4);
                        second = num(d, 4, 6);
                        hasTime = true;
                    } else {
                        throw error("ambiguous 6 digits, it can be YYYYMM or hhmmss");
                    }
                } else if (n == 4 && year == 0) {
                    year = num(d, 0, 4);
                    if (!eof()) {
                        char delimiter = peek();
                        if (delimiter < 0x20 || delimiter == ',' || delimiter == ';' || delimiter == '\'' || delimiter == '"') {
                            break;
                        }
                        if (month != 0) {
                            continue;
                        }
                        pos++;
                        String m = digits(19);
                        if (m.length() == 1 || m.length() == 2) {
                            month = Integer.parseInt(m);
                        } else if (delimiter == ' ') {
                            continue;
                        } else {
                            throw error("unexpected number of decimal digits after year: " + m.length());
                        }
                        if (day == 0 && check(delimiter)) {
                            String dd = digits(19);
                            if (dd.length() == 1 || dd.length() == 2) {
                                day = Integer.parseInt(dd);
                            } else if (delimiter == ' ') {
                                continue;
                            } else {
                                throw error("unexpected number of decimal digits after year and month: " + dd.length());
                            }
                        }
                    }
                } else if (n == 2 || n == 1) {
                    int value = Integer.parseInt(d);
                    if (check(':')) {
                        if (hasTime) {
                            throw error("time component is duplicated");
                        }
                        hour = value;
                        hasTime = true;
                        String m = digits(19);
                        if (m.length() != 1 && m.length() != 2) {
                            throw error("unexpected number of decimal digits after hour: " + m.length());
                        }
                        minute = Integer.parseInt(m);
                        if (check(':')) {
                            String sec = digits(19);
                            if (sec.length() != 1 && sec.length() != 2) {
                                throw error("unexpected number of decimal digits after hour and minute: " + sec.length());
                            }
                            second = Integer.parseInt(sec);
                        }
                    } else if (check(',')) {
                        if (month != 0 && day == 0) {
                            day = value;
                        }
                    } else if (check('/') || check('.') || check('-')) {
                        if (day != 0) {
                            throw error("day of month is duplicated");
                        }
                        if (month != 0) {
                            throw error("month is duplicated");
                        }
                        if (us) {
                            month = value;
                            String dd = digits(19);
                            if (dd.length() != 1 && dd.length() != 2) {
                                throw error("unexpected number of decimal digits after month: " + dd.length());
                            }
                            day = Integer.parseInt(dd);
                        } else {
                            day = value;
                            String m = digits(19);
                            if (m.length() == 1 || m.length() == 2) {
                                month = Integer.parseInt(m);
                            } else if (m.isEmpty()) {
                                String word = alpha(9);
                                if (word.length() < 3) {
                                    throw error("unexpected number of alphabetical characters after day of month: " + word.length());
                                }
                                month = month(word);
                                if (month == 0) {
                                    throw error("alphabetical characters after day of month don't look like month: " + word.substring(0, 3));
                                }
                                if (!eof() && isAlpha(peek()) || word.length() > 3 && !fullName(word)) {
                                    throw error("unexpected word");
                                }
                            } else {
                                throw error("unexpected number of decimal digits after day of month: " + m.length());
                            }
                        }
                        if (month > 12) {
                            int t = month;
                            month = day;
                            day = t;
                        }
                        if (check('/') || check('.') || check('-')) {
                            if (year != 0) {
                                throw error("year component is duplicated");
                            }
                            String y = digits(19);
                            if (y.length() == 4) {
                                year = Integer.parseInt(y);
                            } else if (y.length() == 2) {
                                year = Integer.parseInt(y);
                                year += year >= 70 ? 1900 : 2000;
                            } else {
                                throw error("unexpected number of decimal digits after day of month and month: " + y.length());
                            }
                        }
                    } else if (day != 0) {
                        hour = value;
                    } else {
                        day = value;
                    }
                } else if (n != 0) {
                    throw error("unexpected number of decimal digits: " + n);
                }
            }
            if (d.isEmpty()) {
                char c = peek();
                if (c == ' ' || c == 'T' && year != 0 && !hasTime) {
                    pos++;
                } else if (c == 'Z') {
                    pos++;
                    hasOffset = true;
                } else if (c == '.') {
                    if (!hasTime) {
                        throw error("unexpected point symbol");
                    }
                    if (hasFraction) {
                        throw error("duplicate fractional part");
                    }
                    hasFraction = true;
                    pos++;
                    String f = digits(19);
                    fractionDigits = Math.min(f.length(), 18);
                    fraction = fractionDigits == 0 ? 0 : Long.parseLong(f.substring(0, fractionDigits));
                } else if (c == '+' || c == '-') {
                    pos++;
                    String o = digits(19);
                    if (o.length() == 6 && !hasTime && year != 0 && month != 0 && day != 0) {
                        hour = num(o, 0, 2);
                        minute = num(o, 2, 4);
                        second = num(o, 4, 6);
                        hasTime = true;
                    } else {
                        hasOffset = true;
                        offsetNegative = c == '-';
                        switch (o.length()) {
                            case 4: offsetHour = num(o, 0, 2); offsetMinute = num(o, 2, 4); break;
                            case 3: offsetHour = num(o, 0, 1); offsetMinute = num(o, 1, 3); break;
                            case 2: case 1: offsetHour = Integer.parseInt(o); break;
                            default: throw error("unexpected number of decimal digits for time zone offset: " + o.length());
                        }
                        if (o.length() < 3 && check(':')) {
                            String om = digits(19);
                            if (om.length() != 1 && om.length() != 2) {
                                throw error("unexpected number of decimal digits for time zone offset in minutes: " + om.length());
                            }
                            offsetMinute = Integer.parseInt(om);
                        }
                    }
                } else {
                    String word = alpha(3);
                    if (word.isEmpty()) {
                        break;
                    }
                    if (word.length() == 1) {
                        throw error("unexpected alphabetical character");
                    }
                    if (word.length() == 2) {
                        String w = word.toLowerCase(java.util.Locale.ROOT);
                        if (w.equals("am")) {
                            am = true;
                        } else if (w.equals("pm")) {
                            pm = true;
                        } else {
                            throw error("unexpected word");
                        }
                    } else {
                        String w = word.toLowerCase(java.util.Locale.ROOT);
                        boolean weekday = false;
                        int m = month(word);
                        if (m != 0) {
                            month = m;
                        } else if (w.equals("utc") || w.equals("gmt")) {
                            hasOffset = true;
                        } else if (w.equals("msk")) {
                            hasOffset = true;
                            offsetHour = 3;
                        } else if (w.equals("msd")) {
                            hasOffset = true;
                            offsetHour = 4;
                        } else if (java.util.List.of("mon", "tue", "wed", "thu", "fri", "sat", "sun").contains(w)) {
                            weekday = true;
                        } else {
                            throw error("unexpected word");
                        }
                        String rest = alpha(7);
                        if (!eof() && isAlpha(peek()) || !rest.isEmpty() && !fullName(word + rest)) {
                            throw error("unexpected word");
                        }
                        if (weekday) {
                            check(',');
                        }
                    }
                }
            }
        }
        if (commaBetween && (!hasTime || year == 0 || month == 0 || day == 0)) {
            throw error("unexpected word after Date");
        }
        if (year == 0 && month == 0 && day == 0 && !hasTime) {
            throw error("neither Date nor Time was parsed successfully");
        }
        if (day == 0) {
            day = 1;
        }
        if (month == 0) {
            month = 1;
        }
        if (year == 0) {
            LocalDate today = LocalDate.now(zone);
            year = today.getYear();
            if (month <= 12 && day <= 31 && LocalDate.of(year, month, Math.min(day, LocalDate.of(year, month, 1).lengthOfMonth())).isAfter(today)) {
                year--;
            }
        }
        boolean leap = year % 400 == 0 || year % 100 != 0 && year % 4 == 0;
        int days = month == 2 ? (leap ? 29 : 28) : month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
        if (month < 1 || month > 12 || day < 1 || day > days) {
            throw error("unexpected date: " + year + "-" + month + "-" + day);
        }
        if (am && hour == 12) {
            hour = 0;
        }
        if (pm && hour < 12) {
            hour += 12;
        }
        long local = LocalDate.of(year, month, day).toEpochDay() * 86400L + hour * 3600L + minute * 60L + second;
        long res;
        if (hasOffset) {
            res = local - (offsetNegative ? -1 : 1) * (offsetHour * 3600L + offsetMinute * 60L);
        } else {
            res = DateLUT.fromLocal(local, zone == null ? ZoneOffset.UTC : zone);
        }
        return new Result(res, fraction, fractionDigits);
    }
}
