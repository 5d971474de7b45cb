package dev.chdedup.stub.sql;

import java.util.List;
import java.util.Map;

/** A SELECT, or several joined by UNION ALL, with the trailing SETTINGS and FORMAT clauses. */
public record Query(List<Select> selects, Map<String, String> settings, String format) {

    /** One SELECT block. {@code orderByAll} is ORDER BY ALL; {@code from} may be null (FROM system.one). */
    public record Select(boolean distinct, List<SelectItem> items, From from, Expr where, List<Expr> groupBy,
                         Expr having, List<OrderItem> orderBy, boolean orderByAll, boolean orderByAllDesc,
                         Expr limit, Expr offset, List<Expr> limitBy, Expr limitByCount) {
    }

    public record SelectItem(Expr expr, String alias, String text) {
        /** The text of an item of the SELECT's own WITH clause ({@code WITH expr AS name}): an alias, not a column. */
        public static final String WITH = "\u0000with";
        /**
         * The text of a WITH alias of an enclosing SELECT, visible in this one as in ClickHouse: its expression is
         * resolved here, below this SELECT's own aliases and the columns of its FROM, which hide it.
         */
        public static final String OUTER = "\u0000outer";

        /** Whether this item is an alias only (a WITH item, own or enclosing), not a column of the result. */
        public boolean isWith() {
            return WITH.equals(text) || OUTER.equals(text);
        }

        /** Whether this item is an enclosing SELECT's WITH alias. */
        public boolean isOuter() {
            return OUTER.equals(text);
        }
    }

    /** One ORDER BY key; {@code fill} is its WITH FILL clause, or null. */
    public record OrderItem(Expr expr, boolean desc, Boolean nullsFirst, Fill fill) {
        public OrderItem(Expr expr, boolean desc, Boolean nullsFirst) {
            this(expr, desc, nullsFirst, null);
        }
    }

    /** {@code WITH FILL [FROM from] [TO to] [STEP step]}; absent parts are null. */
    public record Fill(Expr from, Expr to, Expr step) {
    }

    /** A FROM source: a table, a table function or a subquery, with an optional alias; FINAL is accepted. */
    public sealed interface From {
    }

    public record TableRef(String database, String table, String alias, boolean isFinal) implements From {
    }

    public record TableFunction(String name, List<Expr> args, String alias) implements From {
    }

    public record SubqueryRef(Query query, String alias) implements From {
    }

    /**
     * A reference to {@code WITH RECURSIVE name [(columns)] AS (base UNION ALL recursive)}: {@code base} the SELECTs
     * that do not read {@code name}, {@code recursive} those that do (through a {@link WorkingTable}); {@code columns}
     * null without a column list.
     */
    public record RecursiveCte(String name, List<String> columns, Query base, Query recursive, String alias) implements From {
    }

    /**
     * The rows of {@code input} with a column for each window function of {@code functions} after its columns: the
     * window step of a SELECT with window functions, whose arguments, PARTITION BY and ORDER BY name the input's
     * columns (by position, {@code \u0000p0}, {@code \u0000p1}, ...) or are constants. {@code keyNames} names each key
     * column as the engine's planner names the expression it computes ({@code __table1.x}, {@code modulo(__table1.x, 2_UInt8)}),
     * by which it orders the windows.
     */
    public record Windowed(Query input, List<Expr.WindowFunction> functions, Map<String, String> keyNames) implements From {
    }

    /** {@code name} read inside its own recursive definition: the rows of the step before. */
    public record WorkingTable(String name, String alias) implements From {
    }

    /** {@code source [LEFT] ARRAY JOIN a [AS x], ...}: one row per array element. */
    public record ArrayJoin(From source, List<Expr> arrays, List<String> aliases, boolean left) implements From {
    }

    /** {@code left [INNER|LEFT|RIGHT|FULL|CROSS] JOIN right ON on | USING (using)}; kind COMMA (a comma) only in a statement parsed for EXPLAIN AST or SYNTAX. */
    public record Join(From left, From right, String kind, Expr on, List<String> using) implements From {
    }
}
