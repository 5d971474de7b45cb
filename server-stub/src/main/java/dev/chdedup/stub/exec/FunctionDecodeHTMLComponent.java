package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ClickHouse's decodeHTMLComponent (category String): each {@code &name;} of the HTML5 named character references
 * ({@code /html/entities.tsv}, the WHATWG table's names that end in ';') and each numeric reference {@code &#N;} or
 * {@code &#xH;} (at most 7 characters after '&', a code point up to U+10FFFF) becomes its UTF-8 bytes; an '&' that
 * starts no reference stays, and the scan resumes at the next byte.
 */
final class FunctionDecodeHTMLComponent {
    private static final String NAME = "decodeHTMLComponent";
    private static final Map<String, String> ENTITIES = read();

    private FunctionDecodeHTMLComponent() {
    }

    static void register(FunctionFactory f) {
        f.register(NAME, FunctionsString.CATEGORY, (args, ctx) -> compile(args));
    }

    private static Map<String, String> read() {
        Map<String, String> m = new HashMap<>();
        try (InputStream in = FunctionDecodeHTMLComponent.class.getResourceAsStream("/html/entities.tsv");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                int tab = line.indexOf('\t');
                StringBuilder glyph = new StringBuilder();
                for (String cp : line.substring(tab + 1).split(" ")) {
                    glyph.appendCodePoint(Integer.parseInt(cp, 16));
                }
                m.put(line.substring(0, tab), ByteStrings.fromText(glyph.toString()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(m);
    }

    private static Evaluator compile(List<Evaluator> args) {
        Functions.arity(NAME, args, 1);
        DataType t = args.get(0).type().unwrap();
        if (t instanceof StringType && ((StringType) t).fixedLength > 0) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + NAME + " cannot work with FixedString argument");
        }
        if (!(t instanceof StringType) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of argument of function " + NAME);
        }
        return Functions.strict(DataTypes.STRING, args, v -> decode((String) v[0]));
    }

    /** {@code s} and the result are byte strings (one char a byte). */
    static String decode(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int pos = 0;
        while (true) {
            int amp = s.indexOf('&', pos);
            if (amp < 0) {
                break;
            }
            out.append(s, pos, amp);
            pos = amp;
            int semi = s.indexOf(';', amp + 1);
            if (semi < 0) {
                break;
            }
            String glyph = numeric(s, amp + 1, semi);
            if (glyph == null) {
                glyph = ENTITIES.get(s.substring(amp + 1, semi));
            }
            if (glyph != null) {
                out.append(glyph);
                pos = semi + 1;
            } else {
                out.append('&');
                pos = amp + 1;
            }
        }
        out.append(s, pos, s.length());
        return out.toString();
    }

    /** The UTF-8 bytes of a reference {@code #N} or {@code #xH} between {@code from} and {@code end}, or null. */
    private static String numeric(String s, int from, int end) {
        if (from + 1 >= end || s.charAt(from) != '#' || end - from > 8) {
            return null;
        }
        long cp = 0;
        boolean hex = from + 2 < end && (s.charAt(from + 1) == 'x' || s.charAt(from + 1) == 'X');
        for (int i = from + (hex ? 2 : 1); i < end; i++) {
            int d = Character.digit(s.charAt(i), hex ? 16 : 10);
            if (d < 0 || s.charAt(i) > 'f') {
                return null;
            }
            cp = cp * (hex ? 16 : 10) + d;
        }
        if (cp > 0x10FFFF) {
            return null;
        }
        return utf8((int) cp);
    }

    /** ClickHouse's encoding of a code point, surrogates included, as bytes. */
    private static String utf8(int cp) {
        StringBuilder b = new StringBuilder(4);
        if (cp < 0x80) {
            b.append((char) cp);
        } else if (cp < 0x800) {
            b.append((char) (0xC0 | cp >> 6)).append((char) (0x80 | cp & 0x3F));
        } else if (cp < 0x10000) {
            b.append((char) (0xE0 | cp >> 12)).append((char) (0x80 | cp >> 6 & 0x3F)).append((char) (0x80 | cp & 0x3F));
        } else {
            b.append((char) (0xF0 | cp >> 18)).append((char) (0x80 | cp >> 12 & 0x3F)).append((char) (0x80 | cp >> 6 & 0x3F))
                .append((char) (0x80 | cp & 0x3F));
        }
        return b.toString();
    }
}
