package dev.chdedup.stub.exec;

import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code arrayJoin(arr)} function (and its alias {@code unnest}): unlike any other function it multiplies rows, so a SELECT that calls it is
 * rewritten before it runs into one with an ARRAY JOIN of each distinct {@code arrayJoin} argument under a hidden
 * name, every call replaced by that name. Each distinct argument is a join of its own, so two of them give every
 * pair of their elements; equal calls are one join, as in ClickHouse, where {@code SELECT arrayJoin(a), arrayJoin(a)}
 * gives pairs of equal elements. Calls inside a subquery or a lambda are
 * left to that subquery's own rewrite.
 */
final class ArrayJoinFunction {
    static final String NAME = "arrayJoin";
    private static final String HIDDEN = "__arrayJoin_";

    private ArrayJoinFunction() {
    }

    /**
     * Registers arrayJoin for system.functions and for the calls no rewrite reaches, those inside a lambda, which
     * ClickHouse refuses as this does.
     */
    static void register(FunctionFactory f) {
        f.register(NAME, FunctionsArray.CATEGORY, (args, ctx) -> {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.BAD_ARGUMENTS,
                "Expression in arrayJoin cannot depend on lambda argument");
        });
        f.registerAlias("unnest", NAME, true);
    }

    /** {@code s} with its arrayJoin calls turned into an ARRAY JOIN, or {@code s} itself when it has none. */
    static Query.Select rewrite(Query.Select s) {
        Map<Expr, String> joins = new LinkedHashMap<>();
        List<Query.SelectItem> items = new ArrayList<>();
        for (Query.SelectItem it : s.items()) {
            items.add(new Query.SelectItem(replace(it.expr(), joins), it.alias(), it.text()));
        }
        Expr where = replace(s.where(), joins);
        List<Expr> groupBy = new ArrayList<>();
        for (Expr g : s.groupBy()) {
            groupBy.add(replace(g, joins));
        }
        Expr having = replace(s.having(), joins);
        List<Query.OrderItem> orderBy = new ArrayList<>();
        for (Query.OrderItem o : s.orderBy()) {
            orderBy.add(new Query.OrderItem(replace(o.expr(), joins), o.desc(), o.nullsFirst(), o.fill()));
        }
        if (joins.isEmpty()) {
            return s;
        }
        Query.From from = s.from();
        for (Map.Entry<Expr, String> j : joins.entrySet()) {
            from = new Query.ArrayJoin(from, List.of(j.getKey()), List.of(j.getValue()), false);
        }
        return new Query.Select(s.distinct(), items, from, where, groupBy, having, orderBy, s.orderByAll(),
            s.orderByAllDesc(), s.limit(), s.offset(), s.limitBy(), s.limitByCount());
    }

    private static Expr replace(Expr e, Map<Expr, String> joins) {
        if (e instanceof Expr.Call) {
            Expr.Call c = (Expr.Call) e;
            String lower = c.name().toLowerCase(Locale.ROOT);
            if ((lower.equals("arrayjoin") || lower.equals("unnest")) && c.args().size() == 1) {
                Expr arg = replace(c.args().get(0), joins);
                String name = joins.computeIfAbsent(arg, k -> HIDDEN + joins.size());
                return new Expr.Ident(List.of(name));
            }
            List<Expr> args = new ArrayList<>(c.args().size());
            for (Expr a : c.args()) {
                args.add(replace(a, joins));
            }
            return new Expr.Call(c.name(), args, c.distinct());
        }
        if (e instanceof Expr.Cast) {
            return new Expr.Cast(replace(((Expr.Cast) e).expr(), joins), ((Expr.Cast) e).typeName());
        }
        return e;
    }
}
