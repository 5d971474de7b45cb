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
    /** The suffix of the inner SELECT's column holding the array an outer ARRAY JOIN joins (see overAggregation). */
    private static final String ARRAY = "_array";

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
        Map<Expr, String> afterAggregation = new LinkedHashMap<>();
        for (Map.Entry<Expr, String> j : joins.entrySet()) {
            if (ExprCompiler.hasAggregate(j.getKey())) {
                afterAggregation.put(j.getKey(), j.getValue());
            }
        }
        if (!afterAggregation.isEmpty()) {
            Set<String> grouped = new HashSet<>();
            for (Expr g : groupBy) {
                for (Query.SelectItem it : items) {
                    if (it.alias() != null && g.equals(new Expr.Ident(List.of(it.alias())))) {
                        g = it.expr();
                    }
                }
                for (String name : joins.values()) {
                    if (uses(g, Set.of(name), Set.of())) {
                        grouped.add(name);
                    }
                }
            }
            for (Map.Entry<Expr, String> j : joins.entrySet()) {
                if (!grouped.contains(j.getValue())) {
                    afterAggregation.put(j.getKey(), j.getValue()); // an arrayJoin the GROUP BY does not name joins after it
                }
            }
            return overAggregation(s, items, where, groupBy, having, orderBy, joins, afterAggregation);
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
            return new Expr.Call(c.name(), args, c.distinct(), c.params());
        }
        if (e instanceof Expr.Cast) {
            return new Expr.Cast(replace(((Expr.Cast) e).expr(), joins), ((Expr.Cast) e).typeName());
        }
        return e;
    }

    /**
     * A SELECT whose arrayJoin arguments call aggregates joins after the aggregation, as ClickHouse's expression step
     * after the aggregating one does: an inner SELECT aggregates (FROM, WHERE, GROUP BY, HAVING, and the joins that do
     * not aggregate) and gives each such argument and each part of the select list and ORDER BY that does not use a
     * joined element as a hidden column; the outer SELECT array-joins those arguments and computes the rest, with the
     * DISTINCT, ORDER BY and LIMIT.
     */
    private static Query.Select overAggregation(Query.Select s, List<Query.SelectItem> items, Expr where, List<Expr> groupBy,
                                                Expr having, List<Query.OrderItem> orderBy, Map<Expr, String> joins,
                                                Map<Expr, String> afterAggregation) {
        List<Query.SelectItem> inner = new ArrayList<>();
        Set<String> joined = new HashSet<>(afterAggregation.values());
        for (Map.Entry<Expr, String> j : afterAggregation.entrySet()) {
            inner.add(new Query.SelectItem(j.getKey(), j.getValue() + ARRAY, j.getValue() + ARRAY));
        }
        Set<String> outerAliases = new HashSet<>();
        for (Query.SelectItem it : items) {
            if (it.alias() != null) {
                outerAliases.add(it.alias());
            }
        }
        List<Query.SelectItem> outerItems = new ArrayList<>();
        for (Query.SelectItem it : items) {
            if (it.alias() != null && !uses(it.expr(), joined, Set.of())) {
                inner.add(it); // under its alias, which GROUP BY, WHERE and HAVING may name
                outerItems.add(new Query.SelectItem(new Expr.Ident(List.of(it.alias())), it.alias(), it.text()));
            } else {
                outerItems.add(new Query.SelectItem(lift(it.expr(), joined, Set.of(), inner), it.alias(), it.text()));
            }
        }
        List<Query.OrderItem> outerOrder = new ArrayList<>();
        for (Query.OrderItem o : orderBy) {
            outerOrder.add(new Query.OrderItem(lift(o.expr(), joined, outerAliases, inner), o.desc(), o.nullsFirst(), o.fill()));
        }
        Query.From from = s.from();
        for (Map.Entry<Expr, String> j : joins.entrySet()) {
            if (!afterAggregation.containsKey(j.getKey())) {
                from = new Query.ArrayJoin(from, List.of(j.getKey()), List.of(j.getValue()), false);
            }
        }
        Query.Select aggregating = new Query.Select(false, inner, from, where, groupBy, having, List.of(), false, false, null, null,
            null, null);
        Query.From outerFrom = new Query.SubqueryRef(new Query(List.of(aggregating), Map.of(), null), null);
        for (String name : afterAggregation.values()) {
            outerFrom = new Query.ArrayJoin(outerFrom, List.of(new Expr.Ident(List.of(name + ARRAY))), List.of(name), false);
        }
        return new Query.Select(s.distinct(), outerItems, outerFrom, null, List.of(), null, outerOrder, s.orderByAll(),
            s.orderByAllDesc(), s.limit(), s.offset(), s.limitBy(), s.limitByCount());
    }

    /**
     * {@code e} for the outer SELECT of {@link #overAggregation}: a part that uses no joined element (nor an alias of
     * the outer select list, in {@code keep}) becomes a hidden column of the inner SELECT, added to {@code inner}.
     */
    private static Expr lift(Expr e, Set<String> joined, Set<String> keep, List<Query.SelectItem> inner) {
        if (e instanceof Expr.Lambda || e instanceof Expr.Literal) {
            return e;
        }
        if (!uses(e, joined, keep)) {
            for (Query.SelectItem it : inner) {
                if (it.expr().equals(e)) {
                    return new Expr.Ident(List.of(it.alias()));
                }
            }
            String name = HIDDEN + "lifted_" + inner.size();
            inner.add(new Query.SelectItem(e, name, name));
            return new Expr.Ident(List.of(name));
        }
        if (e instanceof Expr.Call c) {
            List<Expr> args = new ArrayList<>(c.args().size());
            for (Expr a : c.args()) {
                args.add(lift(a, joined, keep, inner));
            }
            return new Expr.Call(c.name(), args, c.distinct(), c.params());
        }
        if (e instanceof Expr.Cast c) {
            return new Expr.Cast(lift(c.expr(), joined, keep, inner), c.typeName());
        }
        return e;
    }

    /** Whether {@code e} names one of {@code names} or {@code keep} outside a subquery. */
    private static boolean uses(Expr e, Set<String> names, Set<String> keep) {
        if (e instanceof Expr.Ident i) {
            return i.parts().size() == 1 && (names.contains(i.last()) || keep.contains(i.last()));
        }
        if (e instanceof Expr.Call c) {
            for (Expr a : c.args()) {
                if (uses(a, names, keep)) {
                    return true;
                }
            }
            return false;
        }
        if (e instanceof Expr.Cast c) {
            return uses(c.expr(), names, keep);
        }
        if (e instanceof Expr.Lambda l) {
            return uses(l.body(), names, keep);
        }
        return false;
    }

    /**
     * {@code s} with the WITH aliases its arrayJoin arguments name replaced by their expressions: the join reads the
     * FROM's rows, where those aliases are not ({@code WITH [1, 2] AS a SELECT arrayJoin(a)}).
     */
    private static Query.Select withAliasesInArguments(Query.Select s) {
        Map<String, Expr> with = new java.util.HashMap<>();
        for (Query.SelectItem it : s.items()) {
            if (it.isWith() && it.alias() != null) {
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
