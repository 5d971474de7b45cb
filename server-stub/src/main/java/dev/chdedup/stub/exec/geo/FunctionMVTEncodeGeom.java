package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.geo.PolygonGeometry.Shape;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.TypedValue;
import java.util.ArrayList;
import java.util.List;

/**
 * MVTEncodeGeom(geometry, zoom, tile_x, tile_y[, extent[, buffer[, clip]]]) and its alias ST_AsMVTGeom (ClickHouse's
 * MVTEncodeGeom.cpp): a (longitude, latitude) shape, or a Geometry value, projected by Web Mercator over 2^32 units
 * into the pixels of one slippy-map tile (y downwards), clipped to the tile grown by {@code buffer} pixels unless
 * {@code clip} is 0, each coordinate rounded half to even; a Point, a MultiLineString or a MultiPolygon as a Geometry,
 * NULL when nothing is left or an argument is NULL. Clipping polygons needs the wagyu library, which the engine's build
 * lacks: the engine refuses it (SUPPORT_IS_DISABLED), and so does this.
 */
final class FunctionMVTEncodeGeom {
    private static final String NAME = "MVTEncodeGeom";
    private static final double MERCATOR_MAX = 4294967296.0;
    private static final double LATITUDE_LIMIT = 85.05112877980659;
    private static final long MAX = Integer.MAX_VALUE;

    private FunctionMVTEncodeGeom() {
    }

    static void register(FunctionFactory f) {
        f.register(NAME, FunctionsPolygon.CATEGORY, (args, ctx) -> build(args));
        f.registerAlias("ST_AsMVTGeom", NAME, false);
    }

    private static Evaluator build(List<Evaluator> args) {
        if (args.size() < 4 || args.size() > 7) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + NAME + " requires 4 to 7 arguments (geometry, zoom, tile_x,"
                + " tile_y[, extent[, buffer[, clip]]]), got " + args.size());
        }
        DataType g = args.get(0).type();
        DataType gu = g.isNullable() ? g.unwrap() : g;
        Shape fixed = null;
        if (!gu.name().equals("Geometry")) {
            try {
                fixed = PolygonGeometry.shape(gu);
            } catch (ChException e) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The first argument of function " + NAME + " must be a geometry (Point,"
                    + " LineString, MultiLineString, Ring, Polygon, MultiPolygon or Geometry), got " + g.name());
            }
        }
        for (int i = 1; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof IntType it && !it.signed && it.bits <= 64)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument #" + (i + 1) + " of function " + NAME
                    + " must be an unsigned integer, got " + args.get(i).type().name());
            }
        }
        Shape shape = fixed;
        return Evaluator.of(DataTypes.parse("Geometry"), r -> {
            Object[] v = new Object[args.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = args.get(i).eval(r);
                if (v[i] == null) {
                    return null;
                }
            }
            Shape s = shape;
            Object value = v[0];
            if (s == null) {
                TypedValue tv = (TypedValue) value;
                s = PolygonGeometry.shape(tv.type());
                value = tv.value();
            }
            return encode(s, value, v);
        });
    }

    private static Object encode(Shape shape, Object value, Object[] v) {
        long zoom = ((Number) v[1]).longValue();
        if (Long.compareUnsigned(zoom, 32) > 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The zoom argument (" + Long.toUnsignedString(zoom) + ") of function " + NAME
                + " must be in [0, 32]");
        }
        long extent = v.length > 4 ? ((Number) v[4]).longValue() : 4096;
        if (extent == 0 || Long.compareUnsigned(extent, MAX) > 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The extent argument of function " + NAME + " must be in [1, " + MAX + "]");
        }
        long buffer = v.length > 5 ? ((Number) v[5]).longValue() : 1;
        if (Long.compareUnsigned(buffer, MAX) > 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The buffer argument of function " + NAME + " must be in [0, " + MAX + "]");
        }
        boolean clip = v.length <= 6 || ((Number) v[6]).longValue() != 0;
        if (clip && extent + 2 * buffer > MAX) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "extent + 2 * buffer (" + (extent + 2 * buffer) + ") of function " + NAME
                + " must not exceed " + MAX + " so the clipped geometry fits the MVT command stream");
        }
        long tileX = ((Number) v[2]).longValue();
        long tileY = ((Number) v[3]).longValue();
        long tiles = 1L << zoom;
        if (Long.compareUnsigned(tileX, tiles) >= 0 || Long.compareUnsigned(tileY, tiles) >= 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The tile indices (tile_x = " + Long.toUnsignedString(tileX) + ", tile_y = "
                + Long.toUnsignedString(tileY) + ") of function " + NAME + " must be less than 2^zoom = " + Long.toUnsignedString(tiles));
        }
        double tileSize = Math.pow(2, 32 - zoom);
        double[] projection = {tileX * tileSize, tileY * tileSize, extent / tileSize};
        double lo = -(double) buffer;
        double hi = (double) extent + (double) buffer;
        switch (shape) {
            case POINT -> {
                double[] p = project(PolygonGeometry.point(value), projection);
                if (clip && !(p[0] >= lo && p[0] <= hi && p[1] >= lo && p[1] <= hi)) {
                    return null;
                }
                return new TypedValue(Shape.POINT.type(), PolygonGeometry.pointValue(round(p)));
            }
            case LINE_STRING, MULTI_LINE_STRING -> {
                List<double[][]> lines = new ArrayList<>();
                for (double[][] line : shape == Shape.LINE_STRING ? List.<double[][]>of(PolygonGeometry.path(value)) : PolygonGeometry.paths(value)) {
                    lines.add(project(line, projection));
                }
                if (clip) {
                    lines = clipLines(lines, lo, hi);
                }
                if (lines.stream().allMatch(l -> l.length == 0)) {
                    return null;
                }
                List<double[][]> rounded = new ArrayList<>();
                for (double[][] l : lines) {
                    rounded.add(round(l));
                }
                return new TypedValue(Shape.MULTI_LINE_STRING.type(), PolygonGeometry.pathsValue(rounded));
            }
            default -> {
                if (clip) {
                    throw new ChException(ErrorCode.SUPPORT_IS_DISABLED, "Clipping polygons in " + NAME + " requires the wagyu library, which is"
                        + " disabled in this build; pass clip = false to project the polygon without clipping");
                }
                List<List<double[][]>> polygons = new ArrayList<>();
                int points = 0;
                for (List<double[][]> polygon : PolygonGeometry.polygons(shape, value)) {
                    List<double[][]> rings = new ArrayList<>();
                    for (double[][] ring : polygon) {
                        rings.add(project(ring, projection));
                        points += ring.length;
                    }
                    polygons.add(rings);
                }
                if (points == 0) {
                    return null;
                }
                polygons = PolygonGeometry.correct(PolygonGeometry.correct(polygons, PolygonFormulas::cartesianArea), PolygonFormulas::cartesianArea);
                List<List<double[][]>> rounded = new ArrayList<>();
                for (List<double[][]> polygon : polygons) {
                    List<double[][]> rings = new ArrayList<>();
                    for (double[][] ring : polygon) {
                        rings.add(round(ring));
                    }
                    rounded.add(rings);
                }
                return new TypedValue(Shape.MULTI_POLYGON.type(), PolygonGeometry.polygonsValue(rounded));
            }
        }
    }

    private static double[] project(double[] p, double[] projection) {
        double lon = Math.min(Math.max(p[0], -180.0), 180.0);
        double lat = Math.min(Math.max(p[1], -LATITUDE_LIMIT), LATITUDE_LIMIT);
        double mx = MERCATOR_MAX * (lon + 180.0) / 360.0;
        double my = MERCATOR_MAX * (0.5 - Math.log(Math.tan((lat + 90.0) / 360.0 * Math.PI)) / (2.0 * Math.PI));
        return new double[] {(mx - projection[0]) * projection[2], (my - projection[1]) * projection[2]};
    }

    private static double[][] project(double[][] path, double[] projection) {
        double[][] out = new double[path.length][];
        for (int i = 0; i < path.length; i++) {
            out[i] = project(path[i], projection);
        }
        return out;
    }

    private static double[] round(double[] p) {
        return new double[] {roundCoordinate(p[0]), roundCoordinate(p[1])};
    }

    private static double[][] round(double[][] path) {
        double[][] out = new double[path.length][];
        for (int i = 0; i < path.length; i++) {
            out[i] = round(path[i]);
        }
        return out;
    }

    private static double roundCoordinate(double v) {
        double r = Math.rint(v);
        return r == 0.0 ? 0.0 : r;
    }

    /**
     * The parts of the lines inside the square [lo, hi]², in the lines' order: Boost's clipping of a range by a box,
     * each segment clipped by Liang-Barsky, a new part started where a segment's first point was clipped away.
     */
    private static List<double[][]> clipLines(List<double[][]> lines, double lo, double hi) {
        List<double[][]> out = new ArrayList<>();
        for (double[][] line : lines) {
            List<double[]> part = new ArrayList<>();
            for (int i = 0; i + 1 < line.length; i++) {
                double[] p1 = line[i].clone();
                double[] p2 = line[i + 1].clone();
                double dx = p2[0] - p1[0];
                double dy = p2[1] - p1[1];
                double[] t = {0, 1};
                boolean visible = edge(-dx, p1[0] - lo, t) && edge(dx, hi - p1[0], t) && edge(-dy, p1[1] - lo, t) && edge(dy, hi - p1[1], t);
                if (!visible) {
                    flush(part, out);
                    continue;
                }
                boolean c1 = t[0] > 0;
                boolean c2 = t[1] < 1;
                double[] s1 = p1;
                double[] s2 = p2;
                if (c2) {
                    s2 = new double[] {p1[0] + t[1] * dx, p1[1] + t[1] * dy};
                }
                if (c1) {
                    s1 = new double[] {p1[0] + t[0] * dx, p1[1] + t[0] * dy};
                    flush(part, out);
                }
                if (part.isEmpty()) {
                    part.add(s1);
                }
                if (!java.util.Arrays.equals(part.get(part.size() - 1), s2)) {
                    part.add(s2);
                }
                if (c2) {
                    flush(part, out);
                }
            }
            flush(part, out);
        }
        return out;
    }

    /** One Liang-Barsky edge test, narrowing {@code t} = [t1, t2]; false when the segment is outside. */
    private static boolean edge(double p, double q, double[] t) {
        if (p < 0) {
            double r = q / p;
            if (r > t[1]) {
                return false;
            }
            if (r > t[0]) {
                t[0] = r;
            }
        } else if (p > 0) {
            double r = q / p;
            if (r < t[0]) {
                return false;
            }
            if (r < t[1]) {
                t[1] = r;
            }
        } else if (q < 0) {
            return false;
        }
        return true;
    }

    private static void flush(List<double[]> part, List<double[][]> out) {
        if (!part.isEmpty()) {
            out.add(part.toArray(new double[0][]));
            part.clear();
        }
    }
}
