package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.VariantType;
import java.util.ArrayList;
import java.util.List;

/**
 * Small computations of ClickHouse's "Other" category, each after its own file there: visibleWidth (the width of a
 * value's text in a Pretty table), flipCoordinates (a point's, ring's, polygon's or multipolygon's x and y swapped) and
 * minSampleSizeContinuous / minSampleSizeConversion (the sample size of an A/B test, with the normal quantiles of the
 * two-sided significance and the power).
 */
final class FunctionsMiscellaneous {
    private static final String CATEGORY = "Other";
    private static final DataType SAMPLE_SIZE = DataTypes.parse(
        "Tuple(minimum_sample_size Float64, detect_range_lower Float64, detect_range_upper Float64)");

    private FunctionsMiscellaneous() {
    }

    static void register(FunctionFactory f) {
        f.register("visibleWidth", CATEGORY, (args, ctx) -> visibleWidth(args));
        f.register("flipCoordinates", CATEGORY, (args, ctx) -> flipCoordinates(args));
        f.register("minSampleSizeContinuous", CATEGORY, (args, ctx) -> minSampleSize("minSampleSizeContinuous", args,
            new String[] {"baseline", "sigma", "mde", "power", "alpha"}, false));
        f.registerAlias("minSampleSizeContinous", "minSampleSizeContinuous", false);
        f.register("minSampleSizeConversion", CATEGORY, (args, ctx) -> minSampleSize("minSampleSizeConversion", args,
            new String[] {"p1", "p2", "power", "alpha"}, true));
    }

    /** The columns a value's text takes in a Pretty table: NULL is "NULL", the text as TabSeparated shows it unescaped. */
    private static Evaluator visibleWidth(List<Evaluator> args) {
        Functions.arity("visibleWidth", args, 1);
        Evaluator a = args.get(0);
        DataType t = a.type();
        return Evaluator.of(DataTypes.UINT64, r -> {
            Object v = a.eval(r);
            if (v == null) {
                return 4L;
            }
            StringBuilder sb = new StringBuilder();
            TypeRules.stripNullable(t).formatText(v, sb);
            return displayWidth(ByteStrings.toText(sb.toString()));
        });
    }

    /**
     * ClickHouse's UTF8::computeWidth: a tab reaches the next multiple of 8, control characters and combining marks take
     * none, East Asian wide and fullwidth characters two, any other one.
     */
    static long displayWidth(String s) {
        long width = 0;
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            i += Character.charCount(cp);
            if (cp == '\t') {
                width = (width / 8 + 1) * 8;
            } else if (cp < 0x20 || cp >= 0x7f && cp < 0xa0) {
                continue;
            } else if (isZeroWidth(cp)) {
                continue;
            } else {
                width += isWide(cp) ? 2 : 1;
            }
        }
        return width;
    }

    private static boolean isZeroWidth(int cp) {
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK || cp == 0x200b;
    }

    private static boolean isWide(int cp) {
        return cp >= 0x1100 && cp <= 0x115f || cp >= 0x2e80 && cp <= 0xa4cf && cp != 0x303f || cp >= 0xac00 && cp <= 0xd7a3
            || cp >= 0xf900 && cp <= 0xfaff || cp >= 0xfe30 && cp <= 0xfe6f || cp >= 0xff00 && cp <= 0xff60
            || cp >= 0xffe0 && cp <= 0xffe6 || cp >= 0x1f300 && cp <= 0x1f64f || cp >= 0x1f900 && cp <= 0x1f9ff
            || cp >= 0x20000 && cp <= 0x3fffd;
    }

    /** flipCoordinates(geometry): each point (x, y) of a Point, Ring, Polygon, MultiPolygon or Geometry made (y, x). */
    private static Evaluator flipCoordinates(List<Evaluator> args) {
        Functions.arity("flipCoordinates", args, 1);
        Evaluator a = args.get(0);
        if (Functions.isNothing(a)) {
            return Evaluator.constant(a.type(), null);
        }
        DataType t = a.type().unwrap();
        if (!(t instanceof VariantType)) {
            checkGeometry(t, t);
        }
        return Evaluator.of(a.type(), r -> flip(a.eval(r)));
    }

    private static void checkGeometry(DataType t, DataType whole) {
        if (t instanceof ArrayType at) {
            DataType e = at.element;
            if (e.isNullable() || e instanceof NothingType) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal nested type " + e.name()
                    + " of argument of function flipCoordinates");
            }
            checkGeometry(e, whole);
            return;
        }
        if (!(t instanceof TupleType tt)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + whole.name() + " of argument of function"
                + " flipCoordinates. Expected Point (Tuple), Ring (Array(Point)), Polygon (Array(Ring)), or MultiPolygon (Array(Polygon))");
        }
        if (tt.elements.size() != 2) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function flipCoordinates expects all Tuple elements to have"
                + " exactly 2 values (x, y), but found a Tuple with " + tt.elements.size() + " elements");
        }
        for (int i = 0; i < 2; i++) {
            DataType e = tt.elements.get(i);
            if (!(e instanceof FloatType ft) || !ft.is64) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function flipCoordinates expects tuple elements to be"
                    + " Float64, but element " + (i + 1) + " has type " + e.name());
            }
        }
    }

    private static Object flip(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof TypedValue tv) {
            return new TypedValue(tv.type(), flip(tv.value()));
        }
        List<?> l = (List<?>) v;
        if (l.size() == 2 && !(l.get(0) instanceof List)) {
            return List.of(l.get(1), l.get(0));
        }
        List<Object> out = new ArrayList<>(l.size());
        for (Object e : l) {
            out.add(flip(e));
        }
        return out;
    }

    /**
     * minSampleSizeContinuous(baseline, sigma, mde, power, alpha) and minSampleSizeConversion(p1, mde, power, alpha): the
     * sample size of one group and the range [baseline -+ delta]; NaN for each when a value is not finite or mde, power
     * or alpha is not strictly between 0 and 1. The last three arguments are read once, as constants.
     */
    private static Evaluator minSampleSize(String name, List<Evaluator> args, String[] names, boolean conversion) {
        Functions.arity(name, args, names.length);
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type();
            boolean ok = conversion ? t instanceof FloatType : FunctionsMath.isNativeNumber(t);
            if (!ok) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i], name,
                    conversion ? "Float" : "native numeric", t);
            }
        }
        int fixed = args.size() - 3;
        return Evaluator.of(SAMPLE_SIZE, r -> {
            double[] x = new double[args.size()];
            for (int i = 0; i < x.length; i++) {
                x[i] = FunctionsMath.toDouble(args.get(i).eval(r), args.get(i).type());
            }
            double mde = x[fixed];
            double power = x[fixed + 1];
            double alpha = x[fixed + 2];
            boolean finite = Double.isFinite(x[0]) && (conversion || Double.isFinite(x[1]));
            if (!finite || !strictlyInUnit(mde) || !strictlyInUnit(power) || !strictlyInUnit(alpha)) {
                return List.of(Double.NaN, Double.NaN, Double.NaN);
            }
            double za = normalQuantile(1.0 - alpha / 2);
            double zp = normalQuantile(power);
            if (conversion) {
                double p1 = x[0];
                double p2 = p1 + mde;
                double pBar = (p1 + p2) / 2.0;
                double n = Math.pow(za * Math.sqrt(2.0 * pBar * (1.0 - pBar)) + zp * Math.sqrt(p1 * (1.0 - p1) + p2 * (1.0 - p2)), 2)
                    / Math.pow(mde, 2);
                return List.of(n, p1 - mde, p1 + mde);
            }
            double delta = x[0] * mde;
            double n = 2 * Math.pow(x[1], 2) * Math.pow(za + zp, 2) / Math.pow(delta, 2);
            return List.of(n, x[0] - delta, x[0] + delta);
        });
    }

    private static boolean strictlyInUnit(double v) {
        return v >= 0.0 && v <= 1.0 && Math.abs(v) >= Math.ulp(1.0) && Math.abs(v - 1.0) >= Math.ulp(1.0);
    }

    private static final java.math.MathContext EXACT = new java.math.MathContext(60);
    private static final java.math.BigDecimal PI = new java.math.BigDecimal(
        "3.14159265358979323846264338327950288419716939937510582097494459");

    /**
     * The standard normal distribution's quantile as Boost computes it, -sqrt(2) * erfc_inv(2p) with erfc_inv correctly
     * rounded: a first estimate refined by Newton steps on erfc in doubles, then on the distribution function summed to
     * 60 digits where its series converges.
     */
    static double normalQuantile(double p) {
        double q = p < 0.5 ? p : 1 - p;
        double t = Math.sqrt(-2 * Math.log(q));
        double z = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t));
        for (int i = 0; i < 100; i++) {
            double cdf = 0.5 * MathSpecial.erfc(-z / Math.sqrt(2));
            double step = (cdf - q) / density(z);
            z -= step;
            if (Math.abs(step) <= Math.ulp(z)) {
                break;
            }
        }
        z = p < 0.5 ? z : -z;
        if (Math.abs(z) > 8) {
            return z;
        }
        java.math.BigDecimal target = new java.math.BigDecimal(p);
        java.math.BigDecimal x = new java.math.BigDecimal(z);
        for (int i = 0; i < 3; i++) {
            java.math.BigDecimal diff = cdf(x).subtract(target, EXACT);
            x = x.subtract(diff.divide(java.math.BigDecimal.valueOf(density(x.doubleValue())), EXACT), EXACT);
        }
        // Boost's quantile is -sqrt(2) * erfc_inv(2p), each rounded to a double
        double w = x.divide(java.math.BigDecimal.valueOf(2).sqrt(EXACT), EXACT).negate().doubleValue();
        return -(Math.sqrt(2) * w);
    }

    private static double density(double z) {
        return Math.exp(-z * z / 2) / Math.sqrt(2 * Math.PI);
    }

    /** The standard normal distribution function at {@code z} (|z| up to 8), from the Taylor series of erf, to 60 digits. */
    private static java.math.BigDecimal cdf(java.math.BigDecimal z) {
        java.math.BigDecimal x = z.divide(java.math.BigDecimal.valueOf(2).sqrt(EXACT), EXACT);
        java.math.BigDecimal x2 = x.multiply(x, EXACT);
        java.math.BigDecimal power = x;
        java.math.BigDecimal sum = java.math.BigDecimal.ZERO;
        java.math.BigDecimal eps = java.math.BigDecimal.ONE.movePointLeft(55);
        for (int n = 0; n < 2000; n++) {
            java.math.BigDecimal term = power.divide(java.math.BigDecimal.valueOf(2L * n + 1), EXACT);
            sum = n % 2 == 0 ? sum.add(term, EXACT) : sum.subtract(term, EXACT);
            if (term.abs().compareTo(eps) < 0 && n > 0) {
                break;
            }
            power = power.multiply(x2, EXACT).divide(java.math.BigDecimal.valueOf(n + 1), EXACT);
        }
        java.math.BigDecimal erf = sum.multiply(java.math.BigDecimal.valueOf(2), EXACT).divide(PI.sqrt(EXACT), EXACT);
        return java.math.BigDecimal.ONE.add(erf, EXACT).divide(java.math.BigDecimal.valueOf(2), EXACT);
    }
}
