package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.geo.PolygonGeometry.Shape;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.TypedValue;
import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;

/**
 * geometryIntersectCartesian and geometryIntersectSpherical (category Geo): whether two shapes of any kind (Point,
 * LineString, MultiLineString, Ring, Polygon, MultiPolygon, or a Geometry value holding one) share a point, areal
 * shapes corrected first. An unnamed array of points is refused as ambiguous (a Ring or a LineString), and so is an
 * unnamed array of those (a Polygon or a MultiLineString). Spherical shapes are related on their gnomonic projection
 * ({@link PolygonProjection}), where great-circle edges are straight.
 */
final class FunctionGeometryIntersect {
    private FunctionGeometryIntersect() {
    }

    static void register(FunctionFactory f) {
        f.register("geometryIntersectCartesian", "Geo", (args, ctx) -> build("geometryIntersectCartesian", args, false));
        f.register("geometryIntersectSpherical", "Geo", (args, ctx) -> build("geometryIntersectSpherical", args, true));
    }

    private static Evaluator build(String name, List<Evaluator> args, boolean spherical) {
        Functions.arity(name, args, 2);
        if (args.stream().anyMatch(e -> e.type().unwrap() instanceof NothingType)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        Shape left = shape(name, args.get(0).type());
        Shape right = shape(name, args.get(1).type());
        return Functions.strict(DataTypes.UINT8, args, v -> intersects(left, v[0], right, v[1], spherical) ? 1L : 0L);
    }

    /** The shape of a type, or null for Geometry (each value names its own). */
    private static Shape shape(String name, DataType t) {
        if (t.name().equals("Geometry")) {
            return null;
        }
        Shape s;
        try {
            s = PolygonGeometry.shape(t);
        } catch (ChException e) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument of function " + name + " has type " + t.name()
                + " which is not a geometry type");
        }
        boolean unnamed = t instanceof ArrayType && t.name().startsWith("Array(");
        if (unnamed && s == Shape.RING) {
            throw ambiguous(name, t, "Ring", "LineString");
        }
        if (unnamed && s == Shape.POLYGON) {
            throw ambiguous(name, t, "Polygon", "MultiLineString");
        }
        return s;
    }

    private static ChException ambiguous(String name, DataType t, String a, String b) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument of function " + name + " has type " + t.name()
            + " which is ambiguous between " + a + " and " + b + ". Cast it to an explicit geometry type, for example `x::" + a
            + "` or `x::" + b + "`");
    }

    private static boolean intersects(Shape left, Object a, Shape right, Object b, boolean spherical) {
        if (left == null) {
            TypedValue tv = (TypedValue) a;
            left = PolygonGeometry.shape(tv.type());
            a = tv.value();
        }
        if (right == null) {
            TypedValue tv = (TypedValue) b;
            right = PolygonGeometry.shape(tv.type());
            b = tv.value();
        }
        PolygonGeometry.RingArea area = spherical ? PolygonFormulas::sphericalArea : PolygonFormulas::cartesianArea;
        List<List<double[][]>> pa = parts(left, a, area);
        List<List<double[][]>> pb = parts(right, b, area);
        PolygonProjection projection = spherical ? PolygonProjection.gnomonic(List.of(pa, pb)) : PolygonProjection.IDENTITY;
        return jts(left, pa, projection).intersects(jts(right, pb, projection));
    }

    /** A shape's coordinates: its corrected polygons, its lines (one per list), or its point. */
    private static List<List<double[][]>> parts(Shape shape, Object v, PolygonGeometry.RingArea area) {
        return switch (shape) {
            case POINT -> List.of(List.<double[][]>of(new double[][] {PolygonGeometry.point(v)}));
            case LINE_STRING -> List.of(List.<double[][]>of(PolygonGeometry.path(v)));
            case MULTI_LINE_STRING -> List.of(PolygonGeometry.paths(v));
            default -> PolygonGeometry.correct(PolygonGeometry.polygons(shape, v), area);
        };
    }

    private static Geometry jts(Shape shape, List<List<double[][]>> parts, PolygonProjection projection) {
        List<List<double[][]>> projected = new ArrayList<>();
        for (List<double[][]> polygon : parts) {
            List<double[][]> rings = new ArrayList<>();
            for (double[][] ring : polygon) {
                double[][] r = new double[ring.length][];
                for (int i = 0; i < ring.length; i++) {
                    r[i] = projection.project(ring[i]);
                }
                rings.add(r);
            }
            projected.add(rings);
        }
        return switch (shape) {
            case POINT -> {
                double[] p = projected.get(0).get(0)[0];
                Point point = PlanarShapes.FACTORY.createPoint(new org.locationtech.jts.geom.Coordinate(p[0], p[1]));
                yield point;
            }
            case LINE_STRING, MULTI_LINE_STRING -> {
                List<LineString> lines = new ArrayList<>();
                for (double[][] line : projected.get(0)) {
                    if (line.length == 1) {
                        line = new double[][] {line[0], line[0]};
                    }
                    if (line.length > 0) {
                        lines.add(PlanarShapes.FACTORY.createLineString(PlanarShapes.coordinates(line)));
                    }
                }
                yield PlanarShapes.FACTORY.createMultiLineString(lines.toArray(new LineString[0]));
            }
            default -> PlanarShapes.jtsPolygons(projected);
        };
    }
}
