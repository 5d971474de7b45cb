package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import java.util.ArrayList;
import java.util.List;

/**
 * The columns of its table a SELECT looks at, so a storage can leave the others unread (ClickHouse reads only the
 * columns a query needs): every name the query's expressions mention, matched loosely (a qualified name by any of its
 * parts, a Nested column by its prefix). Anything it cannot see through, {@code *}, {@code COLUMNS(...)}, a
 * subquery, {@code ORDER BY ALL}, an ALIAS column, makes it answer "all" (null): a column too many is read for
 * nothing, a column too few would be wrong.
 */
public final class ColumnsUsed {
    private ColumnsUsed() {
    }

    /** The columns (by index) the SELECT needs, or null for all of them. */
    static boolean[] of(Query.Select s, List<Column> columns, boolean hasAliasColumns) {
        if (hasAliasColumns || s.orderByAll() || s.orderByAllDesc()) {
            return null;
        }
        List<Expr> all = expressions(s);
        List<String> names = new ArrayList<>();
        for (Expr e : all) {
            if (!names(e, names)) {
                return null;
            }
        }
        boolean[] needed = new boolean[columns.size()];
        for (int c = 0; c < needed.length; c++) {
            String col = columns.get(c).name();
            for (String n : names) {
                if (col.equals(n) || col.startsWith(n + ".") || n.startsWith(col + ".") || n.endsWith("." + col) || n.contains("." + col + ".")) {
                    needed[c] = true;
                    break;
                }
            }
        }
        return needed;
    }

    /** Every expression of the SELECT's clauses (some may be null). */
    static List<Expr> expressions(Query.Select s) {
        List<Expr> all = new ArrayList<>();
        for (Query.SelectItem i : s.items()) {
            all.add(i.expr());
        }
        all.add(s.where());
        all.addAll(s.groupBy());
        all.add(s.having());
        for (Query.OrderItem o : s.orderBy()) {
            all.add(o.expr());
            if (o.fill() != null) {
                all.add(o.fill().from());
                all.add(o.fill().to());
                all.add(o.fill().step());
            }
        }
        if (s.limitBy() != null) {
            all.addAll(s.limitBy());
        }
        all.add(s.limit());
        all.add(s.offset());
        all.add(s.limitByCount());
        return all;
    }

    /** The column names {@code e} mentions, or null when it cannot tell. */
    public static java.util.Set<String> names(Expr e) {
        List<String> out = new java.util.ArrayList<>();
        return names(e, out) ? new java.util.HashSet<>(out) : null;
    }

    /** Adds the names {@code e} mentions; false when it cannot tell (the query may look at any column). */
    private static boolean names(Expr e, List<String> out) {
        if (e == null || e instanceof Expr.Literal) {
            return true;
        }
        if (e instanceof Expr.Ident) {
            out.add(((Expr.Ident) e).joined());
            return true;
        }
        if (e instanceof Expr.Call) {
            Expr.Call c = (Expr.Call) e;
            if (c.name().equalsIgnoreCase("columns")) {
                return false;
            }
            for (Expr a : c.args()) {
                if (!names(a, out)) {
                    return false;
                }
            }
            return true;
        }
        if (e instanceof Expr.Cast) {
            return names(((Expr.Cast) e).expr(), out);
        }
        if (e instanceof Expr.Lambda) {
            return names(((Expr.Lambda) e).body(), out);
        }
        if (e instanceof Expr.Interval) {
            return names(((Expr.Interval) e).amount(), out);
        }
        return false; // *, a subquery, anything new
    }
}
