package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.geo.PolygonGeometry.Shape;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;

/**
 * readWKBPoint, readWKBLineString, readWKBMultiLineString, readWKBPolygon and readWKBMultiPolygon: ClickHouse's readWkb.cpp
 * over its WKB parser (Common/WKB.cpp). A String or FixedString holds one geometry: a byte order flag (0 big-endian, 1
 * little-endian), a UInt32 type (1 Point, 2 LineString, 3 Polygon, 5 MultiLineString, 6 MultiPolygon, each member of a
 * multi-geometry a whole WKB geometry of its own), UInt32 counts (at most 1,000,000 each) and Float64 coordinates;
 * bytes after the geometry are ignored. A geometry other than the function's is BAD_ARGUMENTS naming the parser's
 * variant index (Point 0, LineString 1, MultiLineString 2, Polygon 3, MultiPolygon 4).
 */
final class FunctionsWKB {
    private static final long LIMIT = 1_000_000;

    private FunctionsWKB() {
    }

    static void register(FunctionFactory f) {
        reader(f, "readWKBPoint", Shape.POINT);
        reader(f, "readWKBLineString", Shape.LINE_STRING);
        reader(f, "readWKBMultiLineString", Shape.MULTI_LINE_STRING);
        reader(f, "readWKBPolygon", Shape.POLYGON);
        reader(f, "readWKBMultiPolygon", Shape.MULTI_POLYGON);
    }

    private static void reader(FunctionFactory f, String name, Shape shape) {
        f.register(name, FunctionsPolygon.CATEGORY, (args, ctx) -> {
            Functions.arity(name, args, 1);
            DataType t = args.get(0).type().unwrap();
            if (!(t instanceof NothingType) && !(t instanceof StringType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument should be String");
            }
            return FunctionsPolygon.reader(shape, args, s -> {
                Parsed g = new Parser(s).geometry();
                if (g.shape != shape) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function " + name + ": expected geometry type " + shape.typeName
                        + ", got variant index " + variantIndex(g.shape));
                }
                return g.value;
            });
        });
    }

    private static int variantIndex(Shape s) {
        return switch (s) {
            case POINT -> 0;
            case LINE_STRING -> 1;
            case MULTI_LINE_STRING -> 2;
            case POLYGON -> 3;
            default -> 4;
        };
    }

    private record Parsed(Shape shape, Object value) {
    }

    /** One WKB geometry read from the start of a byte string. */
    private static final class Parser {
        private final String bytes;
        private int pos;
        private boolean little;

        Parser(String bytes) {
            this.bytes = bytes;
        }

        private long read(int n) {
            int available = Math.min(n, bytes.length() - pos);
            if (available < n) {
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data. Bytes read: " + available + ". Bytes expected: " + n + ".");
            }
            long v = 0;
            for (int i = 0; i < n; i++) {
                long b = bytes.charAt(pos + i) & 0xFF;
                v |= little ? b << (8 * i) : b << (8 * (n - 1 - i));
            }
            pos += n;
            return v;
        }

        private long count(String what) {
            long n = read(4);
            if (n > LIMIT) {
                throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Too many " + what + " in WKB geometry: " + n + " (limit: " + LIMIT + ")");
            }
            return n;
        }

        private List<Object> point() {
            double x = Double.longBitsToDouble(read(8));
            double y = Double.longBitsToDouble(read(8));
            return List.of(x, y);
        }

        private List<Object> path() {
            long n = count("points");
            List<Object> out = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                out.add(point());
            }
            return out;
        }

        private List<Object> polygon() {
            long n = count("rings");
            List<Object> rings = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                rings.add(path());
            }
            if (rings.isEmpty()) {
                rings.add(List.of());
            }
            return rings;
        }

        private List<Object> members(String what, Shape member, String container) {
            long n = count(what);
            List<Object> out = new ArrayList<>();
            for (long i = 0; i < n; i++) {
                Parsed p = geometry();
                if (p.shape != member) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, container + " contains an internal type " + p.shape.typeName
                        + " that differs from " + member.typeName);
                }
                out.add(p.value);
            }
            return out;
        }

        Parsed geometry() {
            if (pos >= bytes.length() || (bytes.charAt(pos) != 0 && bytes.charAt(pos) != 1)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Error while reading WKB format: Incorrect first flag");
            }
            little = bytes.charAt(pos++) == 1;
            boolean own = little;
            long type = read(4);
            Parsed p = switch ((int) type) {
                case 1 -> new Parsed(Shape.POINT, point());
                case 2 -> new Parsed(Shape.LINE_STRING, path());
                case 3 -> new Parsed(Shape.POLYGON, polygon());
                case 5 -> new Parsed(Shape.MULTI_LINE_STRING, members("line strings", Shape.LINE_STRING, "MultiLineString"));
                case 6 -> new Parsed(Shape.MULTI_POLYGON, members("polygons", Shape.POLYGON, "MultiPolygon"));
                default -> throw new ChException(ErrorCode.BAD_ARGUMENTS, "Incorrect geometry type " + type);
            };
            little = own;
            return p;
        }
    }
}
