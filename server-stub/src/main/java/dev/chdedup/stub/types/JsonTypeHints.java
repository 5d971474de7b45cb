package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The arguments of a JSON type, {@code JSON(max_dynamic_types=N, max_dynamic_paths=N, path Type, SKIP path,
 * SKIP REGEXP 're')} in any order, a path being dotted names, each bare or back-quoted. Mirrors the argument
 * handling of ClickHouse's {@code DataTypeObject} factory.
 */
final class JsonTypeHints {
    int maxDynamicTypes = JsonType.DEFAULT_MAX_DYNAMIC_TYPES;
    int maxDynamicPaths = JsonType.DEFAULT_MAX_DYNAMIC_PATHS;
    final SortedMap<String, DataType> typedPaths = new TreeMap<>();
    final List<String> skipPaths = new ArrayList<>();
    final List<String> skipRegexps = new ArrayList<>();

    private JsonTypeHints() {
    }

    static JsonTypeHints parse(String raw) {
        JsonTypeHints h = new JsonTypeHints();
        int open = raw.indexOf('(');
        if (open < 0) {
            return h;
        }
        for (String arg : splitTopLevel(raw.substring(open + 1, raw.lastIndexOf(')')))) {
            h.add(arg.trim(), raw);
        }
        return h;
    }

    private void add(String arg, String raw) {
        if (arg.isEmpty()) {
            return;
        }
        String lower = arg.toLowerCase(Locale.ROOT);
        if (lower.matches("max_dynamic_types\\s*=\\s*\\d+")) {
            maxDynamicTypes = number(arg, 255, raw);
        } else if (lower.matches("max_dynamic_paths\\s*=\\s*\\d+")) {
            maxDynamicPaths = number(arg, 10_000, raw);
        } else if (lower.matches("skip\\s+regexp\\s+'.*'")) {
            TextReader r = new TextReader(arg.substring(arg.indexOf('\'')));
            skipRegexps.add(ByteStrings.toText(r.readQuoted()));
        } else if (lower.matches("skip\\s+.*")) {
            int[] end = new int[1];
            skipPaths.add(path(arg.substring(4).trim(), end, raw));
        } else {
            int[] end = new int[1];
            String path = path(arg, end, raw);
            typedPaths.put(path, DataTypes.parse(arg.substring(end[0]).trim()));
        }
    }

    private static int number(String arg, int max, String raw) {
        long n = Long.parseLong(arg.substring(arg.indexOf('=') + 1).trim());
        if (n > max) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "'" + arg.substring(0, arg.indexOf('=')).trim()
                + "' parameter for " + raw + " type cannot be greater than " + max + ", got " + n);
        }
        return (int) n;
    }

    /** The dotted path at the start of {@code s}; {@code end[0]} is where it ends. */
    private static String path(String s, int[] end, String raw) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (true) {
            if (i < s.length() && s.charAt(i) == '`') {
                int close = s.indexOf('`', i + 1);
                if (close < 0) {
                    throw new ChException(ErrorCode.SYNTAX_ERROR, "Cannot parse data type '" + raw + "': unclosed '`'");
                }
                sb.append(s, i + 1, close);
                i = close + 1;
            } else {
                int st = i;
                while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                    i++;
                }
                if (st == i) {
                    throw new ChException(ErrorCode.SYNTAX_ERROR, "Cannot parse data type '" + raw + "': expected a path");
                }
                sb.append(s, st, i);
            }
            if (i < s.length() && s.charAt(i) == '.') {
                sb.append('.');
                i++;
            } else {
                end[0] = i;
                return sb.toString();
            }
        }
    }

    private static List<String> splitTopLevel(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        char quote = 0;
        int st = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '`') {
                quote = c;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(st, i));
                st = i + 1;
            }
        }
        out.add(s.substring(st));
        return out;
    }
}
