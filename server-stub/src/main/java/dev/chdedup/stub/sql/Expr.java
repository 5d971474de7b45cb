package dev.chdedup.stub.sql;

import java.util.List;

/**
 * Expression AST nodes. Operators are parsed into {@link Call}s of the ClickHouse functions they stand for
 * ({@code a + b} is {@code plus(a, b)}), so the evaluator knows only functions. Records compare structurally,
 * which GROUP BY matching relies on.
 */
public sealed interface Expr {
    /** A constant; {@code value} is a Long, BigInteger, Double, String, Boolean or null. */
    record Literal(Object value) implements Expr {
    }

    /**
     * A column or alias reference, possibly qualified ({@code t.c}), possibly a JSON path with the sub-path syntax: a
     * part {@link #SUB_OBJECT} + {@code a} is {@code ^a} (the sub-object at a path), a part {@link #TYPED} + {@code T}
     * is {@code :T} (the path's value of type T; {@code a[]} is {@code a.:`Array(JSON)`}).
     */
    record Ident(List<String> parts) implements Expr {
        public static final String SUB_OBJECT = "\u0000^";
        public static final String TYPED = "\u0000:";

        public String last() {
            return parts.get(parts.size() - 1);
        }

        /** The name as ClickHouse writes it ({@code j.^`a`.b}, {@code j.a.:`Int64`} for the sub-path parts). */
        public String joined() {
            StringBuilder sb = new StringBuilder();
            for (String p : parts) {
                sb.append(sb.isEmpty() ? "" : ".");
                if (p.startsWith(SUB_OBJECT) || p.startsWith(TYPED)) {
                    sb.append(p.charAt(1)).append('`').append(p.substring(2).replace("\\", "\\\\").replace("`", "\\`")).append('`');
                } else {
                    sb.append(p);
                }
            }
            return sb.toString();
        }
    }

    /** {@code *} or {@code t.*}. */
    record Star(String qualifier) implements Expr {
    }

    /**
     * A function or operator call; {@code distinct} is count(DISTINCT x). A parametric aggregate's parameters come last
     * in {@code args}, {@code params} of them ({@code groupArray(3)(x)} is args {@code [x, 3]}, params 1).
     */
    record Call(String name, List<Expr> args, boolean distinct, int params) implements Expr {
        public Call(String name, List<Expr> args, boolean distinct) {
            this(name, args, distinct, 0);
        }

        public Call(String name, Expr... args) {
            this(name, List.of(args), false, 0);
        }
    }

    /** {@code CAST(e AS T)} or {@code e::T}. */
    record Cast(Expr expr, String typeName) implements Expr {
    }

    /** A scalar or IN subquery. */
    record Subquery(Query query) implements Expr {
    }

    /** {@code x -> expr} for higher-order functions. */
    record Lambda(List<String> params, Expr body) implements Expr {
    }

    /**
     * {@code f(args) OVER window}: a window function or an aggregate over a window. {@code written} is the window as
     * the query writes it (which names the column), {@code window} the same with the named window it derives from put
     * in, as the SELECT's WINDOW clause defines it (its {@code parent} null).
     */
    record WindowFunction(Call function, WindowDefinition written, WindowDefinition window) implements Expr {
    }

    /** {@code INTERVAL n unit}. */
    record Interval(Expr amount, String unit) implements Expr {
    }
}
