package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.TextReader;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into tokens: identifiers (bare, `back-quoted` or "double-quoted"), numbers, 'strings' with
 * ClickHouse's escapes, and operators. Comments ({@code --}, {@code #!}, block comments) are skipped.
 */
public final class Lexer {
    private static final String[] OPS = {"::", "||", "<=", ">=", "!=", "<>", "==", "->", "(", ")", "[", "]", "{", "}",
        ",", ";", ".", "+", "-", "*", "/", "%", "=", "<", ">", "?", ":", "@", "^"};

    private Lexer() {
    }

    public static List<Token> tokenize(String sql, int from, int to) {
        List<Token> out = new ArrayList<>();
        Token prev = null;
        int i = from;
        while (true) {
            Token t = next(sql, i, to, prev);
            out.add(t);
            if (t.kind() == Token.Kind.EOF) {
                return out;
            }
            i = t.end();
            prev = t;
        }
    }

    /** Lexes the one token at or after {@code i}; {@code prev} disambiguates {@code t.1} from {@code .5}. */
    public static Token next(String sql, int i, int to, Token prev) {
        i = skipSpaceAndComments(sql, i, to);
        if (i >= to) {
            return new Token(Token.Kind.EOF, "", to, to);
        }
        char c = sql.charAt(i);
        int st = i;
        if ((c == 'x' || c == 'X' || c == 'b' || c == 'B') && i + 1 < to && sql.charAt(i + 1) == '\'') {
            int close = sql.indexOf('\'', i + 2);
            if (close < 0 || close >= to) {
                throw new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: failed at position " + (st + 1)
                    + ": quoted string is not closed");
            }
            return new Token(Token.Kind.STRING, bitsOrHex(sql, st, close + 1), st, close + 1);
        }
        if (Character.isLetter(c) || c == '_' || c == '$') {
            while (i < to && (Character.isLetterOrDigit(sql.charAt(i)) || sql.charAt(i) == '_' || sql.charAt(i) == '$')) {
                i++;
            }
            return new Token(Token.Kind.IDENT, sql.substring(st, i), st, i);
        }
        if (Character.isDigit(c) && !(prev != null && prev.isOp(".") && prev.end() == st)
            || (c == '.' && i + 1 < to && Character.isDigit(sql.charAt(i + 1)) && !(prev != null && endsOperand(prev)))) {
            i = number(sql, i, to);
            return new Token(Token.Kind.NUMBER, sql.substring(st, i), st, i);
        }
        if (Character.isDigit(c)) {
            while (i < to && Character.isDigit(sql.charAt(i))) {
                i++;
            }
            return new Token(Token.Kind.NUMBER, sql.substring(st, i), st, i);
        }
        if (c == '\'') {
            StringBuilder sb = new StringBuilder();
            i = quoted(sql, i, to, '\'', sb);
            return new Token(Token.Kind.STRING, sb.toString(), st, i);
        }
        if (c == '`' || c == '"') {
            StringBuilder sb = new StringBuilder();
            i = quoted(sql, i, to, c, sb);
            return new Token(Token.Kind.QUOTED_IDENT, sb.toString(), st, i);
        }
        for (String o : OPS) {
            if (sql.startsWith(o, i) && i + o.length() <= to) {
                return new Token(Token.Kind.OP, o, st, i + o.length());
            }
        }
        throw new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: failed at position " + (i + 1)
            + " ('" + sql.substring(i, Math.min(to, i + 20)) + "'): unrecognized token");
    }

    private static boolean endsOperand(Token t) {
        return t.kind() == Token.Kind.IDENT || t.kind() == Token.Kind.QUOTED_IDENT || t.isOp(")") || t.isOp("]") || t.isOp("}")
            || t.kind() == Token.Kind.NUMBER;
    }

    public static int skipSpaceAndComments(String sql, int i, int to) {
        while (i < to) {
            char c = sql.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < to && sql.charAt(i + 1) == '-' || c == '#' && i + 1 < to && (sql.charAt(i + 1) == '!' || sql.charAt(i + 1) == ' ')) {
                while (i < to && sql.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < to && sql.charAt(i + 1) == '*') {
                int e = sql.indexOf("*/", i + 2);
                i = e < 0 || e >= to ? to : e + 2;
            } else {
                break;
            }
        }
        return i;
    }

    private static int number(String s, int i, int to) {
        if (s.startsWith("0x", i) || s.startsWith("0X", i)) {
            i += 2;
            while (i < to && Character.digit(s.charAt(i), 16) >= 0) {
                i++;
            }
            return i;
        }
        while (i < to && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '_')) {
            i++;
        }
        if (i < to && s.charAt(i) == '.') {
            i++;
            while (i < to && Character.isDigit(s.charAt(i))) {
                i++;
            }
        }
        if (i < to && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            int j = i + 1;
            if (j < to && (s.charAt(j) == '+' || s.charAt(j) == '-')) {
                j++;
            }
            if (j < to && Character.isDigit(s.charAt(j))) {
                i = j;
                while (i < to && Character.isDigit(s.charAt(i))) {
                    i++;
                }
            }
        }
        return i;
    }

    /**
     * The String value of the 'quoted' literal token at {@code start}..{@code end} of {@code sql}: a byte string
     * ({@link ByteStrings}) holding the UTF-8 bytes of the text between the quotes, where {@code \xHH} stands
     * for the byte HH itself (so {@code '\xFF\x80'} is those two bytes, and {@code '\xC3\xBC'} equals
     * {@code 'ü'}). {@link Token#text()} is the literal as text, for names and settings.
     */
    public static String stringValue(String sql, int start, int end) {
        if (sql.charAt(start) != '\'' && sql.charAt(start) != '"' && sql.charAt(start) != '`') {
            return bitsOrHex(sql, start, end);
        }
        StringBuilder sb = new StringBuilder(end - start);
        StringBuilder esc = new StringBuilder(2);
        char q = sql.charAt(start);
        for (int i = start + 1; i < end; ) {
            char c = sql.charAt(i++);
            if (c == q) {
                if (i < end && sql.charAt(i) == q) {
                    sb.append(q);
                    i++;
                    continue;
                }
                break;
            }
            if (c == '\\' && i < end) {
                if (sql.charAt(i) == 'x' && i + 2 < end && Character.digit(sql.charAt(i + 1), 16) >= 0
                    && Character.digit(sql.charAt(i + 2), 16) >= 0) {
                    sb.append((char) Integer.parseInt(sql.substring(i + 1, i + 3), 16));
                    i += 3;
                    continue;
                }
                if ("ntrbf0avex\\'\"`/".indexOf(sql.charAt(i)) < 0) {
                    // an unknown escape keeps its backslash ('100\%', '\q'), as ClickHouse's parseComplexEscapeSequence does
                    sb.append('\\');
                }
                esc.setLength(0);
                i = TextReader.unescape(sql, i, esc);
                sb.append(ByteStrings.fromText(esc.toString()));
                continue;
            }
            int cp = c;
            if (Character.isHighSurrogate(c) && i < end && Character.isLowSurrogate(sql.charAt(i))) {
                cp = Character.toCodePoint(c, sql.charAt(i++));
            }
            if (cp < 0x80) {
                sb.append(c);
            } else {
                sb.append(ByteStrings.fromText(new String(Character.toChars(cp))));
            }
        }
        return sb.toString();
    }

    /**
     * The bytes of a hexadecimal ({@code x'4142'}) or binary ({@code b'01000001'}) string literal at [start, end): two
     * hex digits or eight bits a byte, padded with zeros on the left to whole bytes; SYNTAX_ERROR for other text.
     */
    private static String bitsOrHex(String sql, int start, int end) {
        boolean hex = sql.charAt(start) == 'x' || sql.charAt(start) == 'X';
        String digits = sql.substring(start + 2, end - 1);
        int per = hex ? 2 : 8;
        int radix = hex ? 16 : 2;
        if (!digits.chars().allMatch(ch -> Character.digit(ch, radix) >= 0)) {
            throw new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: failed at position " + (start + 1) + ": invalid "
                + (hex ? "hexadecimal" : "binary") + " string literal");
        }
        String padded = "0".repeat((per - digits.length() % per) % per) + digits;
        StringBuilder sb = new StringBuilder(padded.length() / per);
        for (int k = 0; k < padded.length(); k += per) {
            sb.append((char) Integer.parseInt(padded.substring(k, k + per), radix));
        }
        return sb.toString();
    }

    private static int quoted(String s, int i, int to, char q, StringBuilder sb) {
        int st = i;
        i++;
        while (true) {
            if (i >= to) {
                throw new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: failed at position " + (st + 1)
                    + ": quoted string is not closed");
            }
            char c = s.charAt(i++);
            if (c == q) {
                if (i < to && s.charAt(i) == q) {
                    sb.append(q);
                    i++;
                    continue;
                }
                return i;
            }
            if (c == '\\' && i < to) {
                i = TextReader.unescape(s, i, sb);
                continue;
            }
            sb.append(c);
        }
    }
}
