package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;

/**
 * The tables of a cluster's servers, as the {@code cluster()}, {@code clusterAllReplicas()}, {@code remote()} and
 * {@code remoteSecure()} table functions name them ({@link Arguments}, parsed by {@link TableFunctionRemote}): the
 * layer that speaks to other servers (package {@code distributed}) resolves them into a source reading every shard,
 * and the server installs it in its catalog ({@link Catalog#remoteTables}), since this package reaches no other server.
 * A read over shards has the virtual columns {@link #SHARD_NUM} (the shard a row came from, numbered from 1) and
 * {@link #SHARD_COUNT} (how many shards the read covers), which {@code shardNum()} and {@code shardCount()} read
 * where a query reads such a source, as ClickHouse gives each shard's query those scalars.
 */
public interface RemoteTables {
    /** The virtual column of the shard a row came from (UInt32, from 1), as ClickHouse's {@code _shard_num}. */
    String SHARD_NUM = "_shard_num";
    /** The number of shards a distributed read covers (UInt32): the scalar ClickHouse gives each shard's query. */
    String SHARD_COUNT = "_shard_count";

    /**
     * A table function's arguments: a configured cluster by name ({@code cluster()}, or {@code remote()} given an
     * identifier) or an address pattern; the remote table; for {@code remote()} the user and password.
     *
     * @param function    the function's name as the engine spells it in messages: {@code remote} (also for
     *                    remoteSecure), {@code cluster} or {@code clusterAllReplicas}
     * @param clusterName the cluster named, or null when {@code addresses} describes the servers
     * @param addresses   the address pattern of {@code remote()}, or null
     * @param shardingKey the sharding key argument (for inserts), or null
     */
    record Arguments(String function, String clusterName, String addresses, boolean secure, String database, String table,
                     String user, String password, Expr shardingKey) {
        /** {@code clusterAllReplicas}: every replica of every shard is read, each as a shard of its own. */
        public boolean allReplicas() {
            return function.equals("clusterAllReplicas");
        }
    }

    /**
     * Whether the server plays a release before ClickHouse's distributed reads of 2020 (18.16): no
     * {@code clusterAllReplicas}, no {@code _shard_num} nor {@code shardNum()}, an unknown cluster BAD_GET and an
     * unreachable table's structure the shard's own ALL_CONNECTION_TRIES_FAILED, as a real 18.16.1 answers.
     */
    static boolean legacy(QueryContext ctx) {
        return dev.chdedup.stub.compat.CompatibilityVersion.before(ctx.compat().serverVersion(null), 19, 1);
    }

    /**
     * A read over shards (a Distributed table, a cluster or remote table function) that can run a query's WHERE on each
     * shard, as the engine sends the query with its filter to the shards: a subquery in it reads each shard's own tables.
     */
    interface ShardedSource extends TableSource {
        /** This read with {@code where} (over its columns, {@code _shard_num} and {@code shardNum()} included) run on each shard. */
        TableSource filteredOnShards(Expr where);

        /** The table each shard reads, as a FROM item with {@code alias} (null: none). */
        dev.chdedup.stub.sql.Query.TableRef shardTable(String alias);

        /** {@code query} (reading {@link #shardTable}) run on each shard, its answers in one stream, typed as the first's. */
        SelectExecutor.Stream runOnShards(dev.chdedup.stub.sql.Query query);
    }

    /** The table {@code args} names, read from the servers of its cluster, with its columns as the first reachable shard has them. */
    TableSource table(Arguments args, QueryContext ctx);

    /** No other server can be reached: a catalog outside a running server. */
    RemoteTables NONE = (args, ctx) -> {
        throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Table function '" + args.function() + "' needs a running server");
    };
}
