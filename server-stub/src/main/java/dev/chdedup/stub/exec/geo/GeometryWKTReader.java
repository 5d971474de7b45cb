package dev.chdedup.stub.exec.geo;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.TypedValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Well-Known Text of a Point, LineString, Polygon, MultiLineString or MultiPolygon, read as Boost.Geometry's read_wkt
 * reads it (ClickHouse's readWkt): tokens split at spaces, parentheses and commas, the type name in any case, EMPTY for
 * no points, rings kept as written (not closed). Another type is BAD_ARGUMENTS; malformed text or text after the
 * geometry is CANNOT_PARSE_TEXT.
 */
final class GeometryWKTReader {
    private static final List<String> TYPES = List.of("", "POINT", "LINESTRING", "POLYGON", "", "MULTILINESTRING", "MULTIPOLYGON");

    private final String text;
    private final List<String> tokens = new ArrayList<>();
    private int at;

    private GeometryWKTReader(String text) {
        this.text = text;
        StringBuilder word = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '(' || c == ')' || c == ',') {
                if (word.length() > 0) {
                    tokens.add(word.toString());
                    word.setLength(0);
                }
                if (c == '(' || c == ')' || c == ',') {
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

    static TypedValue read(byte[] bytes) {
        return new GeometryWKTReader(new String(bytes, StandardCharsets.UTF_8)).geometry();
    }

    private TypedValue geometry() {
        int type = tokens.isEmpty() ? -1 : TYPES.indexOf(tokens.get(0).toUpperCase(Locale.ROOT));
        if (type <= 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Incorrect WKT format value: " + text);
        }
        at = 1;
        Object value = switch (type) {
            case 1 -> point();
            case 2 -> empty() ? List.of() : points();
            case 3 -> empty() ? List.of() : list(this::points);
            case 5 -> empty() ? List.of() : list(this::points);
            default -> empty() ? List.of() : list(() -> list(this::points));
        };
        if (at < tokens.size()) {
            throw error("Too many tokens at '" + tokens.get(at) + "'");
        }
        return new TypedValue(FunctionsGeometryWKB.geoType(type), value);
    }

    private ChException error(String what) {
        return new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse WKT string: " + what + " in '" + text + "'");
    }

    private boolean empty() {
        if (at < tokens.size() && tokens.get(at).equalsIgnoreCase("EMPTY")) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(String token) {
        if (at >= tokens.size()) {
            throw error("Expected '" + token + "' but found end of string");
        }
        if (!tokens.get(at).equals(token)) {
            throw error("Expected '" + token + "' at '" + tokens.get(at) + "'");
        }
        at++;
    }

    private Object point() {
        if (empty()) {
            return List.of(0.0, 0.0);
        }
        expect("(");
        Object p = coordinates();
        expect(")");
        return p;
    }

    private Object coordinates() {
        double x = number();
        double y = number();
        return List.of(x, y);
    }

    private double number() {
        if (at >= tokens.size()) {
            throw error("Expected a number but found end of string");
        }
        String t = tokens.get(at);
        try {
            double v = Double.parseDouble(t);
            if (t.endsWith("d") || t.endsWith("D") || t.endsWith("f") || t.endsWith("F")) {
                throw new NumberFormatException(t);
            }
            at++;
            return v;
        } catch (NumberFormatException e) {
            throw error("Bad lexical cast: source type value could not be interpreted as target at '" + t + "'");
        }
    }

    private Object points() {
        return list(this::coordinates);
    }

    private List<Object> list(java.util.function.Supplier<Object> element) {
        expect("(");
        List<Object> out = new ArrayList<>();
        out.add(element.get());
        while (at < tokens.size() && tokens.get(at).equals(",")) {
            at++;
            out.add(element.get());
        }
        expect(")");
        return out;
    }
}
