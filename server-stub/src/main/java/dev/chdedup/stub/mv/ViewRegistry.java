package dev.chdedup.stub.mv;

import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.dedup.DeduplicatingSink;
import dev.chdedup.stub.dedup.DeduplicationInfo;
import dev.chdedup.stub.dedup.DeduplicationService;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Catalog;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.mergetree.RowCompleter;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.Storage;
import dev.chdedup.stub.storages.StorageCatalog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The materialized views of the server and how blocks flow through them: every block inserted into a source
 * table is run through each dependent view's SELECT (with the source replaced by just that block) and the result
 * inserted into the view's target, with a deduplication token derived from the source block's token and the
 * view's identity. So identical output of different source blocks, or of two views into one table, is kept,
 * while a retry of the source insert is dropped in every target. Chains of views follow naturally. As in
 * ClickHouse 26.x the views run after the source block is written ({@link #prepare}), one after another: an error in
 * one fails the insert and leaves the source block and the output of the views before it written (a retry then
 * lands only where it is missing). An async insert batch is one block carrying one token per query, and a view must make one
 * block of it ("one block in, one block out"), else NOT_IMPLEMENTED.
 */
public final class ViewRegistry implements DeduplicatingSink.ViewPusher {
    private final StorageCatalog catalog;
    private final DeduplicationService dedup;
    private final Events events;
    private final List<MaterializedView> views = new CopyOnWriteArrayList<>();

    public ViewRegistry(StorageCatalog catalog, DeduplicationService dedup, Events events) {
        this.catalog = catalog;
        this.dedup = dedup;
        this.events = events;
    }

    public void register(MaterializedView v) {
        views.add(v);
    }

    public void unregister(String db, String name) {
        views.removeIf(v -> v.database().equals(db) && v.name().equals(name));
    }

    public MaterializedView find(String db, String name) {
        for (MaterializedView v : views) {
            if (v.database().equals(db) && v.name().equals(name)) {
                return v;
            }
        }
        return null;
    }

    public List<MaterializedView> dependents(String db, String table) {
        List<MaterializedView> out = new ArrayList<>();
        for (MaterializedView v : views) {
            if (v.sourceDatabase().equals(db) && v.sourceTable().equals(table)) {
                out.add(v);
            }
        }
        return out;
    }

    /** A sink for inserts into {@code table}: deduplicating when enabled, pushing to its views. */
    public DeduplicatingSink sink(StorageMergeTree table, QueryContext ctx, boolean dedupEnabled, String userToken) {
        return new DeduplicatingSink(table, ctx, events, dedup, dedupEnabled, userToken,
            dependents(table.database(), table.name()).isEmpty() ? null : this);
    }

    @Override
    public Runnable prepare(StorageMergeTree source, Block block, DeduplicationInfo info, boolean sourceDedup,
                            boolean oneBlockOut, QueryContext ctx) {
        // as ClickHouse 26.x does: the views run once the source block is written, one after another, each writing its
        // output before the next runs; an error in one fails the insert and leaves what was written before it
        List<MaterializedView> deps = dependents(source.database(), source.name());
        return () -> {
            for (MaterializedView v : deps) {
                prepareView(v, source, block, info, sourceDedup, oneBlockOut, ctx).forEach(Runnable::run);
            }
        };
    }

    /**
     * An insert into a Memory, Null or Log table run through the views that read it: their output goes to their
     * targets (without deduplication: these engines have none), as ClickHouse feeds views from any table.
     */
    public void pushFromStorage(String db, String table, List<Column> columns, List<Object[]> rows, QueryContext ctx) {
        TableSource source = TableSource.of(columns, rows);
        Block block = new Block(columns, rows);
        for (MaterializedView v : dependents(db, table)) {
            prepareView(v, source, block, null, false, false, ctx).forEach(Runnable::run);
        }
    }

    /** A plain sink into the view's target (POPULATE): no deduplication. */
    public DeduplicatingSink sinkForView(MaterializedView v, QueryContext ctx) {
        return sink(catalog.mergeTree(v.targetDatabase(), v.targetTable()), ctx, false, null);
    }

    /** Runs {@code block} through {@code v} and inserts the result into its target (POPULATE). */
    public void pushTo(MaterializedView v, TableSource source, Block block, QueryContext ctx) {
        prepareView(v, source, block, null, false, false, ctx).forEach(Runnable::run);
    }

    /**
     * Runs {@code block} through {@code v} (and its output through the views downstream of its target) and returns
     * the writes of its output blocks. Output block {@code n} carries {@code info} with the view's id and {@code n}
     * added to every token ({@link DeduplicationInfo#forView}), so a retry of the source insert is dropped in every
     * target while identical output of different source blocks, or of two views, is kept; the target deduplicates
     * when the source insert does and {@code deduplicate_blocks_in_dependent_materialized_views} is on. Without an
     * info (an insert into a Memory, Null or Log table, POPULATE) the output is not deduplicated.
     */
    private List<Runnable> prepareView(MaterializedView v, TableSource source, Block block, DeduplicationInfo info,
                                       boolean sourceDedup, boolean oneBlockOut, QueryContext ctx) {
        List<Block> out = transform(v, source, block, oneBlockOut, ctx);
        if (catalog.find(v.targetDatabase(), v.targetTable()) instanceof Storage) { // Memory, Null, Log: one append per block
            Storage simple = (Storage) catalog.find(v.targetDatabase(), v.targetTable());
            List<Runnable> writes = new ArrayList<>(out.size());
            for (Block b : out) {
                writes.add(() -> {
                    try {
                        simple.write(b.rows());
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                    pushFromStorage(v.targetDatabase(), v.targetTable(), simple.columns(), b.rows(), ctx); // and on downstream
                });
            }
            return writes;
        }
        StorageMergeTree target = catalog.mergeTree(v.targetDatabase(), v.targetTable());
        boolean dedupViews = ctx.settings().getBool("deduplicate_blocks_in_dependent_materialized_views");
        DeduplicatingSink sink = sink(target, ctx, info != null && sourceDedup, null);
        if (oneBlockOut) {
            sink.requireOneBlockOut();
        }
        List<Runnable> writes = new ArrayList<>(out.size());
        // a block with several tokens (an async batch) can be made again of some of them, when its target drops others
        DeduplicationInfo.Retry retry = info == null || info.count() < 2 || info.isViewLevel() ? null : kept -> {
            List<Object[]> rows = new ArrayList<>();
            for (int t : kept) {
                rows.addAll(block.rows().subList(info.begin(t), info.end(t)));
            }
            List<Block> again = transform(v, source, new Block(block.columns(), rows), oneBlockOut, ctx);
            return again.isEmpty() ? new Block(target.columns(), new ArrayList<>()) : again.get(0);
        };
        for (int n = 0; n < out.size(); n++) {
            Block b = out.get(n);
            writes.add(sink.prepareWrite(info == null ? b : b.withInfo(info.forView(v.id(), n, dedupViews, retry))));
        }
        return writes;
    }

    /**
     * The blocks {@code v} makes of {@code block}, as full rows of its target; with {@code oneBlockOut} more than
     * one is NOT_IMPLEMENTED (an async insert's block carries the tokens of several queries, which only map onto
     * a single output block).
     */
    private List<Block> transform(MaterializedView v, TableSource source, Block block, boolean oneBlockOut, QueryContext ctx) {
        Object targetObject = catalog.find(v.targetDatabase(), v.targetTable());
        TableSource target = targetObject instanceof Storage ? (Storage) targetObject : catalog.mergeTree(v.targetDatabase(), v.targetTable());
        SelectExecutor.Stream out = runOnBlock(v, source, block, ctx);
        List<TableColumn> all = target instanceof Storage ? ((Storage) target).tableColumns()
            : ((StorageMergeTree) target).definition().insertColumns();
        List<Integer> targets = new ArrayList<>();
        List<Integer> picked = new ArrayList<>();
        List<Column> produced = new ArrayList<>();
        for (int i = 0; i < out.columns().size(); i++) {
            Column c = out.columns().get(i);
            int idx = indexOf(all, c.name());
            if (idx >= 0) {
                targets.add(idx);
                picked.add(i);
                produced.add(c);
            }
        }
        RowCompleter completer = new RowCompleter(all, targets, ctx);
        List<Block> blocks = new ArrayList<>();
        while (out.blocks().hasNext()) {
            Block b = out.blocks().next();
            if (b.rowCount() == 0) {
                continue;
            }
            if (oneBlockOut && !blocks.isEmpty()) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Materialized view " + v.id() + " made more than one block of"
                    + " one async insert block; deduplication of async inserts through materialized views needs one block in,"
                    + " one block out");
            }
            List<Object[]> rows = new ArrayList<>(b.rowCount());
            for (Object[] r : b.rows()) {
                Object[] values = new Object[picked.size()];
                for (int k = 0; k < values.length; k++) {
                    values[k] = r[picked.get(k)];
                }
                rows.add(completer.fromSelect(values, produced));
            }
            blocks.add(new Block(target.columns(), rows));
        }
        return blocks;
    }

    /** Runs the view's SELECT with its source table replaced by the rows of {@code block}. */
    public SelectExecutor.Stream runOnBlock(MaterializedView v, TableSource source, Block block, QueryContext ctx) {
        List<Object[]> rows = block.rows();
        TableSource only = TableSource.of(source.columns(), rows);
        Catalog overlay = (db, table, c) -> db.equals(v.sourceDatabase()) && table.equals(v.sourceTable()) ? only : catalog.table(db, table, c);
        // the view reads the block as one chunk, as ClickHouse's source of a single chunk does: max_block_size does not split it
        long maxBlock = Math.max(ctx.settings().getLong("max_block_size"), rows.size());
        QueryContext viewCtx = ctx.withDatabase(v.database()).withSettings(ctx.settings().with(Map.of("max_block_size", String.valueOf(maxBlock))));
        return new SelectExecutor(overlay).execute(v.select(), viewCtx);
    }

    private static int indexOf(List<TableColumn> all, String name) {
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Checks a CREATE MATERIALIZED VIEW and returns its source table. */
    public static String[] sourceOf(Statement.CreateView cv, String defaultDb) {
        Query q = cv.select();
        if (q.selects().size() != 1 || !(q.selects().get(0).from() instanceof Query.TableRef)) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub supports materialized views over a single table (no UNION, JOIN or subquery in FROM)");
        }
        Query.TableRef t = (Query.TableRef) q.selects().get(0).from();
        return new String[] {t.database() != null ? t.database() : defaultDb, t.table()};
    }

    public List<MaterializedView> all() {
        return List.copyOf(views);
    }
}
