package dev.chdedup.driver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Which column each {@code ?} of an {@code INSERT ... VALUES} fills, so that a date or time parameter is rendered for
 * its column's type. A placeholder that is a whole tuple element fills the column of the same position in the INSERT's
 * column list (or, without one, in the table's insertable columns); a placeholder inside an expression, outside the
 * VALUES tuples or in any other form of INSERT fills no known column.
 */
final class InsertColumns {
    /** The column list of the INSERT, or null where it has none; per placeholder its tuple element, or -1. */
    private final List<String> named;
    private final int[] element;

    private InsertColumns(List<String> named, int[] element) {
        this.named = named;
        this.element = element;
    }

    /** The mapping of {@code sql}'s {@code placeholders} placeholders (as {@link SqlText#splitPlaceholders} counts them). */
    static InsertColumns of(String sql, int placeholders) {
        int[] none = new int[placeholders];
        Arrays.fill(none, -1);
        int values = valuesKeyword(sql);
        if (values < 0) {
            return new InsertColumns(null, none);
        }
        List<String> named = columnList(sql.substring(0, values));
        int[] element = new int[placeholders];
        int p = SqlText.splitPlaceholders(sql.substring(0, values)).size() - 1;
        Arrays.fill(element, 0, Math.min(p, placeholders), -1);
        int n = sql.length();
        int i = values + 6;
        while (i < n && p <= placeholders) {
            char c = sql.charAt(i);
            if (c == '(') {
                List<String> elements = new ArrayList<>();
                int after = split(sql, i, elements);
                for (int e = 0; e < elements.size(); e++) {
                    String el = elements.get(e);
                    List<String> around = SqlText.splitPlaceholders(el);
                    boolean bare = around.size() == 2 && noise(around.get(0)) && noise(around.get(1));
                    for (int j = 0; j < around.size() - 1; j++, p++) {
                        if (p < placeholders) {
                            element[p] = bare ? e : -1;
                        }
                    }
                }
                i = after;
            } else if (c == '\'' || c == '"' || c == '`') {
                return new InsertColumns(null, none);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-' || c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = SqlText.skipComment(sql, i);
            } else if (c == '?') {
                if (p < placeholders) {
                    element[p] = -1;
                }
                p++;
                i++;
            } else {
                i++;
            }
        }
        return p == placeholders ? new InsertColumns(named, element) : new InsertColumns(null, none);
    }

    /**
     * The type of the column placeholder {@code i} (0-based) fills, from {@code columnTypes} (the table's insertable
     * columns in order), or null where it fills no known column.
     */
    String typeOf(int i, Map<String, String> columnTypes) {
        int e = element[i];
        if (e < 0) {
            return null;
        }
        if (named != null) {
            return e < named.size() ? columnTypes.get(named.get(e)) : null;
        }
        if (e >= columnTypes.size()) {
            return null;
        }
        return new ArrayList<>(columnTypes.values()).get(e);
    }

    /**
     * The columns an INSERT names after its table (unquoted), or null where it names none, so that it sends every
     * insertable column. The list is the first parenthesized one before VALUES, FORMAT, SELECT or WITH.
     */
    static List<String> named(String sql) {
        int end = keyword(sql, "VALUES", "FORMAT", "SELECT", "WITH");
        return columnList(end < 0 ? sql : sql.substring(0, end));
    }

    /** Offset of the VALUES keyword outside quotes and comments, or -1. */
    private static int valuesKeyword(String sql) {
        return keyword(sql, "VALUES");
    }

    /** Offset of the first of {@code words} (whole words, any case) outside quotes and comments, or -1. */
    private static int keyword(String sql, String... words) {
        int n = sql.length();
        int i = 0;
        while (i < n) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = SqlText.skipQuoted(sql, i);
            } else if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-' || c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = SqlText.skipComment(sql, i);
            } else {
                for (String w : words) {
                    int l = w.length();
                    if (sql.regionMatches(true, i, w, 0, l) && (i == 0 || !ident(sql.charAt(i - 1))) && (i + l >= n || !ident(sql.charAt(i + l)))) {
                        return i;
                    }
                }
                i++;
            }
        }
        return -1;
    }

    /** The names in the first parenthesized list of {@code head} (the INSERT up to VALUES), unquoted; null without one. */
    private static List<String> columnList(String head) {
        int open = -1;
        for (int i = 0; i < head.length(); i++) {
            char c = head.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = SqlText.skipQuoted(head, i) - 1;
            } else if (c == '(') {
                open = i;
                break;
            }
        }
        if (open < 0) {
            return null;
        }
        List<String> raws = new ArrayList<>();
        split(head, open, raws);
        List<String> names = new ArrayList<>();
        for (String raw : raws) {
            String s = raw.strip();
            if (s.length() >= 2 && (s.charAt(0) == '`' || s.charAt(0) == '"') && s.charAt(s.length() - 1) == s.charAt(0)) {
                String q = String.valueOf(s.charAt(0));
                s = s.substring(1, s.length() - 1).replace(q + q, q).replace("\\" + q, q);
            } else if (!s.chars().allMatch(ch -> ident((char) ch))) {
                return null;
            }
            names.add(s);
        }
        return names;
    }

    /**
     * Adds to {@code parts} the elements of the parenthesized list opening at {@code open}, split at its top-level commas;
     * returns the offset after the list.
     */
    private static int split(String sql, int open, List<String> parts) {
        int depth = 0;
        int start = open + 1;
        int n = sql.length();
        for (int i = open; i < n; ) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = SqlText.skipQuoted(sql, i);
                continue;
            }
            if (c == '-' && i + 1 < n && sql.charAt(i + 1) == '-' || c == '/' && i + 1 < n && sql.charAt(i + 1) == '*') {
                i = SqlText.skipComment(sql, i);
                continue;
            }
            if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                if (--depth == 0) {
                    parts.add(sql.substring(start, i));
                    return i + 1;
                }
            } else if (c == ',' && depth == 1) {
                parts.add(sql.substring(start, i));
                start = i + 1;
            }
            i++;
        }
        parts.add(sql.substring(start));
        return n;
    }

    /** Whether {@code s} holds only white space and comments. */
    private static boolean noise(String s) {
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '-' && s.startsWith("--", i) || c == '/' && s.startsWith("/*", i)) {
                i = SqlText.skipComment(s, i);
            } else if (Character.isWhitespace(c)) {
                i++;
            } else {
                return false;
            }
        }
        return true;
    }

    private static boolean ident(char c) {
        return SqlText.isIdent(c);
    }
}
