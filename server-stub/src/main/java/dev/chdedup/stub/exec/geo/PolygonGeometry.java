package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.List;

/**
 * ClickHouse's geometry values as the polygon functions read them (geometryConverters.h): the shape a type holds, its
 * values as coordinate arrays, and coordinate arrays back as values. A point is {@code double[2]}, a ring or line string
 * {@code double[n][2]}, a polygon its rings (the outer one first), a multi-polygon its polygons. Reading keeps the
 * points as stored (no closing, no orientation): {@link #correct} is Boost.Geometry's correct, which the functions that
 * compare or combine shapes apply first.
 */
final class PolygonGeometry {
    /** The shapes, in the order the engine tries them: a LineString or MultiLineString only under its own name. */
    enum Shape {
        POINT("Point"), LINE_STRING("LineString"), MULTI_LINE_STRING("MultiLineString"), RING("Ring"), POLYGON("Polygon"),
        MULTI_POLYGON("MultiPolygon");

        final String typeName;

        Shape(String typeName) {
            this.typeName = typeName;
        }

        DataType type() {
            return DataTypes.parse(typeName);
        }

        boolean areal() {
            return this == RING || this == POLYGON || this == MULTI_POLYGON;
        }
    }

    private PolygonGeometry() {
    }

    /** The shape of {@code t}, or BAD_ARGUMENTS "Unknown geometry type" as the engine's callOnGeometryDataType. */
    static Shape shape(DataType t) {
        int depth = 0;
        DataType u = t;
        while (u instanceof ArrayType a) {
            u = a.element;
            depth++;
        }
        if (depth <= 3 && u instanceof TupleType tt && tt.names == null && tt.elements.size() == 2 && isFloat64(tt.elements.get(0))
            && isFloat64(tt.elements.get(1))) {
            switch (depth) {
                case 0:
                    return Shape.POINT;
                case 1:
                    return "LineString".equals(t.name()) ? Shape.LINE_STRING : Shape.RING;
                case 2:
                    return "MultiLineString".equals(t.name()) ? Shape.MULTI_LINE_STRING : Shape.POLYGON;
                default:
                    return Shape.MULTI_POLYGON;
            }
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unknown geometry type " + t.name());
    }

    private static boolean isFloat64(DataType t) {
        return t instanceof FloatType f && f.is64;
    }

    // ---- values to coordinates ----

    static double[] point(Object v) {
        List<?> xy = (List<?>) v;
        double x = ((Number) xy.get(0)).doubleValue();
        double y = ((Number) xy.get(1)).doubleValue();
        if (Double.isNaN(x) || Double.isNaN(y)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Point's component must not be NaN");
        }
        if (Double.isInfinite(x) || Double.isInfinite(y)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Point's component must not be infinite");
        }
        return new double[] {x, y};
    }

    static double[][] path(Object v) {
        List<?> points = (List<?>) v;
        double[][] p = new double[points.size()][];
        for (int i = 0; i < p.length; i++) {
            p[i] = point(points.get(i));
        }
        return p;
    }

    static List<double[][]> paths(Object v) {
        List<double[][]> out = new ArrayList<>();
        for (Object r : (List<?>) v) {
            out.add(path(r));
        }
        return out;
    }

    /** A polygon's rings; an empty array is a polygon with an empty outer ring. */
    static List<double[][]> polygon(Object v) {
        List<double[][]> rings = paths(v);
        if (rings.isEmpty()) {
            rings.add(new double[0][]);
        }
        return rings;
    }

    /** An areal shape (Ring, Polygon or MultiPolygon) as a multi-polygon. */
    static List<List<double[][]>> polygons(Shape shape, Object v) {
        List<List<double[][]>> out = new ArrayList<>();
        switch (shape) {
            case RING -> out.add(new ArrayList<>(List.<double[][]>of(path(v))));
            case POLYGON -> out.add(polygon(v));
            case MULTI_POLYGON -> {
                for (Object p : (List<?>) v) {
                    out.add(polygon(p));
                }
            }
            default -> throw new IllegalArgumentException(shape.name());
        }
        return out;
    }

    // ---- coordinates to values ----

    static List<Object> pointValue(double[] p) {
        return List.of(p[0], p[1]);
    }

    static List<Object> pathValue(double[][] path) {
        List<Object> out = new ArrayList<>(path.length);
        for (double[] p : path) {
            out.add(pointValue(p));
        }
        return out;
    }

    static List<Object> pathsValue(List<double[][]> paths) {
        List<Object> out = new ArrayList<>(paths.size());
        for (double[][] p : paths) {
            out.add(pathValue(p));
        }
        return out;
    }

    static List<Object> polygonsValue(List<List<double[][]>> polygons) {
        List<Object> out = new ArrayList<>(polygons.size());
        for (List<double[][]> p : polygons) {
            out.add(pathsValue(p));
        }
        return out;
    }

    // ---- Boost.Geometry's correct ----

    /** Boost's math::equals: equal, or within machine epsilon relative to the larger magnitude (at least 1). */
    static boolean equals(double a, double b) {
        if (a == b) {
            return true;
        }
        return Math.abs(a - b) <= Math.ulp(1.0) * Math.max(1.0, Math.max(Math.abs(a), Math.abs(b)));
    }

    static boolean samePoint(double[] a, double[] b) {
        return equals(a[0], b[0]) && equals(a[1], b[1]);
    }

    /** A measure of a ring's signed area whose sign is Boost's (positive for a clockwise ring). */
    interface RingArea {
        double area(double[][] ring);
    }

    /**
     * Boost's correct: each ring of more than two points closed, the outer rings turned clockwise and the holes
     * counter-clockwise by the sign of {@code area}.
     */
    static List<List<double[][]>> correct(List<List<double[][]>> polygons, RingArea area) {
        List<List<double[][]>> out = new ArrayList<>(polygons.size());
        for (List<double[][]> polygon : polygons) {
            List<double[][]> rings = new ArrayList<>(polygon.size());
            for (int i = 0; i < polygon.size(); i++) {
                rings.add(correctRing(polygon.get(i), i == 0, area));
            }
            out.add(rings);
        }
        return out;
    }

    static double[][] correctRing(double[][] ring, boolean outer, RingArea area) {
        double[][] r = ring;
        if (r.length > 2 && !samePoint(r[0], r[r.length - 1])) {
            r = java.util.Arrays.copyOf(r, r.length + 1);
            r[r.length - 1] = r[0];
        }
        double a = area.area(r);
        if (outer ? a < 0 : a > 0) {
            double[][] reversed = new double[r.length][];
            for (int i = 0; i < r.length; i++) {
                reversed[i] = r[r.length - 1 - i];
            }
            r = reversed;
        }
        return r;
    }
}
