package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.exec.geo.PolygonGeometry.Shape;
import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;

/**
 * A cartesian shape value as Boost.Geometry holds it after correct (rings closed, outer ones clockwise) and as a JTS
 * geometry, for the relations and set operations on the plane: areal shapes become JTS (multi-)polygons, lines JTS
 * (multi-)line strings. A ring too short for JTS (under four points once closed) is left out, as it has no area.
 */
final class PlanarShapes {
    static final GeometryFactory FACTORY = new GeometryFactory();

    private PlanarShapes() {
    }

    /** The corrected polygons of an areal shape (cartesian orientation). */
    static List<List<double[][]>> corrected(Shape shape, Object value) {
        return PolygonGeometry.correct(PolygonGeometry.polygons(shape, value), PolygonFormulas::cartesianArea);
    }

    /** The paths (line strings, or every ring of the corrected polygons) of a shape. */
    static List<double[][]> paths(Shape shape, Object value) {
        return switch (shape) {
            case LINE_STRING -> List.<double[][]>of(PolygonGeometry.path(value));
            case MULTI_LINE_STRING -> PolygonGeometry.paths(value);
            default -> {
                List<double[][]> out = new ArrayList<>();
                for (List<double[][]> p : corrected(shape, value)) {
                    out.addAll(p);
                }
                yield out;
            }
        };
    }

    static Geometry jts(Shape shape, Object value) {
        if (shape == Shape.LINE_STRING || shape == Shape.MULTI_LINE_STRING) {
            List<LineString> lines = new ArrayList<>();
            for (double[][] p : paths(shape, value)) {
                lines.add(FACTORY.createLineString(coordinates(p)));
            }
            return FACTORY.createMultiLineString(lines.toArray(new LineString[0]));
        }
        return jtsPolygons(corrected(shape, value));
    }

    static Geometry jtsPolygons(List<List<double[][]>> polygons) {
        List<Polygon> out = new ArrayList<>();
        for (List<double[][]> p : polygons) {
            LinearRing outer = ring(p.get(0));
            if (outer == null) {
                continue;
            }
            List<LinearRing> holes = new ArrayList<>();
            for (int i = 1; i < p.size(); i++) {
                LinearRing h = ring(p.get(i));
                if (h != null) {
                    holes.add(h);
                }
            }
            out.add(FACTORY.createPolygon(outer, holes.toArray(new LinearRing[0])));
        }
        return FACTORY.createMultiPolygon(out.toArray(new Polygon[0]));
    }

    private static LinearRing ring(double[][] r) {
        if (r.length < 4) {
            return null;
        }
        Coordinate[] c = coordinates(r);
        if (!c[0].equals2D(c[c.length - 1])) {
            c = java.util.Arrays.copyOf(c, c.length + 1);
            c[c.length - 1] = c[0];
        }
        return FACTORY.createLinearRing(c);
    }

    static Coordinate[] coordinates(double[][] p) {
        Coordinate[] c = new Coordinate[p.length];
        for (int i = 0; i < p.length; i++) {
            c[i] = new Coordinate(p[i][0], p[i][1]);
        }
        return c;
    }
}
