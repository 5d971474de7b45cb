package dev.chdedup.stub.exec.geo;

import java.util.List;

/**
 * The plane a pair of shapes is related or combined on. Cartesian shapes are on it already; spherical ones
 * (longitude, latitude in degrees, edges along great circles) are mapped by the gnomonic projection centred on the mean
 * of their points, which turns every great circle into a straight line, so that planar relations and intersection points
 * are the spherical ones; shapes that do not fit in the open hemisphere around that centre stay in plain
 * (longitude, latitude). The projection keeps orientation: east is x and north is y at the centre.
 */
interface PolygonProjection {
    double[] project(double[] p);

    double[] unproject(double[] xy);

    PolygonProjection IDENTITY = new PolygonProjection() {
        @Override
        public double[] project(double[] p) {
            return p;
        }

        @Override
        public double[] unproject(double[] xy) {
            return xy;
        }
    };

    /** The gnomonic projection around all points of {@code shapes}, or the identity when they span a hemisphere. */
    static PolygonProjection gnomonic(List<List<List<double[][]>>> shapes) {
        double[] c = new double[3];
        int n = 0;
        for (List<List<double[][]>> polygons : shapes) {
            for (List<double[][]> polygon : polygons) {
                for (double[][] ring : polygon) {
                    for (double[] p : ring) {
                        double[] v = unit(p);
                        c[0] += v[0];
                        c[1] += v[1];
                        c[2] += v[2];
                        n++;
                    }
                }
            }
        }
        double norm = Math.sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        if (n == 0 || norm < 1e-12) {
            return IDENTITY;
        }
        double[] centre = {c[0] / norm, c[1] / norm, c[2] / norm};
        for (List<List<double[][]>> polygons : shapes) {
            for (List<double[][]> polygon : polygons) {
                for (double[][] ring : polygon) {
                    for (double[] p : ring) {
                        if (dot(unit(p), centre) < 1e-6) {
                            return IDENTITY;
                        }
                    }
                }
            }
        }
        double[] axis = Math.abs(centre[2]) < 0.9 ? new double[] {0, 0, 1} : new double[] {1, 0, 0};
        double[] east = normalize(cross(axis, centre));
        double[] north = cross(centre, east);
        return new PolygonProjection() {
            @Override
            public double[] project(double[] p) {
                double[] v = unit(p);
                double d = dot(v, centre);
                return new double[] {dot(v, east) / d, dot(v, north) / d};
            }

            @Override
            public double[] unproject(double[] xy) {
                double[] v = normalize(new double[] {centre[0] + xy[0] * east[0] + xy[1] * north[0],
                    centre[1] + xy[0] * east[1] + xy[1] * north[1], centre[2] + xy[0] * east[2] + xy[1] * north[2]});
                return new double[] {Math.toDegrees(Math.atan2(v[1], v[0])), Math.toDegrees(Math.atan2(v[2], Math.hypot(v[0], v[1])))};
            }
        };
    }

    private static double[] unit(double[] lonLat) {
        double lon = Math.toRadians(lonLat[0]);
        double lat = Math.toRadians(lonLat[1]);
        return new double[] {Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)};
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    private static double[] normalize(double[] v) {
        double n = Math.sqrt(dot(v, v));
        return new double[] {v[0] / n, v[1] / n, v[2] / n};
    }
}
