package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.geo.PolygonGeometry.Shape;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.locationtech.jts.geom.Geometry;

/**
 * polygonAreaCartesian/Spherical, polygonPerimeterCartesian/Spherical, polygonsDistanceCartesian and
 * polygonConvexHullCartesian (ClickHouse's polygonArea.cpp, polygonPerimeter.cpp, polygonsDistance.cpp,
 * polygonConvexHull.cpp). Area and perimeter take the shape as stored (no closing, no orientation: an open ring lacks
 * its last side, a counter-clockwise one has a negative area) and are 0 for lines; distance corrects both shapes and is
 * 0 where they meet, else the least distance between their segments; the convex hull is Boost's: a closed clockwise
 * ring from the lowest of the leftmost points, without collinear points.
 */
final class FunctionsPolygonMeasures {
    private static final String NOT_POINT = "The argument of function %s must not be Point";

    private FunctionsPolygonMeasures() {
    }

    static void register(FunctionFactory f) {
        measure(f, "polygonAreaCartesian", PolygonFormulas::cartesianArea, true);
        measure(f, "polygonAreaSpherical", PolygonFormulas::sphericalArea, true);
        measure(f, "polygonPerimeterCartesian", PolygonFormulas::cartesianLength, false);
        measure(f, "polygonPerimeterSpherical", PolygonFormulas::sphericalLength, false);
        f.register("polygonsDistanceCartesian", FunctionsPolygon.CATEGORY, (args, ctx) -> FunctionsPolygon.binary(
            "polygonsDistanceCartesian", args, DataTypes.FLOAT64, true, FunctionsPolygonMeasures::cartesianDistance));
        f.register("polygonConvexHullCartesian", FunctionsPolygon.CATEGORY, (args, ctx) -> FunctionsPolygon.unary(
            "polygonConvexHullCartesian", args, DataTypes.parse("Polygon"), ErrorCode.BAD_ARGUMENTS,
            "The argument of function %s must not be a Point", FunctionsPolygonMeasures::convexHull));
    }

    private static void measure(FunctionFactory f, String name, PolygonFormulas.RingMeasure ring, boolean area) {
        f.register(name, FunctionsPolygon.CATEGORY, (args, ctx) -> FunctionsPolygon.unary(name, args, DataTypes.FLOAT64,
            ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, NOT_POINT, (shape, v) -> switch (shape) {
                case RING -> ring.of(PolygonGeometry.path(v));
                case POLYGON -> PolygonFormulas.polygonSum(PolygonGeometry.polygon(v), ring);
                case MULTI_POLYGON -> PolygonFormulas.multiSum(PolygonGeometry.polygons(shape, v), ring);
                default -> {
                    // a line has neither area nor perimeter; its points are still read (and checked)
                    PolygonGeometry.paths(shape == Shape.LINE_STRING ? List.of(v) : v);
                    yield 0.0;
                }
            }));
    }

    // ---- distance on the plane ----

    private static Object cartesianDistance(Shape left, Object a, Shape right, Object b) {
        List<double[][]> pa = PlanarShapes.paths(left, a);
        List<double[][]> pb = PlanarShapes.paths(right, b);
        Geometry ga = PlanarShapes.jts(left, a);
        Geometry gb = PlanarShapes.jts(right, b);
        if (ga.intersects(gb)) {
            return 0.0;
        }
        double best = Double.POSITIVE_INFINITY;
        for (double[][] p : pa) {
            for (double[][] q : pb) {
                best = Math.min(best, pathsSquaredDistance(p, q));
            }
        }
        return Math.sqrt(best);
    }

    private static double pathsSquaredDistance(double[][] p, double[][] q) {
        double best = Double.POSITIVE_INFINITY;
        if (p.length == 1 || q.length == 1) {
            for (double[] x : p) {
                for (int j = 0; j + 1 < q.length; j++) {
                    best = Math.min(best, pointSegment(x, q[j], q[j + 1]));
                }
            }
            for (double[] y : q) {
                for (int i = 0; i + 1 < p.length; i++) {
                    best = Math.min(best, pointSegment(y, p[i], p[i + 1]));
                }
            }
            return best;
        }
        for (int i = 0; i + 1 < p.length; i++) {
            for (int j = 0; j + 1 < q.length; j++) {
                best = Math.min(best, Math.min(Math.min(pointSegment(q[j], p[i], p[i + 1]), pointSegment(q[j + 1], p[i], p[i + 1])),
                    Math.min(pointSegment(p[i], q[j], q[j + 1]), pointSegment(p[i + 1], q[j], q[j + 1]))));
            }
        }
        return best;
    }

    /** Boost's projected-point distance, squared, from {@code p} to the segment {@code s1 s2}. */
    private static double pointSegment(double[] p, double[] s1, double[] s2) {
        double vx = s2[0] - s1[0];
        double vy = s2[1] - s1[1];
        double wx = p[0] - s1[0];
        double wy = p[1] - s1[1];
        double c1 = wx * vx + wy * vy;
        if (c1 <= 0) {
            return squared(p, s1);
        }
        double c2 = vx * vx + vy * vy;
        if (c2 <= c1) {
            return squared(p, s2);
        }
        double t = c1 / c2;
        return squared(p, new double[] {s1[0] + vx * t, s1[1] + vy * t});
    }

    private static double squared(double[] a, double[] b) {
        double dx = a[0] - b[0];
        double dy = a[1] - b[1];
        return dy * dy + (dx * dx);
    }

    // ---- convex hull ----

    private static Object convexHull(Shape shape, Object v) {
        List<double[]> points = new ArrayList<>();
        for (double[][] p : shape.areal() ? flatten(PolygonGeometry.polygons(shape, v)) : PolygonGeometry.paths(
            shape == Shape.LINE_STRING ? List.of(v) : v)) {
            points.addAll(Arrays.asList(p));
        }
        points.sort(Comparator.<double[]>comparingDouble(p -> p[0]).thenComparingDouble(p -> p[1]));
        List<double[]> hull = new ArrayList<>();
        if (!points.isEmpty()) {
            List<double[]> reversed = new ArrayList<>(points);
            java.util.Collections.reverse(reversed);
            List<double[]> upper = chain(points);
            List<double[]> lower = chain(reversed);
            hull.addAll(upper);
            hull.addAll(lower.subList(1, lower.size()));
        }
        return List.of(PolygonGeometry.pathValue(hull.toArray(new double[0][])));
    }

    private static List<double[][]> flatten(List<List<double[][]>> polygons) {
        List<double[][]> out = new ArrayList<>();
        for (List<double[][]> p : polygons) {
            out.addAll(p);
        }
        return out;
    }

    /** One half of Andrew's monotone chain, keeping clockwise turns. */
    private static List<double[]> chain(List<double[]> sorted) {
        List<double[]> c = new ArrayList<>();
        for (double[] p : sorted) {
            while (c.size() >= 2 && cross(c.get(c.size() - 2), c.get(c.size() - 1), p) >= 0) {
                c.remove(c.size() - 1);
            }
            if (c.isEmpty() || !Arrays.equals(c.get(c.size() - 1), p)) {
                c.add(p);
            }
        }
        return c;
    }

    private static double cross(double[] o, double[] a, double[] b) {
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
    }
}
