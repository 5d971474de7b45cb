package dev.chdedup.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The shape of a PreparedStatement INSERT that can be recorded as RowBinary: exactly {@code INSERT INTO [TABLE] [db.]t
 * [(c1, ..., cn)] VALUES (?, ..., ?)} (comments, white space and a final {@code ;} allowed), every tuple element a bare
 * placeholder. Anything else (an expression around a placeholder, a literal in the tuple, SETTINGS or FORMAT clauses, an
 * INSERT SELECT, a table function) has no shape ({@link #of} returns null) and keeps the text path. The statement sent is
 * {@code INSERT INTO `db`.`t` (`c1`, ...) FORMAT RowBinary}, naming the columns the placeholders fill in their order.
 */
record RowBinaryInsert(String database, String table, List<String> columns, int placeholders) {

    /** The shape of {@code sql} (JDBC escapes already converted), or null. */
    static RowBinaryInsert of(String sql) {
        Scanner s = new Scanner(sql);
        if (!s.keyword("INSERT") || !s.keyword("INTO")) {
            return null;
        }
        s.keyword("TABLE");
        List<String> name = new ArrayList<>();
        do {
            String part = s.identifier();
            if (part == null) {
                return null;
            }
            name.add(part);
        } while (s.symbol('.'));
        if (name.size() > 2 || name.get(name.size() - 1).equalsIgnoreCase("FUNCTION")) {
            return null;
        }
        List<String> columns = null;
        if (s.symbol('(')) {
            columns = new ArrayList<>();
            do {
                String c = s.identifier();
                if (c == null) {
                    return null;
                }
                columns.add(c);
            } while (s.symbol(','));
            if (!s.symbol(')')) {
                return null;
            }
        }
        if (!s.keyword("VALUES") || !s.symbol('(')) {
            return null;
        }
        int n = 0;
        do {
            if (!s.symbol('?')) {
                return null;
            }
            n++;
        } while (s.symbol(','));
        if (!s.symbol(')')) {
            return null;
        }
        s.symbol(';');
        if (!s.atEnd() || columns != null && columns.size() != n) {
            return null;
        }
        String db = name.size() == 2 ? name.get(0) : null;
        return new RowBinaryInsert(db, name.get(name.size() - 1), columns, n);
    }

    /** A name as ClickHouse reads it in backquotes. */
    static String quote(String identifier) {
        return "`" + identifier.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    /** The table as the INSERT names it, quoted. */
    String quotedTable() {
        return (database == null ? "" : quote(database) + ".") + quote(table);
    }

    /** A minimal tokenizer over the statement: keywords, identifiers (bare or quoted) and one-character symbols. */
    private static final class Scanner {
        private final String sql;
        private int pos;

        Scanner(String sql) {
            this.sql = sql;
        }

        private void skip() {
            int n = sql.length();
            while (pos < n) {
                char c = sql.charAt(pos);
                if (Character.isWhitespace(c)) {
                    pos++;
                } else if (c == '-' && sql.startsWith("--", pos) || c == '/' && sql.startsWith("/*", pos)) {
                    pos = SqlText.skipComment(sql, pos);
                } else {
                    return;
                }
            }
        }

        boolean atEnd() {
            skip();
            return pos >= sql.length();
        }

        boolean keyword(String k) {
            skip();
            int e = pos + k.length();
            if (sql.regionMatches(true, pos, k, 0, k.length()) && (e >= sql.length() || !SqlText.isIdent(sql.charAt(e)))) {
                pos = e;
                return true;
            }
            return false;
        }

        boolean symbol(char c) {
            skip();
            if (pos < sql.length() && sql.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        /** A bare or quoted identifier (its quotes resolved), or null; a keyword that ends the name is not one. */
        String identifier() {
            skip();
            if (pos >= sql.length()) {
                return null;
            }
            char c = sql.charAt(pos);
            if (c == '`' || c == '"') {
                int e = SqlText.skipQuoted(sql, pos);
                if (e > sql.length() || sql.charAt(e - 1) != c || e - pos < 2) {
                    return null;
                }
                String q = String.valueOf(c);
                String body = sql.substring(pos + 1, e - 1).replace(q + q, q).replace("\\" + q, q).replace("\\\\", "\\");
                pos = e;
                return body;
            }
            int e = pos;
            while (e < sql.length() && SqlText.isIdent(sql.charAt(e))) {
                e++;
            }
            if (e == pos || Character.isDigit(c)) {
                return null;
            }
            String word = sql.substring(pos, e);
            if (word.toUpperCase(Locale.ROOT).equals("VALUES")) {
                return null;
            }
            pos = e;
            return word;
        }
    }
}
