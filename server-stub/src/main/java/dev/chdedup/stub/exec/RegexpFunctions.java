package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The regular-expression replacements {@code replaceRegexpOne} and {@code replaceRegexpAll} (match, extract and
 * extractAll are in {@link FunctionsStringSearchRegexp}). ClickHouse runs them with re2 over UTF-8 bytes; here the
 * byte strings are decoded as UTF-8 and matched with {@link java.util.regex} (whose syntax agrees with re2 on
 * everything re2 accepts that applications commonly write), and results are encoded back. A replacement's {@code \N} names capture group N,
 * as in ClickHouse. Mirrors ClickHouse's FunctionsStringSearch / FunctionsStringSearchToString.
 */
final class RegexpFunctions {
    private RegexpFunctions() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "replaceRegexpOne": case "replaceRegexpAll":
                return true;
            default:
                return false;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        Functions.arity(name, args, 3);
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type();
            if (!Functions.isString(t) && !(t.unwrap() instanceof dev.chdedup.stub.types.NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument "
                    + (i + 1) + " of function " + name + ", expected String");
            }
        }
        PatternCache patterns = new PatternCache();
        boolean all = name.equals("replaceRegexpAll");
        return Functions.strict(DataTypes.STRING, args, v -> {
            Matcher m = patterns.get((String) v[1]).matcher(text(v[0]));
            String replacement = javaReplacement(text(v[2]));
            return ByteStrings.fromText(all ? m.replaceAll(replacement) : m.replaceFirst(replacement));
        });
    }

    private static String text(Object byteString) {
        return ByteStrings.toText((String) byteString);
    }

    /** ClickHouse's replacement ({@code \0}..{@code \9} name groups, {@code \\} is a backslash) in Java's syntax. */
    static String javaReplacement(String r) {
        StringBuilder sb = new StringBuilder(r.length());
        for (int i = 0; i < r.length(); i++) {
            char c = r.charAt(i);
            if (c == '\\' && i + 1 < r.length()) {
                char d = r.charAt(++i);
                if (Character.isDigit(d)) {
                    sb.append('$').append(d);
                } else {
                    sb.append(Matcher.quoteReplacement(String.valueOf(d)));
                }
            } else {
                sb.append(Matcher.quoteReplacement(String.valueOf(c)));
            }
        }
        return sb.toString();
    }

    /** The last pattern compiled, kept: a constant pattern (the usual case) is compiled once per query. */
    static final class PatternCache {
        private String source;
        private Pattern pattern;

        Pattern get(String byteString) {
            if (!byteString.equals(source)) {
                try {
                    pattern = Pattern.compile(ByteStrings.toText(byteString));
                } catch (PatternSyntaxException e) {
                    throw new ChException(ErrorCode.CANNOT_COMPILE_REGEXP, "OptimizedRegularExpression: cannot compile re2: "
                        + ByteStrings.toText(byteString) + ", error: " + e.getDescription());
                }
                source = byteString;
            }
            return pattern;
        }
    }
}
