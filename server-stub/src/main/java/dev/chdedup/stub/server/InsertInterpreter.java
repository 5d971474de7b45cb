package dev.chdedup.stub.server;

import dev.chdedup.stub.async.AsynchronousInsertQueue;
import dev.chdedup.stub.async.InlinedData;
import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.dedup.DeduplicationInfo;
import dev.chdedup.stub.dedup.DeduplicationPolicy;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.InsertSink;
import dev.chdedup.stub.exec.MemoryTracker;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.format.FormatSettings;
import dev.chdedup.stub.format.Formats;
import dev.chdedup.stub.format.RowReader;
import dev.chdedup.stub.format.ValueExpressions;
import dev.chdedup.stub.mergetree.InsertSinkFactory;
import dev.chdedup.stub.mergetree.NestedArraySizes;
import dev.chdedup.stub.mergetree.RowCompleter;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.Storage;
import dev.chdedup.stub.types.DataType;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Executes INSERT: reads the input (inline VALUES or FORMAT data, the request body, or a SELECT) into blocks of
 * {@code max_insert_block_size} rows, completes each row with column defaults, gives each block its
 * {@link DeduplicationInfo} (the user's token and the block's number in the insert), squashes blocks to
 * {@code min_insert_block_size_rows}/{@code _bytes} as ClickHouse's SquashingTransform does, and hands each
 * finished block to the table's {@link InsertSink}. A block is written whole or not at all; blocks finished
 * before a later error stay written, as in ClickHouse. With {@code async_insert=1} an insert with data (not
 * INSERT SELECT) of at most {@code async_insert_max_data_size} bytes is parsed whole as one block and handed to the
 * {@link AsynchronousInsertQueue}; the query then waits for the flush of its batch ({@code wait_for_async_insert=1}) or
 * returns at once. An insert with more data is inserted synchronously, as ClickHouse's queue answers it
 * {@code TOO_MUCH_DATA} ({@link InlinedData}).
 */
public final class InsertInterpreter {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(InsertInterpreter.class);
    private final DatabaseCatalog catalog;
    private final SelectExecutor selects;
    private final InsertSinkFactory sinks;
    /** Null when the server has no queue: async_insert is then ignored and every insert is synchronous. */
    private final AsynchronousInsertQueue asyncInserts;

    public InsertInterpreter(DatabaseCatalog catalog, SelectExecutor selects, InsertSinkFactory sinks) {
        this(catalog, selects, sinks, null);
    }

    public InsertInterpreter(DatabaseCatalog catalog, SelectExecutor selects, InsertSinkFactory sinks,
                             AsynchronousInsertQueue asyncInserts) {
        this.catalog = catalog;
        this.selects = selects;
        this.sinks = sinks;
        this.asyncInserts = asyncInserts;
    }

    public QueryResult.Done execute(Statement.Insert st, InputStream data, String defaultFormat, QueryContext outer) throws IOException {
        String db = st.database() != null ? st.database() : outer.database();
        // shared for the whole insert: an ALTER of the schema, RENAME or DETACH waits for it, as ClickHouse's table lock
        java.util.concurrent.locks.Lock shared = catalog.structureLock(db, st.table()).readLock();
        DatabaseCatalog.lock(shared, outer.settings().getLong("lock_acquire_timeout"), db + "." + st.table());
        Object target = catalog.find(db, st.table());
        try {
            return executeInsert(st, data, defaultFormat, outer);
        } catch (IOException | RuntimeException e) {
            if (target != null && catalog.find(db, st.table()) != target) {
                // the table was dropped while the insert ran: that, not the failed file operation, is the answer
                throw new ChException(ErrorCode.UNKNOWN_TABLE, "Table " + db + "." + st.table() + " does not exist (dropped while the insert ran)", e);
            }
            throw e;
        } finally {
            shared.unlock();
        }
    }

    private QueryResult.Done executeInsert(Statement.Insert st, InputStream data, String defaultFormat, QueryContext outer)
        throws IOException {
        // a SETTINGS clause after INSERT ... SELECT applies to the whole insert, as in ClickHouse
        Settings applied = outer.settings().with(st.settings());
        if (st.select() != null) {
            applied = applied.with(st.select().settings());
        }
        QueryContext ctx = outer.withSettings(applied);
        String db = st.database() != null ? st.database() : ctx.database();
        if (st.database() == null && ctx.temporaryTables().get(st.table()) instanceof Storage) {
            return insertInto((Storage) ctx.temporaryTables().get(st.table()), null, st.table(), st, data, defaultFormat, ctx);
        }
        if (catalog.find(db, st.table()) instanceof Storage) {
            return insertInto((Storage) catalog.find(db, st.table()), db, db + "." + st.table(), st, data, defaultFormat, ctx);
        }
        StorageMergeTree table = catalog.mergeTree(db, st.table());
        List<TableColumn> all = table.definition().insertColumns();
        List<Integer> targets = targetColumns(table, st.columns());
        RowCompleter completer = new RowCompleter(all, targets, ctx);
        Settings s = ctx.settings();
        if (st.select() == null && asyncInserts != null && s.getBool("async_insert") && data != null) {
            InlinedData inlined = InlinedData.read(data, s.getLong("async_insert_max_data_size"));
            data = inlined.stream();
            if (!inlined.tooMuchData()) {
                return executeAsync(st, data, defaultFormat, ctx, table, targets, completer);
            } // more than async_insert_max_data_size: inserted synchronously, split by max_insert_block_size
        }
        long maxBlock = Math.max(1, s.getLong("max_insert_block_size"));
        String token = s.get("insert_deduplication_token");
        boolean dedup = st.select() != null ? DeduplicationPolicy.forInsertSelect(s, st.select(), !token.isEmpty())
            : DeduplicationPolicy.forInsert(s, false);
        InsertSink sink = sinks.create(table, ctx, dedup, token);
        Squashing squash = new Squashing(s.getLong("min_insert_block_size_rows"), s.getLong("min_insert_block_size_bytes"));
        List<Column> header = table.columns();
        NestedArraySizes nested = new NestedArraySizes(header);
        long[] numbers = {0}; // each block read gets the next number, before squashing (its deduplication info)
        int[] sent = sentColumns(targets, header.size());
        if (st.select() != null) {
            if (st.select().format() != null) {
                throw new ChException(ErrorCode.SYNTAX_ERROR, "FORMAT is not allowed in INSERT ... SELECT");
            }
            SelectExecutor.Stream stream = selects.execute(st.select(), ctx);
            if (stream.columns().size() != targets.size()) {
                throw new ChException(ErrorCode.NUMBER_OF_COLUMNS_DOESNT_MATCH, "Number of columns doesn't match: the SELECT gives "
                    + stream.columns().size() + ", the INSERT expects " + targets.size());
            }
            while (stream.blocks().hasNext()) {
                Block in = stream.blocks().next();
                if (in.rowCount() == 0) {
                    continue;
                }
                List<Object[]> rows = new ArrayList<>(in.rowCount());
                for (Object[] r : in.rows()) {
                    rows.add(completer.fromSelect(r, stream.columns()));
                }
                nested.validate(rows);
                emit(squash.add(new Block(header, rows, DeduplicationInfo.forInsertBlock(token, rows.size(), numbers[0]++, sent))), sink);
            }
        } else {
            readInput(st, data, defaultFormat, ctx, table.definition().insertColumns(), header, targets, completer, maxBlock,
                rows -> emit(squash.add(new Block(header, rows, DeduplicationInfo.forInsertBlock(token, rows.size(), numbers[0]++, sent))), sink, ctx));
        }
        emit(squash.flush(), sink);
        return sink.finish();
    }

    /**
     * An async insert: the whole input is one block (its deduplication token is the user's token with ordinal 0,
     * as for the first block of a synchronous insert), queued; waits for the batch's flush when asked to.
     */
    private QueryResult.Done executeAsync(Statement.Insert st, InputStream data, String defaultFormat, QueryContext ctx,
                                          StorageMergeTree table, List<Integer> targets, RowCompleter completer) throws IOException {
        Settings s = ctx.settings();
        DeduplicationPolicy.forInsert(s, true); // refuse a bad deduplicate_insert now, not at the flush
        CountingInputStream counted = data == null ? null : new CountingInputStream(data);
        List<Object[]> rows = new ArrayList<>();
        readInput(st, counted, defaultFormat, ctx, table.definition().insertColumns(), table.columns(), targets, completer,
            Long.MAX_VALUE, rows::addAll);
        if (rows.isEmpty()) {
            return QueryResult.Done.NOTHING;
        }
        CompletableFuture<QueryResult.Done> done = asyncInserts.push(table, ctx, rows, counted.count,
            sentColumns(targets, table.columns().size()));
        if (!s.getBool("wait_for_async_insert")) {
            return QueryResult.Done.NOTHING;
        }
        long timeout = Math.max(1, s.getLong("wait_for_async_insert_timeout"));
        try {
            return done.get(timeout, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Wait for async insert timeout (" + timeout + " s) exceeded");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChException(ErrorCode.ABORTED, "Interrupted while waiting for an async insert flush");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof ChException) {
                ChException ch = (ChException) c;
                throw new ChException(ch.code(), ch.getMessage(), ch);
            }
            ChException ch = HttpInterface.toChException(c); // no paths or class names for the client
            throw new ChException(ch.code(), "Async insert flush failed: " + ch.getMessage(), c);
        }
    }

    /** The bytes of a block of input rows, as a block of them holds them: its columns' sizes, or its values' one by one. */
    private static long inputBytes(List<Column> header, List<Object[]> rows) {
        if (rows instanceof ColumnRows) {
            long b = 0;
            for (IColumn c : ((ColumnRows) rows).columns()) {
                b += c.byteSize();
            }
            return b;
        }
        long b = 0;
        for (Object[] r : rows) {
            for (int i = 0; i < r.length && i < header.size(); i++) {
                DataType t = header.get(i).type();
                b += t.byteSize(r[i] == null ? t.defaultValue() : r[i]);
            }
        }
        return b;
    }

    /** Reads the insert's data into full table rows, handing them on in blocks of at most {@code maxBlock} rows. */
    private void readInput(Statement.Insert st, InputStream data, String defaultFormat, QueryContext ctx, List<TableColumn> all,
                           List<Column> header, List<Integer> targets, RowCompleter completer, long maxBlock,
                           Consumer<List<Object[]>> blocks) throws IOException {
        if (data == null) {
            throw new ChException(ErrorCode.NO_DATA_TO_INSERT, "No data to insert");
        }
        NestedArraySizes nested = new NestedArraySizes(header);
        if (nested.any()) {
            Consumer<List<Object[]>> unchecked = blocks;
            blocks = rows -> {
                nested.validate(rows);
                unchecked.accept(rows);
            };
        }
        if (ctx.process() != null) {
            // the rows read from the request count as read, as ClickHouse's progress counts its input format's blocks
            // (X-ClickHouse-Summary's read_rows; total_rows_to_read stays the tables' rows)
            Consumer<List<Object[]>> uncounted = blocks;
            blocks = rows -> {
                ctx.process().addInputRead(rows.size(), inputBytes(header, rows));
                uncounted.accept(rows);
            };
        }
        String format = st.format() != null ? st.format() : defaultFormat;
        List<Column> inCols = new ArrayList<>();
        for (int i : targets) {
            inCols.add(new Column(all.get(i).name(), all.get(i).type()));
        }
        ValueExpressions expr = (sql, type) -> evaluateValue(sql, type, ctx);
        RowReader reader = Formats.openInput(format, data, inCols, FormatSettings.of(ctx.settings().changed()), expr);
        List<Object[]> rows = new ArrayList<>();
        long rowNumber = 0;
        // input_format_max_block_wait_ms: a block is emitted once it has waited that long since its first row (looked
        // at as rows arrive), so a slow stream lands as it goes; it needs input_format_connection_handling, as in 26.x
        long waitNanos = ctx.settings().getLong("input_format_max_block_wait_ms") * 1_000_000L;
        if (waitNanos > 0 && !ctx.settings().getBool("input_format_connection_handling")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS,
                "Setting 'input_format_max_block_wait_ms' requires 'input_format_connection_handling' to be enabled");
        }
        long blockStart = 0;
        boolean inputBlocks = reader.keepsInputBlocks();
        if (inputBlocks) {
            maxBlock = Long.MAX_VALUE; // each block of the input is one block of the insert, as the engine keeps a Native block
        }
        if (completer.trivial() && reader.readsColumns()) {
            rowNumber = readColumns(reader, inCols, ctx, maxBlock, waitNanos, blocks);
        } else {
            // the rows of the block being built are counted before they are kept; a huge max_insert_block_size is a bound
            try (MemoryTracker memory = new MemoryTracker(ctx.settings())) {
                while (true) {
                    Object[] r;
                    try {
                        r = reader.next();
                    } catch (ChException | java.io.EOFException partial) {
                        if (!ctx.bodyCut()) {
                            throw partial;
                        }
                        // a failpoint cut the body: the complete rows read before the partial last one are kept
                        LOG.info("Query {}: the request body was cut off; {} complete rows are inserted", ctx.queryId(), rowNumber);
                        break;
                    }
                    if (r == null) {
                        break;
                    }
                    rowNumber++;
                    Object[] full = completer.complete(r);
                    memory.alloc(MemoryTracker.rowBytes(header, full));
                    if (rows.isEmpty()) {
                        blockStart = System.nanoTime();
                    }
                    rows.add(full);
                    if (rows.size() >= maxBlock || inputBlocks && reader.atBlockEnd()
                        || waitNanos > 0 && System.nanoTime() - blockStart >= waitNanos) {
                        blocks.accept(rows);
                        memory.releaseAll();
                        rows = new ArrayList<>();
                    }
                }
                if (!rows.isEmpty()) {
                    blocks.accept(rows);
                }
            }
        }
        if (rowNumber == 0 && "Values".equals(format)) {
            throw new ChException(ErrorCode.NO_DATA_TO_INSERT, "Empty query: no data to insert");
        }
    }

    /**
     * {@link #readInput} for a reader that fills the table's columns itself (every column sent, no defaults to apply):
     * the blocks it hands on are columnar. Returns the number of rows read.
     */
    private static long readColumns(RowReader reader, List<Column> header, QueryContext ctx, long maxBlock, long waitNanos,
                                    Consumer<List<Object[]>> blocks) throws IOException {
        int capacity = (int) Math.min(maxBlock, 1 << 16);
        long total = 0;
        int n = 0;
        long blockStart = 0;
        // the columns ask the tracker before they grow: a block too big for the limits is refused before it is held
        try (MemoryTracker memory = new MemoryTracker(ctx.settings())) {
            IColumn.Mutable[] cols = Columns.mutable(header, capacity, memory::alloc);
            while (true) {
                try {
                    if (!reader.readInto(cols)) {
                        break;
                    }
                } catch (ChException | java.io.EOFException partial) {
                    if (!ctx.bodyCut()) {
                        throw partial;
                    }
                    LOG.info("Query {}: the request body was cut off; {} complete rows are inserted", ctx.queryId(), total);
                    break;
                }
                total++;
                if (n++ == 0) {
                    blockStart = System.nanoTime();
                }
                if (n >= maxBlock || waitNanos > 0 && System.nanoTime() - blockStart >= waitNanos) {
                    blocks.accept(finish(cols, n));
                    memory.releaseAll();
                    cols = Columns.mutable(header, capacity, memory::alloc);
                    n = 0;
                }
            }
            if (n > 0) {
                blocks.accept(finish(cols, n));
            }
        }
        return total;
    }

    /** The columns' first {@code n} rows (a row cut short by a failure is left out) as a columnar block's rows. */
    private static ColumnRows finish(IColumn.Mutable[] cols, int n) {
        IColumn[] done = Columns.finish(cols);
        for (int i = 0; i < done.length; i++) {
            if (done[i].size() != n) {
                done[i] = done[i].cut(0, n);
            }
        }
        return new ColumnRows(done, n);
    }

    private static void emit(List<Block> blocks, InsertSink sink) {
        for (Block b : blocks) {
            sink.write(b);
        }
    }

    /** Checks for KILL QUERY between input blocks. */
    private static void emit(List<Block> blocks, InsertSink sink, QueryContext ctx) {
        ctx.checkCancelled();
        emit(blocks, sink);
    }

    /** Counts the bytes of an insert's raw data: the size {@code async_insert_max_data_size} compares. */
    private static final class CountingInputStream extends FilterInputStream {
        long count;

        CountingInputStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long k = super.skip(n);
            count += k;
            return k;
        }
    }

    private Object evaluateValue(String sql, DataType target, QueryContext ctx) {
        // {x:Type} in the data is the query's parameter x, as ClickHouse substitutes them in VALUES
        Evaluator e = new ExprCompiler(ctx, List.of(), Map.of(), selects).compile(new Parser(sql, ctx.parameters()).standaloneExpr());
        Object v = e.eval(new Object[0]);
        if (v == null) {
            return null;
        }
        return e.type().equals(target) ? v : target.convert(v, e.type());
    }

    /**
     * An INSERT into a Memory, Null or Log-family table: the rows (from the input or the SELECT), completed with
     * defaults, written in one atomic append; these engines do not deduplicate and feed no materialized views.
     */
    private QueryResult.Done insertInto(Storage table, String db, String name, Statement.Insert st, InputStream data, String defaultFormat,
                                        QueryContext ctx) throws IOException {
        List<TableColumn> all = table.tableColumns();
        List<Integer> targets = targetColumns(all, List.of(), name, st.columns());
        RowCompleter completer = new RowCompleter(all, targets, ctx);
        List<Object[]> rows = new ArrayList<>();
        // a Distributed table is written block by block, as the input gives them (max_insert_block_size) and squashed
        boolean distributed = table instanceof dev.chdedup.stub.distributed.StorageDistributed;
        long maxBlock = distributed ? Math.max(1, ctx.settings().getLong("max_insert_block_size")) : Long.MAX_VALUE;
        List<List<Object[]>> blocks = new ArrayList<>();
        if (st.select() != null) {
            SelectExecutor.Stream stream = selects.execute(st.select(), ctx);
            if (stream.columns().size() != targets.size()) {
                throw new ChException(ErrorCode.NUMBER_OF_COLUMNS_DOESNT_MATCH, "Number of columns doesn't match: the SELECT gives "
                    + stream.columns().size() + ", the INSERT expects " + targets.size());
            }
            while (stream.blocks().hasNext()) {
                for (Object[] r : stream.blocks().next().rows()) {
                    rows.add(completer.fromSelect(r, stream.columns()));
                }
            }
            if (distributed) {
                // the SELECT's blocks are as its sources make them, up to max_block_size rows (not max_insert_block_size)
                int selectBlock = (int) Math.min(Integer.MAX_VALUE, Math.max(1, ctx.settings().getLong("max_block_size")));
                for (int from = 0; from < rows.size(); from += selectBlock) {
                    blocks.add(rows.subList(from, Math.min(rows.size(), from + selectBlock)));
                }
            }
            new NestedArraySizes(table.columns()).validate(rows);
        } else {
            // only a Distributed table keeps the input's blocks apart; the other engines take the rows in one append
            readInput(st, data, defaultFormat, ctx, all, table.columns(), targets, completer, maxBlock, !distributed ? rows::addAll : b -> {
                rows.addAll(b);
                blocks.add(new ArrayList<>(b));
            });
        }
        ctx.checkCancelled();
        if (table instanceof dev.chdedup.stub.storages.StorageBuffer) {
            ((dev.chdedup.stub.storages.StorageBuffer) table).flushWith(this::writeBuffered);
        }
        if (distributed) {
            writeDistributed((dev.chdedup.stub.distributed.StorageDistributed) table, blocks, ctx);
        } else {
            table.write(rows);
        }
        StoragePusher pusher = storagePusher;
        if (db != null && pusher != null && !rows.isEmpty()) {
            pusher.push(db, name.substring(db.length() + 1), table.columns(), rows, ctx);
        }
        long bytes = 0;
        for (Object[] r : rows) {
            bytes += MemoryTracker.rowBytes(table.columns(), r);
        }
        return new QueryResult.Done(rows.size(), bytes);
    }

    /**
     * Writes an insert's blocks to a Distributed table, squashed by min_insert_block_size_rows/bytes as ClickHouse's insert
     * pipeline squashes them: each block split by the sharding key and sent or queued with the query's settings.
     */
    private static void writeDistributed(dev.chdedup.stub.distributed.StorageDistributed table, List<List<Object[]>> blocks,
                                         QueryContext ctx) throws IOException {
        Squashing squash = new Squashing(ctx.settings().getLong("min_insert_block_size_rows"), ctx.settings().getLong("min_insert_block_size_bytes"));
        List<Block> squashed = new ArrayList<>();
        for (List<Object[]> b : blocks) {
            squashed.addAll(squash.add(new Block(table.columns(), b)));
        }
        squashed.addAll(squash.flush());
        if (squashed.isEmpty()) {
            squashed.add(new Block(table.columns(), List.of())); // the write still happens: a table that cannot take one says so
        }
        for (Block b : squashed) {
            table.write(b.rows(), ctx);
        }
    }

    /** Runs an insert into a Memory, Null or Log table through the materialized views that read that table. */
    public interface StoragePusher {
        void push(String db, String table, List<Column> columns, List<Object[]> rows, QueryContext ctx);
    }

    private volatile StoragePusher storagePusher;

    /** Feeds the views of Memory, Null and Log tables through {@code p} (the server's view registry). */
    public void pushStorageInsertsWith(StoragePusher p) {
        this.storagePusher = p;
    }

    /**
     * A Buffer table's flush: {@code rows} (in {@code columns}) inserted into the destination as one block, into the
     * destination's columns of the same names (converted to their types; the others get their defaults), without
     * deduplication, feeding the destination's materialized views as any insert does.
     */
    private void writeBuffered(String db, String tableName, List<Column> columns, List<Object[]> rows) {
        QueryContext ctx = new QueryContext(db, "default", "", Settings.DEFAULTS);
        Object dest = catalog.find(db, tableName);
        List<TableColumn> all = dest instanceof Storage ? ((Storage) dest).tableColumns() : catalog.mergeTree(db, tableName).definition().insertColumns();
        List<String> names = new ArrayList<>();
        List<Integer> picked = new ArrayList<>();
        List<Column> from = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            String n = columns.get(i).name();
            if (all.stream().anyMatch(c -> c.name().equals(n) && !c.isMaterialized())) {
                names.add(n);
                picked.add(i);
                from.add(columns.get(i));
            }
        }
        List<Integer> targets = targetColumns(all, List.of(), db + "." + tableName, names);
        RowCompleter completer = new RowCompleter(all, targets, ctx);
        List<Object[]> completed = new ArrayList<>(rows.size());
        for (Object[] r : rows) {
            Object[] in = new Object[picked.size()];
            for (int k = 0; k < in.length; k++) {
                in[k] = r[picked.get(k)];
            }
            completed.add(completer.fromSelect(in, from));
        }
        try {
            if (dest instanceof Storage) {
                ((Storage) dest).write(completed);
                StoragePusher pusher = storagePusher;
                if (pusher != null) {
                    pusher.push(db, tableName, ((Storage) dest).columns(), completed, ctx);
                }
                return;
            }
            StorageMergeTree table = catalog.mergeTree(db, tableName);
            InsertSink sink = sinks.create(table, ctx, false, "");
            sink.write(new Block(table.columns(), completed));
            sink.finish();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The columns of a completed row an insert sent (indexes, in the order it named them; EPHEMERAL ones are not
     * stored): ClickHouse hashes the block as sent, without the DEFAULT and MATERIALIZED columns it computed.
     */
    private static int[] sentColumns(List<Integer> targets, int stored) {
        return targets.stream().mapToInt(Integer::intValue).filter(i -> i < stored).toArray();
    }

    private static List<Integer> targetColumns(StorageMergeTree table, List<String> names) {
        return targetColumns(table.definition().insertColumns(), table.definition().aliasColumns(), table.database() + "." + table.name(), names);
    }

    private static List<Integer> targetColumns(List<TableColumn> all, List<TableColumn> aliases, String tableName, List<String> names) {
        List<Integer> out = new ArrayList<>();
        if (names == null) {
            for (int i = 0; i < all.size(); i++) {
                if (!all.get(i).isMaterialized() && !all.get(i).isEphemeral()) {
                    out.add(i);
                }
            }
            return out;
        }
        Map<String, Integer> idx = new HashMap<>();
        for (int i = 0; i < all.size(); i++) {
            idx.put(all.get(i).name(), i);
        }
        for (String n : names) {
            Integer i = idx.get(n);
            if (i == null && aliases.stream().anyMatch(a -> a.name().equals(n))) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Cannot insert column " + n + ", because it is ALIAS column");
            }
            if (i == null) {
                throw new ChException(ErrorCode.NO_SUCH_COLUMN_IN_TABLE, "No such column " + n + " in table " + tableName);
            }
            if (all.get(i).isMaterialized()) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Cannot insert column " + n + ", because it is MATERIALIZED column");
            }
            if (out.contains(i)) {
                throw new ChException(ErrorCode.DUPLICATE_COLUMN, "Column " + n + " in table "
                    + tableName.substring(tableName.indexOf('.') + 1) + " specified more than once");
            }
            out.add(i);
        }
        return out;
    }
}
