package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * The "Financial" functions of ClickHouse's financial.cpp: net present value of periodic cash flows (the first
 * undiscounted, or each from period 1) and of dated ones (a day count of ACT_365F or ACT_365_25), and the internal rate
 * of return of each, found by the safeguarded Newton iteration of Boost's newton_raphson_iterate from a guess within
 * (-0.999999, 100], to 49 bits (a guess far from the root can end a binary digit away from the engine); NaN where there is none (fewer than two flows, no change of sign, unsorted dates).
 * Cash flows are arrays of Float32/64 or signed integers, dates arrays of Date or Date32; the results are Float64.
 */
final class FunctionsFinancial {
    private static final String CATEGORY = "Financial";
    private static final double LOWER = -0.999999;
    private static final double UPPER = 100.0;

    private FunctionsFinancial() {
    }

    static void register(FunctionFactory f) {
        f.register("financialNetPresentValue", CATEGORY, (args, ctx) -> npv(args));
        f.register("financialNetPresentValueExtended", CATEGORY, (args, ctx) -> xnpv(args));
        f.register("financialInternalRateOfReturn", CATEGORY, (args, ctx) -> irr(args));
        f.register("financialInternalRateOfReturnExtended", CATEGORY, (args, ctx) -> xirr(args));
    }

    private static ChException illegal(String fn, int i, String argument, String expected, DataType got) {
        String[] ordinal = {"1st", "2nd", "3rd", "4th"};
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as " + ordinal[i]
            + " argument '" + argument + "' to function '" + fn + "'. Expected: " + expected + ", got: " + got.name());
    }

    private static void requireFloat(String fn, List<Evaluator> args, int i, String argument) {
        if (!(args.get(i).type() instanceof FloatType)) {
            throw illegal(fn, i, argument, "Float32|Float64", args.get(i).type());
        }
    }

    private static void requireCashflows(String fn, List<Evaluator> args, int i) {
        DataType t = args.get(i).type();
        if (!(t instanceof ArrayType a) || !(a.element instanceof FloatType || a.element instanceof IntType it && it.signed && it.bits <= 64)) {
            throw illegal(fn, i, "cashflow", "Array[Float64|Float32|Int64|Int32|Int16|Int8]", t);
        }
    }

    private static void requireDates(String fn, List<Evaluator> args, int i) {
        DataType t = args.get(i).type();
        if (!(t instanceof ArrayType a) || !(a.element instanceof DateType)) {
            throw illegal(fn, i, "date", "Array[Date/Date32]", t);
        }
    }

    private static double[] doubles(Object v) {
        List<?> l = (List<?>) v;
        double[] out = new double[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) l.get(i)).doubleValue();
        }
        return out;
    }

    private static long[] days(Object v) {
        List<?> l = (List<?>) v;
        long[] out = new long[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) l.get(i)).longValue();
        }
        return out;
    }

    private static double dayCount(List<Evaluator> args, int i) {
        if (args.size() <= i) {
            return 365.0;
        }
        if (!(args.get(i).type() instanceof StringType)) {
            throw illegal("", i, "daycount", "String", args.get(i).type());
        }
        String s = (String) args.get(i).eval(new Object[0]);
        return switch (s) {
            case "ACT_365F" -> 365.0;
            case "ACT_365_25" -> 365.25;
            default -> throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Invalid day count value: " + s);
        };
    }

    private static Evaluator npv(List<Evaluator> args) {
        String fn = "financialNetPresentValue";
        Functions.argumentCount(fn, args, 2, 1);
        requireFloat(fn, args, 0, "rate");
        requireCashflows(fn, args, 1);
        boolean zeroBased = args.size() < 3 || Values.isTrue(args.get(2).eval(new Object[0]));
        return Functions.strict(DataTypes.FLOAT64, args.subList(0, 2), v -> npv(((Number) v[0]).doubleValue(), doubles(v[1]), zeroBased));
    }

    static double npv(double rate, double[] cf, boolean zeroBased) {
        if (cf.length == 0) {
            return 0.0;
        }
        if (rate == 0) {
            double s = 0;
            for (double c : cf) {
                s += c;
            }
            return s;
        }
        if (rate <= -1.0) {
            return Double.POSITIVE_INFINITY;
        }
        double growth = 1.0 + rate;
        double discount = growth;
        double npv = zeroBased ? cf[0] : 0.0;
        for (int i = zeroBased ? 1 : 0; i < cf.length; i++) {
            npv += cf[i] / discount;
            discount *= growth;
        }
        return npv;
    }

    private static double npvDerivative(double rate, double[] cf) {
        if (rate <= -1.0) {
            return Double.NaN;
        }
        double derivative = 0.0;
        double compound = 1.0 + rate;
        for (int i = 1; i < cf.length; i++) {
            compound *= 1.0 + rate;
            derivative += -cf[i] * i / compound;
        }
        return derivative;
    }

    private static Evaluator xnpv(List<Evaluator> args) {
        String fn = "financialNetPresentValueExtended";
        Functions.argumentCount(fn, args, 3, 1);
        requireFloat(fn, args, 0, "rate");
        requireCashflows(fn, args, 1);
        requireDates(fn, args, 2);
        double year = dayCount(args, 3);
        return Functions.strict(DataTypes.FLOAT64, args.subList(0, 3), v -> {
            double[] cf = doubles(v[1]);
            long[] d = days(v[2]);
            sameSize(cf, d);
            return xnpv(((Number) v[0]).doubleValue(), cf, d, year);
        });
    }

    private static void sameSize(double[] cf, long[] d) {
        if (cf.length != d.length) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cashflow and date arrays must have the same size for each row");
        }
    }

    private static double xnpv(double rate, double[] cf, long[] d, double year) {
        if (rate <= -1.0) {
            return Double.POSITIVE_INFINITY;
        }
        double npv = 0.0;
        for (int i = 0; i < cf.length; i++) {
            double time = (d[i] - d[0]) / year;
            npv += time == 0.0 ? cf[i] : cf[i] / Math.pow(1.0 + rate, time);
        }
        return npv;
    }

    private static double xnpvDerivative(double rate, double[] cf, long[] d, double year) {
        if (rate <= -1.0) {
            return Double.POSITIVE_INFINITY;
        }
        double derivative = 0.0;
        for (int i = 0; i < cf.length; i++) {
            double time = (d[i] - d[0]) / year;
            if (time != 0.0) {
                derivative -= cf[i] * time / Math.pow(1.0 + rate, time + 1);
            }
        }
        return derivative;
    }

    private static double guess(List<Evaluator> args, int i, String fn) {
        if (args.size() <= i) {
            return 0.1;
        }
        requireFloat(fn, args, i, "guess");
        return ((Number) args.get(i).eval(new Object[0])).doubleValue();
    }

    private static Evaluator irr(List<Evaluator> args) {
        String fn = "financialInternalRateOfReturn";
        Functions.argumentCount(fn, args, 1, 1);
        requireCashflows(fn, args, 0);
        double guess = guess(args, 1, fn);
        return Functions.strict(DataTypes.FLOAT64, args.subList(0, 1), v -> {
            double[] cf = doubles(v[0]);
            boolean positive = false;
            boolean negative = false;
            for (double c : cf) {
                positive |= c > 0;
                negative |= c < 0;
            }
            if (cf.length <= 1 || !positive || !negative) {
                return Double.NaN;
            }
            return solve(r -> npv(r, cf, true), r -> npvDerivative(r, cf), guess);
        });
    }

    private static Evaluator xirr(List<Evaluator> args) {
        String fn = "financialInternalRateOfReturnExtended";
        Functions.argumentCount(fn, args, 2, 2);
        requireCashflows(fn, args, 0);
        requireDates(fn, args, 1);
        double guess = guess(args, 2, fn);
        double year = dayCount(args, 3);
        return Functions.strict(DataTypes.FLOAT64, args.subList(0, 2), v -> {
            double[] cf = doubles(v[0]);
            long[] d = days(v[1]);
            sameSize(cf, d);
            boolean allZero = true;
            for (double c : cf) {
                allZero &= c == 0;
            }
            if (cf.length <= 1 || allZero) {
                return Double.NaN;
            }
            for (int i = 1; i < d.length; i++) {
                if (d[i] <= d[i - 1]) {
                    return Double.NaN;
                }
            }
            return solve(r -> xnpv(r, cf, d, year), r -> xnpvDerivative(r, cf, d, year), guess);
        });
    }

    /**
     * Boost's newton_raphson_iterate from {@code guess} in [LOWER, UPPER] to 49 binary digits, at most 100 steps: a Newton
     * step, halfway to a bracket when the last two steps did not halve, the brackets moved to each guess; the root when
     * the function is within 1e-6 of 0 there, else NaN.
     */
    static double solve(DoubleUnaryOperator fun, DoubleUnaryOperator der, double guess) {
        double min = LOWER;
        double max = UPPER;
        double factor = Math.scalb(1.0, 1 - 49);
        double result = guess;
        double delta = Double.MAX_VALUE;
        double delta1 = Double.MAX_VALUE;
        double delta2;
        double maxRangeF = 0;
        double minRangeF = 0;
        int count = 100;
        do {
            delta2 = delta1;
            delta1 = delta;
            double f0 = fun.applyAsDouble(result);
            double f1 = der.applyAsDouble(result);
            --count;
            if (f0 == 0) {
                break;
            }
            if (f1 == 0 || Double.isNaN(f0) || Double.isNaN(f1)) {
                return Double.NaN;
            }
            delta = f0 / f1;
            if (Math.abs(delta * 2) > Math.abs(delta2)) {
                double shift = delta > 0 ? (result - min) / 2 : (result - max) / 2;
                delta = result != 0 && Math.abs(shift) > Math.abs(result) ? Math.signum(delta) * Math.abs(result) * (double) 1.1f : shift;
                delta1 = 3 * delta;
                delta2 = 3 * delta;
            }
            double previous = result;
            result -= delta;
            if (result <= min) {
                delta = 0.5 * (previous - min);
                result = previous - delta;
                if (result == min || result == max) {
                    break;
                }
            } else if (result >= max) {
                delta = 0.5 * (previous - max);
                result = previous - delta;
                if (result == min || result == max) {
                    break;
                }
            }
            if (delta > 0) {
                max = previous;
                maxRangeF = f0;
            } else {
                min = previous;
                minRangeF = f0;
            }
            if (maxRangeF * minRangeF > 0) {
                return Double.NaN;
            }
        } while (count > 0 && Math.abs(result * factor) < Math.abs(delta));
        return result >= LOWER && result <= UPPER && Math.abs(fun.applyAsDouble(result)) < 1e-6 ? result : Double.NaN;
    }
}
