package dev.chdedup.stub.exec;

import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Column references qualified by a table's own name when the table has an alias: ClickHouse resolves
 * {@code system.tables.name} and {@code tables.name} in {@code FROM system.tables AS t} to {@code t.name}
 * (the official JDBC driver's getTables joins that way). The executor names columns by alias only, so a SELECT's
 * references are rewritten to the alias before it runs. Also holds {@link #map}, the bottom-up expression
 * rewrite other SELECT rewrites share.
 */
final class QualifiedNames {
    private QualifiedNames() {
    }

    static Query.Select rewrite(Query.Select s) {
        Map<List<String>, String> aliases = new HashMap<>();
        collect(s.from(), aliases);
        if (aliases.isEmpty()) {
            return s;
        }
        UnaryOperator<Expr> fn = e -> {
            if (!(e instanceof Expr.Ident)) {
                return e;
            }
            List<String> parts = ((Expr.Ident) e).parts();
            for (int n = Math.min(2, parts.size() - 1); n >= 1; n--) {
                String alias = aliases.get(parts.subList(0, n));
                if (alias != null) {
                    List<String> p = new ArrayList<>();
                    p.add(alias);
                    p.addAll(parts.subList(n, parts.size()));
                    return new Expr.Ident(List.copyOf(p));
                }
            }
            return e;
        };
        List<Query.SelectItem> items = new ArrayList<>();
        for (Query.SelectItem it : s.items()) {
            items.add(new Query.SelectItem(map(it.expr(), fn), it.alias(), it.text()));
        }
        List<Expr> groupBy = new ArrayList<>();
        for (Expr g : s.groupBy()) {
            groupBy.add(map(g, fn));
        }
        List<Query.OrderItem> orderBy = new ArrayList<>();
        for (Query.OrderItem o : s.orderBy()) {
            orderBy.add(new Query.OrderItem(map(o.expr(), fn), o.desc(), o.nullsFirst(), o.fill()));
        }
        return new Query.Select(s.distinct(), items, from(s.from(), fn), map(s.where(), fn), groupBy, map(s.having(), fn),
            orderBy, s.orderByAll(), s.orderByAllDesc(), s.limit(), s.offset(), s.limitBy(), s.limitByCount());
    }

    private static void collect(Query.From f, Map<List<String>, String> aliases) {
        if (f instanceof Query.TableRef) {
            Query.TableRef t = (Query.TableRef) f;
            if (t.alias() != null && !t.alias().equals(t.table())) {
                aliases.put(List.of(t.table()), t.alias());
                if (t.database() != null) {
                    aliases.put(List.of(t.database(), t.table()), t.alias());
                }
            }
        } else if (f instanceof Query.Join) {
            collect(((Query.Join) f).left(), aliases);
            collect(((Query.Join) f).right(), aliases);
        } else if (f instanceof Query.ArrayJoin) {
            collect(((Query.ArrayJoin) f).source(), aliases);
        }
    }

    private static Query.From from(Query.From f, UnaryOperator<Expr> fn) {
        if (f instanceof Query.Join) {
            Query.Join j = (Query.Join) f;
            return new Query.Join(from(j.left(), fn), from(j.right(), fn), j.kind(), map(j.on(), fn), j.using());
        }
        if (f instanceof Query.ArrayJoin) {
            Query.ArrayJoin a = (Query.ArrayJoin) f;
            List<Expr> arrays = new ArrayList<>();
            for (Expr e : a.arrays()) {
                arrays.add(map(e, fn));
            }
            return new Query.ArrayJoin(from(a.source(), fn), arrays, a.aliases(), a.left());
        }
        return f;
    }

    /** {@code e} with {@code fn} applied to every node, children first; subqueries and lambdas are left alone. */
    static Expr map(Expr e, UnaryOperator<Expr> fn) {
        if (e instanceof Expr.Call) {
            Expr.Call c = (Expr.Call) e;
            List<Expr> args = new ArrayList<>(c.args().size());
            for (Expr a : c.args()) {
                args.add(map(a, fn));
            }
            return fn.apply(new Expr.Call(c.name(), args, c.distinct()));
        }
        if (e instanceof Expr.Cast) {
            return fn.apply(new Expr.Cast(map(((Expr.Cast) e).expr(), fn), ((Expr.Cast) e).typeName()));
        }
        return e == null ? null : fn.apply(e);
    }
}
