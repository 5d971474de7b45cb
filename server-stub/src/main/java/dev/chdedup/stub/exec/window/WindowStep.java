package dev.chdedup.stub.exec.window;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Aggregates;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.sql.ColumnNames;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.sql.WindowDefinition;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Plans a SELECT with window functions as ClickHouse's planner places its WindowStep: after WHERE, GROUP BY and HAVING,
 * before DISTINCT, ORDER BY, LIMIT BY and LIMIT. The SELECT becomes two: the input, the same FROM, WHERE, GROUP BY and
 * HAVING with the select list's items that use no window function, then the window functions' arguments, PARTITION BY
 * and ORDER BY keys and every other part of the query's expressions that uses none (each once, named
 * {@code \u0000x0}, ...); and over its rows with the window functions' columns ({@link Query.Windowed}, computed by
 * {@link WindowTransform}), the projection: the select list, DISTINCT, ORDER BY, LIMIT BY and LIMIT as the query
 * wrote them, each window function a column. The input's columns are named by position there ({@code \u0000p0}, ...).
 */
public final class WindowStep {
    /** The prefix of the input's columns as the projection reads them: {@code \u0000p} and the column's position. */
    public static final String INPUT = "\u0000p";
    /** The prefix of the window functions' columns: {@code \u0000w} and the function's position. */
    public static final String RESULT = "\u0000w";
    private static final String EXTRA = "\u0000x";

    private final Map<String, Expr> windowAliases = new LinkedHashMap<>();
    /** The input's extra items: an expression and the name it is computed as. */
    private final Map<Expr, String> extras = new LinkedHashMap<>();
    private final List<Expr.WindowFunction> functions = new ArrayList<>();
    /** The engine's name of each PARTITION BY and ORDER BY key's expression, by the input column computing it. */
    private final Map<String, String> keyNames = new LinkedHashMap<>();
    /** Compiles the frames' offsets, which are constants. */
    private ExprCompiler constants;

    private WindowStep() {
    }

    /**
     * The SELECT that computes {@code s} over the window step, or null when {@code s} has no window function. A window
     * function in WHERE, GROUP BY, HAVING or an aggregate's arguments is ILLEGAL_AGGREGATION, as in ClickHouse.
     */
    public static Query.Select plan(Query.Select s, SelectExecutor executor, QueryContext ctx) {
        boolean any = false;
        for (Query.SelectItem it : s.items()) {
            any |= contains(it.expr());
        }
        for (Query.OrderItem o : s.orderBy()) {
            any |= contains(o.expr());
        }
        illegal(s.where(), "WHERE");
        for (Expr g : s.groupBy()) {
            illegal(g, "GROUP BY");
        }
        illegal(s.having(), "HAVING");
        withoutOver(s);
        if (!any) {
            return null;
        }
        return new WindowStep().split(s, executor, ctx);
    }

    private Query.Select split(Query.Select s, SelectExecutor executor, QueryContext ctx) {
        constants = new ExprCompiler(ctx, List.of(), Map.of(), executor);
        for (Query.SelectItem it : s.items()) {
            if (it.alias() != null && contains(it.expr())) {
                windowAliases.putIfAbsent(it.alias(), it.expr());
            }
        }
        // the input: the items without window functions in place (a window item holds its place with a constant)
        List<Query.SelectItem> inner = new ArrayList<>();
        List<Expr> windowItems = new ArrayList<>();
        for (int i = 0; i < s.items().size(); i++) {
            Query.SelectItem it = s.items().get(i);
            Expr e = expandAliases(it.expr(), new HashSet<>());
            boolean with = it.isWith();
            if (!contains(e)) {
                inner.add(e == it.expr() ? it : new Query.SelectItem(e, it.alias(), it.text()));
                windowItems.add(null);
            } else if (!with) {
                inner.add(new Query.SelectItem(new Expr.Literal(0L), "\u0000skip" + i, "0"));
                windowItems.add(e);
            } else {
                windowItems.add(null);
            }
        }
        List<Expr> projected = new ArrayList<>();
        for (Expr e : windowItems) {
            projected.add(e == null ? null : outer(e));
        }
        List<Query.OrderItem> orderBy = new ArrayList<>();
        for (Query.OrderItem o : s.orderBy()) {
            orderBy.add(new Query.OrderItem(outer(expandAliases(o.expr(), new HashSet<>())), o.desc(), o.nullsFirst(), o.fill()));
        }
        int passed = inner.size();
        for (Map.Entry<Expr, String> x : extras.entrySet()) {
            inner.add(new Query.SelectItem(x.getKey(), x.getValue(), x.getValue()));
        }
        Query.Select input = new Query.Select(false, inner, s.from(), s.where(), s.groupBy(), s.having(), List.of(), false, false,
            null, null, null, null);
        Query inputQuery = new Query(List.of(input), Map.of(), null);
        // the projection: each item of the input by its position (a * as many columns as it reads), each window item as
        // the expression over the window functions' columns, named as the query names it
        List<Column> header = executor.header(inputQuery, ctx);
        int stars = 0;
        for (int i = 0; i < passed; i++) {
            stars += inner.get(i).expr() instanceof Expr.Star && !inner.get(i).isWith() ? 1 : 0;
        }
        ColumnNames namer = ColumnNames.forSelect(s, i -> null);
        List<Query.SelectItem> items = new ArrayList<>();
        int column = 0;
        int innerItem = 0;
        for (int i = 0; i < s.items().size(); i++) {
            Query.SelectItem it = s.items().get(i);
            if (it.isWith()) {
                if (windowItems.get(i) == null && !contains(it.expr())) {
                    innerItem++;
                }
                continue;
            }
            Query.SelectItem in = inner.get(innerItem++);
            if (windowItems.get(i) != null) {
                column++;
                String name = it.alias() != null ? it.alias() : namer.name(it.expr());
                items.add(new Query.SelectItem(projected.get(i), name, it.text()));
            } else if (in.expr() instanceof Expr.Star) {
                int width = stars == 1 ? header.size() - extras.size() - (passed - countWith(inner, passed)) + 1
                    : executor.header(new Query(List.of(new Query.Select(false, List.of(in), s.from(), null, List.of(), null, List.of(),
                        false, false, null, null, null, null)), Map.of(), null), ctx).size();
                for (int k = 0; k < width; k++, column++) {
                    items.add(new Query.SelectItem(new Expr.Ident(List.of(INPUT + column)), header.get(column).name(), it.text()));
                }
            } else {
                items.add(new Query.SelectItem(new Expr.Ident(List.of(INPUT + column)), header.get(column).name(), it.text()));
                column++;
            }
        }
        return new Query.Select(s.distinct(), items, new Query.Windowed(inputQuery, List.copyOf(functions), keyNames), null, List.of(), null,
            orderBy, s.orderByAll(), s.orderByAllDesc(), s.limit(), s.offset(), s.limitBy(), s.limitByCount()); // LIMIT BY reads the result's columns
    }

    private static int countWith(List<Query.SelectItem> items, int n) {
        int c = 0;
        for (int i = 0; i < n; i++) {
            c += items.get(i).isWith() ? 1 : 0;
        }
        return c;
    }

    /** {@code e} as the projection computes it: its window functions and the parts without one as columns. */
    private Expr outer(Expr e) {
        if (e instanceof Expr.WindowFunction w) {
            return window(w);
        }
        if (!contains(e)) {
            return e instanceof Expr.Literal ? e : extra(e);
        }
        if (e instanceof Expr.Call c) {
            if (Aggregates.isAggregate(c.name())) {
                throw new ChException(ErrorCode.ILLEGAL_AGGREGATION, "Window function " + ColumnNames.of(firstWindow(c))
                    + " is found inside an aggregate function in query");
            }
            List<Expr> args = new ArrayList<>();
            for (Expr a : c.args()) {
                args.add(outer(a));
            }
            return new Expr.Call(c.name(), args, c.distinct(), c.params());
        }
        if (e instanceof Expr.Cast c) {
            return new Expr.Cast(outer(c.expr()), c.typeName());
        }
        throw new ChException(ErrorCode.NOT_IMPLEMENTED, "A window function inside " + ColumnNames.of(e) + " is not supported by the stub");
    }

    /** The column of window function {@code w}, its arguments and keys made columns of the input. */
    private Expr window(Expr.WindowFunction w) {
        Expr.Call f = w.function();
        for (Expr a : f.args()) {
            if (contains(a)) {
                throw new ChException(ErrorCode.ILLEGAL_AGGREGATION, "Window function " + ColumnNames.of(firstWindow(a))
                    + " is found inside window definition in query");
            }
        }
        List<Expr> args = new ArrayList<>();
        for (Expr a : f.args()) {
            args.add(a instanceof Expr.Literal ? a : extra(a));
        }
        WindowDefinition d = w.window();
        new WindowFrame(d.frame()).validate(constants); // the engine checks a frame as it resolves its window
        List<Expr> partition = new ArrayList<>();
        for (Expr p : d.partitionBy()) {
            partition.add(key(p));
        }
        List<Query.OrderItem> order = new ArrayList<>();
        for (Query.OrderItem o : d.orderBy()) {
            order.add(new Query.OrderItem(key(o.expr()), o.desc(), o.nullsFirst()));
        }
        Expr.WindowFunction planned = new Expr.WindowFunction(new Expr.Call(f.name(), args, f.distinct(), f.params()), w.written(),
            new WindowDefinition(null, partition, order, d.frame()));
        int i = functions.indexOf(planned);
        if (i < 0) {
            i = functions.size();
            functions.add(planned);
        }
        return new Expr.Ident(List.of(RESULT + i));
    }

    /** The input's column computing the key {@code e}, its engine's name noted. */
    private Expr key(Expr e) {
        Expr column = extra(e);
        keyNames.putIfAbsent(((Expr.Ident) column).last(), actionName(e));
        return column;
    }

    /**
     * The name ClickHouse's planner gives an expression's action (calculateActionNodeName), as near as the stub knows
     * it: a column {@code __table1.x}, a constant with its type ({@code 2_UInt8}), a function with its arguments.
     */
    private String actionName(Expr e) {
        if (e instanceof Expr.Ident i) {
            return "__table1." + i.last();
        }
        if (e instanceof Expr.Literal l) {
            String type;
            try {
                type = constants.compile(l).type().name();
            } catch (ChException ex) {
                type = "";
            }
            return ColumnNames.of(l) + "_" + type;
        }
        if (e instanceof Expr.Call c) {
            StringBuilder sb = new StringBuilder(c.name()).append('(');
            for (int i = 0; i < c.args().size(); i++) {
                sb.append(i > 0 ? ", " : "").append(actionName(c.args().get(i)));
            }
            return sb.append(')').toString();
        }
        return ColumnNames.of(e);
    }

    /** The input's column computing {@code e}. */
    private Expr extra(Expr e) {
        if (contains(e)) {
            throw new ChException(ErrorCode.ILLEGAL_AGGREGATION, "Window function " + ColumnNames.of(firstWindow(e))
                + " is found inside window definition in query");
        }
        return new Expr.Ident(List.of(extras.computeIfAbsent(e, k -> EXTRA + extras.size())));
    }

    /** {@code e} with the aliases of items that hold window functions put in, so the projection computes them. */
    private Expr expandAliases(Expr e, Set<String> seen) {
        if (e instanceof Expr.Ident i && i.parts().size() == 1 && windowAliases.containsKey(i.last()) && seen.add(i.last())) {
            Expr r = expandAliases(windowAliases.get(i.last()), seen);
            seen.remove(i.last());
            return r;
        }
        if (e instanceof Expr.Call c) {
            List<Expr> args = new ArrayList<>();
            boolean changed = false;
            for (Expr a : c.args()) {
                Expr r = expandAliases(a, seen);
                changed |= r != a;
                args.add(r);
            }
            return changed ? new Expr.Call(c.name(), args, c.distinct(), c.params()) : c;
        }
        if (e instanceof Expr.Cast c) {
            Expr r = expandAliases(c.expr(), seen);
            return r == c.expr() ? c : new Expr.Cast(r, c.typeName());
        }
        return e;
    }

    /** The functions that exist only over a window (ClickHouse's IWindowFunction ones). */
    private static final Set<String> WINDOW_ONLY = Set.of("row_number", "rank", "dense_rank", "denserank", "percent_rank",
        "percentrank", "cume_dist", "ntile", "nth_value", "lag", "lead", "laginframe", "leadinframe", "exponentialtimedecayedsum",
        "exponentialtimedecayedmax", "exponentialtimedecayedcount", "exponentialtimedecayedavg");

    /**
     * A window function called without OVER: the engine takes it for an aggregate, so in WHERE it is ILLEGAL_AGGREGATION
     * and elsewhere BAD_ARGUMENTS when the aggregation would run it.
     */
    private static void withoutOver(Query.Select s) {
        Expr.Call inWhere = windowOnly(s.where());
        if (inWhere != null) {
            throw new ChException(ErrorCode.ILLEGAL_AGGREGATION, "Aggregate function " + ColumnNames.of(inWhere) + " is found in WHERE in query");
        }
        List<Expr> others = new ArrayList<>();
        s.items().forEach(i -> others.add(i.expr()));
        s.orderBy().forEach(o -> others.add(o.expr()));
        others.add(s.having());
        for (Expr e : others) {
            Expr.Call c = windowOnly(e);
            if (c != null) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The function '" + c.name()
                    + "' can only be used as a window function, not as an aggregate function");
            }
        }
    }

    /** The first call of a window-only function in {@code e} that has no OVER (not looking into window functions' own calls). */
    private static Expr.Call windowOnly(Expr e) {
        if (e instanceof Expr.Call c) {
            if (WINDOW_ONLY.contains(c.name().toLowerCase(java.util.Locale.ROOT))) {
                return c;
            }
            for (Expr a : c.args()) {
                Expr.Call w = windowOnly(a);
                if (w != null) {
                    return w;
                }
            }
        } else if (e instanceof Expr.WindowFunction w) {
            for (Expr a : w.function().args()) {
                Expr.Call c = windowOnly(a);
                if (c != null) {
                    return c;
                }
            }
        } else if (e instanceof Expr.Cast c) {
            return windowOnly(c.expr());
        } else if (e instanceof Expr.Lambda l) {
            return windowOnly(l.body());
        }
        return null;
    }

    private static void illegal(Expr e, String clause) {
        Expr w = firstWindow(e);
        if (w != null) {
            throw new ChException(ErrorCode.ILLEGAL_AGGREGATION, "Window function " + ColumnNames.of(w) + " is found in " + clause + " in query");
        }
    }

    /** Whether {@code e} holds a window function (outside its subqueries). */
    static boolean contains(Expr e) {
        return firstWindow(e) != null;
    }

    private static Expr firstWindow(Expr e) {
        if (e instanceof Expr.WindowFunction) {
            return e;
        }
        if (e instanceof Expr.Call c) {
            for (Expr a : c.args()) {
                Expr w = firstWindow(a);
                if (w != null) {
                    return w;
                }
            }
        } else if (e instanceof Expr.Cast c) {
            return firstWindow(c.expr());
        } else if (e instanceof Expr.Lambda l) {
            return firstWindow(l.body());
        } else if (e instanceof Expr.Interval i) {
            return firstWindow(i.amount());
        }
        return null;
    }
}
