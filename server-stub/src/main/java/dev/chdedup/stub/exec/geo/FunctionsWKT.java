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
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * readWKTPoint, readWKTLineString, readWKTMultiLineString, readWKTRing, readWKTPolygon and readWKTMultiPolygon: ClickHouse's
 * readWkt.cpp, which reads with Boost.Geometry's read_wkt. Its grammar is Boost's: tokens split at blanks, with
 * {@code , ( )} tokens of their own; the geometry's name in any case, then optional Z/M/ZM/MZ/EMPTY words (Z refused
 * for 2D, EMPTY ends the text); a missing coordinate is 0, a point's extra numbers start the next point, a comma may
 * be left before a closing parenthesis. A coordinate is read as strtod reads a whole token (decimal, hexadecimal,
 * inf, nan) and refused when it over- or underflows. Rings are kept as written (no closing, no orientation). An error
 * is CANNOT_PARSE_TEXT with Boost's message, the text cut at 100 bytes.
 */
final class FunctionsWKT {
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern HEXADECIMAL = Pattern.compile("[+-]?0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)([pP][+-]?\\d+)?");
    private static final Pattern SPECIAL = Pattern.compile("[+-]?(inf|infinity|nan)", Pattern.CASE_INSENSITIVE);

    private FunctionsWKT() {
    }

    static void register(FunctionFactory f) {
        reader(f, "readWKTPoint", Shape.POINT);
        reader(f, "readWKTLineString", Shape.LINE_STRING);
        reader(f, "readWKTMultiLineString", Shape.MULTI_LINE_STRING);
        reader(f, "readWKTRing", Shape.RING);
        reader(f, "readWKTPolygon", Shape.POLYGON);
        reader(f, "readWKTMultiPolygon", Shape.MULTI_POLYGON);
    }

    private static void reader(FunctionFactory f, String name, Shape shape) {
        f.register(name, FunctionsPolygon.CATEGORY, (args, ctx) -> {
            Functions.arity(name, args, 1);
            DataType t = args.get(0).type().unwrap();
            if (!(t instanceof NothingType) && !(t instanceof StringType s && s.fixedLength == 0)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument should be String");
            }
            return FunctionsPolygon.reader(shape, args, s -> read(s, shape));
        });
    }

    /** The value of a {@code shape} read from WKT {@code wkt} (a byte string). */
    static Object read(String wkt, Shape shape) {
        Reader r = new Reader(wkt);
        return switch (shape) {
            case POINT -> {
                double[] p = new double[2];
                if (r.initialize("POINT")) {
                    r.open();
                    r.assign(p);
                    r.close();
                    r.checkEnd();
                }
                yield PolygonGeometry.pointValue(p);
            }
            case LINE_STRING -> PolygonGeometry.pathValue(r.single("LINESTRING", Reader::path, new double[0][]));
            case RING -> PolygonGeometry.pathValue(r.single("POLYGON", rd -> {
                rd.open();
                double[][] ring = rd.path();
                rd.close();
                return ring;
            }, new double[0][]));
            case POLYGON -> PolygonGeometry.pathsValue(r.single("POLYGON", Reader::polygon, List.<double[][]>of(new double[0][])));
            case MULTI_LINE_STRING -> PolygonGeometry.pathsValue(r.multi("MULTILINESTRING", Reader::path));
            default -> {
                List<Object> out = new ArrayList<>();
                for (List<double[][]> polygon : r.multi("MULTIPOLYGON", Reader::polygon)) {
                    out.add(PolygonGeometry.pathsValue(polygon));
                }
                yield out;
            }
        };
    }

    /** Boost's read_wkt over the tokens of one text. */
    private static final class Reader {
        private final String wkt;
        private final List<String> tokens = new ArrayList<>();
        private int it;

        Reader(String wkt) {
            this.wkt = wkt;
            StringBuilder word = new StringBuilder();
            for (int i = 0; i < wkt.length(); i++) {
                char c = wkt.charAt(i);
                if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == ',' || c == '(' || c == ')') {
                    if (word.length() > 0) {
                        tokens.add(word.toString());
                        word.setLength(0);
                    }
                    if (c == ',' || c == '(' || c == ')') {
                        tokens.add(String.valueOf(c));
                    }
                } else {
                    word.append(c);
                }
            }
            if (word.length() > 0) {
                tokens.add(word.toString());
            }
        }

        private boolean atEnd() {
            return it >= tokens.size();
        }

        private boolean at(String token) {
            return !atEnd() && tokens.get(it).equals(token);
        }

        private String shortWkt() {
            return wkt.length() > 100 ? wkt.substring(0, 100) : wkt;
        }

        /** Boost's read_wkt_exception with the current token. */
        private ChException error(String message) {
            return new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse WKT string: " + message
                + (atEnd() ? "" : " at '" + tokens.get(it) + "'") + " in '" + shortWkt() + "'");
        }

        /** Boost's read_wkt_exception without a token. */
        private ChException errorWithoutToken(String message) {
            return new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse WKT string: " + message + "' in (" + shortWkt() + ")");
        }

        /** The geometry's name, then Z/M/EMPTY words: false for an EMPTY geometry. */
        boolean initialize(String name) {
            if (atEnd() || !tokens.get(it++).equalsIgnoreCase(name)) {
                throw errorWithoutToken("Should start with '" + name + "'");
            }
            boolean empty = false;
            boolean z = false;
            while (!atEnd()) {
                String w = tokens.get(it).toUpperCase(Locale.ROOT);
                if (w.equals("M")) {
                    it++;
                } else if (w.equals("Z") || w.equals("MZ") || w.equals("ZM")) {
                    z = true;
                    it++;
                } else if (w.equals("EMPTY")) {
                    empty = true;
                    it++;
                } else {
                    break;
                }
            }
            if (z) {
                throw errorWithoutToken("Z only allowed for 3 or more dimensions");
            }
            if (empty) {
                checkEnd();
                return false;
            }
            return true;
        }

        interface Part<T> {
            T parse(Reader r);
        }

        /** One geometry of {@code name}: its part, or {@code empty} for an EMPTY one. */
        <T> T single(String name, Part<T> part, T empty) {
            if (initialize(name)) {
                T v = part.parse(this);
                checkEnd();
                return v;
            }
            return empty;
        }

        <T> List<T> multi(String name, Part<T> part) {
            List<T> out = new ArrayList<>();
            if (initialize(name)) {
                open();
                while (!atEnd() && !at(")")) {
                    out.add(part.parse(this));
                    if (at(",")) {
                        it++;
                    }
                }
                close();
            }
            checkEnd();
            return out;
        }

        void open() {
            if (!at("(")) {
                throw error("Expected '('");
            }
            it++;
        }

        void close() {
            if (!at(")")) {
                throw error("Expected ')'");
            }
            it++;
        }

        void checkEnd() {
            if (!atEnd()) {
                throw error("Too many tokens");
            }
        }

        /** Boost's parsing_assigner: each coordinate from the next token, 0 once a ',' or ')' or the end is reached. */
        void assign(double[] p) {
            for (int d = 0; d < 2; d++) {
                boolean finished = atEnd() || at(",") || at(")");
                if (finished) {
                    p[d] = 0;
                } else {
                    p[d] = coordinate(tokens.get(it));
                    it++;
                }
            }
        }

        private double coordinate(String token) {
            double v;
            if (SPECIAL.matcher(token).matches()) {
                boolean negative = token.charAt(0) == '-';
                v = token.toLowerCase(Locale.ROOT).contains("nan") ? Double.NaN : negative ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                return v;
            }
            if (HEXADECIMAL.matcher(token).matches()) {
                v = Double.parseDouble(token.matches(".*[pP].*") ? token : token + "p0");
            } else if (DECIMAL.matcher(token).matches()) {
                v = Double.parseDouble(token);
            } else {
                throw error("bad lexical cast: source type value could not be interpreted as target");
            }
            boolean overflow = Double.isInfinite(v);
            boolean underflow = Math.abs(v) < Double.MIN_NORMAL && token.replaceAll("(?i)0x|p.*|e.*", "").matches(".*[1-9a-fA-F].*");
            if (overflow || underflow) {
                throw error("bad lexical cast: source type value could not be interpreted as target");
            }
            return v;
        }

        /** Boost's container_appender: ( point , point ... ). */
        double[][] path() {
            open();
            List<double[]> points = new ArrayList<>();
            while (!atEnd() && !at(")")) {
                double[] p = new double[2];
                assign(p);
                points.add(p);
                if (at(",")) {
                    it++;
                }
            }
            close();
            return points.toArray(new double[0][]);
        }

        /** Boost's polygon_parser: ( ring , ring ... ), the first ring the outer one, always present. */
        List<double[][]> polygon() {
            open();
            List<double[][]> rings = new ArrayList<>();
            rings.add(new double[0][]);
            int n = -1;
            while (!atEnd() && !at(")")) {
                double[][] ring = path();
                if (++n == 0) {
                    rings.set(0, ring);
                } else {
                    rings.add(ring);
                }
                if (at(",")) {
                    it++;
                }
            }
            close();
            return rings;
        }
    }
}
