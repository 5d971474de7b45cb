package dev.chdedup.stub.exec;

import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JOIN whose left table is a read over shards, run on each shard as the engine runs it (without GLOBAL): the shard
 * joins its own rows with the right side read there (its own local tables), under the query's WHERE, and the query
 * goes on here over the union of what the shards joined: {@code SELECT <the columns the rest of the query names> FROM
 * <the shard's table> AS <the left alias> JOIN <right> ... WHERE ...} on each shard. Left alone (joined here, over all
 * shards' rows): a select list with {@code *} or a qualified name ({@code t.k}), {@code _shard_num}, and a WHERE or ON
 * with a GLOBAL IN.
 */
final class ShardJoin {
    private ShardJoin() {
    }

    /** The rows of {@code select}'s join as its shards joined them, named as the query names them; null to join here. */
    static SelectExecutor.Stream pushDown(Query.Join join, Query.Select select, Catalog catalog, QueryContext ctx,
                                          java.util.function.Function<Query.From, TableSource> resolve) {
        if (select == null || select.from() != join || !(join.left() instanceof Query.TableRef || join.left() instanceof Query.TableFunction)
            || join.kind().equals("CROSS") || join.kind().equals("COMMA")) {
            return null;
        }
        Set<String> names = new LinkedHashSet<>();
        Set<String> aliases = new java.util.HashSet<>();
        for (Query.SelectItem it : select.items()) {
            if (it.expr() instanceof Expr.Star) {
                return null;
            }
            if (it.alias() != null && !(it.expr() instanceof Expr.Ident id && id.joined().equals(it.alias()))) {
                aliases.add(it.alias());
            }
        }
        List<Expr> later = new ArrayList<>(ColumnsUsed.expressions(select));
        later.remove(select.where());
        for (Expr e : later) {
            identifiers(e, names);
        }
        names.removeAll(aliases);
        if (names.contains(RemoteTables.SHARD_NUM) || names.stream().anyMatch(n -> n.contains("."))
            || mentionsGlobal(select.where()) || mentionsGlobal(join.on())) {
            return null;
        }
        TableSource left = resolve.apply(join.left());
        if (!(left instanceof RemoteTables.ShardedSource sharded)) {
            return null;
        }
        List<Query.SelectItem> items = new ArrayList<>();
        for (String n : names) {
            items.add(new Query.SelectItem(new Expr.Ident(List.of(n)), null, null));
        }
        if (items.isEmpty()) { // the query names no column (count()): a constant keeps the rows
            items.add(new Query.SelectItem(new Expr.Literal(1L), "__shard_join_row", null));
        }
        String leftAlias = join.left() instanceof Query.TableRef t ? (t.alias() != null ? t.alias() : t.table())
            : ((Query.TableFunction) join.left()).alias();
        Query.TableRef table = sharded.shardTable(leftAlias);
        if (join.left() instanceof Query.TableRef t && t.isFinal()) {
            table = new Query.TableRef(table.database(), table.table(), table.alias(), true);
        }
        Query.Select shard = new Query.Select(false, items, new Query.Join(table, join.right(), join.kind(), join.on(),
            join.using()), select.where(), List.of(), null, List.of(), false, false, null, null, null, null);
        return sharded.runOnShards(new Query(List.of(shard), Map.of(), null));
    }

    private static void identifiers(Expr e, Set<String> out) {
        if (e instanceof Expr.Ident id) {
            out.add(id.joined());
        } else if (e instanceof Expr.Call c) {
            c.args().forEach(a -> identifiers(a, out));
        } else if (e instanceof Expr.Cast c) {
            identifiers(c.expr(), out);
        } else if (e instanceof Expr.Interval i) {
            identifiers(i.amount(), out);
        }
    }

    private static boolean mentionsGlobal(Expr e) {
        if (e instanceof Expr.Call c) {
            return c.name().equals("globalIn") || c.name().equals("globalNotIn") || c.args().stream().anyMatch(ShardJoin::mentionsGlobal);
        }
        return e instanceof Expr.Cast c && mentionsGlobal(c.expr());
    }
}
