package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * bar(x, min, max[, width]), as ClickHouse's FunctionBar (bar.cpp) and UnicodeBar draw it: a bar of
 * {@code (x - min) / (max - min) * width} characters (0 from x at or below min, or NaN; width from x at or above
 * max), whole ones as U+2588 and the fraction in eighths (U+258F to U+2589). width is a constant from 1 to 1000,
 * 80 when left out; the arguments are numbers; a NULL argument makes NULL.
 */
final class FunctionBar {
    private static final String CATEGORY = "Other";
    private static final String EIGHTHS = "\u258F\u258E\u258D\u258C\u258B\u258A\u2589";

    private FunctionBar() {
    }

    static void register(FunctionFactory f) {
        f.register("bar", CATEGORY, (args, ctx) -> bar(args));
    }

    private static Evaluator bar(List<Evaluator> args) {
        if (args.size() < 3 || args.size() > 4) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function bar requires from 3 or 4 parameters: value, "
                + "min_value, max_value, [max_width_of_bar = 80]. Passed " + args.size());
        }
        boolean nullable = false;
        for (Evaluator a : args) {
            DataType t = TypeRules.stripNullable(a.type());
            nullable |= a.type().isNullable() || t instanceof NothingType;
            if (!TypeRules.isNumeric(t) && !(t instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "All arguments for function bar must be numeric");
            }
        }
        double width = 80;
        if (args.size() == 4) {
            Evaluator w = args.get(3);
            if (!w.constant()) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 3 for function bar must be constant");
            }
            Object v = w.eval(new Object[0]);
            if (v != null) {
                width = number(v, w.type());
                if (width < 1) {
                    throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Argument 'max_width' must be >= 1");
                }
                if (width > 1000) {
                    throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Argument 'max_width' must be <= 1000");
                }
            }
        }
        double maxWidth = width;
        return Evaluator.of(nullable ? DataTypes.nullable(DataTypes.STRING) : DataTypes.STRING, r -> {
            Object[] v = new Object[3];
            for (int i = 0; i < 3; i++) {
                v[i] = args.get(i).eval(r);
                if (v[i] == null) {
                    return null;
                }
            }
            if (args.size() == 4 && args.get(3).eval(r) == null) {
                return null;
            }
            return render(barWidth(number(v[0], args.get(0).type()), number(v[1], args.get(1).type()),
                number(v[2], args.get(2).type()), maxWidth));
        });
    }

    private static double number(Object v, DataType t) {
        return Values.toNumber(v, TypeRules.stripNullable(t)).doubleValue();
    }

    /** The bar's length in characters: 0 to {@code maxWidth}, in proportion to where x lies from min to max. */
    static double barWidth(double x, double min, double max, double maxWidth) {
        if (Double.isNaN(x) || x <= min) {
            return 0;
        }
        if (x >= max) {
            return maxWidth;
        }
        return (x - min) / (max - min) * maxWidth;
    }

    /** {@code width} whole blocks and its fraction in eighths, as a String value (its UTF-8 bytes). */
    static String render(double width) {
        StringBuilder sb = new StringBuilder();
        int whole = (int) Math.floor(width);
        sb.append("\u2588".repeat(whole));
        int eighths = (int) Math.floor((width - whole) * 8);
        if (eighths > 0) {
            sb.append(EIGHTHS.charAt(eighths - 1));
        }
        return dev.chdedup.stub.types.ByteStrings.fromText(sb.toString());
    }
}
