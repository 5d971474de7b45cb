package dev.chdedup.stub.distributed;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Catalog;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.RemoteTables;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The columns of a table as its cluster's servers have it, as ClickHouse's {@code getStructureOfRemoteTable}: from the
 * local replica's table when a shard has one (no network), else from {@code DESC TABLE} on the first shard that can be
 * reached; shards that cannot be are passed over, and when none can be the answer is NO_REMOTE_SHARD_AVAILABLE with
 * the log of every failure, as the engine words it. An error of a reached server (no such table) is the answer.
 */
public final class RemoteTableStructure {
    /** A table's columns ({@code ALIAS} columns left out: the remote table computes them) and those {@code *} reads. */
    public record Structure(List<Column> columns, List<Column> starColumns) {
    }

    private RemoteTableStructure() {
    }

    public static Structure of(Cluster cluster, String database, String table, Clusters clusters, Catalog local, QueryContext ctx) {
        for (Cluster.ShardInfo shard : cluster.shards()) {
            if (!clusters.localReplicas(shard).isEmpty()) {
                TableSource t = local.table(database, table, ctx);
                return new Structure(t.columns(), t.starColumns());
            }
        }
        StringBuilder failures = new StringBuilder();
        for (Cluster.ShardInfo shard : cluster.shards()) {
            try {
                Connection.Result r = ConnectionPoolWithFailover.tryEach(clusters, shard.replicas(), ctx.settings(),
                    c -> c.query("DESC TABLE " + Connection.quote(database) + "." + Connection.quote(table), Map.of()));
                Structure s = described(r);
                if (!s.columns().isEmpty()) {
                    return s;
                }
            } catch (ChException e) {
                if (!ConnectionPoolWithFailover.unavailable(e) || RemoteTables.legacy(ctx)) {
                    throw e;
                }
                failures.append(ConnectionPoolWithFailover.netExceptionText(e)).append('\n');
            }
        }
        throw new ChException(ErrorCode.NO_REMOTE_SHARD_AVAILABLE, "All attempts to get table structure failed. Log: \n\n" + failures + "\n");
    }

    /** The rows of {@code DESC TABLE}: name, type, default_type, ... */
    private static Structure described(Connection.Result r) {
        List<Column> columns = new ArrayList<>();
        List<Column> star = new ArrayList<>();
        for (Block b : r.blocks()) {
            for (Object[] row : b.rows()) {
                String kind = text(row[2]);
                if (kind.equals("ALIAS")) {
                    continue;
                }
                Column c = new Column(text(row[0]), DataTypes.parse(text(row[1])));
                columns.add(c);
                if (!kind.equals("MATERIALIZED") && !kind.equals("EPHEMERAL")) {
                    star.add(c);
                }
            }
        }
        return new Structure(columns, star);
    }

    private static String text(Object v) {
        return v instanceof String s ? ByteStrings.toText(s) : String.valueOf(v);
    }
}
