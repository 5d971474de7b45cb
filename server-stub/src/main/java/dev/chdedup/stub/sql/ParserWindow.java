package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses windows, as ClickHouse's ParserWindowDefinition and ParserWindowList do: {@code OVER name} and
 * {@code OVER ([name] [PARTITION BY ...] [ORDER BY ...] [ROWS|RANGE frame])} after a function call, and the WINDOW
 * clause of a SELECT ({@code WINDOW w AS (...), ...}); then puts each named window into the window functions that
 * use it ({@link #resolve}), with ClickHouse's errors for a window that does not exist or that a derived window may
 * not extend.
 */
final class ParserWindow {
    private final TokenIterator pos;
    private final ParserExpression exp;

    ParserWindow(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
    }

    /** Whether an OVER clause follows (the token is OVER and a name or a parenthesis comes next). */
    boolean atOver() {
        return pos.tok.is("OVER") && (pos.peekIsOpenParen() || pos.peekKind() == Token.Kind.IDENT || pos.peekKind() == Token.Kind.QUOTED_IDENT);
    }

    /** {@code f OVER ...} at the OVER keyword. */
    Expr.WindowFunction over(Expr.Call f) {
        pos.expect("OVER");
        if (!pos.tok.isOp("(")) {
            return new Expr.WindowFunction(f, WindowDefinition.named(pos.identifier()), null);
        }
        WindowDefinition w = definition();
        return new Expr.WindowFunction(f, w, w.parent() == null ? w : null);
    }

    /** {@code (...)}: a window definition in parentheses. */
    WindowDefinition definition() {
        pos.expectOp("(");
        String parent = null;
        if (pos.isIdent() && !pos.tok.is("PARTITION") && !pos.tok.is("ORDER") && !pos.tok.is("ROWS") && !pos.tok.is("RANGE")) {
            parent = pos.identifier();
        }
        List<Expr> partitionBy = List.of();
        if (pos.readIf("PARTITION")) {
            pos.expect("BY");
            partitionBy = exp.exprList();
        }
        List<Query.OrderItem> orderBy = new ArrayList<>();
        if (pos.readIf("ORDER")) {
            pos.expect("BY");
            do {
                Expr e = exp.expr();
                boolean desc = pos.readIf("DESC") || pos.readIf("DESCENDING");
                if (!desc && !pos.readIf("ASC")) {
                    pos.readIf("ASCENDING");
                }
                Boolean nullsFirst = null;
                if (pos.readIf("NULLS")) {
                    nullsFirst = pos.readIf("FIRST");
                    if (!nullsFirst) {
                        pos.expect("LAST");
                    }
                }
                orderBy.add(new Query.OrderItem(e, desc, nullsFirst));
            } while (pos.readOp(","));
        }
        WindowDefinition.Frame frame = null;
        boolean rows = pos.tok.is("ROWS");
        if (rows || pos.tok.is("RANGE")) {
            pos.advance();
            if (pos.readIf("BETWEEN")) {
                WindowDefinition.Bound begin = bound();
                pos.expect("AND");
                frame = new WindowDefinition.Frame(rows, begin, bound());
            } else {
                frame = new WindowDefinition.Frame(rows, bound(), WindowDefinition.Bound.CURRENT_ROW);
            }
        }
        pos.expectOp(")");
        return new WindowDefinition(parent, List.copyOf(partitionBy), List.copyOf(orderBy), frame);
    }

    private WindowDefinition.Bound bound() {
        if (pos.readIf("CURRENT")) {
            pos.expect("ROW");
            return WindowDefinition.Bound.CURRENT_ROW;
        }
        if (pos.readIf("UNBOUNDED")) {
            return new WindowDefinition.Bound(WindowDefinition.Bound.Kind.UNBOUNDED, null, preceding());
        }
        Expr offset = exp.expr();
        return new WindowDefinition.Bound(WindowDefinition.Bound.Kind.OFFSET, offset, preceding());
    }

    private boolean preceding() {
        if (pos.readIf("PRECEDING")) {
            return true;
        }
        pos.expect("FOLLOWING");
        return false;
    }

    /**
     * The WINDOW clause after its keyword: each name and its definition, in order, a definition deriving from a window
     * merged with it (which must be defined before it, as the engine requires).
     */
    Map<String, WindowDefinition> windowClause() {
        Map<String, WindowDefinition> windows = new LinkedHashMap<>();
        do {
            String name = pos.identifier();
            pos.expect("AS");
            windows.put(name, merged(definition(), windows, 0));
        } while (pos.readOp(","));
        return windows;
    }

    /**
     * {@code e} with each window function of it (not of its subqueries, which resolved their own) given its window:
     * the named window of {@code windows} put in, as ClickHouse merges a derived window with its parent.
     */
    static Expr resolve(Expr e, Map<String, WindowDefinition> windows) {
        if (e instanceof Expr.WindowFunction w) {
            Expr.Call f = (Expr.Call) resolve(w.function(), windows);
            WindowDefinition window = w.window() != null ? w.window() : merged(w.written(), windows, 0);
            return new Expr.WindowFunction(f, w.written(), window);
        }
        if (e instanceof Expr.Call c) {
            List<Expr> args = new ArrayList<>(c.args().size());
            boolean changed = false;
            for (Expr a : c.args()) {
                Expr r = resolve(a, windows);
                changed |= r != a;
                args.add(r);
            }
            return changed ? new Expr.Call(c.name(), args, c.distinct(), c.params()) : c;
        }
        if (e instanceof Expr.Cast c) {
            Expr r = resolve(c.expr(), windows);
            return r == c.expr() ? c : new Expr.Cast(r, c.typeName());
        }
        if (e instanceof Expr.Lambda l) {
            Expr r = resolve(l.body(), windows);
            return r == l.body() ? l : new Expr.Lambda(l.params(), r);
        }
        if (e instanceof Expr.Interval i) {
            Expr r = resolve(i.amount(), windows);
            return r == i.amount() ? i : new Expr.Interval(r, i.unit());
        }
        return e;
    }

    /** {@code w} with its parent (and the parent's) put in; a window without a parent is itself. */
    private static WindowDefinition merged(WindowDefinition w, Map<String, WindowDefinition> windows, int depth) {
        if (w.parent() == null) {
            return w;
        }
        WindowDefinition parentDefinition = windows.get(w.parent());
        if (parentDefinition == null || depth > windows.size()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Window '" + w.parent() + "' does not exist");
        }
        WindowDefinition parent = merged(parentDefinition, windows, depth + 1);
        if (w.bare()) {
            return parent;
        }
        String text = w.text(new ColumnNames(i -> null));
        if (!w.partitionBy().isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Derived window definition '" + text + "' is not allowed to override PARTITION BY");
        }
        if (!w.orderBy().isEmpty() && !parent.orderBy().isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Derived window definition '" + text + "' is not allowed to override a non-empty ORDER BY");
        }
        if (parent.frame() != null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Parent window '" + w.parent() + "' is not allowed to define a frame: while processing derived window definition '" + text + "'");
        }
        return new WindowDefinition(null, parent.partitionBy(), w.orderBy().isEmpty() ? parent.orderBy() : w.orderBy(), w.frame());
    }
}
