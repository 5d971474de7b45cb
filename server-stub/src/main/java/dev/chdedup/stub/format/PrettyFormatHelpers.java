package dev.chdedup.stub.format;

import dev.chdedup.stub.exec.ResultLimits;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import java.math.BigInteger;
import java.util.regex.Pattern;

/**
 * What the human-readable formats share, as ClickHouse's PrettyFormatHelpers: the readable tip after a large number
 * ({@code  -- 1.23 million}), the cut of a long column name ({@code toStartOfMin⋯10:20:30'))}).
 */
final class PrettyFormatHelpers {
    /** output_format_pretty_single_large_number_tip_threshold: a number whose magnitude exceeds it gets a tip. */
    private static final double TIP_THRESHOLD = 1_000_000;
    /** output_format_pretty_max_column_name_width_cut_to and ..._min_chars_to_cut. */
    private static final int NAME_CUT_TO = 24;
    private static final int NAME_MIN_CHARS_TO_CUT = 4;
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private PrettyFormatHelpers() {
    }

    /**
     * The tip the Vertical and Pretty formats write after a number ({@code  -- 1.23 million}), empty when there is
     * none: for a finite number (not Bool) whose magnitude exceeds the threshold, except between 1e17 and 1.844675e19,
     * where most 64-bit hashes lie.
     */
    static String readableNumberTip(DataType type, Object value) {
        if (value == null) {
            return "";
        }
        DataType t = type.unwrap();
        double d;
        if (t instanceof IntType) {
            long x = (Long) value;
            d = !((IntType) t).signed && x < 0 ? new BigInteger(Long.toUnsignedString(x)).doubleValue() : x;
        } else if (t instanceof FloatType || t instanceof BFloat16Type) {
            d = ((Number) value).doubleValue();
        } else if (t instanceof BigIntType || t instanceof DecimalType) {
            d = ((Number) value).doubleValue();
        } else {
            return "";
        }
        double abs = Math.abs(d);
        if (!Double.isFinite(d) || abs <= TIP_THRESHOLD || (abs > 1e17 && abs < 1.844675e19)) {
            return "";
        }
        return " -- " + ResultLimits.readable(d);
    }

    /**
     * A column name as the Vertical and Pretty formats show it (a byte string): a name that is not an identifier and is
     * more than 28 characters wide keeps its first 12 and last 11 characters around {@code ⋯}.
     */
    static String truncateName(String name) {
        long width = ByteStrings.codePoints(name);
        if (width <= NAME_CUT_TO + NAME_MIN_CHARS_TO_CUT || IDENTIFIER.matcher(name).matches()) {
            return name;
        }
        String text = ByteStrings.toText(name);
        int prefix = text.offsetByCodePoints(0, NAME_CUT_TO / 2);
        int suffix = text.offsetByCodePoints(0, (int) (width - (NAME_CUT_TO - 1) / 2));
        return ByteStrings.fromText(text.substring(0, prefix) + "\u22EF" + text.substring(suffix));
    }
}
