package dev.chdedup.stub.exec.geo;

import static dev.chdedup.stub.exec.geo.H3Arguments.CATEGORY;
import static dev.chdedup.stub.exec.geo.H3Arguments.INDEXES;
import static dev.chdedup.stub.exec.geo.H3Arguments.LAT_LNG;
import static dev.chdedup.stub.exec.geo.H3Arguments.asDouble;
import static dev.chdedup.stub.exec.geo.H3Arguments.asLong;
import static dev.chdedup.stub.exec.geo.H3Arguments.h3;

import com.uber.h3core.AreaUnit;
import com.uber.h3core.util.LatLng;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.LongFunction;

/**
 * The H3 functions of one cell or one resolution, as ClickHouse's h3*.cpp and geoToH3.cpp over Uber's H3 library
 * (the engine links the same C core): geoToH3, h3ToGeo, h3ToGeoBoundary, h3ToString, stringToH3, h3IsValid,
 * h3GetResolution, h3GetBaseCell, h3IsPentagon, h3IsResClassIII, h3GetFaces, h3CellAreaM2, h3CellAreaRads2, and of a
 * resolution h3EdgeAngle, h3EdgeLengthKm, h3EdgeLengthM, h3HexAreaKm2, h3HexAreaM2, h3NumHexagons,
 * h3GetPentagonIndexes, h3GetRes0Indexes. Grid traversal and hierarchy are in {@link FunctionsH3Grid}, directed
 * edges in {@link FunctionsH3Edges}. Coordinates are in degrees, cells are UInt64.
 */
public final class FunctionsH3 {
    /** 180 / pi / the Earth's radius in metres of H3 (ClickHouse's h3EdgeAngle). */
    private static final double DEGREES_PER_METRE = 8.99320592271288084e-6;

    /**
     * The average hexagon edge length per resolution in metres and in kilometres, as the H3 release ClickHouse bundles
     * tabulates them (newer than the Java binding's table, which predates their correction).
     */
    private static final double[] EDGE_LENGTH_M = {1281256.011, 483056.8391, 182512.9565, 68979.22179, 26071.75968,
        9854.09099, 3724.532667, 1406.475763, 531.4140101, 200.7861476, 75.86378287, 28.66389748, 10.83018784,
        4.092010473, 1.546099657, 0.58416863};
    private static final double[] EDGE_LENGTH_KM = {1281.256011, 483.0568391, 182.5129565, 68.97922179, 26.07175968,
        9.85409099, 3.724532667, 1.406475763, 0.53141401, 0.200786148, 0.075863783, 0.028663897, 0.010830188,
        0.00409201, 0.0015461, 0.000584169};

    private FunctionsH3() {
    }

    public static void register(FunctionFactory f) {
        f.register("geoToH3", CATEGORY, FunctionsH3::geoToH3);
        f.register("h3ToGeo", CATEGORY, FunctionsH3::h3ToGeo);
        f.register("h3ToGeoBoundary", CATEGORY, (args, ctx) -> cellArray("h3ToGeoBoundary", DataTypes.array(LAT_LNG), args, ctx,
            h -> latLngs(h3().cellToBoundary(h))));
        f.register("h3ToString", CATEGORY, (args, ctx) -> h3ToString(args));
        f.register("stringToH3", CATEGORY, (args, ctx) -> stringToH3(args));
        f.register("h3IsValid", CATEGORY, (args, ctx) -> {
            Functions.arity("h3IsValid", args, 1);
            H3Arguments.index("h3IsValid", args, 0);
            return H3Arguments.scalar(DataTypes.UINT8, args, v -> h3().isValidCell(asLong(v[0])) ? 1L : 0L);
        });
        f.register("h3GetResolution", CATEGORY, (args, ctx) -> cell("h3GetResolution", DataTypes.UINT8, 0L, args, ctx,
            h -> (long) h3().getResolution(h)));
        f.register("h3GetBaseCell", CATEGORY, (args, ctx) -> cell("h3GetBaseCell", DataTypes.UINT8, 0L, args, ctx,
            h -> (long) h3().getBaseCellNumber(h)));
        f.register("h3IsPentagon", CATEGORY, (args, ctx) -> cell("h3IsPentagon", DataTypes.UINT8, 0L, args, ctx,
            h -> h3().isPentagon(h) ? 1L : 0L));
        f.register("h3IsResClassIII", CATEGORY, (args, ctx) -> cell("h3IsResClassIII", DataTypes.UINT8, 0L, args, ctx,
            h -> h3().isResClassIII(h) ? 1L : 0L));
        f.register("h3GetFaces", CATEGORY, (args, ctx) -> cellArray("h3GetFaces", DataTypes.array(DataTypes.UINT8), args, ctx, h -> {
            List<Object> out = new ArrayList<>();
            for (Integer face : h3().getIcosahedronFaces(h)) {
                out.add((long) face);
            }
            return out;
        }));
        f.register("h3CellAreaM2", CATEGORY, (args, ctx) -> cell("h3CellAreaM2", DataTypes.FLOAT64, 0.0, args, ctx,
            h -> h3().cellArea(h, AreaUnit.m2)));
        f.register("h3CellAreaRads2", CATEGORY, (args, ctx) -> cell("h3CellAreaRads2", DataTypes.FLOAT64, 0.0, args, ctx,
            h -> h3().cellArea(h, AreaUnit.rads2)));
        f.register("h3EdgeAngle", CATEGORY, (args, ctx) -> ofResolution("h3EdgeAngle", DataTypes.FLOAT64, args,
            r -> DEGREES_PER_METRE * EDGE_LENGTH_M[r]));
        f.register("h3EdgeLengthKm", CATEGORY, (args, ctx) -> ofResolution("h3EdgeLengthKm", DataTypes.FLOAT64, args,
            r -> EDGE_LENGTH_KM[r]));
        f.register("h3EdgeLengthM", CATEGORY, (args, ctx) -> ofResolution("h3EdgeLengthM", DataTypes.FLOAT64, args,
            r -> EDGE_LENGTH_M[r]));
        f.register("h3HexAreaKm2", CATEGORY, (args, ctx) -> ofResolution("h3HexAreaKm2", DataTypes.FLOAT64, args,
            r -> h3().getHexagonAreaAvg(r, AreaUnit.km2)));
        f.register("h3HexAreaM2", CATEGORY, (args, ctx) -> ofResolution("h3HexAreaM2", DataTypes.FLOAT64, args,
            r -> h3().getHexagonAreaAvg(r, AreaUnit.m2)));
        f.register("h3NumHexagons", CATEGORY, (args, ctx) -> ofResolution("h3NumHexagons", DataTypes.INT64, args,
            r -> h3().getNumCells(r)));
        f.register("h3GetPentagonIndexes", CATEGORY, (args, ctx) -> ofResolution("h3GetPentagonIndexes", INDEXES, args,
            r -> H3Arguments.longs(h3().getPentagons(r))));
        f.register("h3GetRes0Indexes", CATEGORY, (args, ctx) -> {
            Functions.arity("h3GetRes0Indexes", args, 0);
            return Evaluator.of(INDEXES, r -> H3Arguments.longs(h3().getRes0Cells()));
        });
        FunctionsH3Grid.register(f);
        FunctionsH3Edges.register(f);
        FunctionsH3Polygon.register(f);
    }

    /** A function of one cell: {@code dflt} for an invalid cell when functions_h3_default_if_invalid is set. */
    static Evaluator cell(String fn, DataType result, Object dflt, List<Evaluator> args, QueryContext ctx, LongFunction<Object> of) {
        Functions.arity(fn, args, 1);
        H3Arguments.index(fn, args, 0);
        boolean strict = H3Arguments.throwOnInvalid(ctx);
        return H3Arguments.scalar(result, args, v -> {
            long h = asLong(v[0]);
            return H3Arguments.validCell(h, strict) ? of.apply(h) : dflt;
        });
    }

    /** A function of one cell returning an array: empty for an invalid cell when functions_h3_default_if_invalid is set. */
    static Evaluator cellArray(String fn, DataType result, List<Evaluator> args, QueryContext ctx, LongFunction<Object> of) {
        Functions.arity(fn, args, 1);
        H3Arguments.index(fn, args, 0);
        boolean strict = H3Arguments.throwOnInvalid(ctx);
        return H3Arguments.array(result, args, v -> {
            long h = asLong(v[0]);
            return H3Arguments.validCell(h, strict) ? of.apply(h) : List.of();
        });
    }

    /** A function of a resolution (UInt8, at most 15). */
    private static Evaluator ofResolution(String fn, DataType result, List<Evaluator> args, IntFunction<Object> of) {
        Functions.arity(fn, args, 1);
        H3Arguments.resolutionType(fn, args, 0);
        java.util.function.Function<Object[], Object> body = v -> of.apply(H3Arguments.resolution(fn, v[0]));
        return result instanceof ArrayType ? H3Arguments.array(result, args, body)
            : H3Arguments.scalar(result, args, body);
    }

    /** Points as the engine's Array(Tuple(Float64, Float64)) of (latitude, longitude). */
    static List<Object> latLngs(List<LatLng> points) {
        List<Object> out = new ArrayList<>();
        for (LatLng p : points) {
            out.add(List.of(p.lat, p.lng));
        }
        return out;
    }

    /**
     * geoToH3(latitude, longitude, resolution), or (longitude, latitude) when geotoh3_argument_order is lon_lat: the
     * cell containing the point. The coordinates must be Float64 (a Float32 passes the type check and fails as a column).
     */
    private static Evaluator geoToH3(List<Evaluator> args, QueryContext ctx) {
        String fn = "geoToH3";
        Functions.arity(fn, args, 3);
        boolean lonLat = ctx.settings().get("geotoh3_argument_order").trim().equalsIgnoreCase("lon_lat");
        for (int i = 0; i < 2; i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof FloatType) && !Functions.isNothing(args.get(i))) {
                throw H3Arguments.illegalType(fn, i + 1, args.get(i).type(), "Float64");
            }
        }
        H3Arguments.resolutionType(fn, args, 2);
        for (int i = 0; i < 2; i++) {
            if (args.get(i).type().unwrap() instanceof FloatType ft && !ft.is64) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal type " + args.get(i).type().name() + " of argument "
                    + (i + 1) + " of function " + fn + ". Must be Float64");
            }
        }
        return H3Arguments.scalar(DataTypes.UINT64, args, v -> {
            double lat = asDouble(v[lonLat ? 1 : 0]);
            double lon = asDouble(v[lonLat ? 0 : 1]);
            int res = H3Arguments.resolution(fn, v[2]);
            if (!Double.isFinite(lat) || !Double.isFinite(lon)) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Incorrect coordinates latitude: " + lat + ", longitude: "
                    + Math.toRadians(lon) + ", error: 3");
            }
            return h3().latLngToCell(lat, lon, res);
        });
    }

    /** h3ToGeo: the cell's centre as (latitude, longitude), or (longitude, latitude) under h3togeo_lon_lat_result_order. */
    private static Evaluator h3ToGeo(List<Evaluator> args, QueryContext ctx) {
        boolean lonLat = ctx.settings().getBool("h3togeo_lon_lat_result_order");
        DataType result = lonLat
            ? DataTypes.tuple(List.of(DataTypes.FLOAT64, DataTypes.FLOAT64), List.of("longitude", "latitude"))
            : DataTypes.tuple(List.of(DataTypes.FLOAT64, DataTypes.FLOAT64), List.of("latitude", "longitude"));
        return cell("h3ToGeo", result, List.of(0.0, 0.0), args, ctx, h -> {
            LatLng p = h3().cellToLatLng(h);
            return lonLat ? List.of(p.lng, p.lat) : List.of(p.lat, p.lng);
        });
    }

    /** h3ToString: the index in lower-case hexadecimal; a value that is not a cell is ILLEGAL_TYPE_OF_ARGUMENT. */
    private static Evaluator h3ToString(List<Evaluator> args) {
        Functions.arity("h3ToString", args, 1);
        H3Arguments.index("h3ToString", args, 0);
        return H3Arguments.scalar(DataTypes.STRING, args, v -> {
            long h = asLong(v[0]);
            if (!h3().isValidCell(h)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Invalid H3 index: " + Long.toUnsignedString(h)
                    + " in function h3ToString");
            }
            return ByteStrings.fromText(Long.toHexString(h));
        });
    }

    /**
     * stringToH3: the hexadecimal number the string starts with, read as C's scanf %x reads it (leading spaces, a sign,
     * an optional 0x, saturating at 2^64-1); no number, or 0, is ILLEGAL_TYPE_OF_ARGUMENT. The index is not validated.
     */
    private static Evaluator stringToH3(List<Evaluator> args) {
        Functions.arity("stringToH3", args, 1);
        if (!(args.get(0).type().unwrap() instanceof StringType) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of argument 1 of function stringToH3. Must be String or FixedString");
        }
        return H3Arguments.scalar(DataTypes.UINT64, args, v -> {
            byte[] s = ByteStrings.bytes((String) v[0]);
            long h = scanHex(s);
            if (h == 0) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Invalid H3 index: " + ByteStrings.toText((String) v[0])
                    + " in function stringToH3");
            }
            return h;
        });
    }

    static long scanHex(byte[] s) {
        int i = 0;
        while (i < s.length && (s[i] == ' ' || s[i] >= '\t' && s[i] <= '\r')) {
            i++;
        }
        boolean negative = false;
        if (i < s.length && (s[i] == '+' || s[i] == '-')) {
            negative = s[i] == '-';
            i++;
        }
        if (i + 2 < s.length && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X') && Character.digit(s[i + 2], 16) >= 0) {
            i += 2;
        }
        long value = 0;
        boolean overflow = false;
        for (; i < s.length && Character.digit(s[i], 16) >= 0; i++) {
            if ((value >>> 60) != 0) {
                overflow = true;
            }
            value = value << 4 | Character.digit(s[i], 16);
        }
        if (overflow) {
            return -1L;
        }
        return negative ? -value : value;
    }
}
