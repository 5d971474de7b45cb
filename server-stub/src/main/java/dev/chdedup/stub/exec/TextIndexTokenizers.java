package dev.chdedup.stub.exec;

import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.ExpressionFormatter;
import dev.chdedup.stub.sql.Query;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * hasAllTokens and hasAnyTokens in the WHERE of a SELECT over an expression with a text index take the index's
 * tokenizer, as ClickHouse answers them there from the index: such a SELECT is rewritten before it runs, the tokenizer
 * becoming the third argument of each two-argument call whose first argument is the indexed expression. In the SELECT
 * list the engine tokenizes with splitByNonAlpha, as without an index, and so does the stub.
 */
public final class TextIndexTokenizers {
    private TextIndexTokenizers() {
    }

    /**
     * The tokenizers of the text indexes among a table definition's clauses ({@code INDEX name} to {@code expr TYPE
     * text(tokenizer = t, ...)}), by the indexed expression's text without spaces.
     */
    public static Map<String, String> of(Map<String, String> clauses) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> c : clauses.entrySet()) {
            if (!c.getKey().startsWith("INDEX ")) {
                continue;
            }
            String v = c.getValue();
            int type = v.indexOf(" TYPE ");
            if (type < 0 || !v.startsWith("text(", type + 6)) {
                continue;
            }
            String expr = v.substring(0, type).strip();
            if (expr.startsWith("(") && expr.endsWith(")")) {
                expr = expr.substring(1, expr.length() - 1);
            }
            out.put(withoutSpaces(expr), tokenizer(v.substring(type + 6 + "text(".length())));
        }
        return out;
    }

    /** The value of {@code tokenizer = ...} in a text index's parameters (up to a ',' or ')' outside brackets and quotes). */
    private static String tokenizer(String parameters) {
        int at = parameters.indexOf("tokenizer");
        if (at < 0) {
            return "splitByNonAlpha";
        }
        int i = parameters.indexOf('=', at) + 1;
        int depth = 0;
        boolean quoted = false;
        StringBuilder sb = new StringBuilder();
        for (; i < parameters.length(); i++) {
            char c = parameters.charAt(i);
            if (quoted) {
                sb.append(c);
                if (c == '\\' && i + 1 < parameters.length()) {
                    sb.append(parameters.charAt(++i));
                } else if (c == '\'') {
                    quoted = false;
                }
                continue;
            }
            if (c == '\'') {
                quoted = true;
            } else if (c == '(' || c == '[') {
                depth++;
            } else if (c == ')' || c == ']') {
                if (depth == 0) {
                    break;
                }
                depth--;
            } else if (c == ',' && depth == 0) {
                break;
            }
            sb.append(c);
        }
        return sb.toString().strip();
    }

    private static String withoutSpaces(String s) {
        return s.replace(" ", "").replace("`", "");
    }

    private static boolean isTokensFunction(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return n.equals("hasalltokens") || n.equals("hasanytokens") || n.equals("hasalltoken") || n.equals("hasanytoken");
    }

    private static boolean mentions(Expr e) {
        return e instanceof Expr.Call c && (isTokensFunction(c.name()) || c.args().stream().anyMatch(TextIndexTokenizers::mentions));
    }

    /** Whether the WHERE of {@code s} calls hasAllTokens or hasAnyTokens. */
    static boolean mentioned(Query.Select s) {
        return mentions(s.where());
    }

    /** {@code s} with the tokenizers of {@code indexes} added to the hasAllTokens and hasAnyTokens calls of its WHERE. */
    static Query.Select rewrite(Query.Select s, Map<String, String> indexes) {
        if (indexes.isEmpty()) {
            return s;
        }
        return new Query.Select(s.distinct(), s.items(), s.from(), replace(s.where(), indexes), s.groupBy(), s.having(), s.orderBy(),
            s.orderByAll(), s.orderByAllDesc(), s.limit(), s.offset(), s.limitBy(), s.limitByCount());
    }

    private static Expr replace(Expr e, Map<String, String> indexes) {
        if (!(e instanceof Expr.Call c)) {
            return e;
        }
        List<Expr> args = new ArrayList<>(c.args().size() + 1);
        for (Expr a : c.args()) {
            args.add(replace(a, indexes));
        }
        if (isTokensFunction(c.name()) && args.size() == 2) {
            String tokenizer = indexes.get(withoutSpaces(ExpressionFormatter.format(args.get(0))));
            if (tokenizer != null) {
                args.add(new Expr.Literal(dev.chdedup.stub.types.ByteStrings.fromText(tokenizer)));
            }
        }
        return new Expr.Call(c.name(), args, c.distinct(), c.params());
    }
}
