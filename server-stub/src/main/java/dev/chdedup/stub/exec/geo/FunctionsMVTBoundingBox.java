package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * MVTBoundingBox(zoom, tile_x, tile_y[, margin]) and MVTBoundingBoxMercator: the box of a slippy-map tile, grown by
 * {@code margin} tile sizes on each side and clamped to the world, in degrees (min_lon, min_lat, max_lon, max_lat) or
 * in the engine's Web Mercator space of 2^32 units a side with y pointing down (min_x, min_y, max_x, max_y). Zoom is
 * at most 32 and the tile indices below 2^zoom; the arguments are unsigned integers (margin any number), never
 * Nullable. A latitude can differ from the engine's in its last digits.
 */
public final class FunctionsMVTBoundingBox {
    private static final String CATEGORY = "Geo";
    private static final double WORLD = 4294967296.0;
    private static final DataType DEGREES = DataTypes.parse("Tuple(min_lon Float64, min_lat Float64, max_lon Float64, max_lat Float64)");
    private static final DataType MERCATOR = DataTypes.parse("Tuple(min_x Float64, min_y Float64, max_x Float64, max_y Float64)");

    private FunctionsMVTBoundingBox() {
    }

    public static void register(FunctionFactory f) {
        f.register("MVTBoundingBox", CATEGORY, (args, ctx) -> box("MVTBoundingBox", DEGREES, args));
        f.register("MVTBoundingBoxMercator", CATEGORY, (args, ctx) -> box("MVTBoundingBoxMercator", MERCATOR, args));
    }

    private static void unsigned(String fn, List<Evaluator> args, int i, String name, String expected) {
        DataType t = args.get(i).type();
        if (!(t instanceof IntType it && !it.signed)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, name, fn, expected, t);
        }
    }

    private static Evaluator box(String fn, DataType result, List<Evaluator> args) {
        Functions.argumentCount(fn, args, 3, 1);
        unsigned(fn, args, 0, "zoom", "UInt8");
        unsigned(fn, args, 1, "tile_x", "UInt32");
        unsigned(fn, args, 2, "tile_y", "UInt32");
        if (args.size() == 4 && (args.get(3).type().isNullable() || !TypeRules.isNumeric(args.get(3).type()))) {
            // the engine numbers this argument "3th"
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as 3th argument 'margin' to function '"
                + fn + "'. Expected: Float64, got: " + args.get(3).type().name());
        }
        boolean degrees = result == DEGREES;
        return Evaluator.of(result, r -> {
            long zoom = (Long) args.get(0).eval(r);
            long x = (Long) args.get(1).eval(r);
            long y = (Long) args.get(2).eval(r);
            double margin = args.size() == 4 ? Values.toNumber(args.get(3).eval(r), args.get(3).type()).doubleValue() : 0.0;
            if (Long.compareUnsigned(zoom, 32) > 0) {
                throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The 'zoom' argument (" + Long.toUnsignedString(zoom) + ") of function "
                    + fn + " must be between 0 and 32");
            }
            long tiles = 1L << zoom;
            if (Long.compareUnsigned(x, tiles) >= 0 || Long.compareUnsigned(y, tiles) >= 0) {
                throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The tile indices (tile_x = " + Long.toUnsignedString(x) + ", tile_y = "
                    + Long.toUnsignedString(y) + ") of function " + fn + " must be less than 2^zoom = " + tiles);
            }
            if (!Double.isFinite(margin) || margin < 0) {
                throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The 'margin' argument (" + margin + ") of function " + fn
                    + " must be a finite, non-negative number");
            }
            double size = WORLD / tiles;
            double minX = Math.max(0, x * size - margin * size);
            double minY = Math.max(0, y * size - margin * size);
            double maxX = Math.min(WORLD, (x + 1) * size + margin * size);
            double maxY = Math.min(WORLD, (y + 1) * size + margin * size);
            if (!degrees) {
                return List.of(minX, minY, maxX, maxY);
            }
            return List.of(longitude(minX), latitude(maxY), longitude(maxX), latitude(minY));
        });
    }

    private static double longitude(double x) {
        return x / WORLD * 360 - 180;
    }

    /** The inverse Web Mercator of a y (0 at the north edge). */
    private static double latitude(double y) {
        double t = Math.PI * (1 - 2 * y / WORLD);
        return 2 * Math.atan(Math.exp(t)) * 180 / Math.PI - 90;
    }
}
