package dev.chdedup.stub.exec.geo;

import static dev.chdedup.stub.exec.geo.H3Arguments.CATEGORY;
import static dev.chdedup.stub.exec.geo.H3Arguments.INDEXES;
import static dev.chdedup.stub.exec.geo.H3Arguments.LAT_LNG;
import static dev.chdedup.stub.exec.geo.H3Arguments.asLong;
import static dev.chdedup.stub.exec.geo.H3Arguments.h3;

import com.uber.h3core.LengthUnit;
import com.uber.h3core.exceptions.H3Exception;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;
import java.util.function.LongFunction;

/**
 * The H3 functions of directed ("unidirectional") edges, as ClickHouse's h3GetUnidirectionalEdge.cpp and its
 * neighbours: an edge index is UInt64 and validated as an edge (INCORRECT_DATA, or the default under
 * functions_h3_default_if_invalid); h3GetUnidirectionalEdge and h3GetUnidirectionalEdgesFromHexagon take cells.
 */
final class FunctionsH3Edges {
    private static final DataType ORIGIN_DESTINATION = DataTypes.tuple(List.of(DataTypes.UINT64, DataTypes.UINT64),
        List.of("origin", "destination"));

    private FunctionsH3Edges() {
    }

    static void register(FunctionFactory f) {
        f.register("h3UnidirectionalEdgeIsValid", CATEGORY, (args, ctx) -> {
            Functions.arity("h3UnidirectionalEdgeIsValid", args, 1);
            H3Arguments.index("h3UnidirectionalEdgeIsValid", args, 0);
            return H3Arguments.scalar(DataTypes.UINT8, args, v -> h3().isValidDirectedEdge(asLong(v[0])) ? 1L : 0L);
        });
        f.register("h3ExactEdgeLengthKm", CATEGORY, (args, ctx) -> edge("h3ExactEdgeLengthKm", DataTypes.FLOAT64, 0.0, args, ctx,
            e -> h3().edgeLength(e, LengthUnit.km)));
        f.register("h3ExactEdgeLengthM", CATEGORY, (args, ctx) -> edge("h3ExactEdgeLengthM", DataTypes.FLOAT64, 0.0, args, ctx,
            e -> h3().edgeLength(e, LengthUnit.m)));
        f.register("h3ExactEdgeLengthRads", CATEGORY, (args, ctx) -> edge("h3ExactEdgeLengthRads", DataTypes.FLOAT64, 0.0, args, ctx,
            e -> h3().edgeLength(e, LengthUnit.rads)));
        f.register("h3GetOriginIndexFromUnidirectionalEdge", CATEGORY, (args, ctx) -> edge("h3GetOriginIndexFromUnidirectionalEdge",
            DataTypes.UINT64, 0L, args, ctx, e -> h3().getDirectedEdgeOrigin(e)));
        f.register("h3GetDestinationIndexFromUnidirectionalEdge", CATEGORY, (args, ctx) -> edge(
            "h3GetDestinationIndexFromUnidirectionalEdge", DataTypes.UINT64, 0L, args, ctx, e -> h3().getDirectedEdgeDestination(e)));
        f.register("h3GetIndexesFromUnidirectionalEdge", CATEGORY, (args, ctx) -> edge("h3GetIndexesFromUnidirectionalEdge",
            ORIGIN_DESTINATION, List.of(0L, 0L), args, ctx, e -> List.copyOf(h3().directedEdgeToCells(e))));
        f.register("h3GetUnidirectionalEdgeBoundary", CATEGORY, (args, ctx) -> edge("h3GetUnidirectionalEdgeBoundary",
            DataTypes.array(LAT_LNG), List.of(), args, ctx, e -> FunctionsH3.latLngs(h3().directedEdgeToBoundary(e))));
        f.register("h3GetUnidirectionalEdgesFromHexagon", CATEGORY, (args, ctx) -> FunctionsH3.cellArray(
            "h3GetUnidirectionalEdgesFromHexagon", INDEXES, args, ctx, FunctionsH3Edges::edgesFrom));
        f.register("h3GetUnidirectionalEdge", CATEGORY, (args, ctx) -> FunctionsH3Grid.ofTwoCells("h3GetUnidirectionalEdge",
            DataTypes.UINT64, args, ctx, 0L, (a, b) -> {
                try {
                    return h3().cellsToDirectedEdge(a, b);
                } catch (H3Exception e) {
                    return 0L;
                }
            }));
    }

    /** The six edges out of a cell; a pentagon's first, towards its deleted direction, is 0, as the library leaves it. */
    private static Object edgesFrom(long h) {
        List<Object> edges = H3Arguments.longs(h3().originToDirectedEdges(h));
        if (edges.size() < 6) {
            edges.add(0, 0L);
        }
        return edges;
    }

    /** A function of one directed edge: {@code dflt} for an invalid edge under functions_h3_default_if_invalid. */
    private static Evaluator edge(String fn, DataType result, Object dflt, List<Evaluator> args, QueryContext ctx, LongFunction<Object> of) {
        Functions.arity(fn, args, 1);
        H3Arguments.index(fn, args, 0);
        boolean strict = H3Arguments.throwOnInvalid(ctx);
        java.util.function.Function<Object[], Object> body = v -> {
            long e = asLong(v[0]);
            return H3Arguments.validEdge(e, strict) ? of.apply(e) : dflt;
        };
        return result instanceof ArrayType ? H3Arguments.array(result, args, body) : H3Arguments.scalar(result, args, body);
    }
}
