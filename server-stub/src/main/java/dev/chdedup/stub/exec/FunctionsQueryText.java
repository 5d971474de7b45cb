package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.hash.SipHash;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;

/**
 * The functions of ClickHouse's "Other" category over a query's text, from its tokens ({@link QueryLexer}):
 * tokenizeQuery (each token's byte bounds and type), normalizeQuery and normalizedQueryHash with their KeepNames forms
 * (src/Parsers/queryNormalization.cpp: literals and lists of them made {@code ?} and {@code ?..}, whitespace and
 * comments one space, complex identifiers {@code `?`} unless names are kept; the hash a SipHash of the same).
 */
final class FunctionsQueryText {
    private static final String CATEGORY = "Other";
    private static final DataType TOKENS;

    static {
        StringBuilder e = new StringBuilder();
        for (QueryLexer.Type t : QueryLexer.Type.values()) {
            e.append(e.length() > 0 ? ", " : "").append('\'').append(t.name()).append("' = ").append(t.ordinal());
        }
        TOKENS = DataTypes.parse("Array(Tuple(begin UInt64, end UInt64, type Enum8(" + e + ")))");
    }

    private FunctionsQueryText() {
    }

    static void register(FunctionFactory f) {
        f.register("tokenizeQuery", CATEGORY, (args, ctx) -> tokenizeQuery(args));
        f.register("normalizeQuery", CATEGORY, (args, ctx) -> text("normalizeQuery", args, DataTypes.STRING,
            q -> normalize(q, false)));
        f.register("normalizeQueryKeepNames", CATEGORY, (args, ctx) -> text("normalizeQueryKeepNames", args, DataTypes.STRING,
            q -> normalize(q, true)));
        f.register("normalizedQueryHash", CATEGORY, (args, ctx) -> text("normalizedQueryHash", args, DataTypes.UINT64,
            q -> hash(q, false)));
        f.register("normalizedQueryHashKeepNames", CATEGORY, (args, ctx) -> text("normalizedQueryHashKeepNames", args,
            DataTypes.UINT64, q -> hash(q, true)));
    }

    private static Evaluator text(String name, List<Evaluator> args, DataType result, java.util.function.Function<String, Object> fn) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type();
        if (!(t.unwrap() instanceof StringType) && !Functions.isNothing(args.get(0))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        return Functions.defaultForNulls(result, args, v -> fn.apply((String) v[0]));
    }

    /** tokenizeQuery(query): (begin, end, type) of each token; NULL gives no tokens, the literal NULL NULL. */
    private static Evaluator tokenizeQuery(List<Evaluator> args) {
        Functions.arity("tokenizeQuery", args, 1);
        Evaluator a = args.get(0);
        if (Functions.isNothing(a)) {
            return Evaluator.constant(a.type(), null);
        }
        if (!(a.type().unwrap() instanceof StringType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "query", "tokenizeQuery", "String", a.type());
        }
        return Evaluator.of(TOKENS, r -> {
            Object v = a.eval(r);
            List<Object> out = new ArrayList<>();
            if (v != null) {
                for (QueryLexer.Token t : QueryLexer.tokens((String) v)) {
                    out.add(List.of((long) t.begin(), (long) t.end(), (long) t.type().ordinal()));
                }
            }
            return out;
        });
    }

    /** An identifier that looks generated: 36 bytes or more, a whitespace, or more than two digits. */
    private static boolean complex(String q, int begin, int end) {
        if (end - begin >= 36) {
            return true;
        }
        int digits = 0;
        for (int i = begin; i < end; i++) {
            char c = q.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0b) {
                return true;
            }
            if (c >= '0' && c <= '9' && ++digits > 2) {
                return true;
            }
        }
        return false;
    }

    private static boolean literal(QueryLexer.Type t) {
        return t == QueryLexer.Type.Number || t == QueryLexer.Type.StringLiteral || t == QueryLexer.Type.HereDoc;
    }

    /** A name, not a function's: a quoted identifier, or a bare word not right before '('. */
    private static boolean name(String q, QueryLexer.Token t) {
        return t.type() == QueryLexer.Type.QuotedIdentifier
            || t.type() == QueryLexer.Type.BareWord && (t.end() == q.length() || q.charAt(t.end()) != '(');
    }

    /** The normalized text of byte string {@code q}, as a byte string. */
    static String normalize(String q, boolean keepNames) {
        StringBuilder out = new StringBuilder();
        boolean prevInsignificant = false;
        int literals = 0;
        boolean prevComma = false;
        boolean prevWhitespace = false;
        for (QueryLexer.Token t : QueryLexer.tokens(q)) {
            QueryLexer.Type type = t.type();
            if (!type.significant()) {
                if (!prevInsignificant) {
                    if (literals == 0) {
                        if (t.begin() != 0) {
                            out.append(' ');
                        }
                    } else {
                        prevWhitespace = true;
                    }
                }
                prevInsignificant = true;
                continue;
            }
            prevInsignificant = false;
            if (literal(type)) {
                if (literals++ == 0) {
                    out.append('?');
                }
                prevWhitespace = false;
                prevComma = false;
                continue;
            }
            if (type == QueryLexer.Type.Comma) {
                if (literals > 0) {
                    prevComma = true;
                    continue;
                }
            } else if (prevComma && (type == QueryLexer.Type.Plus || type == QueryLexer.Type.Minus)) {
                continue;
            } else {
                if (literals > 1) {
                    out.append("..");
                }
                if (prevComma) {
                    out.append(',');
                }
                if (prevWhitespace) {
                    out.append(' ');
                }
                literals = 0;
                prevComma = false;
                prevWhitespace = false;
            }
            if (name(q, t)) {
                out.append(keepNames || !complex(q, t.begin(), t.end()) ? q.substring(t.begin(), t.end()) : "`?`");
                continue;
            }
            if (type.error()) {
                break;
            }
            out.append(q, t.begin(), t.end());
        }
        if (literals > 1) {
            out.append("..");
        }
        if (prevComma) {
            out.append(',');
        }
        if (prevWhitespace) {
            out.append(' ');
        }
        return out.toString();
    }

    /** The SipHash of the normalized tokens of byte string {@code q}: literal runs as 0 bytes, complex names as 1. */
    static long hash(String q, boolean keepNames) {
        SipHash h = new SipHash();
        int literals = 0;
        boolean prevComma = false;
        for (QueryLexer.Token t : QueryLexer.tokens(q)) {
            QueryLexer.Type type = t.type();
            if (!type.significant()) {
                continue;
            }
            if (literal(type)) {
                if (literals++ == 0) {
                    update(h, "\0");
                }
                prevComma = false;
                continue;
            }
            if (type == QueryLexer.Type.Comma) {
                if (literals > 0) {
                    prevComma = true;
                    continue;
                }
            } else {
                if (literals > 1) {
                    update(h, "\0");
                }
                if (prevComma) {
                    update(h, ",");
                }
                literals = 0;
                prevComma = false;
            }
            if (name(q, t)) {
                update(h, keepNames || !complex(q, t.begin(), t.end()) ? q.substring(t.begin(), t.end()) : "\u0001");
                continue;
            }
            if (type.error()) {
                break;
            }
            update(h, q.substring(t.begin(), t.end()));
        }
        if (literals > 1) {
            update(h, "\0");
        }
        if (prevComma) {
            update(h, ",");
        }
        return h.get64();
    }

    private static void update(SipHash h, String bytes) {
        byte[] b = ByteStrings.bytes(bytes);
        h.update(b, 0, b.length);
    }
}
