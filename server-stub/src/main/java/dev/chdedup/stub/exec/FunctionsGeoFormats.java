package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The text forms of ClickHouse's geometries: wkt (Well-Known Text of a Point, Ring, Polygon or MultiPolygon, each
 * polygon's rings closed) and svg (an SVG element, the rings closed and oriented as the engine's Boost.Geometry corrects
 * them: outer rings clockwise, holes counter-clockwise). Coordinates are written as a C++ stream writes a double:
 * six significant digits, trailing zeros dropped, an exponent below 1e-5 and from 1e6 on.
 */
final class FunctionsGeoFormats {
    private enum Shape { POINT, RING, POLYGON, MULTIPOLYGON }

    private FunctionsGeoFormats() {
    }

    static void register(FunctionFactory f) {
        f.register("wkt", FunctionsGeo.CATEGORY, (args, ctx) -> wkt(args));
        f.register("svg", FunctionsGeo.CATEGORY, (args, ctx) -> svg(args));
    }

    /** The geometry a type holds: Point is Tuple(Float64, Float64), then arrays of it nested one to three deep. */
    private static Shape shape(DataType t) {
        int depth = 0;
        DataType u = t;
        while (u instanceof ArrayType a) {
            u = a.element;
            depth++;
        }
        if (depth <= 3 && u instanceof TupleType tt && tt.elements.size() == 2
                && tt.elements.get(0) instanceof FloatType f0 && f0.is64 && tt.elements.get(1) instanceof FloatType f1 && f1.is64) {
            return Shape.values()[depth];
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unknown geometry type " + t.name());
    }

    private static Evaluator wkt(List<Evaluator> args) {
        Functions.arity("wkt", args, 1);
        Shape shape = shape(args.get(0).type());
        return Evaluator.of(DataTypes.STRING, r -> {
            Object v = args.get(0).eval(r);
            StringBuilder sb = new StringBuilder();
            switch (shape) {
                case POINT -> point(sb.append("POINT("), v, " ").append(')');
                case RING -> {
                    List<?> points = (List<?>) v;
                    if (points.isEmpty()) {
                        sb.append("POLYGON()");
                    } else {
                        ring(sb.append("POLYGON("), points, false).append(')');
                    }
                }
                case POLYGON -> polygon(sb.append("POLYGON"), (List<?>) v);
                default -> {
                    sb.append("MULTIPOLYGON(");
                    List<?> polygons = (List<?>) v;
                    for (int i = 0; i < polygons.size(); i++) {
                        polygon(sb.append(i > 0 ? "," : ""), (List<?>) polygons.get(i));
                    }
                    sb.append(')');
                }
            }
            return ByteStrings.fromText(sb.toString());
        });
    }

    private static void polygon(StringBuilder sb, List<?> rings) {
        sb.append('(');
        for (int i = 0; i < rings.size(); i++) {
            ring(sb.append(i > 0 ? "," : ""), (List<?>) rings.get(i), true);
        }
        sb.append(')');
    }

    private static StringBuilder ring(StringBuilder sb, List<?> points, boolean close) {
        List<?> pts = close ? closed(points) : points;
        sb.append('(');
        for (int i = 0; i < pts.size(); i++) {
            point(sb.append(i > 0 ? "," : ""), pts.get(i), " ");
        }
        return sb.append(')');
    }

    private static List<?> closed(List<?> points) {
        if (points.size() > 2 && !points.get(0).equals(points.get(points.size() - 1))) {
            List<Object> c = new ArrayList<>(points);
            c.add(points.get(0));
            return c;
        }
        return points;
    }

    private static StringBuilder point(StringBuilder sb, Object p, String separator) {
        List<?> xy = (List<?>) p;
        return sb.append(number(((Number) xy.get(0)).doubleValue())).append(separator).append(number(((Number) xy.get(1)).doubleValue()));
    }

    /** A double as {@code std::ostream << double} writes it (the %g form with six significant digits). */
    static String number(double d) {
        if (Double.isNaN(d)) {
            return "nan";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "inf" : "-inf";
        }
        if (d == 0) {
            return 1 / d < 0 ? "-0" : "0";
        }
        BigDecimal r = new BigDecimal(d).round(new MathContext(6, RoundingMode.HALF_EVEN));
        int exponent = r.precision() - r.scale() - 1;
        if (exponent < -4 || exponent >= 6) {
            BigDecimal mantissa = r.movePointLeft(exponent).stripTrailingZeros();
            String e = String.valueOf(Math.abs(exponent));
            return mantissa.toPlainString() + "e" + (exponent < 0 ? "-" : "+") + (e.length() < 2 ? "0" + e : e);
        }
        return r.stripTrailingZeros().toPlainString();
    }

    private static Evaluator svg(List<Evaluator> args) {
        Functions.argumentCount("svg", args, 1, 1);
        Shape shape = shape(args.get(0).type());
        if (args.size() == 2 && !(args.get(1).type().unwrap() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument should be String");
        }
        return Evaluator.of(DataTypes.STRING, r -> {
            Object v = args.get(0).eval(r);
            String style = args.size() == 2 ? (String) args.get(1).eval(r) : "";
            StringBuilder sb = new StringBuilder();
            switch (shape) {
                case POINT -> {
                    List<?> xy = (List<?>) v;
                    sb.append("<circle cx=\"").append(number(((Number) xy.get(0)).doubleValue())).append("\" cy=\"")
                        .append(number(((Number) xy.get(1)).doubleValue())).append("\" r=\"5\" style=\"").append(style).append("\"/>");
                }
                case RING -> {
                    sb.append("<polygon points=\"");
                    List<?> pts = oriented((List<?>) v, true);
                    for (int i = 0; i < pts.size(); i++) {
                        point(sb.append(i > 0 ? " " : ""), pts.get(i), ",");
                    }
                    sb.append("\" style=\"").append(style).append("\"/>");
                }
                case POLYGON -> svgPolygon(sb, (List<?>) v, style);
                default -> {
                    for (Object polygon : (List<?>) v) {
                        svgPolygon(sb, (List<?>) polygon, style);
                    }
                }
            }
            return sb.toString();
        });
    }

    private static void svgPolygon(StringBuilder sb, List<?> rings, String style) {
        sb.append("<g fill-rule=\"evenodd\"><path d=\"");
        for (int k = 0; k < rings.size(); k++) {
            List<?> pts = oriented((List<?>) rings.get(k), k == 0);
            for (int i = 0; i < pts.size(); i++) {
                point(sb.append(i == 0 ? "M " : " L "), pts.get(i), ",");
            }
        }
        sb.append(" z \" style=\"").append(style).append("\"/></g>");
    }

    /** A ring closed and turned clockwise (an outer ring) or counter-clockwise (a hole), its first point kept. */
    private static List<?> oriented(List<?> points, boolean clockwise) {
        List<?> c = closed(points);
        double area = 0;
        for (int i = 0; i + 1 < c.size(); i++) {
            List<?> a = (List<?>) c.get(i);
            List<?> b = (List<?>) c.get(i + 1);
            area += ((Number) a.get(0)).doubleValue() * ((Number) b.get(1)).doubleValue()
                - ((Number) b.get(0)).doubleValue() * ((Number) a.get(1)).doubleValue();
        }
        if (area != 0 && (area < 0) != clockwise) {
            List<Object> reversed = new ArrayList<>(c);
            java.util.Collections.reverse(reversed);
            return reversed;
        }
        return c;
    }
}
