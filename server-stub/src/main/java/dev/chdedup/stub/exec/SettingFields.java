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
 * allows it; a Char setting is exactly one character; an enum setting takes one of its values, else {@code BAD_ARGUMENTS}.
 */
public final class SettingFields {
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private SettingFields() {
    }

    /** Checks {@code value} against the type of the setting; returns the value as a long where it is numeric. */
    public static long parse(String type, String name, String value) {
        switch (type) {
            case "Bool":
                return parseBool(value) ? 1 : 0;
            case "UInt64":
            case "Milliseconds":
                return parseNumber(value, false);
            case "Int64":
                return parseNumber(value, true);
            case "Seconds":
                return parseSeconds(value);
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
                if (value.length() != 1) {
                    throw new ChException(ErrorCode.SIZE_OF_FIXED_STRING_DOESNT_MATCH,
                        "A setting's value string has to be an exactly one character long");
                }
                return value.charAt(0);
            default:
                java.util.List<String> values = ENUMS.get(type);
                if (values != null && !values.contains(value)) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unexpected value of " + type + ": '" + value + "'. Must be one of ["
                        + String.join(", ", values.stream().map(v -> "'" + v + "'").toList()) + "]");
                }
                return 0;
        }
    }

    /** The enum setting types the stub checks, with their values in the order ClickHouse 26.7 lists them. */
    private static final java.util.Map<String, java.util.List<String>> ENUMS = java.util.Map.of(
        "DeduplicateInsertMode", java.util.List.of("disable", "enable", "backward_compatible_choice"),
        "DeduplicateInsertSelectMode", java.util.List.of("enable_even_for_bad_queries", "force_enable", "disable", "enable_when_possible"));

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

    /** Seconds, possibly fractional ({@code 1.5}); returned in whole milliseconds. */
    public static long parseSeconds(String s) {
        if (!s.matches("\\+?[0-9]+(\\.[0-9]*)?([eE][+-]?[0-9]+)?")) {
            if (s.startsWith("-")) {
                throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Unsigned type must not contain '-' symbol");
            }
            throw expectedEof(s);
        }
        double d = Double.parseDouble(s);
        if (d * 1000 > Long.MAX_VALUE) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Too large timespan: " + s + " seconds");
        }
        return Math.round(d * 1000);
    }

    private static ChException expectedEof(String rest) {
        return new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected 'eof' before: '" + rest + "'");
    }
}
