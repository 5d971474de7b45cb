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

    /** A column or alias reference, possibly qualified ({@code t.c}). */
    record Ident(List<String> parts) implements Expr {
        public String last() {
            return parts.get(parts.size() - 1);
        }

        public String joined() {
            return String.join(".", parts);
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

    /** {@code INTERVAL n unit}. */
    record Interval(Expr amount, String unit) implements Expr {
    }
}
