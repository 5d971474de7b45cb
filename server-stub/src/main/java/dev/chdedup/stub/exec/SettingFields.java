package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.math.BigInteger;

/**
 * Parses setting values as ClickHouse's {@code Core/SettingsFields} does, so a bad value is refused when it is
 * given (URL parameter, {@code SET}, {@code SETTINGS} clause) with ClickHouse's code, before anything runs: a bool
 * is {@code 0}, {@code 1}, {@code true} or {@code false} (any case), else {@code CANNOT_PARSE_BOOL}; a number may
 * carry a size suffix ({@code 10k}, {@code 1Mi}); a minus sign in an unsigned setting is {@code CANNOT_PARSE_NUMBER}
 * and trailing garbage is {@code CANNOT_PARSE_INPUT_ASSERTION_FAILED}; {@code auto} is allowed where ClickHouse
 * allows it; a Char setting is at most one character; an enum setting takes one of the values recorded from the engine
 * ({@link RecordedSettings}), else the engine's code for that type ({@code BAD_ARGUMENTS} mostly, {@code UNKNOWN_LOAD_BALANCING}...).
 */
public final class SettingFields {
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private SettingFields() {
    }

    /**
     * Checks {@code value} against the type of the setting (any type of the recorded {@code system.settings} and
     * {@code system.merge_tree_settings}); returns the value as a long where it is numeric (a float truncated).
     */
    public static long parse(String type, String name, String value) {
        switch (type) {
            case "Bool":
                return parseBool(value) ? 1 : 0;
            case "BoolAuto":
                return value.equals("auto") ? 0 : parseBool(value) ? 1 : 0;
            case "UInt64":
            case "UInt32":
            case "Milliseconds":
                return parseNumber(value, false);
            case "NonZeroUInt64": {
                long v = parseNumber(value, false);
                if (v == 0) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "A setting's value has to be greater than 0");
                }
                return v;
            }
            case "Int64":
            case "Int32":
                return parseNumber(value, true);
            case "Seconds":
                return parseSeconds(value);
            case "Float":
            case "Double":
                return (long) parseFloat(value);
            case "FloatAuto":
                return value.equals("auto") ? 0 : (long) parseFloat(value);
            case "UInt64Auto":
            case "MaxThreads":
                if (value.regionMatches(true, 0, "auto", 0, 4)) {
                    String rest = value.substring(4);
                    if (rest.isEmpty()) {
                        return 0;
                    }
                    if (rest.startsWith("(") && rest.endsWith(")")) {
                        return parseNumber(rest.substring(1, rest.length() - 1), false);
                    }
                    throw expectedEof(rest);
                }
                return parseNumber(value, false);
            case "Char":
                if (value.length() > 1) { // the empty string is the zero character
                    throw new ChException(ErrorCode.SIZE_OF_FIXED_STRING_DOESNT_MATCH,
                        "A setting's value string has to be an exactly one character long");
                }
                return value.isEmpty() ? 0 : value.charAt(0);
            case "Map":
                checkMap(value);
                return 0;
            case "Timezone":
                checkTimezone(value);
                return 0;
            case "URI":
                checkUri(value);
                return 0;
            default:
                checkEnum(type, value);
                return 0;
        }
    }

    /** An enum-like type takes one of its recorded values (a multiple one a comma-separated list of them), else the engine's code. */
    private static void checkEnum(String type, String value) {
        RecordedSettings.EnumType e = RecordedSettings.enumType(type);
        if (e == null) {
            return; // String and any type the engine does not refuse values of
        }
        if (!e.multiple()) {
            checkEnumValue(e, value);
            return;
        }
        for (String v : value.split(",", -1)) {
            String t = v.strip();
            if (!t.isEmpty()) {
                checkEnumValue(e, t);
            }
        }
    }

    private static void checkEnumValue(RecordedSettings.EnumType e, String value) {
        if (!e.values().contains(value)) {
            throw new ChException(e.code(), "Unexpected value of " + e.type() + ": '" + value + "'. Must be one of ["
                + String.join(", ", e.values().stream().map(v -> "'" + v + "'").toList()) + "]");
        }
    }

    /** A Map(String, String) setting is written {@code {'k': 'v', ...}}; the empty string is the empty map. */
    private static void checkMap(String value) {
        String v = value.strip();
        if (v.isEmpty()) {
            return;
        }
        if (!v.startsWith("{")) {
            throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected '{' before: '" + value + "'");
        }
        int i = 1;
        boolean first = true;
        while (true) {
            i = skipSpaces(v, i);
            if (i < v.length() && v.charAt(i) == '}') {
                if (skipSpaces(v, i + 1) != v.length()) {
                    throw expectedEof(v.substring(i + 1));
                }
                return;
            }
            if (i == v.length()) {
                throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected '}' at end of stream");
            }
            if (!first) {
                if (v.charAt(i) != ',') {
                    throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected ',' before: '"
                        + v.substring(i) + "'");
                }
                i = skipSpaces(v, i + 1);
            }
            i = skipSpaces(v, skipQuoted(v, i));
            if (i == v.length() || v.charAt(i) != ':') {
                throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected ':' before: '"
                    + v.substring(i) + "'");
            }
            i = skipQuoted(v, skipSpaces(v, i + 1));
            first = false;
        }
    }

    private static int skipSpaces(String s, int i) {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        return i;
    }

    /** Skips a single-quoted string with backslash escapes at {@code i}; Code 26 when there is none. */
    private static int skipQuoted(String s, int i) {
        if (i == s.length() || s.charAt(i) != '\'') {
            throw new ChException(ErrorCode.CANNOT_PARSE_QUOTED_STRING, "Cannot parse quoted string: expected opening quote ''', got '"
                + (i == s.length() ? "" : s.substring(i, i + 1)) + "'");
        }
        for (i++; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '\'') {
                return i + 1;
            }
        }
        throw new ChException(ErrorCode.CANNOT_PARSE_QUOTED_STRING, "Cannot parse quoted string: expected closing quote ''', got ''");
    }

    /** A time zone name as the tz database spells it (case matters); the empty string is the server's zone. */
    private static void checkTimezone(String value) {
        if (value.isEmpty()) {
            return;
        }
        dev.chdedup.stub.types.TimeZones.setting(value);
    }

    private static void checkUri(String value) {
        try {
            new java.net.URI(value);
        } catch (java.net.URISyntaxException e) {
            throw new ChException(ErrorCode.POCO_EXCEPTION, "Poco::Exception. Code: 1000, e.code() = 0, Bad URI syntax: URI contains invalid characters");
        }
    }

    private static final java.util.regex.Pattern FLOAT =
        java.util.regex.Pattern.compile("[+-]?(?:[0-9]+\\.?[0-9]*|\\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?i:inf|nan)");

    /** A finite floating point number, as the engine reads a Float setting. */
    public static double parseFloat(String s) {
        java.util.regex.Matcher m = FLOAT.matcher(s);
        if (!m.lookingAt()) {
            throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Cannot read floating point value here: " + s);
        }
        if (m.end() < s.length()) {
            throw expectedEof(s.substring(m.end()));
        }
        double d = Double.parseDouble(m.group().replaceAll("(?i)inf", "Infinity").replaceAll("(?i)nan", "NaN"));
        if (!Double.isFinite(d)) {
            throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Float setting value must be finite, got " + s);
        }
        return d;
    }

    public static boolean parseBool(String s) {
        if (s.equals("1") || s.equalsIgnoreCase("true")) {
            return true;
        }
        if (s.equals("0") || s.equalsIgnoreCase("false")) {
            return false;
        }
        throw new ChException(ErrorCode.CANNOT_PARSE_BOOL, "Cannot parse bool from string '" + s + "'");
    }

    /** An integer with an optional size suffix (k, M, G, T: powers of 1000; Ki, Mi, Gi, Ti: powers of 1024). */
    public static long parseNumber(String s, boolean signed) {
        int i = 0;
        boolean negative = false;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            if (s.charAt(i) == '-') {
                if (!signed) {
                    throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Unsigned type must not contain '-' symbol");
                }
                negative = true;
            }
            i++;
        }
        if (s.isEmpty()) {
            throw new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof");
        }
        int digits = i;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) {
            i++;
        }
        if (i == digits) {
            throw expectedEof(s);
        }
        BigInteger v = new BigInteger(s.substring(digits, i));
        if (i < s.length()) {
            int power = "kKMGT".indexOf(s.charAt(i));
            if (power < 0) {
                throw expectedEof(s.substring(i));
            }
            int exp = Math.max(1, power); // k and K are both 10^3
            i++;
            if (i < s.length() && s.charAt(i) == 'i') {
                v = v.shiftLeft(10 * exp);
                i++;
            } else {
                v = v.multiply(BigInteger.valueOf(1000).pow(exp));
            }
            if (i < s.length()) {
                throw expectedEof(s.substring(i));
            }
        }
        if (negative) {
            v = v.negate();
        }
        BigInteger min = signed ? BigInteger.valueOf(Long.MIN_VALUE) : BigInteger.ZERO;
        BigInteger max = signed ? BigInteger.valueOf(Long.MAX_VALUE) : UINT64_MAX;
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Cannot parse number: " + s + " is out of range");
        }
        return v.longValue(); // UInt64 above Long.MAX_VALUE wraps, as ClickHouse's value does when read as Int64
    }

    /**
     * Seconds, possibly fractional ({@code 1.5}) or negative, read as the engine reads a float; returned in whole
     * milliseconds. A value past what microseconds hold is {@code BAD_ARGUMENTS}, as in ClickHouse 26.7.
     */
    public static long parseSeconds(String s) {
        double d = parseFloat(s);
        if (Math.abs(d) * 1e6 >= 0x1p63) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot convert seconds to microseconds: the setting's value in seconds is too big: " + s);
        }
        return Math.round(d * 1000);
    }

    private static ChException expectedEof(String rest) {
        return new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected 'eof' before: '" + rest + "'");
    }
}
