package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;

/**
 * Geohashes, as ClickHouse's GeoHash.cpp: geohashEncode(longitude, latitude[, precision]) interleaves longitude and
 * latitude bits (longitude first, a bit 1 when the value is at or above the middle of its interval) into base-32
 * characters, at most 12 (precision 0 or above 12 means 12, the coordinates clamped to their ranges);
 * geohashDecode gives the middle of the cell, a character outside the alphabet read as all ones;
 * geohashesInBox lists the cells of a precision that cover a box, column by column from the south-west.
 */
final class FunctionsGeohash {
    private static final String ALPHABET = "0123456789bcdefghjkmnpqrstuvwxyz";
    private static final int MAX_PRECISION = 12;
    private static final long MAX_ITEMS = 10_000_000L;
    private static final DataType DECODED = DataTypes.parse("Tuple(longitude Float64, latitude Float64)");

    private FunctionsGeohash() {
    }

    static void register(FunctionFactory f) {
        f.register("geohashEncode", FunctionsGeo.CATEGORY, (args, ctx) -> encode(args));
        f.register("geohashDecode", FunctionsGeo.CATEGORY, (args, ctx) -> decode(args));
        f.register("geohashesInBox", FunctionsGeo.CATEGORY, (args, ctx) -> inBox(args));
    }

    private static Evaluator encode(List<Evaluator> args) {
        Functions.argumentCount("geohashEncode", args, 2, 1);
        String[] names = {"longitude", "latitude"};
        for (int i = 0; i < 2; i++) {
            if (!(args.get(i).type() instanceof FloatType)) {
                throw illegal(i, names[i], "geohashEncode", "Float*", args.get(i).type());
            }
        }
        if (args.size() == 3 && !(args.get(2).type() instanceof IntType)) {
            throw illegal(2, "precision", "geohashEncode", "(U)Int*", args.get(2).type());
        }
        return Evaluator.of(DataTypes.STRING, r -> {
            double lon = ((Number) args.get(0).eval(r)).doubleValue();
            double lat = ((Number) args.get(1).eval(r)).doubleValue();
            int precision = args.size() == 3 ? precision(((Number) args.get(2).eval(r)).longValue()) : MAX_PRECISION;
            return ByteStrings.fromText(encode(lon, lat, precision));
        });
    }

    /** The engine takes the precision's low byte and reads 0 or more than 12 as 12. */
    private static int precision(long p) {
        int b = (int) (p & 0xFF);
        return b == 0 || b > MAX_PRECISION ? MAX_PRECISION : b;
    }

    private static ChException illegal(int i, String name, String fn, String expected, DataType got) {
        String[] ordinal = {"1st", "2nd", "3rd", "4th", "5th"};
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as "
            + ordinal[i] + " argument '" + name + "' to function '" + fn + "'. Expected: " + expected + ", got: " + got.name());
    }

    static String encode(double lon, double lat, int precision) {
        double[] lonRange = {-180, 180};
        double[] latRange = {-90, 90};
        lon = clamp(lon, 180);
        lat = clamp(lat, 90);
        StringBuilder out = new StringBuilder(precision);
        boolean even = true;
        for (int c = 0; c < precision; c++) {
            int ch = 0;
            for (int b = 0; b < 5; b++) {
                double[] range = even ? lonRange : latRange;
                double v = even ? lon : lat;
                double mid = (range[0] + range[1]) / 2;
                ch <<= 1;
                if (v >= mid) {
                    ch |= 1;
                    range[0] = mid;
                } else {
                    range[1] = mid;
                }
                even = !even;
            }
            out.append(ALPHABET.charAt(ch));
        }
        return out.toString();
    }

    private static double clamp(double v, double limit) {
        return Math.max(-limit, Math.min(limit, v));
    }

    private static Evaluator decode(List<Evaluator> args) {
        Functions.arity("geohashDecode", args, 1);
        if (!(args.get(0).type().unwrap() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of argument of function geohashDecode");
        }
        return Evaluator.of(DECODED, r -> {
            double[] cell = decode(ByteStrings.bytes((String) args.get(0).eval(r)));
            return List.of((cell[0] + cell[1]) / 2, (cell[2] + cell[3]) / 2);
        });
    }

    /** The cell {lonMin, lonMax, latMin, latMax} of a geohash of at most 12 characters (more are ignored). */
    private static double[] decode(byte[] hash) {
        if (hash.length == 0) {
            return new double[] {0, 0, 0, 0};
        }
        double[] cell = {-180, 180, -90, 90};
        boolean even = true;
        for (int c = 0; c < Math.min(hash.length, MAX_PRECISION); c++) {
            int v = ALPHABET.indexOf((char) (hash[c] & 0xFF));
            if (v < 0) {
                v = 31;
            }
            for (int b = 4; b >= 0; b--) {
                int at = even ? 0 : 2;
                double mid = (cell[at] + cell[at + 1]) / 2;
                if ((v >> b & 1) == 1) {
                    cell[at] = mid;
                } else {
                    cell[at + 1] = mid;
                }
                even = !even;
            }
        }
        return cell;
    }

    private static Evaluator inBox(List<Evaluator> args) {
        Functions.arity("geohashesInBox", args, 5);
        DataType first = args.get(0).type();
        for (int i = 0; i < 4; i++) {
            if (!(args.get(i).type() instanceof FloatType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(i).type().name() + " of argument "
                    + (i + 1) + " of function geohashesInBox, expected Float32 or Float64");
            }
        }
        if (!args.get(1).type().equals(first) || !args.get(2).type().equals(first) || !args.get(3).type().equals(first)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type of argument of geohashesInBox all coordinate "
                + "arguments must have the same type, instead they are:" + first.name() + ", " + args.get(1).type().name() + ", "
                + args.get(2).type().name() + ", " + args.get(3).type().name());
        }
        if (!(args.get(4).type() instanceof IntType it) || it.bits != 8 || it.signed) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(4).type().name()
                + " of argument 5 of function geohashesInBox, expected UInt8");
        }
        return Evaluator.of(DataTypes.array(DataTypes.STRING), r -> {
            double[] v = new double[4];
            for (int i = 0; i < 4; i++) {
                v[i] = ((Number) args.get(i).eval(r)).doubleValue();
            }
            return inBox(v[0], v[1], v[2], v[3], precision(((Number) args.get(4).eval(r)).longValue()));
        });
    }

    static List<String> inBox(double lonMin, double latMin, double lonMax, double latMax, int precision) {
        lonMin = clamp(lonMin, 180);
        latMin = clamp(latMin, 90);
        lonMax = clamp(lonMax, 180);
        latMax = clamp(latMax, 90);
        List<String> out = new ArrayList<>();
        if (lonMin > lonMax || latMin > latMax) {
            return out;
        }
        if (lonMin == lonMax || latMin == latMax) {
            // a box without width or height, after clamping: the one cell of its south-west corner
            out.add(ByteStrings.fromText(encode(lonMin, latMin, precision)));
            return out;
        }
        int lonBits = (precision * 5 + 1) / 2;
        int latBits = precision * 5 / 2;
        double lonStep = 360.0 / (1L << lonBits);
        double latStep = 180.0 / (1L << latBits);
        double lonStart = Math.floor(lonMin / lonStep) * lonStep;
        double latStart = Math.floor(latMin / latStep) * latStep;
        long lonItems = Math.max(1, (long) Math.ceil((lonMax - lonStart) / lonStep));
        long latItems = Math.max(1, (long) Math.ceil((latMax - latStart) / latStep));
        if (lonItems * latItems > MAX_ITEMS) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "geohashesInBox would produce " + lonItems * latItems
                + " array elements, which is bigger than the allowed maximum of " + MAX_ITEMS);
        }
        for (long j = 0; j < lonItems; j++) {
            for (long i = 0; i < latItems; i++) {
                out.add(ByteStrings.fromText(encode(lonStart + lonStep * j + lonStep / 2, latStart + latStep * i + latStep / 2, precision)));
            }
        }
        return out;
    }
}
