package dev.chdedup.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The little SQL the driver must understand without a parser: whether a statement is an INSERT (and of which
 * kind), the table it writes, the {@code ?} placeholders outside quotes and comments, and the VALUES tuple of a
 * parameterized INSERT that a batch repeats. Decided once per statement, so the hot path only reads fields.
 */
public final class SqlText {
    /** How a statement is sent. */
    public enum Kind { OTHER, INSERT_VALUES, INSERT_FORMAT, INSERT_SELECT }

    private SqlText() {
    }

    /** Position of the first token, after white space and comments. */
    static int skipNoise(String sql, int i) {
        int n = sql.length();
        while (i < n) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int e = sql.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else if (c == '(') {
                i++;
            } else {
                break;
            }
        }
        return i;
    }

    public static Kind classify(String sql) {
        int i = skipNoise(sql, 0);
        if (!sql.regionMatches(true, i, "INSERT", 0, 6) || i + 6 < sql.length() && Character.isLetterOrDigit(sql.charAt(i + 6))) {
            return Kind.OTHER;
        }
        // find the first keyword among VALUES / FORMAT / SELECT / WITH outside quotes after the table name
        int n = sql.length();
        int j = i + 6;
        int depth = 0;
        while (j < n) {
            char c = sql.charAt(j);
            if (c == '\'' || c == '"' || c == '`') {
                j = skipQuoted(sql, j);
                continue;
            }
            if (c == '-' && j + 1 < n && sql.charAt(j + 1) == '-' || c == '/' && j + 1 < n && sql.charAt(j + 1) == '*') {
                j = skipComment(sql, j);
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (depth == 0 && Character.isLetter(c) && (j == 0 || !isIdent(sql.charAt(j - 1)))) {
                int e = j;
                while (e < n && isIdent(sql.charAt(e))) {
                    e++;
                }
                String w = sql.substring(j, e).toUpperCase(Locale.ROOT);
                switch (w) {
                    case "VALUES": return Kind.INSERT_VALUES;
                    case "FORMAT": return Kind.INSERT_FORMAT;
                    case "SELECT": case "WITH": return Kind.INSERT_SELECT;
                    default: break;
                }
                j = e;
                continue;
            }
            j++;
        }
        return Kind.INSERT_FORMAT;
    }

    /** Position after the {@code --} or {@code /*} comment that starts at {@code j}. */
    static int skipComment(String sql, int j) {
        if (sql.charAt(j) == '-') {
            int e = sql.indexOf('\n', j);
            return e < 0 ? sql.length() : e + 1;
        }
        int e = sql.indexOf("*/", j + 2);
        return e < 0 ? sql.length() : e + 2;
    }

    static boolean isIdent(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '$';
    }

    static int skipQuoted(String sql, int j) {
        char q = sql.charAt(j);
        int n = sql.length();
        j++;
        while (j < n) {
            char c = sql.charAt(j);
            if (c == '\\') {
                j += 2;
                continue;
            }
            if (c == q) {
                if (j + 1 < n && sql.charAt(j + 1) == q) {
                    j += 2;
                    continue;
                }
                return j + 1;
            }
            j++;
        }
        return n;
    }

    /** {database or null, table} of an INSERT, or null when it cannot be read. */
    public static String[] insertTarget(String sql) {
        int i = skipNoise(sql, 0) + 6;
        i = skipNoise(sql, i);
        if (!sql.regionMatches(true, i, "INTO", 0, 4)) {
            return null;
        }
        i = skipNoise(sql, i + 4);
        if (sql.regionMatches(true, i, "TABLE", 0, 5) && i + 5 < sql.length() && Character.isWhitespace(sql.charAt(i + 5))) {
            i = skipNoise(sql, i + 5);
        }
        List<String> parts = new ArrayList<>();
        while (i < sql.length()) {
            char c = sql.charAt(i);
            String part;
            if (c == '`' || c == '"') {
                int e = skipQuoted(sql, i);
                part = sql.substring(i + 1, e - 1).replace(String.valueOf(c) + c, String.valueOf(c));
                i = e;
            } else {
                int e = i;
                while (e < sql.length() && isIdent(sql.charAt(e))) {
                    e++;
                }
                if (e == i) {
                    break;
                }
                part = sql.substring(i, e);
                i = e;
            }
            parts.add(part);
            if (i < sql.length() && sql.charAt(i) == '.') {
                i++;
            } else {
                break;
            }
        }
        if (parts.isEmpty() || parts.size() > 2) {
            return null;
        }
        return parts.size() == 2 ? new String[] {parts.get(0), parts.get(1)} : new String[] {null, parts.get(0)};
    }

    /** The SQL split at each {@code ?} outside quotes and comments: n placeholders give n + 1 pieces. */
    public static List<String> splitPlaceholders(String sql) {
        List<String> pieces = new ArrayList<>();
        int n = sql.length();
        int start = 0;
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-') {
                while (i < n && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                int e = sql.indexOf("*/", i + 2);
                i = e < 0 ? n : e + 2;
            } else if (c == '?') {
                pieces.add(sql.substring(start, i));
                start = i + 1;
                i++;
            } else {
                i++;
            }
        }
        pieces.add(sql.substring(start));
        return pieces;
    }

    /**
     * The number of rows an {@code INSERT ... VALUES (...), (...)} sends: its tuples at the top level after VALUES,
     * outside quotes and comments; -1 when there is no VALUES or something other than tuples, commas and white space
     * follows it (a trailing {@code ;} or comment is allowed).
     */
    public static long valuesRowCount(String sql) {
        int t = valuesTupleStart0(sql);
        if (t < 0) {
            return -1;
        }
        int n = sql.length();
        long rows = 0;
        int depth = 0;
        int j = t;
        while (j < n) {
            char c = sql.charAt(j);
            if (c == '\'' || c == '"' || c == '`') {
                if (depth == 0) {
                    return -1;
                }
                j = skipQuoted(sql, j);
                continue;
            }
            if (c == '-' && j + 1 < n && sql.charAt(j + 1) == '-' || c == '/' && j + 1 < n && sql.charAt(j + 1) == '*') {
                j = skipComment(sql, j);
                continue;
            }
            if (c == '(') {
                if (depth == 0) {
                    rows++;
                }
                depth++;
            } else if (c == ')') {
                if (--depth < 0) {
                    return -1;
                }
            } else if (depth == 0 && c != ',' && c != ';' && !Character.isWhitespace(c)) {
                return -1;
            }
            j++;
        }
        return depth == 0 ? rows : -1;
    }

    /**
     * For {@code INSERT ... VALUES (...)} whose only tuple holds every placeholder and ends the statement: the
     * offset where that tuple starts, so a batch is the prefix followed by one rendered tuple per row. -1 otherwise.
     */
    public static int valuesTupleStart(String sql) {
        int t = valuesTupleStart0(sql);
        if (t < 0) {
            return -1;
        }
        int n = sql.length();
        int depth = 0;
        int j = t;
        while (j < n) {
            char c = sql.charAt(j);
            if (c == '\'' || c == '"' || c == '`') {
                j = skipQuoted(sql, j);
                continue;
            }
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
                if (depth == 0) {
                    break;
                }
            }
            j++;
        }
        int after = j + 1;
        while (after < n && (Character.isWhitespace(sql.charAt(after)) || sql.charAt(after) == ';')) {
            after++;
        }
        return after >= n ? t : -1;
    }

    /** The offset of the first tuple's {@code (} after the statement's VALUES keyword; -1 when there is none. */
    private static int valuesTupleStart0(String sql) {
        int n = sql.length();
        int i = 0;
        int valuesEnd = -1;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(sql, i);
                continue;
            }
            if ((c == 'V' || c == 'v') && sql.regionMatches(true, i, "VALUES", 0, 6) && (i == 0 || !isIdent(sql.charAt(i - 1)))
                && (i + 6 >= n || !isIdent(sql.charAt(i + 6)))) {
                valuesEnd = i + 6;
                break;
            }
            i++;
        }
        if (valuesEnd < 0) {
            return -1;
        }
        int t = valuesEnd;
        while (t < n && Character.isWhitespace(sql.charAt(t))) {
            t++;
        }
        return t < n && sql.charAt(t) == '(' ? t : -1;
    }
}
