package dev.chdedup.stub.exec.geo;

import static dev.chdedup.stub.exec.geo.H3Arguments.CATEGORY;
import static dev.chdedup.stub.exec.geo.H3Arguments.INDEXES;
import static dev.chdedup.stub.exec.geo.H3Arguments.h3;

import com.uber.h3core.exceptions.H3Exception;
import com.uber.h3core.util.LatLng;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.VariantType;
import java.util.ArrayList;
import java.util.List;

/**
 * h3PolygonToCells(geometry, resolution), as ClickHouse's h3PolygonToCells.cpp: the cells whose centres lie in a Ring,
 * Polygon (outer ring, then holes) or MultiPolygon (each polygon's cells in turn, repeats kept) of (longitude,
 * latitude) points in Float64, or in such a Geometry. h3PolygonToCellsWithContainment, whose other containment modes
 * the Java binding lacks, is not here.
 */
final class FunctionsH3Polygon {
    private FunctionsH3Polygon() {
    }

    static void register(FunctionFactory f) {
        f.register("h3PolygonToCells", CATEGORY, (args, ctx) -> polygonToCells(args));
    }

    private static ChException illegalColumn(DataType t, int position, String expected) {
        return new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column type " + t.name() + " of argument " + position
            + " of function h3PolygonToCells. Must be " + expected);
    }

    /** The nesting of arrays around Tuple(Float64, Float64): 1 a ring, 2 a polygon, 3 a multipolygon. */
    private static int depth(DataType t) {
        int depth = 0;
        DataType u = t;
        while (u instanceof ArrayType a) {
            u = a.element;
            depth++;
        }
        boolean point = u instanceof TupleType tt && tt.elements.size() == 2 && tt.elements.stream()
            .allMatch(e -> e instanceof FloatType ft && ft.is64);
        if (!point || depth < 1 || depth > 3) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unknown geometry type " + t.name());
        }
        return depth;
    }

    private static Evaluator polygonToCells(List<Evaluator> args) {
        String fn = "h3PolygonToCells";
        Functions.arity(fn, args, 2);
        Evaluator geometry = args.get(0);
        Evaluator res = args.get(1);
        if (Functions.isNothing(geometry) || Functions.isNothing(res)) {
            return H3Arguments.array(INDEXES, args, v -> null);
        }
        DataType g = geometry.type().unwrap();
        boolean variant = g instanceof VariantType;
        if (!variant && !(g instanceof ArrayType)) {
            throw illegalColumn(geometry.type(), 1, "Array");
        }
        int depth = variant ? 0 : depth(g);
        if (!(res.type().unwrap() instanceof IntType it && !it.signed && it.bits == 8)) {
            throw illegalColumn(res.type(), 2, "UInt8");
        }
        return H3Arguments.array(INDEXES, args, v -> {
            int r = H3Arguments.resolution(fn, v[1]);
            Object shape = v[0];
            int d = depth;
            if (variant) {
                TypedValue tv = (TypedValue) shape;
                String name = tv.type().name();
                if (name.equals("LineString") || name.equals("MultiLineString")) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The first argument of function " + fn + " must not be " + name);
                }
                if (!(tv.type() instanceof ArrayType)) {
                    throw illegalColumn(tv.type(), 1, "Array");
                }
                d = depth(tv.type());
                shape = tv.value();
            }
            List<?> polygons = d == 3 ? (List<?>) shape : List.of(d == 2 ? shape : List.of(shape));
            List<Object> out = new ArrayList<>();
            for (Object polygon : polygons) {
                List<?> rings = (List<?>) polygon;
                List<List<LatLng>> holes = new ArrayList<>();
                for (int i = 1; i < rings.size(); i++) {
                    holes.add(loop(rings.get(i)));
                }
                List<LatLng> outer = rings.isEmpty() ? List.of() : loop(rings.get(0));
                try {
                    out.addAll(H3Arguments.longs(h3().polygonToCells(outer, holes, r)));
                } catch (H3Exception e) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Failed to estimate H3 polygon to cells size in function " + fn
                        + ": " + H3Exception.codeToMessage(e.getCode()));
                }
            }
            return out;
        });
    }

    /** A ring of (longitude, latitude) points as the library's loop. */
    private static List<LatLng> loop(Object ring) {
        List<LatLng> out = new ArrayList<>();
        for (Object p : (List<?>) ring) {
            List<?> xy = (List<?>) p;
            out.add(new LatLng(((Number) xy.get(1)).doubleValue(), ((Number) xy.get(0)).doubleValue()));
        }
        return out;
    }
}
