package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.VariantType;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Well-Known Binary and Text of the geo types, as ClickHouse's readWkb, wkb and readWkt: readWKB(String) and
 * readWKT(String) answer a Geometry (the variant Point, LineString, Polygon, MultiLineString or MultiPolygon the
 * encoding names; bytes after the geometry are ignored, text after it is CANNOT_PARSE_TEXT), wkb writes a Point,
 * LineString, Polygon, MultiLineString, MultiPolygon or Geometry as little-endian WKB (NULL for a NULL Geometry; Ring
 * is refused). Big-endian WKB is read too. These are the Geometry-typed forms; the readers of one concrete type
 * (readWKBPoint, readWKTPolygon, ...) are the polygon family's.
 */
public final class FunctionsGeometryWKB {
    private static final String CATEGORY = "Geo";
    private static final int POINT = 1;
    private static final int LINE_STRING = 2;
    private static final int POLYGON = 3;
    private static final int MULTI_LINE_STRING = 5;
    private static final int MULTI_POLYGON = 6;
    private static final List<String> TYPE_NAMES = List.of("", "Point", "LineString", "Polygon", "", "MultiLineString", "MultiPolygon");

    private FunctionsGeometryWKB() {
    }

    public static void register(FunctionFactory f) {
        f.register("readWKB", CATEGORY, (args, ctx) -> read("readWKB", args, FunctionsGeometryWKB::readWkb));
        f.register("readWKT", CATEGORY, (args, ctx) -> read("readWKT", args, GeometryWKTReader::read));
        f.register("wkb", CATEGORY, (args, ctx) -> wkb(args));
    }

    static DataType geoType(int wkbType) {
        return DataTypes.parse(TYPE_NAMES.get(wkbType));
    }

    /**
     * A reader of String: NULL for the NULL literal; a NULL row of a Nullable(String) is read as the empty string, as
     * the engine reads the nested column (so it fails as '' does), since a Geometry cannot be inside Nullable.
     */
    private static Evaluator read(String fn, List<Evaluator> args, java.util.function.Function<byte[], TypedValue> reader) {
        Functions.arity(fn, args, 1);
        Evaluator a = args.get(0);
        if (Functions.isNothing(a)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        if (!(a.type().unwrap() instanceof StringType s) || s.fixedLength != 0) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument should be String");
        }
        DataType geometry = DataTypes.parse("Geometry");
        return Evaluator.of(geometry, r -> {
            Object v = a.eval(r);
            return reader.apply(v == null ? new byte[0] : ByteStrings.bytes((String) v));
        });
    }

    // ---- reading WKB ----

    private static final class Input {
        final ByteBuffer buf;

        Input(byte[] b) {
            buf = ByteBuffer.wrap(b);
        }

        private void need(int n) {
            if (buf.remaining() < n) {
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data. Bytes read: " + buf.remaining()
                    + ". Bytes expected: " + n);
            }
        }

        int uint32() {
            need(4);
            return buf.getInt();
        }

        double float64() {
            need(8);
            return buf.getDouble();
        }

        /** A geometry's header: the byte order it sets and the type. */
        int header() {
            if (!buf.hasRemaining() || (buf.get(buf.position()) != 0 && buf.get(buf.position()) != 1)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Error while reading WKB format: Incorrect first flag");
            }
            buf.order(buf.get() == 1 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN);
            return uint32();
        }

        /** A count, no larger than what the remaining bytes can hold at {@code least} bytes an element. */
        int count(int least) {
            int n = uint32();
            if (n < 0 || (long) n * least > buf.remaining()) {
                need((int) Math.min(Integer.MAX_VALUE, (long) Integer.toUnsignedLong(n) * least));
            }
            return n;
        }
    }

    static TypedValue readWkb(byte[] bytes) {
        Input in = new Input(bytes);
        int type = in.header();
        Object value = switch (type) {
            case POINT -> point(in);
            case LINE_STRING -> points(in);
            case POLYGON -> polygon(in);
            case MULTI_LINE_STRING -> multi(in, LINE_STRING);
            case MULTI_POLYGON -> multi(in, POLYGON);
            default -> throw new ChException(ErrorCode.BAD_ARGUMENTS, "Incorrect geometry type " + type);
        };
        return new TypedValue(geoType(type), value);
    }

    private static List<Object> point(Input in) {
        double x = in.float64();
        double y = in.float64();
        return List.of(x, y);
    }

    private static List<Object> points(Input in) {
        int n = in.count(16);
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(point(in));
        }
        return out;
    }

    private static List<Object> polygon(Input in) {
        int n = in.count(4);
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(points(in));
        }
        return out;
    }

    private static List<Object> multi(Input in, int partType) {
        int n = in.count(5);
        List<Object> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            int type = in.header();
            if (type != partType) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Incorrect geometry type " + type);
            }
            out.add(partType == LINE_STRING ? points(in) : polygon(in));
        }
        return out;
    }

    // ---- writing WKB ----

    private static Evaluator wkb(List<Evaluator> args) {
        Functions.arity("wkb", args, 1);
        Evaluator a = args.get(0);
        if (Functions.isNothing(a)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        DataType t = a.type();
        if (t instanceof VariantType && t.name().equals("Geometry")) {
            return Evaluator.of(DataTypes.nullable(DataTypes.STRING), r -> {
                Object v = a.eval(r);
                if (!(v instanceof TypedValue tv) || tv.value() == null) {
                    return null;
                }
                return write(tv.type().name(), tv.value());
            });
        }
        String name = t.name();
        if (!TYPE_NAMES.contains(name) || name.isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "wkb function is not supported for type " + name);
        }
        return Evaluator.of(DataTypes.STRING, r -> write(name, a.eval(r)));
    }

    private static String write(String typeName, Object value) {
        int type = TYPE_NAMES.indexOf(typeName);
        if (type <= 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "wkb function is not supported for type " + typeName);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        write(out, type, value);
        return ByteStrings.of(out.toByteArray());
    }

    private static void write(ByteArrayOutputStream out, int type, Object value) {
        out.write(1);
        int32(out, type);
        switch (type) {
            case POINT -> writePoint(out, value);
            case LINE_STRING -> writePoints(out, value);
            case POLYGON -> {
                List<?> rings = (List<?>) value;
                int32(out, rings.size());
                rings.forEach(ring -> writePoints(out, ring));
            }
            default -> {
                List<?> parts = (List<?>) value;
                int32(out, parts.size());
                parts.forEach(part -> write(out, type == MULTI_LINE_STRING ? LINE_STRING : POLYGON, part));
            }
        }
    }

    private static void writePoints(ByteArrayOutputStream out, Object value) {
        List<?> points = (List<?>) value;
        int32(out, points.size());
        points.forEach(p -> writePoint(out, p));
    }

    private static void writePoint(ByteArrayOutputStream out, Object value) {
        List<?> p = (List<?>) value;
        ByteBuffer b = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        b.putDouble(((Number) p.get(0)).doubleValue()).putDouble(((Number) p.get(1)).doubleValue());
        out.write(b.array(), 0, 16);
    }

    private static void int32(ByteArrayOutputStream out, int v) {
        out.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array(), 0, 4);
    }
}
