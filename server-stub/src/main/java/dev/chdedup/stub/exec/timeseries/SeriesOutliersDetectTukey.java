package dev.chdedup.stub.exec.timeseries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * seriesOutliersDetectTukey(series[, min_percentile, max_percentile, k]), as ClickHouse's: the quartiles of the
 * sorted series at {@code len * percentile} (the mean of two neighbours when that is a whole number), the fences
 * {@code q1 - k * iqr} and {@code q3 + k * iqr}, and each value's distance outside them (0 inside), as Float64.
 */
final class SeriesOutliersDetectTukey {
    private static final String NAME = "seriesOutliersDetectTukey";

    private SeriesOutliersDetectTukey() {
    }

    static Evaluator build(List<Evaluator> args) {
        if (args.size() != 1 && args.size() != 4) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + NAME + " needs either 1 or 4 arguments; passed "
                + args.size() + ".");
        }
        if (FunctionsTimeSeriesGrid.anyNothing(args)) {
            return TimeSeriesTagsArguments.withNulls(DataTypes.NOTHING, args, v -> null);
        }
        DataType series = args.get(0).type();
        if (!(series instanceof ArrayType)) {
            throw illegal(1, "time_series", "Array", series);
        }
        String[] names = {"min_percentile", "max_percentile", "k"};
        for (int i = 1; i < args.size(); i++) {
            DataType t = args.get(i).type();
            boolean ok = i < 3 ? t instanceof FloatType : FunctionsTimeSeriesGrid.isNativeNumber(t);
            if (!ok) {
                throw illegal(i + 1, names[i - 1], "Number", t);
            }
            if (!args.get(i).constant()) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "A value of illegal type was provided as " + ordinal(i + 1) + " argument '"
                    + names[i - 1] + "' to function '" + NAME + "'. Expected: Number, got: " + t.name());
            }
        }
        DataType element = ((ArrayType) series).element;
        double[] params = {0.25, 0.75, 1.5};
        if (args.size() == 4) {
            for (int i = 0; i < 3; i++) {
                DataType t = args.get(i + 1).type();
                params[i] = Values.toNumber(args.get(i + 1).eval(new Object[0]), t).doubleValue();
            }
            if (!(params[0] >= 0.02 && params[0] <= 0.98)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The second argument of function " + NAME + " must be in range [0.02, 0.98]");
            }
            if (!(params[1] >= 0.02 && params[1] <= 0.98 && params[1] >= params[0])) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The third argument of function " + NAME + " must be in range [0.02, 0.98]");
            }
            if (!(params[2] >= 0 && Double.isFinite(params[2]))) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The fourth argument of function " + NAME + " must be a non-negative number");
            }
        }
        if (!FunctionsTimeSeriesGrid.isNativeNumber(element)) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column " + series.name() + " of first argument of function " + NAME);
        }
        Evaluator a = args.get(0);
        return Evaluator.of(DataTypes.array(DataTypes.FLOAT64), r -> scores((List<?>) a.eval(r), element, params));
    }

    private static List<Object> scores(List<?> values, DataType element, double[] params) {
        int len = values.size();
        if (len < 4) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "At least four data points are needed for function " + NAME);
        }
        double[] x = new double[len];
        for (int i = 0; i < len; i++) {
            x[i] = Values.toNumber(values.get(i), element).doubleValue();
        }
        double[] sorted = x.clone();
        Arrays.sort(sorted);
        double q1 = quartile(sorted, len * params[0]);
        double q3 = quartile(sorted, len * params[1]);
        double iqr = q3 - q1;
        double lower = q1 - params[2] * iqr;
        double upper = q3 + params[2] * iqr;
        List<Object> out = new ArrayList<>(len);
        for (double v : x) {
            out.add(Math.min(v - lower, 0.0) + Math.max(v - upper, 0.0));
        }
        return out;
    }

    private static double quartile(double[] sorted, double p) {
        if (p == (long) p) {
            int i = (int) p - 1;
            return (sorted[i] + sorted[i + 1]) / 2;
        }
        return sorted[(int) Math.ceil(p) - 1];
    }

    private static ChException illegal(int position, String argument, String expected, DataType got) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as " + ordinal(position)
            + " argument '" + argument + "' to function '" + NAME + "'. Expected: " + expected + ", got: " + got.name());
    }

    private static String ordinal(int p) {
        return p == 1 ? "1st" : p == 2 ? "2nd" : p == 3 ? "3rd" : p + "th";
    }
}
