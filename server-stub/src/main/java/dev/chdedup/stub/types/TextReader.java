package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;

/**
 * A cursor over text being parsed as values: quoted strings with ClickHouse's escapes, number tokens,
 * brackets. Shared by the text formats and by nested values (arrays, tuples, maps) inside them.
 */
public final class TextReader {
    private final String s;
    private int pos;
    private final int end;

    public TextReader(String s) {
        this(s, 0, s.length());
    }

    public TextReader(String s, int pos, int end) {
        this.s = s;
        this.pos = pos;
        this.end = end;
    }

    public boolean atEnd() {
        return pos >= end;
    }

    public int pos() {
        return pos;
    }

    public void pos(int p) {
        pos = p;
    }

    public int peek() {
        return pos < end ? s.charAt(pos) : -1;
    }

    public char next() {
        if (pos >= end) {
            throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Unexpected end of data");
        }
        return s.charAt(pos++);
    }

    public void skipSpaces() {
        while (pos < end && Character.isWhitespace(s.charAt(pos))) {
            pos++;
        }
    }

    public boolean tryChar(char c) {
        skipSpaces();
        if (pos < end && s.charAt(pos) == c) {
            pos++;
            return true;
        }
        return false;
    }

    public void expect(char c) {
        skipSpaces();
        if (pos >= end || s.charAt(pos) != c) {
            throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                "Cannot parse input: expected '" + c + "' before: '" + excerpt() + "'");
        }
        pos++;
    }

    public boolean tryWord(String w) {
        skipSpaces();
        if (s.regionMatches(true, pos, w, 0, w.length())) {
            int after = pos + w.length();
            if (after >= end || !Character.isLetterOrDigit(s.charAt(after)) && s.charAt(after) != '_') {
                pos = after;
                return true;
            }
        }
        return false;
    }

    public String excerpt() {
        return s.substring(pos, Math.min(end, pos + 40));
    }

    /** The rest of the input, or up to the next character that ends an unquoted nested value. */
    public String readBare() {
        skipSpaces();
        int start = pos;
        while (pos < end) {
            char c = s.charAt(pos);
            if (c == ',' || c == ']' || c == ')' || c == '}' || c == ':' && start != pos && !isTimeColon(start)) {
                break;
            }
            pos++;
        }
        return s.substring(start, pos).trim();
    }

    private boolean isTimeColon(int start) {
        return false;
    }

    /**
     * The text of a scalar value: a quoted literal's content where {@code quoted} allows one, a bare token inside
     * a nested value, or else the whole field.
     */
    public String readScalar(boolean quoted) {
        skipSpaces();
        boolean q = quoted && (peek() == '\'' || peek() == '"');
        return q ? readQuoted() : quoted ? readBare() : readRest();
    }

    /** The rest of the field, unchanged. */
    public String readRest() {
        String r = s.substring(pos, end);
        pos = end;
        return r;
    }

    /** Reads a single- or double-quoted string literal with ClickHouse's backslash escapes. */
    public String readQuoted() {
        skipSpaces();
        if (pos >= end || (s.charAt(pos) != '\'' && s.charAt(pos) != '"')) {
            throw new ChException(ErrorCode.CANNOT_PARSE_QUOTED_STRING,
                "Cannot parse quoted string: expected opening quote: '" + excerpt() + "'");
        }
        char q = s.charAt(pos++);
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= end) {
                throw new ChException(ErrorCode.CANNOT_PARSE_QUOTED_STRING,
                    "Cannot parse quoted string: expected closing quote");
            }
            char c = s.charAt(pos++);
            if (c == q) {
                if (pos < end && s.charAt(pos) == q) {
                    sb.append(q);
                    pos++;
                    continue;
                }
                return sb.toString();
            }
            if (c == '\\' && pos < end) {
                pos = unescape(s, pos, sb);
                continue;
            }
            sb.append(c);
        }
    }

    /**
     * Appends the character(s) an escape sequence starting at {@code p} (just after the backslash) stands for,
     * and returns the position after it.
     */
    public static int unescape(String s, int p, StringBuilder sb) {
        char e = s.charAt(p++);
        switch (e) {
            case 'n': sb.append('\n'); break;
            case 't': sb.append('\t'); break;
            case 'r': sb.append('\r'); break;
            case 'b': sb.append('\b'); break;
            case 'f': sb.append('\f'); break;
            case '0': sb.append('\0'); break;
            case 'a': sb.append((char) 7); break;
            case 'v': sb.append((char) 11); break;
            case 'e': sb.append((char) 27); break;
            case 'x':
                if (p + 2 <= s.length()) {
                    try {
                        sb.append((char) Integer.parseInt(s.substring(p, p + 2), 16));
                        return p + 2;
                    } catch (NumberFormatException ignored) {
                        // fall through: keep the x
                    }
                }
                sb.append('x');
                break;
            default: sb.append(e);
        }
        return p;
    }

    public static ChException cannotParse(DataType t, String text) {
        String shown = ByteStrings.toText(text.length() > 100 ? text.substring(0, 100) + "..." : text);
        return new ChException(ErrorCode.CANNOT_PARSE_TEXT,
            "Cannot parse string '" + shown + "' as " + t.name());
    }
}
