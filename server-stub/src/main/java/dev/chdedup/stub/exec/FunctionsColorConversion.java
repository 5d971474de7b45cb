package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.TupleType;
import java.util.List;

/**
 * ClickHouse's colour conversions between sRGB and Björn Ottosson's OKLab and OKLCH spaces (ClickHouse's
 * ColorConversion.h): colorSRGBToOKLAB, colorSRGBToOKLCH, colorOKLABToSRGB and colorOKLCHToSRGB of a tuple of three
 * numbers and an optional gamma (2.2), each a Tuple(Float64, Float64, Float64), with the engine's matrices and its
 * fused multiply-adds.
 */
final class FunctionsColorConversion {
    private static final String CATEGORY = "Other";
    private static final double EPSILON = 1e-6;
    private static final double RAD2DEG = 57.2957795131;
    private static final double DEG2RAD = 0.01745329251;
    private static final double GAMMA_FALLBACK = 1e-6;
    private static final double DEFAULT_GAMMA = 2.2;
    private static final double[] LINEAR_TO_LMS = {0.4122214708, 0.5363325363, 0.0514459929, 0.2119034982, 0.6806995451, 0.1073969566,
        0.0883024619, 0.2817188376, 0.6299787005};
    private static final double[] LMS_TO_OKLAB = {0.2104542553, 0.7936177850, -0.0040720468, 1.9779984951, -2.4285922050, 0.45059370996,
        0.0259040371, 0.7827717662, -0.8086757660};
    private static final double[] OKLAB_TO_LMS = {1, 0.3963377774, 0.2158037573, 1, -0.1055613458, -0.0638541728, 1, -0.0894841775,
        -1.2914855480};
    private static final double[] LMS_TO_LINEAR = {4.0767416621, -3.3077115913, 0.2309699292, -1.2684380046, 2.6097574011, -0.3413193965,
        -0.0041960863, -0.7034186147, 1.7076147010};

    /** A conversion of three channels with a gamma. */
    private interface Conversion {
        double[] apply(double[] color, double gamma);
    }

    private FunctionsColorConversion() {
    }

    static void register(FunctionFactory f) {
        add(f, "colorSRGBToOKLAB", FunctionsColorConversion::srgbToOklab);
        add(f, "colorSRGBToOKLCH", (c, g) -> oklabToOklch(srgbToOklab(c, g)));
        add(f, "colorOKLABToSRGB", FunctionsColorConversion::oklabToSrgb);
        add(f, "colorOKLCHToSRGB", (c, g) -> oklabToSrgb(new double[] {c[0], c[1] * Math.cos(c[2] * DEG2RAD), c[1] * Math.sin(c[2] * DEG2RAD)}, g));
    }

    private static void add(FunctionFactory f, String name, Conversion conversion) {
        f.register(name, CATEGORY, (args, ctx) -> {
            Functions.argumentCount(name, args, 1, 1);
            DataType t = args.get(0).type().unwrap();
            if (!(t instanceof TupleType tt) || tt.elements.size() != 3 || !tt.elements.stream().allMatch(FunctionsMath::isNumber)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of first argument of function "
                    + name + ", expected Tuple(Number, Number, Number)");
            }
            if (args.size() > 1 && !FunctionsMath.isNumber(args.get(1).type()) && !(args.get(1).type().unwrap() instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name() + " of second argument of function "
                    + name + ", expected a number");
            }
            DataType result = DataTypes.tuple(List.of(DataTypes.FLOAT64, DataTypes.FLOAT64, DataTypes.FLOAT64));
            DataType gt = args.size() > 1 ? args.get(1).type() : null;
            return Functions.defaultForNulls(result, args, v -> {
                List<?> in = (List<?>) v[0];
                double[] c = new double[3];
                for (int i = 0; i < 3; i++) {
                    c[i] = FunctionsMath.toDouble(in.get(i), tt.elements.get(i));
                }
                double[] r = conversion.apply(c, gt == null ? DEFAULT_GAMMA : FunctionsMath.toDouble(v[1], gt));
                return List.of(r[0], r[1], r[2]);
            });
        });
    }

    /** m times x, each row accumulated with fused multiply-adds from 0 as the engine's loop does. */
    private static double[] times(double[] m, double[] x) {
        double[] r = new double[3];
        for (int i = 0; i < 3; i++) {
            for (int j = 0; j < 3; j++) {
                r[i] = Math.fma(x[j], m[3 * i + j], r[i]);
            }
        }
        return r;
    }

    private static double[] srgbToOklab(double[] rgb, double gamma) {
        double[] linear = new double[3];
        for (int i = 0; i < 3; i++) {
            linear[i] = Math.pow(rgb[i] / 255.0, gamma);
        }
        double[] lms = times(LINEAR_TO_LMS, linear);
        for (int i = 0; i < 3; i++) {
            lms[i] = Math.cbrt(lms[i]);
        }
        return times(LMS_TO_OKLAB, lms);
    }

    private static double[] oklabToOklch(double[] lab) {
        double chroma = Math.sqrt(lab[1] * lab[1] + lab[2] * lab[2]);
        if (chroma < EPSILON) {
            return new double[] {lab[0], 0, 0};
        }
        double hue = Math.atan2(lab[2], lab[1]) * RAD2DEG;
        return new double[] {lab[0], chroma, (hue + 360.0) % 360.0};
    }

    private static double[] oklabToSrgb(double[] lab, double gamma) {
        double[] lms = times(OKLAB_TO_LMS, lab);
        for (int i = 0; i < 3; i++) {
            lms[i] = lms[i] * lms[i] * lms[i];
        }
        double[] rgb = times(LMS_TO_LINEAR, lms);
        double power = 1 / (gamma == 0 ? GAMMA_FALLBACK : gamma);
        for (int i = 0; i < 3; i++) {
            rgb[i] = Math.pow(Math.min(Math.max(rgb[i], 0.0), 1.0), power) * 255.0;
        }
        return rgb;
    }
}
