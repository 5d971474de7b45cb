package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.util.List;

/**
 * The XML and HTML text functions of category String: encodeXMLComponent (the five XML special characters as
 * entities), decodeXMLComponent (those entities and numeric character references back) and extractTextFromHTML
 * (ClickHouse's extractTextFromHTML: the text of an HTML or XHTML document without its tags, comments, scripts and
 * styles, CDATA kept verbatim, whitespace collapsed, entities left as they are).
 */
final class FunctionsHTML {
    private FunctionsHTML() {
    }

    static void register(FunctionFactory f) {
        f.register("encodeXMLComponent", FunctionsString.CATEGORY, (args, ctx) -> string("encodeXMLComponent", args, FunctionsHTML::encodeXml));
        f.register("decodeXMLComponent", FunctionsString.CATEGORY, (args, ctx) -> string("decodeXMLComponent", args, FunctionsHTML::decodeXml));
        f.register("extractTextFromHTML", FunctionsString.CATEGORY, (args, ctx) -> string("extractTextFromHTML", args, FunctionsHTML::extractText));
    }

    private static Evaluator string(String name, List<Evaluator> args, java.util.function.UnaryOperator<String> fn) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType && ((StringType) t).fixedLength == 0) && !StringArguments.isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of argument of function " + name);
        }
        return Functions.strict(DataTypes.STRING, args, v -> fn.apply((String) v[0]));
    }

    static String encodeXml(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<': sb.append("&lt;"); break;
                case '>': sb.append("&gt;"); break;
                case '&': sb.append("&amp;"); break;
                case '"': sb.append("&quot;"); break;
                case '\'': sb.append("&apos;"); break;
                default: sb.append(c);
            }
        }
        return sb.toString();
    }

    /** The five XML entities and numeric references (decimal, or hexadecimal after #x or #X) of a code point up to U+10FFFF. */
    static String decodeXml(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int semi = c == '&' ? s.indexOf(';', i) : -1;
            String decoded = semi < 0 ? null : entity(s.substring(i + 1, semi));
            if (decoded == null) {
                sb.append(c);
                i++;
            } else {
                sb.append(decoded);
                i = semi + 1;
            }
        }
        return sb.toString();
    }

    private static String entity(String name) {
        switch (name) {
            case "lt": return "<";
            case "gt": return ">";
            case "amp": return "&";
            case "quot": return "\"";
            case "apos": return "'";
            default: break;
        }
        if (name.length() < 2 || name.charAt(0) != '#') {
            return null;
        }
        boolean hex = name.charAt(1) == 'x' || name.charAt(1) == 'X';
        String digits = name.substring(hex ? 2 : 1);
        if (digits.isEmpty() || digits.length() > 8 || !digits.chars().allMatch(d -> Character.digit(d, hex ? 16 : 10) >= 0 && d < 0x80)) {
            return null;
        }
        long cp = Long.parseLong(digits, hex ? 16 : 10);
        if (cp > 0x10FFFF) {
            return null;
        }
        return ByteStrings.fromText(new String(Character.toChars((int) cp)));
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
    }

    /** Whether {@code s} has {@code prefix} at {@code i} with at least one byte after it. */
    private static boolean at(String s, int i, String prefix) {
        return i + prefix.length() < s.length() && s.startsWith(prefix, i);
    }

    static String extractText(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            i = copyText(s, i, out);
            if (i >= s.length()) {
                break;
            }
            int next = skipComment(s, i);
            if (next < 0) {
                next = cdata(s, i, out);
            }
            if (next < 0) {
                next = skipElement(s, i, "script");
            }
            if (next < 0) {
                next = skipElement(s, i, "style");
            }
            if (next < 0) {
                int gt = s.indexOf('>', i);
                next = gt < 0 ? s.length() : gt + 1;
            }
            i = next;
        }
        return out.toString();
    }

    /** Copies the text up to the next '<', its whitespace runs as one space (and one before it when text preceded). */
    private static int copyText(String s, int i, StringBuilder out) {
        boolean needsSpace = out.length() > 0 && out.charAt(out.length() - 1) != ' ';
        while (i < s.length() && isWhitespace(s.charAt(i))) {
            i++;
        }
        int lt = s.indexOf('<', i);
        if (lt < 0) {
            lt = s.length();
        }
        if (needsSpace && i < lt) {
            out.append(' ');
        }
        boolean space = false;
        for (; i < lt; i++) {
            char c = s.charAt(i);
            if (isWhitespace(c)) {
                space = true;
            } else {
                if (space) {
                    out.append(' ');
                    space = false;
                }
                out.append(c);
            }
        }
        return lt;
    }

    /** After a comment at {@code i} (ended by the first "-->"; unended, after its opening), or -1 when none is there. */
    private static int skipComment(String s, int i) {
        if (!at(s, i, "<!--")) {
            return -1;
        }
        int from = i + 4;
        while (true) {
            int gt = s.indexOf('>', from);
            if (gt < 0) {
                return from;
            }
            if (gt >= from + 2 && s.charAt(gt - 1) == '-' && s.charAt(gt - 2) == '-') {
                return gt + 1;
            }
            from = gt + 1;
        }
    }

    /**
     * After a CDATA section at {@code i}, its content copied to {@code out} when not null (unended, after its opening,
     * nothing copied); -1 when none is there.
     */
    private static int cdata(String s, int i, StringBuilder out) {
        if (!at(s, i, "<![CDATA[")) {
            return -1;
        }
        int from = i + 9;
        int gt = from;
        while (true) {
            gt = s.indexOf('>', gt);
            if (gt < 0) {
                return from;
            }
            if (gt - 2 >= 0 && s.charAt(gt - 1) == ']' && s.charAt(gt - 2) == ']') {
                if (out != null) {
                    out.append(s, from, Math.max(from, gt - 2));
                }
                return gt + 1;
            }
            gt++;
        }
    }

    /**
     * After an element {@code tag} (script or style) at {@code i} with its content, up to its closing tag (whitespace
     * allowed before the '>', CDATA inside skipped); -1 when no such element starts there.
     */
    private static int skipElement(String s, int i, String tag) {
        if (!(i < s.length() && s.charAt(i) == '<' && at(s, i + 1, tag))) {
            return -1;
        }
        int p = i + 1 + tag.length();
        if (!(isWhitespace(s.charAt(p)) || s.charAt(p) == '>')) {
            return -1;
        }
        int gt = s.indexOf('>', p);
        if (gt < 0) {
            return -1;
        }
        p = gt + 1;
        while (true) {
            int lt = s.indexOf('<', p);
            if (lt < 0 || lt + 1 >= s.length()) {
                return lt < 0 ? s.length() : lt;
            }
            p = lt + 1;
            if (s.charAt(p) == '!') {
                int after = cdata(s, lt, null);
                if (after >= 0) {
                    p = after;
                    continue;
                }
            }
            if (s.charAt(p) != '/') {
                continue;
            }
            p++;
            if (at(s, p, tag)) {
                p += tag.length();
                while (p < s.length() && isWhitespace(s.charAt(p))) {
                    p++;
                }
                if (p >= s.length()) {
                    return p;
                }
                if (s.charAt(p) == '>') {
                    return p + 1;
                }
            }
        }
    }
}
