package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A query's WHERE sent with it to the shards of a distributed read ({@link RemoteTables.ShardedSource}), as ClickHouse
 * sends the query to each shard: an {@code IN} subquery then reads each shard's own tables, where the query runs there.
 * Sent when the WHERE names only the read's columns (no alias of the select list, no arrayJoin); a {@code GLOBAL IN}
 * keeps the WHERE here (its set is the asking server's, over the whole read); a subquery that itself reads shards
 * without GLOBAL is DISTRIBUTED_IN_JOIN_SUBQUERY_DENIED under {@code distributed_product_mode = 'deny'} (the default),
 * and keeps the WHERE here under the other modes.
 */
final class ShardFilter {
    private ShardFilter() {
    }

    /** {@code ts} with {@code select}'s WHERE run on its shards, or null when the WHERE stays with the query here. */
    static TableSource pushDown(TableSource ts, Query.Select select, Catalog catalog, QueryContext ctx) {
        if (!(ts instanceof RemoteTables.ShardedSource sharded) || select == null || select.where() == null) {
            return null;
        }
        Set<String> names = new HashSet<>();
        ts.columns().forEach(c -> names.add(c.name()));
        ts.virtualColumns().forEach(c -> names.add(c.name()));
        for (Query.SelectItem it : select.items()) {
            if (it.alias() != null && !names.contains(it.alias()) && mentions(select.where(), it.alias())) {
                return null;
            }
        }
        Set<String> functions = new HashSet<>();
        List<Query> subqueries = new java.util.ArrayList<>();
        walk(select.where(), functions, subqueries);
        if (functions.contains("globalIn") || functions.contains("globalNotIn") || functions.contains("arrayJoin")) {
            return null;
        }
        for (Query q : subqueries) {
            if (readsShards(q, catalog, ctx)) {
                if (ctx.settings().get("distributed_product_mode").equals("deny")) {
                    throw new ChException(ErrorCode.DISTRIBUTED_IN_JOIN_SUBQUERY_DENIED, "Double-distributed IN/JOIN subqueries is denied"
                        + " (distributed_product_mode = 'deny'). You may rewrite query to use local tables in subqueries, or use GLOBAL"
                        + " keyword, or set distributed_product_mode to suitable value.");
                }
                return null;
            }
        }
        return sharded.filteredOnShards(select.where());
    }

    private static boolean mentions(Expr e, String name) {
        if (e instanceof Expr.Ident id) {
            return id.parts().size() == 1 && id.last().equals(name);
        }
        if (e instanceof Expr.Call c) {
            return c.args().stream().anyMatch(a -> mentions(a, name));
        }
        return e instanceof Expr.Cast c && mentions(c.expr(), name);
    }

    private static void walk(Expr e, Set<String> functions, List<Query> subqueries) {
        if (e instanceof Expr.Call c) {
            functions.add(c.name());
            c.args().forEach(a -> walk(a, functions, subqueries));
        } else if (e instanceof Expr.Cast c) {
            walk(c.expr(), functions, subqueries);
        } else if (e instanceof Expr.Subquery q) {
            subqueries.add(q.query());
        }
    }

    /** Whether a subquery reads a distributed table or table function in one of its FROMs. */
    private static boolean readsShards(Query q, Catalog catalog, QueryContext ctx) {
        for (Query.Select s : q.selects()) {
            if (readsShards(s.from(), catalog, ctx)) {
                return true;
            }
        }
        return false;
    }

    private static boolean readsShards(Query.From f, Catalog catalog, QueryContext ctx) {
        if (f instanceof Query.Join j) {
            return readsShards(j.left(), catalog, ctx) || readsShards(j.right(), catalog, ctx);
        }
        if (f instanceof Query.SubqueryRef r) {
            return readsShards(r.query(), catalog, ctx);
        }
        if (f instanceof Query.TableFunction tf) {
            return TableFunctionRemote.handles(tf.name());
        }
        if (f instanceof Query.TableRef t && (t.database() != null || !ctx.temporaryTables().containsKey(t.table()))) {
            try {
                return catalog.table(t.database() != null ? t.database() : ctx.database(), t.table(), ctx) instanceof RemoteTables.ShardedSource;
            } catch (ChException e) {
                return false; // the query itself names the missing table
            }
        }
        return false;
    }
}
