package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.geo.PolygonGeometry.Shape;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;

/**
 * The relations and set operations of two shapes (ClickHouse's polygonsWithin.cpp, polygonsEquals.cpp,
 * polygonsIntersect.cpp, polygonsIntersection.cpp, polygonsUnion.cpp, polygonsSymDifference.cpp): both shapes are
 * corrected first (Boost's correct), then related or combined ({@link PolygonOverlay}); a combination is a
 * MultiPolygon. polygonsEqualsCartesian also takes lines (a line never equals an areal shape).
 */
final class FunctionsPolygonRelations {
    private FunctionsPolygonRelations() {
    }

    static void register(FunctionFactory f) {
        for (boolean spherical : new boolean[] {false, true}) {
            String cs = spherical ? "Spherical" : "Cartesian";
            predicate(f, "polygonsWithin" + cs, FunctionsPolygon.CATEGORY, spherical, PolygonOverlay::within);
            predicate(f, "polygonsIntersect" + cs, "Geo", spherical, PolygonOverlay::intersects);
            combination(f, "polygonsIntersection" + cs, spherical, PolygonOverlay::intersection);
            combination(f, "polygonsUnion" + cs, spherical, PolygonOverlay::union);
            combination(f, "polygonsSymDifference" + cs, spherical, PolygonOverlay::symDifference);
        }
        f.register("polygonsEqualsCartesian", FunctionsPolygon.CATEGORY, (args, ctx) -> FunctionsPolygon.binary(
            "polygonsEqualsCartesian", args, DataTypes.UINT8, true, (l, a, r, b) -> {
                if (l.areal() != r.areal()) {
                    PlanarShapes.jts(l, a);
                    PlanarShapes.jts(r, b);
                    return 0L;
                }
                return PlanarShapes.jts(l, a).equalsTopo(PlanarShapes.jts(r, b)) ? 1L : 0L;
            }));
    }

    private interface Predicate {
        boolean test(PolygonOverlay o);
    }

    private interface Combination {
        List<List<double[][]>> apply(PolygonOverlay o);
    }

    private static void predicate(FunctionFactory f, String name, String category, boolean spherical, Predicate p) {
        f.register(name, category, (args, ctx) -> FunctionsPolygon.binary(name, args, DataTypes.UINT8, false,
            (l, a, r, b) -> p.test(new PolygonOverlay(l, a, r, b, spherical)) ? 1L : 0L));
    }

    private static void combination(FunctionFactory f, String name, boolean spherical, Combination c) {
        f.register(name, FunctionsPolygon.CATEGORY, (args, ctx) -> FunctionsPolygon.binary(name, args,
            Shape.MULTI_POLYGON.type(), false, (l, a, r, b) -> PolygonGeometry.polygonsValue(c.apply(new PolygonOverlay(l, a, r, b, spherical)))));
    }
}
