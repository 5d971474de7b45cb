package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypeInterval;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * ClickHouse's readable sizes and time deltas: formatReadableSize (powers of 1024), formatReadableDecimalSize (powers
 * of 1000), formatReadableQuantity (powers of 1000 named in words), formatReadableTimeDelta, parseReadableSize with its
 * OrNull and OrZero forms, and parseTimeDelta.
 */
final class FunctionsFormatReadable {
    private static final String CATEGORY = "Other";
    private static final String[] BINARY_UNITS = {" B", " KiB", " MiB", " GiB", " TiB", " PiB", " EiB", " ZiB", " YiB"};
    private static final String[] DECIMAL_UNITS = {" B", " KB", " MB", " GB", " TB", " PB", " EB", " ZB", " YB"};
    private static final String[] QUANTITY_UNITS = {"", " thousand", " million", " billion", " trillion", " quadrillion",
        " quintillion", " sextillion", " septillion", " octillion", " nonillion", " decillion", " undecillion", " duodecillion",
        " tredecillion", " quattuordecillion", " quindecillion", " sexdecillion", " septendecillion", " octodecillion",
        " novemdecillion", " vigintillion"};
    private static final Map<String, Double> SIZE_UNITS = Map.ofEntries(Map.entry("b", 1.0), Map.entry("kib", 0x1p10),
        Map.entry("mib", 0x1p20), Map.entry("gib", 0x1p30), Map.entry("tib", 0x1p40), Map.entry("pib", 0x1p50), Map.entry("eib", 0x1p60),
        Map.entry("kb", 1e3), Map.entry("mb", 1e6), Map.entry("gb", 1e9), Map.entry("tb", 1e12), Map.entry("pb", 1e15), Map.entry("eb", 1e18));
    private static final double YEAR = 365 * 24 * 3600;
    private static final double MONTH = 30.5 * 24 * 3600;
    private static final Map<String, Double> TIME_UNITS = Map.ofEntries(
        Map.entry("years", YEAR), Map.entry("year", YEAR), Map.entry("yr", YEAR), Map.entry("y", YEAR),
        Map.entry("months", MONTH), Map.entry("month", MONTH), Map.entry("mo", MONTH),
        Map.entry("weeks", 604800.0), Map.entry("week", 604800.0), Map.entry("w", 604800.0),
        Map.entry("days", 86400.0), Map.entry("day", 86400.0), Map.entry("d", 86400.0),
        Map.entry("hours", 3600.0), Map.entry("hour", 3600.0), Map.entry("hr", 3600.0), Map.entry("h", 3600.0),
        Map.entry("minutes", 60.0), Map.entry("minute", 60.0), Map.entry("min", 60.0), Map.entry("m", 60.0),
        Map.entry("seconds", 1.0), Map.entry("second", 1.0), Map.entry("sec", 1.0), Map.entry("s", 1.0),
        Map.entry("milliseconds", 1e-3), Map.entry("millisecond", 1e-3), Map.entry("millisec", 1e-3), Map.entry("ms", 1e-3),
        Map.entry("microseconds", 1e-6), Map.entry("microsecond", 1e-6), Map.entry("microsec", 1e-6), Map.entry("\u03bcs", 1e-6),
        Map.entry("us", 1e-6),
        Map.entry("nanoseconds", 1e-9), Map.entry("nanosecond", 1e-9), Map.entry("nanosec", 1e-9), Map.entry("ns", 1e-9));
    /** The units of formatReadableTimeDelta from the largest: name, seconds, and decimals of a second for the sub-second ones. */
    private static final String[] DELTA_NAMES = {"years", "months", "days", "hours", "minutes", "seconds", "milliseconds", "microseconds",
        "nanoseconds"};
    private static final long[] DELTA_SECONDS = {365L * 24 * 3600, (long) (30.5 * 24 * 3600), 86400, 3600, 60, 1, 1, 1, 1};
    private static final int[] DELTA_SCALE = {0, 0, 0, 0, 0, 0, 3, 6, 9};

    private FunctionsFormatReadable() {
    }

    static void register(FunctionFactory f) {
        f.register("formatReadableSize", CATEGORY, (args, ctx) -> formatSize("formatReadableSize", args, 1024, BINARY_UNITS));
        f.registerAlias("FORMAT_BYTES", "formatReadableSize", true);
        f.register("formatReadableDecimalSize", CATEGORY, (args, ctx) -> formatSize("formatReadableDecimalSize", args, 1000, DECIMAL_UNITS));
        f.register("formatReadableQuantity", CATEGORY,
            (args, ctx) -> formatSize("formatReadableQuantity", args, 1000, QUANTITY_UNITS));
        f.register("formatReadableTimeDelta", CATEGORY, (args, ctx) -> formatTimeDelta(args));
        f.register("parseReadableSize", CATEGORY, (args, ctx) -> parseSize("parseReadableSize", args, FunctionsDivision.OnZero.THROW));
        f.register("parseReadableSizeOrNull", CATEGORY, (args, ctx) -> parseSize("parseReadableSizeOrNull", args, FunctionsDivision.OnZero.NULL));
        f.register("parseReadableSizeOrZero", CATEGORY, (args, ctx) -> parseSize("parseReadableSizeOrZero", args, FunctionsDivision.OnZero.ZERO));
        f.register("parseTimeDelta", CATEGORY, (args, ctx) -> parseTimeDelta(args));
    }

    /** {@code value} with {@code precision} decimals, rounded half away from zero on its exact binary value; nan and inf as words. */
    static String fixed(double value, int precision) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return new BigDecimal(value).setScale(precision, RoundingMode.HALF_UP).toPlainString();
    }

    /** The value divided by the step while at least one step (up to the last unit), with precision decimals (2 by default) and the unit. */
    private static Evaluator formatSize(String name, List<Evaluator> args, double step, String[] units) {
        Functions.argumentCount(name, args, 1, 1);
        DataType t = args.get(0).type();
        if (!FunctionsMath.isNumber(t.unwrap()) && !(t.unwrap() instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "value", name, "Number", t);
        }
        int precision = 2;
        if (args.size() > 1) {
            Evaluator p = args.get(1);
            if (!(p.type() instanceof IntType it && it.bits == 8 && !it.signed) || !p.constant()) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "precision", name, "const UInt8", p.type());
            }
            precision = (int) (long) (Long) p.eval(new Object[0]);
        }
        int digits = precision;
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> {
            double x = FunctionsMath.toDouble(v[0], t);
            int unit = 0;
            while (unit + 1 < units.length && Math.abs(x) >= step) {
                x /= step;
                unit++;
            }
            return fixed(x, digits) + units[unit];
        });
    }

    private static int deltaUnit(Evaluator e, int dflt, String bound) {
        if (e == null) {
            return dflt;
        }
        String s = Functions.constString(e);
        if (s.isEmpty()) {
            return dflt;
        }
        for (int i = 0; i < DELTA_NAMES.length; i++) {
            if (DELTA_NAMES[i].equals(s)) {
                return i;
            }
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unexpected value of " + bound + " unit argument (" + s
            + ") for function formatReadableTimeDelta, the only allowed values are: 'nanoseconds', 'microseconds', 'nanoseconds',"
            + " 'seconds', 'minutes', 'hours', 'days', 'months', 'years'");
    }

    /**
     * formatReadableTimeDelta(seconds[, maximum_unit[, minimum_unit]]): "1 year, 2 months, 12 days, 3 hours, 1 minute and
     * 33 seconds", a year 365 days and a month 30.5; from the maximum unit (years) down to the minimum one (seconds, or
     * nanoseconds when the maximum is below seconds), as ClickHouse prints it.
     */
    private static Evaluator formatTimeDelta(List<Evaluator> args) {
        if (args.isEmpty() || args.size() > 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function formatReadableTimeDelta doesn't match: passed "
                + args.size() + ", should be 1, 2 or 3.");
        }
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        if (!FunctionsMath.isNativeNumber(u) && !(u instanceof DataTypeInterval) && !(u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cannot format " + u.name() + " as time delta");
        }
        for (int i = 1; i < args.size(); i++) {
            if (!(args.get(i).type().unwrap() instanceof StringType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(i).type().name() + " of argument "
                    + (i == 1 ? "maximum_unit" : "minimum_unit") + " of function formatReadableTimeDelta");
            }
        }
        int max = deltaUnit(args.size() > 1 ? args.get(1) : null, 0, "maximum");
        String minText = args.size() > 2 ? Functions.constString(args.get(2)) : "";
        int min = deltaUnit(args.size() > 2 ? args.get(2) : null, 5, "minimum");
        if (min < max) {
            if (minText.isEmpty()) {
                min = 8;
            } else {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Explicitly specified value of minimum unit argument (" + minText
                    + ") for function formatReadableTimeDelta must not be greater than maximum unit value");
            }
        }
        int first = max;
        int last = min;
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> {
            double value = u instanceof DataTypeInterval ? ((Number) v[0]).doubleValue() : FunctionsMath.toDouble(v[0], t);
            return ByteStrings.fromText(timeDelta(value, first, last));
        });
    }

    private static String timeDelta(double value, int first, int last) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        StringBuilder out = new StringBuilder();
        if (value < 0) {
            out.append('-');
            value = -value;
        }
        double whole = Math.floor(value);
        char[] fraction = new BigDecimal(value - whole).setScale(9, RoundingMode.HALF_UP).toPlainString().substring(2).toCharArray();
        boolean hasOutput = false;
        for (int unit = first; unit <= last; unit++) {
            boolean isMinimum = unit == last;
            long multiplier = DELTA_SECONDS[unit];
            int scale = DELTA_SCALE[unit];
            String unitName = " " + DELTA_NAMES[unit].substring(0, DELTA_NAMES[unit].length() - 1);
            if (whole + 1.0 == whole) {
                out.append(fixed(Math.floor(whole * Math.pow(10, scale) / multiplier), 0)).append(unitName).append('s');
                hasOutput = true;
                whole = 0;
                continue;
            }
            long units = 0;
            if (scale == 0) {
                units = (long) Math.floor(whole / multiplier);
                if (units == 0 && (multiplier != 1 || hasOutput)) {
                    continue;
                }
                whole -= (double) units * multiplier;
            } else {
                long pow = (long) Math.pow(10, scale);
                if (whole >= 1) {
                    units += (long) whole * pow;
                    whole = 0;
                }
                for (int i = 0; i < scale; i++) {
                    units += (fraction[i] - '0') * (long) Math.pow(10, scale - i - 1);
                    fraction[i] = '0';
                }
                if (units == 0 && (!isMinimum || hasOutput)) {
                    continue;
                }
            }
            if (hasOutput) {
                // " and " before the last part: the minimum unit, or nothing left down to it
                boolean restZero = true;
                for (int i = 0; i < (last - 5) * 3 && i < fraction.length; i++) {
                    restZero &= fraction[i] == '0';
                }
                out.append(isMinimum || whole < 1 && restZero ? " and " : ", ");
            }
            out.append(units).append(unitName);
            if (units != 1) {
                out.append('s');
            }
            hasOutput = true;
            if (isMinimum) {
                break;
            }
        }
        return out.toString();
    }

    /**
     * parseReadableSize('1.5 KiB'): the number times its unit (B, KB to EB by powers of 1000, KiB to EiB by powers of 1024,
     * in any case), rounded half away from zero, as a UInt64; a malformed size is an error, NULL or 0 by the form.
     */
    private static Evaluator parseSize(String name, List<Evaluator> args, FunctionsDivision.OnZero onError) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type();
        if (!(t.unwrap() instanceof StringType) && !(t.unwrap() instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "readable_size", name, "String", t);
        }
        Evaluator e = Functions.defaultForNulls(DataTypes.UINT64, args, v -> {
            try {
                return parseSize(ByteStrings.toText((String) v[0]));
            } catch (ChException ex) {
                if (onError == FunctionsDivision.OnZero.THROW) {
                    throw ex;
                }
                return onError == FunctionsDivision.OnZero.ZERO ? 0L : null;
            }
        });
        return onError == FunctionsDivision.OnZero.NULL && !e.type().isNullable() ? Evaluator.of(DataTypes.nullable(DataTypes.UINT64), e::eval) : e;
    }

    private static long parseSize(String s) {
        String prefix = "Invalid expression for function parseReadableSize - ";
        if (!s.isEmpty() && Character.isWhitespace(s.charAt(0))) {
            throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, prefix + "Leading whitespace is not allowed (\"" + s + "\")");
        }
        int i = 0;
        int n = s.length();
        if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
            i++;
        }
        int digits = i;
        while (i < n && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.' && s.indexOf('.', digits) == i)) {
            i++;
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E') && i > digits) {
            int j = i + 1;
            if (j < n && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
                j++;
            }
            if (j < n && Character.isDigit(s.charAt(j))) {
                i = j;
                while (i < n && Character.isDigit(s.charAt(i))) {
                    i++;
                }
            }
        }
        String number = s.substring(0, i);
        String lower = s.toLowerCase(Locale.ROOT);
        double value;
        if (lower.startsWith("nan") || lower.startsWith("inf") || lower.startsWith("-inf") || lower.startsWith("+inf")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, prefix + "Invalid numeric component: " + s.split(" ")[0]);
        }
        try {
            value = Double.parseDouble(number);
        } catch (NumberFormatException ex) {
            throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, prefix + "Unable to parse readable size numeric component (\"" + s + "\")");
        }
        if (value < 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, prefix + "Negative sizes are not allowed (" + number + ")");
        }
        while (i < n && s.charAt(i) == ' ') {
            i++;
        }
        int unitStart = i;
        while (i < n && !Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        String unit = lower.substring(unitStart, i);
        Double multiplier = SIZE_UNITS.get(unit);
        if (multiplier == null) {
            throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, prefix + "Unknown readable size unit (\"" + unit + "\")");
        }
        if (i < n) {
            throw new ChException(ErrorCode.UNEXPECTED_DATA_AFTER_PARSED_VALUE, prefix + "Found trailing characters after readable size string (\""
                + s + "\")");
        }
        double product = value * multiplier;
        double result = product - Math.floor(product) >= 0.5 ? Math.ceil(product) : Math.floor(product); // half away from zero
        if (result >= 0x1p64) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, prefix + "Result is too big for output type (\"" + result + "\")");
        }
        return new BigDecimal(result).longValue();
    }

    private static boolean timeSeparator(char c) {
        return c == ';' || c == '-' || c == '+' || c == ',' || c == ':' || c == ' ';
    }

    /** parseTimeDelta('1yr 2mo 11s'): the seconds a sequence of numbers and units stands for, as a Float64. */
    private static Evaluator parseTimeDelta(List<Evaluator> args) {
        if (args.size() != 1) {
            throw new ChException(args.isEmpty() ? ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION : ErrorCode.TOO_MANY_ARGUMENTS_FOR_FUNCTION,
                "Number of arguments for function parseTimeDelta doesn't match: passed " + args.size() + ", should be 1.");
        }
        DataType t = args.get(0).type();
        if (!(t.unwrap() instanceof StringType st && st.fixedLength == 0) && !(t.unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cannot format " + t.name() + " as time string.");
        }
        return Functions.defaultForNulls(DataTypes.FLOAT64, args, v -> parseTimeDelta(ByteStrings.toText((String) v[0])));
    }

    private static double parseTimeDelta(String s) {
        int last = s.length() - 1;
        while (last >= 0 && (s.charAt(last) == ' ' || s.charAt(last) == '.')) {
            last--;
        }
        if (last < 0 || !Character.isLetter(s.charAt(last))) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid argument of function parseTimeDelta, str: \"" + s + "\"");
        }
        int i = 0;
        while (i <= last && s.charAt(i) == ' ') {
            i++;
        }
        double result = 0;
        while (i <= last) {
            int start = i;
            while (i <= last && Character.isDigit(s.charAt(i))) {
                i++;
            }
            if (i == start) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid argument of function parseTimeDelta, number not found, str: \"" + s + "\"");
            }
            if (i <= last && s.charAt(i) == '.') {
                i++;
                int fraction = i;
                while (i <= last && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                if (i == fraction) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid argument of function parseTimeDelta, str: \"" + s + "\"");
                }
            }
            double base = Double.parseDouble(s.substring(start, i));
            while (i <= last && s.charAt(i) == ' ') {
                i++;
            }
            int unitStart = i;
            while (i <= last && !Character.isDigit(s.charAt(i)) && !timeSeparator(s.charAt(i))) {
                i++;
            }
            String unit = s.substring(unitStart, i);
            Double seconds = TIME_UNITS.get(unit);
            if (seconds == null) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid argument of function parseTimeDelta, can't parse the unit: \"" + unit + "\"");
            }
            result += base * seconds;
            while (i <= last && s.charAt(i) == ' ') {
                i++;
            }
            if (i <= last && timeSeparator(s.charAt(i))) {
                i++;
            }
            while (i <= last && s.charAt(i) == ' ') {
                i++;
            }
        }
        return result;
    }
}
