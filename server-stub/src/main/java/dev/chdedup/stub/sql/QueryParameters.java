package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TextReader;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The values of a query's {@code {name:Type}} substitutions (the {@code param_name=} URL parameters), and how
 * the parser replaces one: a value is read in the TabSeparated escaped text form of its type and becomes a
 * literal, {@code CAST} to the type unless it is a String; an {@code Identifier} value becomes a name; a missing
 * parameter is {@code UNKNOWN_QUERY_PARAMETER} (NULL for a Nullable type), and a value that its type does not read
 * to the end is {@code BAD_QUERY_PARAMETER}. Mirrors ClickHouse's {@code ReplaceQueryParameterVisitor}.
 */
public final class QueryParameters {
    /** No parameters: every substitution is unknown. */
    public static final QueryParameters NONE = new QueryParameters(Map.of());

    /** The URL parameter prefix that names a query parameter. */
    public static final String URL_PREFIX = "param_";

    /** Parameter name to its value as the client sent it (text, not yet unescaped). */
    private final Map<String, String> values;

    public QueryParameters(Map<String, String> values) {
        this.values = Map.copyOf(values);
    }

    /** The parameters among URL parameters: those named {@code param_<name>}, under {@code <name>}. */
    public static QueryParameters fromUrl(Map<String, String> urlParams) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, String> e : urlParams.entrySet()) {
            if (e.getKey().startsWith(URL_PREFIX) && e.getKey().length() > URL_PREFIX.length()) {
                m.put(e.getKey().substring(URL_PREFIX.length()), e.getValue());
            }
        }
        return m.isEmpty() ? NONE : new QueryParameters(m);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The value of an {@code Identifier} parameter: a name, never empty. */
    public String identifier(String name) {
        String v = values.get(name);
        if (v == null) {
            throw unknown(name);
        }
        if (v.isEmpty()) {
            throw new ChException(ErrorCode.BAD_QUERY_PARAMETER, "Empty Identifier part after parameter `" + name + "` substitution");
        }
        return v;
    }

    /** The expression {@code {name:typeName}} stands for. */
    public Expr literal(String name, String typeName) {
        DataType type = DataTypes.parse(typeName);
        String raw = values.get(name);
        if (raw == null) {
            if (!type.isNullable()) {
                throw unknown(name);
            }
            return new Expr.Cast(new Expr.Literal(null), typeName);
        }
        Object v = parse(name, typeName, type, raw);
        if (v == null) {
            return new Expr.Cast(new Expr.Literal(null), typeName);
        }
        if (type instanceof StringType && ((StringType) type).fixedLength == 0) {
            return new Expr.Literal(v);
        }
        // the canonical text of the value, cast back: the evaluator's CAST from String reads it as the type does
        StringBuilder sb = new StringBuilder();
        type.formatText(v, sb);
        return new Expr.Cast(new Expr.Literal(sb.toString()), typeName);
    }

    /** A setting's value given as {@code {name:Type}}: the value's canonical text. */
    public String settingValue(String name, String typeName) {
        DataType type = DataTypes.parse(typeName);
        String raw = values.get(name);
        if (raw == null) {
            throw unknown(name);
        }
        Object v = parse(name, typeName, type, raw);
        StringBuilder sb = new StringBuilder();
        type.formatText(v, sb);
        return ByteStrings.toText(sb.toString());
    }

    private static Object parse(String name, String typeName, DataType type, String raw) {
        String bytes = ByteStrings.fromText(raw);
        boolean composite = isComposite(type);
        String text = composite ? bytes : unescape(bytes);
        if (!composite && type.isNullable() && (bytes.equals("\\N") || bytes.equals("NULL"))) {
            return null;
        }
        TextReader r = new TextReader(text);
        Object v;
        try {
            v = type.parseText(r, false);
        } catch (ChException e) {
            if (isNumber(type)) {
                throw notParsedCompletely(raw, typeName, name, numericPrefix(text));
            }
            throw new ChException(e.code(), e.getMessage() + ": value " + raw + " cannot be parsed as " + typeName
                + " for query parameter '" + name + "'", e);
        }
        if (!r.atEnd()) {
            throw notParsedCompletely(raw, typeName, name, r.pos());
        }
        return v;
    }

    private static ChException notParsedCompletely(String raw, String typeName, String name, int parsed) {
        String bytes = ByteStrings.fromText(raw);
        parsed = Math.min(parsed, bytes.length());
        return new ChException(ErrorCode.BAD_QUERY_PARAMETER, "Value " + raw + " cannot be parsed as " + typeName
            + " for query parameter '" + name + "' because it isn't parsed completely: only " + parsed + " of "
            + bytes.length() + " bytes was parsed: " + ByteStrings.toText(bytes.substring(0, parsed)));
    }

    private static ChException unknown(String name) {
        return new ChException(ErrorCode.UNKNOWN_QUERY_PARAMETER, "Substitution `" + name + "` is not set");
    }

    private static boolean isComposite(DataType t) {
        DataType b = t.unwrap();
        return b instanceof ArrayType || b instanceof MapType || b instanceof TupleType;
    }

    private static boolean isNumber(DataType t) {
        DataType b = t.unwrap();
        return b instanceof IntType || b instanceof BigIntType || b instanceof FloatType || b instanceof DecimalType;
    }

    /** How many leading bytes look like a number (sign, digits, point, exponent), as readText stops there. */
    private static int numericPrefix(String s) {
        int i = 0;
        if (i < s.length() && (s.charAt(i) == '-' || s.charAt(i) == '+')) {
            i++;
        }
        while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
            i++;
        }
        return i;
    }

    /** TabSeparated escaped text to its bytes: {@code \t}, {@code \n}, {@code \\}, {@code \xHH} and the like. */
    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder sb = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i++);
            if (c == '\\' && i < s.length()) {
                i = TextReader.unescape(s, i, sb);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** A compound identifier value ({@code db.table}) split on its dots. */
    static List<String> identifierParts(String value) {
        List<String> parts = new ArrayList<>();
        for (String p : value.split("\\.", -1)) {
            parts.add(p);
        }
        return parts;
    }
}
