package dev.chdedup.stub.exec.geo;

import java.util.List;

/**
 * Boost.Geometry's measures in double, term for term in its order so the engine's last digits come out: the cartesian
 * ring area (the trapezoid sum, half of {@code (x1 + x2) * (y1 - y2)} over the stored points, positive clockwise), the
 * spherical one (the spherical excess of each segment on the unit sphere, with the count of prime-meridian crossings
 * that detects an encircled pole), a ring of fewer than four points having no area; the pythagorean and haversine
 * lengths; a polygon's sum is its outer ring's plus the sum of its holes', a multi-polygon's the sum of its polygons'.
 * Coordinates of the spherical measures are degrees (longitude, latitude).
 */
final class PolygonFormulas {
    private static final double D2R = Math.PI / 180.0;

    private PolygonFormulas() {
    }

    interface RingMeasure {
        double of(double[][] ring);
    }

    static double cartesianArea(double[][] ring) {
        if (ring.length < 4) {
            return 0;
        }
        double sum = 0;
        for (int i = 0; i + 1 < ring.length; i++) {
            sum += (ring[i][0] + ring[i + 1][0]) * (ring[i][1] - ring[i + 1][1]);
        }
        return sum / 2;
    }

    static double sphericalArea(double[][] ring) {
        if (ring.length < 4) {
            return 0;
        }
        Sum sum = new Sum();
        long crossings = 0;
        for (int i = 0; i + 1 < ring.length; i++) {
            double[] p1 = ring[i];
            double[] p2 = ring[i + 1];
            if (!PolygonGeometry.equals(p1[0], p2[0])) {
                double tanLat1 = Math.tan(p1[1] * D2R / 2.0);
                double tanLat2 = Math.tan(p2[1] * D2R / 2.0);
                sum.add(2.0 * Math.atan(((tanLat1 + tanLat2) / (1 + tanLat1 * tanLat2)) * Math.tan((p2[0] * D2R - p1[0] * D2R) / 2)));
                if (crossesPrimeMeridian(p1[0] * D2R, p2[0] * D2R)) {
                    crossings++;
                }
            }
        }
        double total = sum.value();
        if (crossings % 2 == 1) {
            long times = 1 + crossings / 2;
            double result = 2 * Math.PI * times - Math.abs(total);
            return total > 0 ? -result : result;
        }
        return total;
    }

    private static boolean crossesPrimeMeridian(double lon1, double lon2) {
        double twoPi = 2 * Math.PI;
        double a = lon1 - Math.floor(lon1 / twoPi) * twoPi;
        double b = lon2 - Math.floor(lon2 / twoPi) * twoPi;
        double max = Math.max(a, b);
        double min = Math.min(a, b);
        return max > Math.PI && min < Math.PI && max - min > Math.PI;
    }

    static double cartesianLength(double[][] path) {
        Sum sum = new Sum();
        for (int i = 0; i + 1 < path.length; i++) {
            sum.add(pythagoras(path[i], path[i + 1]));
        }
        return sum.value();
    }

    static double pythagoras(double[] a, double[] b) {
        double dx = a[0] - b[0];
        double dy = a[1] - b[1];
        return Math.sqrt(dy * dy + (dx * dx));
    }

    static double sphericalLength(double[][] path) {
        Sum sum = new Sum();
        for (int i = 0; i + 1 < path.length; i++) {
            sum.add(haversine(path[i], path[i + 1]));
        }
        return sum.value();
    }

    /** The haversine distance on the unit sphere between two (longitude, latitude) points in degrees. */
    static double haversine(double[] p1, double[] p2) {
        double lon1 = p1[0] * D2R;
        double lat1 = p1[1] * D2R;
        double lon2 = p2[0] * D2R;
        double lat2 = p2[1] * D2R;
        double a = hav(lat2 - lat1) + Math.cos(lat1) * Math.cos(lat2) * hav(lon2 - lon1);
        return 2.0 * Math.asin(Math.sqrt(a));
    }

    private static double hav(double theta) {
        double s = Math.sin(theta / 2);
        return s * s;
    }

    /** Neumaier's compensated sum, which the engine's lengths and spherical excesses come out as. */
    static final class Sum {
        private double sum;
        private double compensation;

        void add(double x) {
            double t = sum + x;
            compensation += Math.abs(sum) >= Math.abs(x) ? (sum - t) + x : (x - t) + sum;
            sum = t;
        }

        double value() {
            return sum + compensation;
        }
    }

    /** A polygon's measure: its outer ring's plus the sum of its holes'. */
    static double polygonSum(List<double[][]> polygon, RingMeasure m) {
        double holes = 0;
        for (int i = 1; i < polygon.size(); i++) {
            holes += m.of(polygon.get(i));
        }
        return m.of(polygon.get(0)) + holes;
    }

    static double multiSum(List<List<double[][]>> polygons, RingMeasure m) {
        double sum = 0;
        for (List<double[][]> p : polygons) {
            sum += polygonSum(p, m);
        }
        return sum;
    }
}
