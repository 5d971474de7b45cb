package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import java.util.ArrayList;
import java.util.List;

/**
 * The "Geo" functions that are computation on coordinates: the distances of ClickHouse's greatCircleDistance.cpp
 * (greatCircleDistance, greatCircleAngle, geoDistance, with the engine's lookup tables and approximations; a far
 * pair's Float64 distance can differ from the engine's in its last one to three binary digits, whose rounding this
 * Java does not reproduce), pointInEllipses and pointInPolygon. Geohashes are in {@link FunctionsGeohash}; the shapes' text forms
 * (wkt, svg) in {@link FunctionsGeoFormats}. H3, S2 and the polygon set operations are not here.
 */
final class FunctionsGeo {
    static final String CATEGORY = "Geo";

    private static final int ASIN_SQRT_LUT_SIZE = 512;
    private static final int COS_LUT_SIZE = 1024;
    private static final int METRIC_LUT_SIZE = 1024;
    /** The WGS84 authalic radius, which ClickHouse shares with H3. */
    private static final double EARTH_RADIUS = 6371007.180918475;
    private static final double EARTH_DIAMETER = 2.0 * EARTH_RADIUS;

    private enum Method { SPHERE_DEGREES, SPHERE_METERS, WGS84_METERS }

    /** The engine's tables in double; the Float32 variant rounds each entry to float, as its tables of floats. */
    private static final double[] COS_LUT = new double[COS_LUT_SIZE + 1];
    private static final double[] ASIN_SQRT_LUT = new double[ASIN_SQRT_LUT_SIZE + 1];
    private static final double[] SPHERE_METRIC_LUT = new double[METRIC_LUT_SIZE + 1];
    private static final double[] SPHERE_METRIC_METERS_LUT = new double[METRIC_LUT_SIZE + 1];
    private static final double[] WGS84_METRIC_METERS_LUT = new double[2 * (METRIC_LUT_SIZE + 1)];

    static {
        for (int i = 0; i <= COS_LUT_SIZE; i++) {
            COS_LUT[i] = Math.cos(2 * Math.PI * i / COS_LUT_SIZE);
        }
        for (int i = 0; i <= ASIN_SQRT_LUT_SIZE; i++) {
            ASIN_SQRT_LUT[i] = Math.asin(Math.sqrt((double) i / ASIN_SQRT_LUT_SIZE));
        }
        for (int i = 0; i <= METRIC_LUT_SIZE; i++) {
            double latitude = i * (Math.PI / METRIC_LUT_SIZE) - Math.PI * 0.5;
            WGS84_METRIC_METERS_LUT[i * 2] = sqr(111132.09 - 566.05 * Math.cos(2.0 * latitude) + 1.20 * Math.cos(4.0 * latitude));
            WGS84_METRIC_METERS_LUT[i * 2 + 1] = sqr(111415.13 * Math.cos(latitude) - 94.55 * Math.cos(3.0 * latitude)
                + 0.12 * Math.cos(5.0 * latitude));
            SPHERE_METRIC_METERS_LUT[i] = sqr((EARTH_DIAMETER * Math.PI / 360) * Math.cos(latitude));
            SPHERE_METRIC_LUT[i] = sqr(Math.cos(latitude));
        }
    }

    private FunctionsGeo() {
    }

    static void register(FunctionFactory f) {
        f.register("greatCircleAngle", CATEGORY, (args, ctx) -> distance("greatCircleAngle", Method.SPHERE_DEGREES, args, ctx));
        f.register("greatCircleDistance", CATEGORY, (args, ctx) -> distance("greatCircleDistance", Method.SPHERE_METERS, args, ctx));
        f.register("geoDistance", CATEGORY, (args, ctx) -> distance("geoDistance", Method.WGS84_METERS, args, ctx));
        f.register("pointInEllipses", CATEGORY, (args, ctx) -> pointInEllipses(args));
        f.register("pointInPolygon", CATEGORY, (args, ctx) -> pointInPolygon(args));
        FunctionsGeohash.register(f);
        FunctionsGeoFormats.register(f);
    }

    private static double sqr(double v) {
        return v * v;
    }

    // ---- distances: Float64 arithmetic with double tables, Float32 with float tables ----

    private static Evaluator distance(String name, Method method, List<Evaluator> args, QueryContext ctx) {
        Functions.arity(name, args, 4);
        boolean float64 = false;
        for (int i = 0; i < 4; i++) {
            DataType t = args.get(i).type().unwrap();
            if (!TypeRules.isNumeric(t)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(i).type().name()
                    + " of argument " + (i + 1) + " of function " + name + ". Must be numeric");
            }
            float64 |= t instanceof FloatType ft && ft.is64;
        }
        boolean returns64 = float64 && ctx.settings().getBool("geo_distance_returns_float64_on_float64_arguments");
        DataType result = returns64 ? DataTypes.FLOAT64 : DataTypes.FLOAT32;
        List<Evaluator> conv = Functions.casts(args, result);
        return Evaluator.of(anyNullable(args) ? DataTypes.nullable(result) : result, r -> {
            double[] v = new double[4];
            for (int i = 0; i < 4; i++) {
                Object x = conv.get(i).eval(r);
                if (x == null) {
                    return null;
                }
                v[i] = ((Number) x).doubleValue();
            }
            return returns64 ? (Object) distance64(method, v[0], v[1], v[2], v[3])
                : (Object) distance32(method, (float) v[0], (float) v[1], (float) v[2], (float) v[3]);
        });
    }

    private static boolean anyNullable(List<Evaluator> args) {
        for (Evaluator e : args) {
            if (e.type().isNullable()) {
                return true;
            }
        }
        return false;
    }

    private static double degDiff(double f) {
        f = Math.abs(f);
        return f > 180 ? 360 - f : f;
    }

    private static long toIndex(double x) {
        // C++'s conversion to size_t: the integral part (the engine's inputs keep it in range)
        return (long) x;
    }

    private static double fastCos(double x) {
        double y = Math.abs(x) * ((double) COS_LUT_SIZE / Math.PI / 2.0);
        long i = toIndex(y);
        y -= i;
        int k = (int) (i & (COS_LUT_SIZE - 1));
        return (COS_LUT[k] + (COS_LUT[k + 1] - COS_LUT[k]) * (y));
    }

    private static double fastSin(double x) {
        double y = Math.abs(x) * ((double) COS_LUT_SIZE / Math.PI / 2.0);
        long i = toIndex(y);
        y -= i;
        int k = (int) ((i - COS_LUT_SIZE / 4) & (COS_LUT_SIZE - 1));
        return (COS_LUT[k] + (COS_LUT[k + 1] - COS_LUT[k]) * (y));
    }

    private static double fastAsinSqrt(double x) {
        if (x < 0.122) {
            double y = Math.sqrt(x);
            return (((y + (x * y) * (0.166666666666666)) + (x * x * y) * (0.075)) + (x * x * x * y) * (0.044642857142857));
        }
        if (x < 0.948) {
            x *= ASIN_SQRT_LUT_SIZE;
            int i = (int) toIndex(x);
            return (ASIN_SQRT_LUT[i] + (ASIN_SQRT_LUT[i + 1] - ASIN_SQRT_LUT[i]) * (x - i));
        }
        return Math.asin(Math.sqrt(x));
    }

    static double distance64(Method method, double lon1, double lat1, double lon2, double lat2) {
        double latDiff = degDiff(lat1 - lat2);
        double lonDiff = degDiff(lon1 - lon2);
        if (lonDiff < 13) {
            double mid = (lat1 + lat2 + 180) * METRIC_LUT_SIZE / 360;
            int i = (int) (toIndex(mid) & (METRIC_LUT_SIZE - 1));
            double frac = mid - i;
            double kLat;
            double kLon;
            switch (method) {
                case SPHERE_DEGREES:
                    kLat = 1;
                    kLon = (SPHERE_METRIC_LUT[i] + (SPHERE_METRIC_LUT[i + 1] - SPHERE_METRIC_LUT[i]) * (frac));
                    break;
                case SPHERE_METERS:
                    kLat = sqr(EARTH_DIAMETER * Math.PI / 360.0);
                    kLon = (SPHERE_METRIC_METERS_LUT[i] + (SPHERE_METRIC_METERS_LUT[i + 1] - SPHERE_METRIC_METERS_LUT[i]) * (frac));
                    break;
                default:
                    kLat = (WGS84_METRIC_METERS_LUT[i * 2] + (WGS84_METRIC_METERS_LUT[(i + 1) * 2] - WGS84_METRIC_METERS_LUT[i * 2]) * (frac));
                    kLon = (WGS84_METRIC_METERS_LUT[i * 2 + 1] + (WGS84_METRIC_METERS_LUT[(i + 1) * 2 + 1] - WGS84_METRIC_METERS_LUT[i * 2 + 1]) * (frac));
            }
            return Math.sqrt((kLat * latDiff * latDiff + (kLon * lonDiff) * (lonDiff)));
        }
        double a = (sqr(fastSin(latDiff * (Math.PI / 360.0))) + (fastCos(lat1 * (Math.PI / 180.0)) * fastCos(lat2 * (Math.PI / 180.0))) * (sqr(fastSin(lonDiff * (Math.PI / 360.0)))));
        return method == Method.SPHERE_DEGREES ? (360.0 / Math.PI) * fastAsinSqrt(a) : EARTH_DIAMETER * fastAsinSqrt(a);
    }

    // the same computation in float, every operation rounded to float as the engine's Float32 instantiation does

    private static float f(double v) {
        return (float) v;
    }

    private static float cosLut32(int k) {
        return (float) COS_LUT[k];
    }

    private static float fastCos32(float x) {
        float y = Math.abs(x) * (f(COS_LUT_SIZE) / f(Math.PI) / 2.0f);
        long i = (long) y;
        y -= i;
        int k = (int) (i & (COS_LUT_SIZE - 1));
        return (cosLut32(k) + (cosLut32(k + 1) - cosLut32(k)) * (y));
    }

    private static float fastSin32(float x) {
        float y = Math.abs(x) * (f(COS_LUT_SIZE) / f(Math.PI) / 2.0f);
        long i = (long) y;
        y -= i;
        int k = (int) ((i - COS_LUT_SIZE / 4) & (COS_LUT_SIZE - 1));
        return (cosLut32(k) + (cosLut32(k + 1) - cosLut32(k)) * (y));
    }

    private static float fastAsinSqrt32(float x) {
        if (x < 0.122f) {
            float y = (float) Math.sqrt(x);
            return (((y + (x * y) * (0.166666666666666f)) + (x * x * y) * (0.075f)) + (x * x * x * y) * (0.044642857142857f));
        }
        if (x < 0.948f) {
            x *= ASIN_SQRT_LUT_SIZE;
            int i = (int) x;
            return (f(ASIN_SQRT_LUT[i]) + (f(ASIN_SQRT_LUT[i + 1]) - f(ASIN_SQRT_LUT[i])) * (x - i));
        }
        return (float) Math.asin(Math.sqrt(x));
    }

    private static float degDiff32(float v) {
        v = Math.abs(v);
        return v > 180 ? 360 - v : v;
    }

    static float distance32(Method method, float lon1, float lat1, float lon2, float lat2) {
        float latDiff = degDiff32(lat1 - lat2);
        float lonDiff = degDiff32(lon1 - lon2);
        if (lonDiff < 13) {
            float mid = (lat1 + lat2 + 180) * METRIC_LUT_SIZE / 360;
            int i = (int) (((long) mid) & (METRIC_LUT_SIZE - 1));
            float frac = mid - i;
            float kLat;
            float kLon;
            switch (method) {
                case SPHERE_DEGREES:
                    kLat = 1;
                    kLon = (f(SPHERE_METRIC_LUT[i]) + (f(SPHERE_METRIC_LUT[i + 1]) - f(SPHERE_METRIC_LUT[i])) * (frac));
                    break;
                case SPHERE_METERS: {
                    float k = f(EARTH_DIAMETER) * f(Math.PI) / 360.0f;
                    kLat = k * k;
                    kLon = (f(SPHERE_METRIC_METERS_LUT[i]) + (f(SPHERE_METRIC_METERS_LUT[i + 1]) - f(SPHERE_METRIC_METERS_LUT[i])) * (frac));
                    break;
                }
                default:
                    kLat = (f(WGS84_METRIC_METERS_LUT[i * 2]) + (f(WGS84_METRIC_METERS_LUT[(i + 1) * 2]) - f(WGS84_METRIC_METERS_LUT[i * 2])) * (frac));
                    kLon = (f(WGS84_METRIC_METERS_LUT[i * 2 + 1]) + (f(WGS84_METRIC_METERS_LUT[(i + 1) * 2 + 1]) - f(WGS84_METRIC_METERS_LUT[i * 2 + 1])) * (frac));
            }
            return (float) Math.sqrt((kLat * latDiff * latDiff + (kLon * lonDiff) * (lonDiff)));
        }
        float radHalf = f(Math.PI / 360.0);
        float rad = f(Math.PI / 180.0);
        float s1 = fastSin32(latDiff * radHalf);
        float s2 = fastSin32(lonDiff * radHalf);
        float a = (s1 * s1 + (fastCos32(lat1 * rad) * fastCos32(lat2 * rad)) * (s2 * s2));
        return method == Method.SPHERE_DEGREES ? (360.0f / f(Math.PI)) * fastAsinSqrt32(a) : f(EARTH_DIAMETER) * fastAsinSqrt32(a);
    }

    // ---- points in shapes ----

    /** pointInEllipses(x, y, x0, y0, a0, b0, ...): 1 when the point is in one of the ellipses (Float64 arguments). */
    private static Evaluator pointInEllipses(List<Evaluator> args) {
        if (args.size() < 6 || (args.size() - 2) % 4 != 0) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of arguments of function "
                + "pointInEllipses. Must be 2 for your point plus 4 * N for ellipses (x_i, y_i, a_i, b_i)");
        }
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof FloatType ft && ft.is64)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(i).type().name()
                    + " of argument " + (i + 1) + " of function pointInEllipses. Must be Float64");
            }
        }
        return Evaluator.of(DataTypes.UINT8, r -> {
            double[] v = new double[args.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = ((Number) args.get(i).eval(r)).doubleValue();
            }
            for (int e = 2; e < v.length; e += 4) {
                double dx = (v[0] - v[e]) / v[e + 2];
                double dy = (v[1] - v[e + 1]) / v[e + 3];
                if (dx * dx + dy * dy <= 1.0) {
                    return 1L;
                }
            }
            return 0L;
        });
    }

    /**
     * pointInPolygon((x, y), outer ring [, hole ring ...]): 1 when the point is inside the outer ring (its boundary
     * included) and outside every hole, the rings given as arrays of (x, y) tuples or a Polygon value.
     */
    private static Evaluator pointInPolygon(List<Evaluator> args) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION,
                "Too few arguments for function pointInPolygon");
        }
        Evaluator point = args.get(0);
        if (!(point.type().unwrap() instanceof dev.chdedup.stub.types.TupleType tt) || tt.elements.size() != 2) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The first argument of function pointInPolygon must be a tuple of two numbers");
        }
        return Evaluator.of(DataTypes.UINT8, r -> {
            List<?> p = (List<?>) point.eval(r);
            double x = ((Number) p.get(0)).doubleValue();
            double y = ((Number) p.get(1)).doubleValue();
            List<List<?>> rings = new ArrayList<>();
            for (int i = 1; i < args.size(); i++) {
                List<?> v = (List<?>) args.get(i).eval(r);
                if (!v.isEmpty() && v.get(0) instanceof List<?> first && !first.isEmpty() && first.get(0) instanceof List<?>) {
                    for (Object ring : v) {
                        rings.add((List<?>) ring);
                    }
                } else {
                    rings.add(v);
                }
            }
            if (rings.isEmpty()) {
                return 0L;
            }
            int outer = where(rings.get(0), x, y);
            if (outer == 0) {
                return 0L;
            }
            for (int i = 1; i < rings.size(); i++) {
                if (where(rings.get(i), x, y) > 0 && where(rings.get(i), x, y) != 2) {
                    return 0L;
                }
            }
            return 1L;
        });
    }

    /** 0 outside the ring, 1 strictly inside, 2 on its boundary. */
    private static int where(List<?> ring, double x, double y) {
        int n = ring.size();
        boolean inside = false;
        for (int i = 0, j = n - 1; i < n; j = i++) {
            List<?> a = (List<?>) ring.get(i);
            List<?> b = (List<?>) ring.get(j);
            double xi = ((Number) a.get(0)).doubleValue();
            double yi = ((Number) a.get(1)).doubleValue();
            double xj = ((Number) b.get(0)).doubleValue();
            double yj = ((Number) b.get(1)).doubleValue();
            double cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
            if (cross == 0 && Math.min(xi, xj) <= x && x <= Math.max(xi, xj) && Math.min(yi, yj) <= y && y <= Math.max(yi, yj)) {
                return 2;
            }
            if ((yi > y) != (yj > y) && x < (xj - xi) * (y - yi) / (yj - yi) + xi) {
                inside = !inside;
            }
        }
        return inside ? 1 : 0;
    }
}
