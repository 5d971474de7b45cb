package dev.chdedup.stub.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * ClickHouse's SQL lexer (src/Parsers/Lexer.cpp) over a query's bytes: every byte of the query belongs to one token,
 * whitespace and comments included, and malformed input gives error tokens rather than failing, so the query-text
 * functions (tokenizeQuery, normalizeQuery, normalizedQueryHash) see the tokens the engine sees. A query is a byte
 * string (one char a byte); a token's bounds are byte offsets.
 */
final class QueryLexer {
    /** The token types, in the order and with the names of ClickHouse's TokenType. */
    enum Type {
        Whitespace, Comment, BareWord, Number, StringLiteral, QuotedIdentifier, OpeningRoundBracket, ClosingRoundBracket,
        OpeningSquareBracket, ClosingSquareBracket, OpeningCurlyBrace, ClosingCurlyBrace, Comma, Semicolon, VerticalDelimiter,
        Dot, Asterisk, HereDoc, DollarSign, Plus, Minus, Slash, Percent, Arrow, QuestionMark, Colon, Caret, DoubleColon,
        Equals, NotEquals, Less, Greater, LessOrEquals, GreaterOrEquals, Spaceship, PipeMark, Concatenation, At, DoubleAt,
        EndOfStream, Error, ErrorMultilineCommentIsNotClosed, ErrorSingleQuoteIsNotClosed, ErrorDoubleQuoteIsNotClosed,
        ErrorBackQuoteIsNotClosed, ErrorSingleExclamationMark, ErrorSinglePipeMark, ErrorWrongNumber, ErrorMaxQuerySizeExceeded;

        boolean significant() {
            return this != Whitespace && this != Comment;
        }

        boolean error() {
            return ordinal() > EndOfStream.ordinal();
        }
    }

    record Token(Type type, int begin, int end) {
    }

    private final String q;
    private final int end;
    private int pos;
    private Type prevSignificant = Type.Whitespace;

    private QueryLexer(String query) {
        this.q = query;
        this.end = query.length();
    }

    /** The tokens of byte string {@code query}, up to (without) EndOfStream. */
    static List<Token> tokens(String query) {
        QueryLexer l = new QueryLexer(query);
        List<Token> out = new ArrayList<>();
        while (true) {
            Token t = l.next();
            if (t.type() == Type.EndOfStream) {
                return out;
            }
            out.add(t);
        }
    }

    private Token next() {
        Token t = nextImpl();
        if (t.type().significant()) {
            prevSignificant = t.type();
        }
        return t;
    }

    private char at(int i) {
        return i < end ? q.charAt(i) : '\0';
    }

    private Token token(Type type, int begin) {
        return new Token(type, begin, pos);
    }

    private Token nextImpl() {
        if (pos >= end) {
            return new Token(Type.EndOfStream, end, end);
        }
        int begin = pos;
        char c = q.charAt(pos);
        switch (c) {
            case ' ': case '\t': case '\n': case '\r': case '\f': case 0x0b:
                pos++;
                while (pos < end && isWhitespace(q.charAt(pos))) {
                    pos++;
                }
                return token(Type.Whitespace, begin);
            case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': case '8': case '9':
                return number(begin);
            case '\'':
                return quoted('\'', Type.StringLiteral, Type.ErrorSingleQuoteIsNotClosed, begin);
            case '"':
                return quoted('"', Type.QuotedIdentifier, Type.ErrorDoubleQuoteIsNotClosed, begin);
            case '`':
                return quoted('`', Type.QuotedIdentifier, Type.ErrorBackQuoteIsNotClosed, begin);
            case '(': return one(Type.OpeningRoundBracket, begin);
            case ')': return one(Type.ClosingRoundBracket, begin);
            case '[': return one(Type.OpeningSquareBracket, begin);
            case ']': return one(Type.ClosingSquareBracket, begin);
            case '{': return one(Type.OpeningCurlyBrace, begin);
            case '}': return one(Type.ClosingCurlyBrace, begin);
            case ',': return one(Type.Comma, begin);
            case ';': return one(Type.Semicolon, begin);
            case '.':
                return dot(begin);
            case '+': return one(Type.Plus, begin);
            case '-':
                pos++;
                if (at(pos) == '>' && pos < end) {
                    return one(Type.Arrow, begin);
                }
                if (at(pos) == '-' && pos < end) {
                    return commentToEndOfLine(begin);
                }
                return token(Type.Minus, begin);
            case '*': return one(Type.Asterisk, begin);
            case '/':
                return slash(begin);
            case '#':
                pos++;
                if (pos < end && (at(pos) == ' ' || at(pos) == '!')) {
                    return commentToEndOfLine(begin);
                }
                return token(Type.Error, begin);
            case '%': return one(Type.Percent, begin);
            case '=':
                pos++;
                if (pos < end && at(pos) == '=') {
                    pos++;
                }
                return token(Type.Equals, begin);
            case '!':
                pos++;
                return pos < end && at(pos) == '=' ? one(Type.NotEquals, begin) : token(Type.ErrorSingleExclamationMark, begin);
            case '<':
                pos++;
                if (pos < end && at(pos) == '=') {
                    pos++;
                    return pos < end && at(pos) == '>' ? one(Type.Spaceship, begin) : token(Type.LessOrEquals, begin);
                }
                return pos < end && at(pos) == '>' ? one(Type.NotEquals, begin) : token(Type.Less, begin);
            case '>':
                pos++;
                return pos < end && at(pos) == '=' ? one(Type.GreaterOrEquals, begin) : token(Type.Greater, begin);
            case '?': return one(Type.QuestionMark, begin);
            case ':':
                pos++;
                return pos < end && at(pos) == ':' ? one(Type.DoubleColon, begin) : token(Type.Colon, begin);
            case '^': return one(Type.Caret, begin);
            case '|':
                pos++;
                return pos < end && at(pos) == '|' ? one(Type.Concatenation, begin) : token(Type.PipeMark, begin);
            case '@':
                pos++;
                return pos < end && at(pos) == '@' ? one(Type.DoubleAt, begin) : token(Type.At, begin);
            case '\\':
                pos++;
                return pos < end && at(pos) == 'G' ? one(Type.VerticalDelimiter, begin) : token(Type.Error, begin);
            default:
                return other(begin);
        }
    }

    private Token one(Type type, int begin) {
        pos++;
        return token(type, begin);
    }

    private Token commentToEndOfLine(int begin) {
        while (pos < end && q.charAt(pos) != '\n') {
            pos++;
        }
        return token(Type.Comment, begin);
    }

    private Token slash(int begin) {
        pos++;
        if (pos < end && at(pos) == '/') {
            return commentToEndOfLine(begin);
        }
        if (pos < end && at(pos) == '*') {
            pos++;
            int nesting = 1;
            while (pos + 2 <= end) {
                if (at(pos) == '/' && at(pos + 1) == '*') {
                    pos += 2;
                    nesting++;
                } else if (at(pos) == '*' && at(pos + 1) == '/') {
                    pos += 2;
                    if (--nesting == 0) {
                        return token(Type.Comment, begin);
                    }
                } else {
                    pos++;
                }
            }
            pos = end;
            return token(Type.ErrorMultilineCommentIsNotClosed, begin);
        }
        return token(Type.Slash, begin);
    }

    private Token quoted(char quote, Type ok, Type error, int begin) {
        pos++;
        while (true) {
            while (pos < end && q.charAt(pos) != quote && q.charAt(pos) != '\\') {
                pos++;
            }
            if (pos >= end) {
                return token(error, begin);
            }
            if (q.charAt(pos) == quote) {
                pos++;
                if (pos < end && q.charAt(pos) == quote) {
                    pos++;
                    continue;
                }
                return token(ok, begin);
            }
            pos++;
            if (pos >= end) {
                return token(error, begin);
            }
            pos++;
        }
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isHex(char c) {
        return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F';
    }

    private static boolean isWordChar(char c) {
        return isDigit(c) || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    /** A '_' between digits of one block of a number (1_000, 0x_ff is not one). */
    private boolean separator(boolean startOfBlock, boolean hex) {
        return !startOfBlock && at(pos) == '_' && pos + 1 < end && (hex ? isHex(at(pos + 1)) : isDigit(at(pos + 1)));
    }

    private void digits(boolean startOfBlock, boolean hex) {
        while (pos < end && ((hex ? isHex(at(pos)) : isDigit(at(pos))) || separator(startOfBlock, hex))) {
            pos++;
            startOfBlock = false;
        }
    }

    private void exponent(boolean hex) {
        if (pos + 1 < end && (hex ? at(pos) == 'p' || at(pos) == 'P' : at(pos) == 'e' || at(pos) == 'E')) {
            pos++;
            if (pos + 1 < end && (at(pos) == '-' || at(pos) == '+')) {
                pos++;
            }
            digits(true, false);
        }
    }

    private Token number(int begin) {
        if (prevSignificant == Type.Dot) {
            pos++;
            digits(false, false);
        } else {
            boolean hex = false;
            boolean startOfBlock = false;
            char c1 = at(pos + 1);
            if (pos + 2 < end && at(pos) == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B')) {
                boolean valid = false;
                if (c1 == 'x' || c1 == 'X') {
                    hex = isHex(at(pos + 2));
                    valid = hex;
                } else {
                    valid = at(pos + 2) == '0' || at(pos + 2) == '1';
                }
                if (valid) {
                    pos += 2;
                    startOfBlock = true;
                } else {
                    pos++;
                }
            } else {
                pos++;
            }
            digits(startOfBlock, hex);
            if (pos < end && at(pos) == '.') {
                pos++;
                digits(true, hex);
            }
            exponent(hex);
        }
        if (pos < end && isWordChar(at(pos))) {
            while (pos < end && isWordChar(at(pos))) {
                pos++;
            }
            for (int i = begin; i < pos; i++) {
                if (!isWordChar(q.charAt(i)) && q.charAt(i) != '$') {
                    return token(Type.ErrorWrongNumber, begin);
                }
            }
            return token(Type.BareWord, begin);
        }
        return token(Type.Number, begin);
    }

    private Token dot(int begin) {
        boolean digitNext = pos + 1 < end && isDigit(at(pos + 1));
        if (pos > 0 && (!digitNext || prevSignificant == Type.ClosingRoundBracket || prevSignificant == Type.ClosingSquareBracket
            || prevSignificant == Type.BareWord || prevSignificant == Type.QuotedIdentifier || prevSignificant == Type.Number)) {
            return one(Type.Dot, begin);
        }
        pos++;
        digits(true, false);
        exponent(false);
        return token(Type.Number, begin);
    }

    private Token other(int begin) {
        char c = q.charAt(pos);
        if (c == '$') {
            int nameEnd = q.indexOf('$', pos + 1);
            if (nameEnd >= 0) {
                String heredoc = q.substring(pos, nameEnd + 1);
                int close = q.indexOf(heredoc, nameEnd + 1);
                if (close >= 0) {
                    pos = close + heredoc.length();
                    return token(Type.HereDoc, begin);
                }
            }
            if (pos + 1 == end || !isWordChar(at(pos + 1))) {
                return one(Type.DollarSign, begin);
            }
        }
        if (pos + 2 < end && at(pos + 1) == '\'' && (c == 'x' || c == 'X' || c == 'b' || c == 'B')) {
            boolean hex = c == 'x' || c == 'X';
            pos += 2;
            while (pos < end && (hex ? isHex(at(pos)) : at(pos) == '0' || at(pos) == '1')) {
                pos++;
            }
            if (pos >= end || at(pos) != '\'') {
                pos = end;
                return token(Type.ErrorSingleQuoteIsNotClosed, begin);
            }
            return one(Type.StringLiteral, begin);
        }
        if (isWordChar(c) || c == '$') {
            pos++;
            while (pos < end && (isWordChar(at(pos)) || at(pos) == '$')) {
                pos++;
            }
            return token(Type.BareWord, begin);
        }
        int ws = unicodeWhitespace(pos);
        if (ws > 0) {
            while (ws > 0) {
                pos += ws;
                ws = unicodeWhitespace(pos);
            }
            return token(Type.Whitespace, begin);
        }
        // an unrecognized character: the whole UTF-8 sequence it starts
        int len = pos < end ? dev.chdedup.stub.types.ByteStrings.utf8SequenceLength(q, pos) : 0;
        pos += Math.max(1, len);
        return token(Type.Error, begin);
    }

    /** The byte length of the Unicode space character (no-break, en/em and the like, ideographic) at {@code i}, or 0. */
    private int unicodeWhitespace(int i) {
        if (i >= end) {
            return 0;
        }
        int len = dev.chdedup.stub.types.ByteStrings.utf8SequenceLength(q, i);
        if (len < 2) {
            return 0;
        }
        int cp = dev.chdedup.stub.types.ByteStrings.toText(q.substring(i, i + len)).codePointAt(0);
        boolean space = cp == 0xa0 || cp == 0x1680 || cp >= 0x2000 && cp <= 0x200a || cp == 0x2028 || cp == 0x2029 || cp == 0x202f
            || cp == 0x205f || cp == 0x3000 || cp == 0x85;
        return space ? len : 0;
    }
}
