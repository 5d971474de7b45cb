package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.geo.PolygonGeometry.Shape;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import java.util.List;

/**
 * The "Geo Polygon" family (ClickHouse's polygon*.cpp, readWkt.cpp, readWkb.cpp over Boost.Geometry): registers the
 * readers ({@link FunctionsWKT}, {@link FunctionsWKB}), the measures ({@link FunctionsPolygonMeasures}) and the
 * relations and set operations, and holds the argument handling they share: a NULL argument gives NULL (no geometry
 * type is Nullable), an argument's type picks its shape ({@link PolygonGeometry#shape}), and a Point (or, for some
 * functions, a line) is refused with the engine's message.
 */
public final class FunctionsPolygon {
    static final String CATEGORY = "Geo Polygon";

    private FunctionsPolygon() {
    }

    public static void register(FunctionFactory f) {
        FunctionsWKT.register(f);
        FunctionsWKB.register(f);
        FunctionsPolygonMeasures.register(f);
        FunctionsPolygonRelations.register(f);
        FunctionMVTEncodeGeom.register(f);
        FunctionGeometryIntersect.register(f);
    }

    /** A function of one shape value. */
    interface Unary {
        Object apply(Shape shape, Object value);
    }

    /** A function of two shape values. */
    interface Binary {
        Object apply(Shape left, Object a, Shape right, Object b);
    }

    /**
     * A one-argument function returning {@code result}; a Point argument is refused with {@code pointError}
     * ({@code code}) naming the function.
     */
    static Evaluator unary(String name, List<Evaluator> args, DataType result, ErrorCode code, String pointError, Unary fn) {
        Functions.arity(name, args, 1);
        if (anyNull(args)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        Shape shape = PolygonGeometry.shape(args.get(0).type());
        if (shape == Shape.POINT) {
            throw new ChException(code, String.format(pointError, name));
        }
        return Functions.strict(result, args, v -> fn.apply(shape, v[0]));
    }

    /**
     * A two-argument function returning {@code result}: a Point argument is refused, and so is a LineString or
     * MultiLineString unless {@code lines}.
     */
    static Evaluator binary(String name, List<Evaluator> args, DataType result, boolean lines, Binary fn) {
        Functions.arity(name, args, 2);
        if (anyNull(args)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        Shape left = PolygonGeometry.shape(args.get(0).type());
        Shape right = PolygonGeometry.shape(args.get(1).type());
        for (Shape refused : lines ? List.of(Shape.POINT) : List.of(Shape.POINT, Shape.LINE_STRING, Shape.MULTI_LINE_STRING)) {
            if (left == refused || right == refused) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Any argument of function " + name + " must not be "
                    + refused.typeName);
            }
        }
        return Functions.strict(result, args, v -> fn.apply(left, v[0], right, v[1]));
    }

    /**
     * A reader of one String argument: NULL gives NULL where the result can be Nullable (a Point); an array-valued
     * geometry cannot, so a NULL row of a Nullable argument is read as the empty string, as the engine does.
     */
    static Evaluator reader(Shape shape, List<Evaluator> args, java.util.function.Function<String, Object> read) {
        if (shape == Shape.POINT || anyNull(args)) {
            return Functions.defaultForNulls(shape.type(), args, v -> read.apply((String) v[0]));
        }
        Evaluator a = args.get(0);
        return Evaluator.of(shape.type(), r -> {
            Object v = a.eval(r);
            return read.apply(v == null ? "" : (String) v);
        });
    }

    private static boolean anyNull(List<Evaluator> args) {
        return args.stream().anyMatch(e -> e.type().unwrap() instanceof NothingType);
    }
}
