package dev.chdedup.stub.exec.geo;

import static dev.chdedup.stub.exec.geo.H3Arguments.CATEGORY;
import static dev.chdedup.stub.exec.geo.H3Arguments.INDEXES;
import static dev.chdedup.stub.exec.geo.H3Arguments.asDouble;
import static dev.chdedup.stub.exec.geo.H3Arguments.asLong;
import static dev.chdedup.stub.exec.geo.H3Arguments.h3;

import com.uber.h3core.LengthUnit;
import com.uber.h3core.exceptions.H3Exception;
import com.uber.h3core.util.LatLng;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;

/**
 * The H3 functions of the grid, as ClickHouse's h3ToParent.cpp, h3ToChildren.cpp, h3kRing.cpp and the like: the
 * hierarchy (h3ToParent, h3ToChildren, h3ToCenterChild), traversal (h3kRing, h3HexRing, h3Distance, h3Line,
 * h3IndexesAreNeighbors) and the great-circle distances h3PointDistKm, h3PointDistM, h3PointDistRads. Where the H3
 * library reports an error the engine answers its default (0, -1 or an empty array) unless noted.
 */
final class FunctionsH3Grid {
    /** The engine refuses an array of more elements (h3ToChildren). */
    private static final long MAX_ARRAY_SIZE = 1L << 30;
    /** The stub refuses to build more cells in one array than this, a memory bound the engine does not have. */
    private static final long MAX_STUB_ELEMENTS = 1L << 24;
    private static final int MAX_K = 10_000;
    /** The Earth's authalic radius of H3 in kilometres. */
    private static final double EARTH_RADIUS_KM = 6371.007180918475;

    private FunctionsH3Grid() {
    }

    static void register(FunctionFactory f) {
        f.register("h3ToParent", CATEGORY, (args, ctx) -> ofCellAndResolution("h3ToParent", args, ctx, false, (h, res) -> {
            try {
                return h3().cellToParent(h, res);
            } catch (H3Exception | IllegalArgumentException e) {
                return 0L;
            }
        }));
        f.register("h3ToCenterChild", CATEGORY, (args, ctx) -> ofCellAndResolution("h3ToCenterChild", args, ctx, false, (h, res) -> {
            try {
                return h3().cellToCenterChild(h, res);
            } catch (H3Exception | IllegalArgumentException e) {
                return 0L;
            }
        }));
        f.register("h3ToChildren", CATEGORY, (args, ctx) -> ofCellAndResolution("h3ToChildren", args, ctx, true, FunctionsH3Grid::children));
        f.register("h3kRing", CATEGORY, FunctionsH3Grid::kRing);
        f.register("h3HexRing", CATEGORY, FunctionsH3Grid::hexRing);
        f.register("h3Distance", CATEGORY, (args, ctx) -> ofTwoCells("h3Distance", DataTypes.INT64, args, ctx, -1L, (a, b) -> {
            try {
                return h3().gridDistance(a, b);
            } catch (H3Exception e) {
                return -1L;
            }
        }));
        f.register("h3Line", CATEGORY, (args, ctx) -> ofTwoCells("h3Line", INDEXES, args, ctx, List.of(), (a, b) -> {
            try {
                return H3Arguments.longs(h3().gridPathCells(a, b));
            } catch (H3Exception e) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Line cannot be computed between start H3 index "
                    + Long.toUnsignedString(a) + " and end H3 index " + Long.toUnsignedString(b) + ", error: " + e.getCode());
            }
        }));
        f.register("h3IndexesAreNeighbors", CATEGORY, (args, ctx) -> ofTwoCells("h3IndexesAreNeighbors", DataTypes.UINT8, args, ctx, 0L, (a, b) -> {
            try {
                return h3().areNeighborCells(a, b) ? 1L : 0L;
            } catch (H3Exception e) {
                return 0L;
            }
        }));
        f.register("h3PointDistKm", CATEGORY, (args, ctx) -> pointDist("h3PointDistKm", EARTH_RADIUS_KM, args));
        f.register("h3PointDistM", CATEGORY, (args, ctx) -> pointDist("h3PointDistM", EARTH_RADIUS_KM * 1000, args));
        f.register("h3PointDistRads", CATEGORY, (args, ctx) -> pointDist("h3PointDistRads", 1.0, args));
    }

    @FunctionalInterface
    interface CellAndInt {
        Object apply(long cell, int n);
    }

    @FunctionalInterface
    interface TwoCells {
        Object apply(long a, long b);
    }

    /** f(cell UInt64, resolution UInt8): the resolution checked before the cell, an invalid cell answering 0 or []. */
    private static Evaluator ofCellAndResolution(String fn, List<Evaluator> args, QueryContext ctx, boolean array, CellAndInt of) {
        Functions.arity(fn, args, 2);
        H3Arguments.index(fn, args, 0);
        H3Arguments.resolutionType(fn, args, 1);
        boolean strict = H3Arguments.throwOnInvalid(ctx);
        java.util.function.Function<Object[], Object> body = v -> {
            int res = H3Arguments.resolution(fn, v[1]);
            long h = asLong(v[0]);
            if (!H3Arguments.validCell(h, strict)) {
                return array ? List.of() : 0L;
            }
            return of.apply(h, res);
        };
        return array ? H3Arguments.array(INDEXES, args, body) : H3Arguments.scalar(DataTypes.UINT64, args, body);
    }

    private static Object children(long h, int res) {
        long size;
        try {
            size = h3().cellToChildrenSize(h, res);
        } catch (H3Exception | IllegalArgumentException e) {
            return List.of();
        }
        if (size > MAX_ARRAY_SIZE) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "The result of function h3ToChildren (array of " + size
                + " elements) will be too large with resolution argument = " + res);
        }
        if (size > MAX_STUB_ELEMENTS) {
            throw new ChException(ErrorCode.MEMORY_LIMIT_EXCEEDED, "h3ToChildren would build an array of " + size
                + " elements, more than the stub holds in memory (" + MAX_STUB_ELEMENTS + ")");
        }
        return H3Arguments.longs(h3().cellToChildren(h, res));
    }

    /** f(cell, cell): both validated; an invalid one answers {@code dflt} under functions_h3_default_if_invalid. */
    static Evaluator ofTwoCells(String fn, DataType result, List<Evaluator> args, QueryContext ctx, Object dflt, TwoCells of) {
        Functions.arity(fn, args, 2);
        H3Arguments.index(fn, args, 0);
        H3Arguments.index(fn, args, 1);
        boolean strict = H3Arguments.throwOnInvalid(ctx);
        java.util.function.Function<Object[], Object> body = v -> {
            long a = asLong(v[0]);
            long b = asLong(v[1]);
            if (!H3Arguments.validCell(a, strict) || !H3Arguments.validCell(b, strict)) {
                return dflt;
            }
            return of.apply(a, b);
        };
        return result instanceof ArrayType ? H3Arguments.array(result, args, body) : H3Arguments.scalar(result, args, body);
    }

    /**
     * h3kRing(cell, k): the cells within k steps, k of any unsigned integer type, converted to UInt16
     * (CANNOT_CONVERT_TYPE above 65535) and at most 10000.
     */
    private static Evaluator kRing(List<Evaluator> args, QueryContext ctx) {
        String fn = "h3kRing";
        Functions.arity(fn, args, 2);
        H3Arguments.index(fn, args, 0);
        if (!(args.get(1).type().unwrap() instanceof dev.chdedup.stub.types.IntType it && !it.signed) && !Functions.isNothing(args.get(1))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name()
                + " of argument 2 of function " + fn + ". Must be unsigned native integer");
        }
        String kType = args.get(1).type().unwrap().name();
        boolean strict = H3Arguments.throwOnInvalid(ctx);
        return H3Arguments.array(INDEXES, args, v -> {
            long k = asLong(v[1]);
            if (k < 0 || k > 0xFFFF) {
                throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Value in column " + kType
                    + " cannot be safely converted into type UInt16");
            }
            if (k > MAX_K) {
                throw new ChException(ErrorCode.PARAMETER_OUT_OF_BOUND, "Too large 'k' argument for h3kRing function, maximum " + MAX_K);
            }
            long h = asLong(v[0]);
            if (!H3Arguments.validCell(h, strict)) {
                return List.of();
            }
            long size = 3 * k * (k + 1) + 1;
            if (size > MAX_STUB_ELEMENTS) {
                throw new ChException(ErrorCode.MEMORY_LIMIT_EXCEEDED, "h3kRing would build an array of " + size
                    + " elements, more than the stub holds in memory (" + MAX_STUB_ELEMENTS + ")");
            }
            return H3Arguments.longs(h3().gridDisk(h, (int) k));
        });
    }

    /** h3HexRing(cell, k UInt16): the hollow ring at distance k; a pentagon on the way is INCORRECT_DATA. */
    private static Evaluator hexRing(List<Evaluator> args, QueryContext ctx) {
        String fn = "h3HexRing";
        Functions.arity(fn, args, 2);
        H3Arguments.index(fn, args, 0);
        H3Arguments.unsigned(fn, args, 1, 16, "UInt16");
        boolean strict = H3Arguments.throwOnInvalid(ctx);
        return H3Arguments.array(INDEXES, args, v -> {
            long h = asLong(v[0]);
            int k = (int) asLong(v[1]);
            if (!H3Arguments.validCell(h, strict)) {
                return List.of();
            }
            try {
                return H3Arguments.longs(h3().gridRingUnsafe(h, k));
            } catch (H3Exception e) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Incorrect arguments h3Index: " + Long.toUnsignedString(h) + ", k: "
                    + k + ", error: " + e.getCode());
            }
        });
    }

    /**
     * h3PointDist*(lat1, lon1, lat2, lon2), all Float64 in degrees: H3's great-circle distance in radians times the
     * unit's Earth radius (1 for radians), as the engine's library rounds it.
     */
    private static Evaluator pointDist(String fn, double metres, List<Evaluator> args) {
        Functions.arity(fn, args, 4);
        for (int i = 0; i < 4; i++) {
            H3Arguments.float64(fn, args, i);
        }
        return H3Arguments.scalar(DataTypes.FLOAT64, args, v -> metres * h3().greatCircleDistance(
            new LatLng(asDouble(v[0]), asDouble(v[1])), new LatLng(asDouble(v[2]), asDouble(v[3])), LengthUnit.rads));
    }
}
