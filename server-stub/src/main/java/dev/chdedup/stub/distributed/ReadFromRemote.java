package dev.chdedup.stub.distributed;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.exec.Catalog;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.RemoteTables;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A table read from every shard of a cluster, as ClickHouse's {@code ReadFromRemote} with {@code ClusterProxy}'s
 * {@code executeQuery}: each shard reads its table {@code database.table} (the local replica directly when the shard
 * has one and {@code prefer_localhost_replica} is on, else one live replica over the network, the next on a connection
 * failure), and the rows of all shards are the table's rows, in shard order, each carrying the virtual columns
 * {@code _shard_num} and {@code _shard_count} ({@link RemoteTables}). The shards read only the columns the query needs
 * (a shard asked for none counts its rows), so the query itself runs here over the union, answering what the engine
 * answers over the union of the shards. Remote shards are asked in parallel before the first row, so a shard that
 * cannot be reached fails the query (ALL_CONNECTION_TRIES_FAILED) unless {@code skip_unavailable_shards} passes it over.
 * A query's WHERE may run on the shards ({@link #filteredOnShards}): each shard then reads {@code SELECT columns FROM
 * table WHERE ...} (the local one through this server's own executor), so a subquery in it reads that shard's tables,
 * {@code _shard_num}, {@code shardNum()} and {@code shardCount()} being the shard's constants there.
 * One object serves one query (it holds the query's context).
 */
public final class ReadFromRemote implements RemoteTables.ShardedSource {
    private static final List<Column> VIRTUALS = List.of(new Column(RemoteTables.SHARD_NUM, DataTypes.UINT32),
        new Column(RemoteTables.SHARD_COUNT, DataTypes.UINT32));
    /** The initiator's settings a shard's query carries, where it changed them: those that change what a shard reads. */
    private static final List<String> FORWARDED = List.of("select_sequential_consistency", "max_block_size", "final",
        "do_not_merge_across_partitions_select_final", "max_rows_to_read", "max_execution_time");
    private static final ExecutorService SHARD_READS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "ReadFromRemote");
        t.setDaemon(true);
        return t;
    });

    private enum Mode { PLAIN, FINAL, SEQUENTIALLY_CONSISTENT }

    private final Cluster cluster;
    private final String database;
    private final String table;
    private final List<Column> columns;
    private final List<Column> starColumns;
    private final Clusters clusters;
    private final Catalog local;
    private final QueryContext ctx;
    /** The WHERE each shard runs, or null. */
    private final Expr where;

    /**
     * A read of {@code database.table} on every shard of {@code cluster}, as a table of {@code columns} ({@code *} being
     * {@code starColumns}); {@code clusters} tells which replicas are this server, whose table {@code local} reads.
     */
    public ReadFromRemote(Cluster cluster, String database, String table, List<Column> columns, List<Column> starColumns,
                          Clusters clusters, Catalog local, QueryContext ctx) {
        this(cluster, database, table, columns, starColumns, clusters, local, ctx, null);
    }

    private ReadFromRemote(Cluster cluster, String database, String table, List<Column> columns, List<Column> starColumns,
                           Clusters clusters, Catalog local, QueryContext ctx, Expr where) {
        this.where = where;
        this.cluster = cluster;
        this.database = database;
        this.table = table;
        this.columns = List.copyOf(columns);
        this.starColumns = List.copyOf(starColumns);
        this.clusters = clusters;
        this.local = local;
        this.ctx = ctx;
    }

    @Override
    public TableSource filteredOnShards(Expr condition) {
        return new ReadFromRemote(cluster, database, table, columns, starColumns, clusters, local, ctx, condition);
    }

    @Override
    public dev.chdedup.stub.sql.Query.TableRef shardTable(String alias) {
        return new dev.chdedup.stub.sql.Query.TableRef(database, table, alias, false);
    }

    @Override
    public SelectExecutor.Stream runOnShards(dev.chdedup.stub.sql.Query query) {
        boolean preferLocal = ctx.settings().getBool("prefer_localhost_replica");
        String sql = dev.chdedup.stub.exec.ExplainSyntax.queryText(query, null);
        List<CompletableFuture<List<Block>>> parts = new ArrayList<>();
        for (Cluster.ShardInfo shard : cluster.shards()) {
            if (preferLocal && !clusters.localReplicas(shard).isEmpty()) {
                SelectExecutor.Result r = new SelectExecutor(local).executeToRows(query, ctx);
                parts.add(CompletableFuture.completedFuture(List.of(new Block(r.columns(), r.rows()))));
            } else {
                parts.add(CompletableFuture.supplyAsync(() -> {
                    try {
                        return ConnectionPoolWithFailover.tryEach(clusters, shard.replicas(), ctx.settings(), c -> c.query(sql, forwardedSettings(Mode.PLAIN)))
                            .blocks();
                    } catch (ChException e) {
                        if (ConnectionPoolWithFailover.unavailable(e) && ctx.settings().getBool("skip_unavailable_shards")) {
                            return List.of();
                        }
                        throw e;
                    }
                }, SHARD_READS));
            }
        }
        List<Column> header = null;
        List<Object[]> rows = new ArrayList<>();
        for (CompletableFuture<List<Block>> p : parts) {
            List<Block> blocks;
            try {
                blocks = p.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : e;
            }
            for (Block b : blocks) {
                header = header != null ? header : b.columns();
                for (Object[] r : b.rows()) {
                    for (int i = 0; i < r.length; i++) {
                        DataType to = header.get(i).type();
                        DataType have = b.columns().get(i).type();
                        r[i] = r[i] == null || have.equals(to) ? r[i] : TypeRules.stripNullable(to).convert(r[i], have);
                    }
                    rows.add(r);
                }
            }
        }
        if (header == null) { // no shard answered a row: the header as the query has it here
            header = new SelectExecutor(local).header(query, ctx);
        }
        return new SelectExecutor.Stream(header, dev.chdedup.stub.exec.BlockStreams.chunk(header, rows, 65536));
    }

    @Override
    public List<Column> columns() {
        return columns;
    }

    @Override
    public List<Column> starColumns() {
        return starColumns;
    }

    @Override
    public List<Column> virtualColumns() {
        return RemoteTables.legacy(ctx) ? List.of() : VIRTUALS;
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals) {
        return read(maxBlockSize, withVirtuals, null, null);
    }

    @Override
    public Iterator<Block> read(int maxBlockSize, boolean withVirtuals, boolean[] needed, Expr filter) {
        return shards(maxBlockSize, withVirtuals, needed, Mode.PLAIN);
    }

    @Override
    public Iterator<Block> readFinal(int maxBlockSize, boolean withVirtuals) {
        return shards(maxBlockSize, withVirtuals, null, Mode.FINAL);
    }

    @Override
    public Iterator<Block> readSequentiallyConsistent(int maxBlockSize, boolean withVirtuals) {
        return shards(maxBlockSize, withVirtuals, null, Mode.SEQUENTIALLY_CONSISTENT);
    }

    /** The blocks of every shard in order; the remote ones are read (in parallel) before this returns. */
    private Iterator<Block> shards(int maxBlock, boolean withVirtuals, boolean[] needed, Mode mode) {
        List<Integer> fetched = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            if (needed == null || needed[i]) {
                fetched.add(i);
            }
        }
        boolean preferLocal = ctx.settings().getBool("prefer_localhost_replica");
        List<CompletableFuture<Iterator<Object[]>>> parts = new ArrayList<>();
        for (Cluster.ShardInfo shard : cluster.shards()) {
            if (preferLocal && !clusters.localReplicas(shard).isEmpty()) {
                parts.add(CompletableFuture.completedFuture(where == null ? null : localQuery(shard, fetched, mode)));
            } else {
                parts.add(CompletableFuture.supplyAsync(() -> remote(shard, fetched, mode), SHARD_READS));
            }
        }
        List<Iterator<Object[]>> rows = new ArrayList<>();
        for (int s = 0; s < parts.size(); s++) {
            Iterator<Object[]> r;
            try {
                r = parts.get(s).join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : e;
            }
            rows.add(r != null ? r : local(fetched, mode, maxBlock));
        }
        boolean shardColumns = withVirtuals && !virtualColumns().isEmpty();
        int width = columns.size() + (shardColumns ? VIRTUALS.size() : 0);
        List<Column> header = new ArrayList<>(columns);
        if (shardColumns) {
            header.addAll(VIRTUALS);
        }
        return new Iterator<>() {
            private int shard;

            @Override
            public boolean hasNext() {
                while (shard < rows.size() && !rows.get(shard).hasNext()) {
                    shard++;
                }
                return shard < rows.size();
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Iterator<Object[]> in = rows.get(shard);
                List<Object[]> out = new ArrayList<>();
                while (out.size() < maxBlock && in.hasNext()) {
                    Object[] got = in.next();
                    Object[] row = new Object[width];
                    for (int i = 0; i < columns.size(); i++) {
                        row[i] = columns.get(i).type().defaultValue();
                    }
                    for (int k = 0; k < fetched.size(); k++) {
                        row[fetched.get(k)] = got[k];
                    }
                    if (shardColumns) {
                        row[columns.size()] = (long) cluster.shards().get(shard).shardNum();
                        row[columns.size() + 1] = (long) cluster.shards().size();
                    }
                    out.add(row);
                }
                return new Block(header, out);
            }
        };
    }

    /** The settings a shard's query carries: those of {@link #FORWARDED} the query changed. */
    private Map<String, String> forwardedSettings(Mode mode) {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String name : FORWARDED) {
            if (ctx.settings().isChanged(name)) {
                settings.put(name, ctx.settings().get(name));
            }
        }
        if (mode == Mode.SEQUENTIALLY_CONSISTENT) {
            settings.put("select_sequential_consistency", "1");
        }
        return settings;
    }

    /** The query a shard runs: the {@code fetched} columns (none: its row count) of its table, with the WHERE if any. */
    private String shardQuery(Cluster.ShardInfo shard, List<Integer> fetched, Mode mode) {
        StringBuilder sql = new StringBuilder("SELECT ");
        for (int k = 0; k < fetched.size(); k++) {
            sql.append(k == 0 ? "" : ", ").append(Connection.quote(columns.get(fetched.get(k)).name()));
        }
        if (fetched.isEmpty()) {
            sql.append("count()"); // no column needed: the shard's row count
        }
        sql.append(" FROM ").append(Connection.quote(database)).append('.').append(Connection.quote(table));
        if (mode == Mode.FINAL) {
            sql.append(" FINAL");
        }
        if (where != null) {
            sql.append(" WHERE ").append(dev.chdedup.stub.exec.ExplainSyntax.operators(shardScalars(where, shard.shardNum(),
                cluster.shards().size())));
        }
        return sql.toString();
    }

    /** {@code e} with the shard's {@code _shard_num}, {@code shardNum()} and {@code shardCount()} as constants (subqueries kept). */
    private static Expr shardScalars(Expr e, int shardNum, int shardCount) {
        if (e instanceof Expr.Ident id && id.parts().size() == 1 && id.last().equals(RemoteTables.SHARD_NUM)
            || e instanceof Expr.Call c0 && c0.args().isEmpty() && c0.name().equals("shardNum")) {
            return new Expr.Call("toUInt32", List.of(new Expr.Literal((long) shardNum)), false);
        }
        if (e instanceof Expr.Call c0 && c0.args().isEmpty() && c0.name().equals("shardCount")) {
            return new Expr.Call("toUInt32", List.of(new Expr.Literal((long) shardCount)), false);
        }
        if (e instanceof Expr.Call c) {
            List<Expr> args = new ArrayList<>();
            for (Expr a : c.args()) {
                args.add(shardScalars(a, shardNum, shardCount));
            }
            return new Expr.Call(c.name(), args, c.distinct(), c.params());
        }
        if (e instanceof Expr.Cast c) {
            return new Expr.Cast(shardScalars(c.expr(), shardNum, shardCount), c.typeName());
        }
        return e;
    }

    /** The local shard's rows when it runs the WHERE: its query through this server's own executor, no network. */
    private Iterator<Object[]> localQuery(Cluster.ShardInfo shard, List<Integer> fetched, Mode mode) {
        QueryContext c = mode == Mode.SEQUENTIALLY_CONSISTENT ? ctx.withSettings(ctx.settings().with(Map.of("select_sequential_consistency", "1"))) : ctx;
        dev.chdedup.stub.sql.Statement st = dev.chdedup.stub.sql.Parser.parse(shardQuery(shard, fetched, mode));
        SelectExecutor.Result r = new SelectExecutor(local).executeToRows(((dev.chdedup.stub.sql.Statement.SelectStmt) st).query(), c);
        return rowsOf(List.of(new Block(r.columns(), r.rows())), fetched);
    }

    /** The {@code fetched} columns of a remote shard's table, from one live replica, converted to this table's types. */
    private Iterator<Object[]> remote(Cluster.ShardInfo shard, List<Integer> fetched, Mode mode) {
        String sql = shardQuery(shard, fetched, mode);
        Map<String, String> settings = forwardedSettings(mode);
        Connection.Result result;
        try {
            result = ConnectionPoolWithFailover.tryEach(clusters, shard.replicas(), ctx.settings(), c -> c.query(sql, settings));
        } catch (ChException e) {
            if (ConnectionPoolWithFailover.unavailable(e) && ctx.settings().getBool("skip_unavailable_shards")) {
                return Collections.emptyIterator();
            }
            throw e;
        }
        return rowsOf(result.blocks(), fetched);
    }

    /** A shard's answer as rows of the {@code fetched} columns (its count as that many empty rows when none is fetched). */
    private Iterator<Object[]> rowsOf(List<Block> blocks, List<Integer> fetched) {
        if (fetched.isEmpty()) {
            long count = blocks.isEmpty() || blocks.get(0).rows().isEmpty() ? 0 : ((Number) blocks.get(0).rows().get(0)[0]).longValue();
            return emptyRows(count);
        }
        List<Object[]> rows = new ArrayList<>();
        for (Block b : blocks) {
            for (Object[] r : b.rows()) {
                rows.add(converted(r, b.columns(), fetched));
            }
        }
        return rows.iterator();
    }

    /** The {@code fetched} columns of this server's own table, read as it stores them. */
    private Iterator<Object[]> local(List<Integer> fetched, Mode mode, int maxBlock) {
        TableSource t = local.table(database, table, ctx);
        List<Column> have = t.columns();
        int[] from = new int[fetched.size()];
        boolean[] needed = new boolean[have.size()];
        List<Column> source = new ArrayList<>();
        for (int k = 0; k < fetched.size(); k++) {
            String name = columns.get(fetched.get(k)).name();
            from[k] = -1;
            for (int i = 0; i < have.size(); i++) {
                if (have.get(i).name().equals(name)) {
                    from[k] = i;
                }
            }
            if (from[k] < 0) {
                throw new ChException(dev.chdedup.stub.error.ErrorCode.UNKNOWN_IDENTIFIER, "Unknown expression identifier `" + name
                    + "` in scope SELECT " + name + " FROM " + database + "." + table);
            }
            needed[from[k]] = true;
            source.add(have.get(from[k]));
        }
        Iterator<Block> blocks = mode == Mode.FINAL ? t.readFinal(maxBlock, false)
            : mode == Mode.SEQUENTIALLY_CONSISTENT ? t.readSequentiallyConsistent(maxBlock, false) : t.read(maxBlock, false, needed, null);
        return new Iterator<>() {
            private Iterator<Object[]> cur = Collections.emptyIterator();

            @Override
            public boolean hasNext() {
                while (!cur.hasNext() && blocks.hasNext()) {
                    cur = blocks.next().rows().iterator();
                }
                return cur.hasNext();
            }

            @Override
            public Object[] next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Object[] r = cur.next();
                Object[] picked = new Object[from.length];
                for (int k = 0; k < from.length; k++) {
                    picked[k] = r[from[k]];
                }
                return converted(picked, source, fetched);
            }
        };
    }

    /** A shard's row of {@code fetched} columns, typed as the shard has them ({@code from}), in this table's types. */
    private Object[] converted(Object[] row, List<Column> from, List<Integer> fetched) {
        for (int k = 0; k < fetched.size(); k++) {
            DataType to = columns.get(fetched.get(k)).type();
            DataType have = from.get(k).type();
            if (row[k] != null && !have.equals(to)) {
                row[k] = TypeRules.stripNullable(to).convert(row[k], have);
            }
        }
        return row;
    }

    /** {@code count} rows of no columns: a shard's rows when the query needs none of their values. */
    private static Iterator<Object[]> emptyRows(long count) {
        return new Iterator<>() {
            private long left = count;

            @Override
            public boolean hasNext() {
                return left > 0;
            }

            @Override
            public Object[] next() {
                if (left-- <= 0) {
                    throw new NoSuchElementException();
                }
                return new Object[0];
            }
        };
    }
}
