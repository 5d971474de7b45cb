package dev.chdedup.stub.exec;

import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

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
    static Query.Select rewrite(Query.Select original) {
        Query.Select s = withAliasesInArguments(original);
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

    /** The text of the SELECT items that are WITH aliases ({@code WITH expr AS name}). */
    private static final String WITH_ITEM = "\u0000with";

    /**
     * {@code s} with the WITH aliases its arrayJoin arguments name replaced by their expressions: the join reads the
     * FROM's rows, where those aliases are not ({@code WITH [1, 2] AS a SELECT arrayJoin(a)}).
     */
    private static Query.Select withAliasesInArguments(Query.Select s) {
        Map<String, Expr> with = new java.util.HashMap<>();
        for (Query.SelectItem it : s.items()) {
            if (WITH_ITEM.equals(it.text()) && it.alias() != null) {
                with.put(it.alias(), it.expr());
            }
        }
        if (with.isEmpty()) {
            return s;
        }
        List<Query.SelectItem> items = new ArrayList<>();
        for (Query.SelectItem it : s.items()) {
            items.add(new Query.SelectItem(inArguments(it.expr(), with), it.alias(), it.text()));
        }
        List<Expr> groupBy = new ArrayList<>();
        for (Expr g : s.groupBy()) {
            groupBy.add(inArguments(g, with));
        }
        List<Query.OrderItem> orderBy = new ArrayList<>();
        for (Query.OrderItem o : s.orderBy()) {
            orderBy.add(new Query.OrderItem(inArguments(o.expr(), with), o.desc(), o.nullsFirst(), o.fill()));
        }
        return new Query.Select(s.distinct(), items, s.from(), inArguments(s.where(), with), groupBy, inArguments(s.having(), with),
            orderBy, s.orderByAll(), s.orderByAllDesc(), s.limit(), s.offset(), s.limitBy(), s.limitByCount());
    }

    /** {@code e} with the arguments of its arrayJoin calls read through the WITH aliases {@code with}. */
    private static Expr inArguments(Expr e, Map<String, Expr> with) {
        if (e instanceof Expr.Call c) {
            String lower = c.name().toLowerCase(Locale.ROOT);
            boolean join = (lower.equals("arrayjoin") || lower.equals("unnest")) && c.args().size() == 1;
            List<Expr> args = new ArrayList<>(c.args().size());
            for (Expr a : c.args()) {
                args.add(join ? aliased(inArguments(a, with), with, new HashSet<>()) : inArguments(a, with));
            }
            return new Expr.Call(c.name(), args, c.distinct(), c.params());
        }
        if (e instanceof Expr.Cast c) {
            return new Expr.Cast(inArguments(c.expr(), with), c.typeName());
        }
        return e;
    }

    /** {@code e} with each name of a WITH alias replaced by its expression ({@code seen}: the names being replaced). */
    private static Expr aliased(Expr e, Map<String, Expr> with, Set<String> seen) {
        if (e instanceof Expr.Ident id && id.parts().size() == 1 && with.containsKey(id.parts().get(0)) && seen.add(id.parts().get(0))) {
            Expr r = aliased(with.get(id.parts().get(0)), with, seen);
            seen.remove(id.parts().get(0));
            return r;
        }
        if (e instanceof Expr.Call c) {
            List<Expr> args = new ArrayList<>(c.args().size());
            for (Expr a : c.args()) {
                args.add(aliased(a, with, seen));
            }
            return new Expr.Call(c.name(), args, c.distinct(), c.params());
        }
        if (e instanceof Expr.Cast c) {
            return new Expr.Cast(aliased(c.expr(), with, seen), c.typeName());
        }
        return e;
    }
}
