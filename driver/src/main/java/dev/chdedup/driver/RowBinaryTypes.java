package dev.chdedup.driver;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the parts of a ClickHouse type name as {@code system.columns} writes it ({@code DataTypeFactory}'s syntax): the
 * arguments of {@code Name(a, b(c, d), 'x,y')} split at their top-level commas, the names and values of an Enum, and the
 * type of a named tuple element ({@code Tuple(a UInt8, b String)}).
 */
final class RowBinaryTypes {
    private RowBinaryTypes() {
    }

    /** The arguments of the type whose list opens at {@code open}, stripped; a malformed list throws. */
    static List<String> arguments(String t, int open) {
        if (!t.endsWith(")")) {
            throw new IllegalArgumentException("not a parameterized type: " + t);
        }
        List<String> out = new ArrayList<>();
        int depth = 0;
        int start = open + 1;
        for (int i = open + 1; i < t.length() - 1; i++) {
            char c = t.charAt(i);
            if (c == '\'' || c == '`' || c == '"') {
                i = SqlText.skipQuoted(t, i) - 1;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(t.substring(start, i).strip());
                start = i + 1;
            }
        }
        String last = t.substring(start, t.length() - 1).strip();
        if (!last.isEmpty() || !out.isEmpty()) {
            out.add(last);
        }
        return out;
    }

    /** {@code 'a' = 1, 'b' = 2} as a map from name to value (ClickHouse escapes quotes in names with a backslash). */
    static Map<String, Integer> enumValues(List<String> args) {
        Map<String, Integer> values = new LinkedHashMap<>();
        for (String a : args) {
            if (!a.startsWith("'")) {
                throw new IllegalArgumentException("not an enum element: " + a);
            }
            int end = SqlText.skipQuoted(a, 0);
            String name = unquote(a.substring(0, end));
            String rest = a.substring(end).strip();
            if (!rest.startsWith("=")) {
                throw new IllegalArgumentException("not an enum element: " + a);
            }
            values.put(name, Integer.parseInt(rest.substring(1).strip()));
        }
        return values;
    }

    /** The text of a single-quoted literal, its backslash escapes and doubled quotes resolved. */
    static String unquote(String q) {
        StringBuilder sb = new StringBuilder(q.length());
        for (int i = 1; i < q.length() - 1; i++) {
            char c = q.charAt(i);
            if (c == '\\' && i + 1 < q.length() - 1) {
                char n = q.charAt(++i);
                sb.append(switch (n) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case '0' -> '\0';
                    default -> n;
                });
            } else if (c == '\'' && i + 1 < q.length() - 1 && q.charAt(i + 1) == '\'') {
                sb.append('\'');
                i++;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The type of a tuple element: {@code name Type} gives {@code Type}, a bare {@code Type} itself. */
    static String tupleElementType(String element) {
        String e = element.strip();
        int i = 0;
        if (e.startsWith("`") || e.startsWith("\"")) {
            i = SqlText.skipQuoted(e, 0);
            return e.substring(i).strip();
        }
        while (i < e.length() && SqlText.isIdent(e.charAt(i))) {
            i++;
        }
        if (i < e.length() && e.charAt(i) == ' ') {
            String rest = e.substring(i).strip();
            // "a UInt8" names an element; a type never has a space right after its first word before '('
            return rest;
        }
        return e;
    }
}
