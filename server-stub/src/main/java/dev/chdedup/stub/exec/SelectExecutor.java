package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.ColumnNames;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * Executes SELECT queries as a stream of blocks: read the source in blocks of {@code max_block_size}, filter,
 * then either project block by block (keeping the source's block boundaries, which INSERT SELECT turns into
 * parts) or, for GROUP BY, aggregates, DISTINCT and ORDER BY, collect, process and re-split into blocks of
 * {@code max_block_size}. LIMIT stops reading early, so {@code system.numbers} can be read with a LIMIT.
 */
public final class SelectExecutor {
    private final Catalog catalog;
    /** True for the executor that only finds a result's header: every table it reads is empty (DESCRIBE (query)). */
    private final boolean headerOnly;

    public SelectExecutor(Catalog catalog) {
        this(catalog, false);
    }

    private SelectExecutor(Catalog catalog, boolean headerOnly) {
        this.catalog = catalog;
        this.headerOnly = headerOnly;
    }

    /** The catalog this executor reads tables (and dictionaries) from. */
    Catalog catalog() {
        return catalog;
    }

    /** The columns {@code q} returns, found by running it over empty tables, so it reads nothing and ends at once. */
    public List<Column> header(Query q, QueryContext ctx) {
        return new SelectExecutor(catalog, true).execute(q, ctx).columns();
    }

    /** A result header and its blocks, read lazily. */
    public record Stream(List<Column> columns, Iterator<Block> blocks) {
    }

    /** A fully read result. */
    public record Result(List<Column> columns, List<Object[]> rows) {
    }

    public Result executeToRows(Query q, QueryContext ctx) {
        Stream s = execute(q, ctx);
        List<Object[]> rows = new ArrayList<>();
        while (s.blocks().hasNext()) {
            rows.addAll(s.blocks().next().rows());
        }
        return new Result(s.columns(), rows);
    }

    public Stream execute(Query q, QueryContext ctx) {
        QueryContext c = ctx.withSettings(ctx.settings().with(q.settings()));
        if (q.selects().size() == 1) {
            return select(q.selects().get(0), c);
        }
        List<Stream> parts = new ArrayList<>();
        for (Query.Select s : q.selects()) {
            parts.add(select(s, c));
        }
        List<Column> header = parts.get(0).columns();
        for (Stream p : parts) {
            if (p.columns().size() != header.size()) {
                throw new ChException(ErrorCode.NUMBER_OF_COLUMNS_DOESNT_MATCH, "UNION ALL: different number of columns: "
                    + header.size() + " and " + p.columns().size());
            }
        }
        List<Column> common = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            List<DataType> ts = new ArrayList<>();
            for (Stream p : parts) {
                ts.add(p.columns().get(i).type());
            }
            common.add(new Column(header.get(i).name(), TypeRules.common(ts)));
        }
        Iterator<Stream> it = parts.iterator();
        return new Stream(common, new Iterator<>() {
            Stream cur;

            @Override
            public boolean hasNext() {
                while ((cur == null || !cur.blocks().hasNext()) && it.hasNext()) {
                    cur = it.next();
                }
                return cur != null && cur.blocks().hasNext();
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Block b = cur.blocks().next();
                List<Object[]> rows = new ArrayList<>(b.rowCount());
                for (Object[] r : b.rows()) {
                    Object[] o = new Object[r.length];
                    for (int i = 0; i < r.length; i++) {
                        DataType from = cur.columns().get(i).type();
                        DataType to = common.get(i).type();
                        o[i] = r[i] == null || from.equals(to) ? r[i] : TypeRules.stripNullable(to).convert(r[i], from);
                    }
                    rows.add(o);
                }
                return new Block(common, rows);
            }
        });
    }

    /** The qualifier of a column * expands to where an alias has its name: it names no table, so the column is found by name. */
    private static final String STAR_QUALIFIER = "\u0000star";

    private Stream select(Query.Select s, QueryContext ctx) {
        Query.Select windowed = dev.chdedup.stub.exec.window.WindowStep.plan(s, this, ctx);
        s = windowed != null ? windowed : s; // window functions: the select list over the window step's rows
        s = ArrayJoinFunction.rewrite(QualifiedNames.rewrite(s));
        Query.From numbers = NumbersSource.bounded(s);
        if (numbers != null) {
            s = new Query.Select(s.distinct(), s.items(), numbers, s.where(), s.groupBy(), s.having(), s.orderBy(),
                s.orderByAll(), s.orderByAllDesc(), s.limit(), s.offset(), s.limitBy(), s.limitByCount());
        }
        if (s.from() instanceof Query.TableRef t && TextIndexTokenizers.mentioned(s)) {
            s = TextIndexTokenizers.rewrite(s, table(t, ctx).textIndexTokenizers());
        }
        Stream trivial = trivialCount(s, ctx);
        if (trivial != null) {
            return trivial;
        }
        int maxBlock = limitedBlockSize(s, (int) Math.max(1, Math.min(Integer.MAX_VALUE, ctx.settings().getLong("max_block_size"))));
        boolean needsVirtuals = mentionsVirtual(s);
        Source src = source(s.from(), ctx, maxBlock, needsVirtuals, s);
        boolean storage = s.from() instanceof Query.TableRef || s.from() instanceof Query.TableFunction;
        src = new Source(src.physical, src.columns, headerOnly ? java.util.Collections.emptyIterator()
            : BlockStreams.cancellable(src.blocks, ctx, storage), src.aliasColumns, src.whereOnShards);
        List<Column> input = src.columns;
        s = starArguments(s, src.physical);
        Map<String, Expr> aliases = new LinkedHashMap<>();
        java.util.Set<String> columnNames = new java.util.HashSet<>();
        for (Column c : input) {
            columnNames.add(c.name());
        }
        for (Query.SelectItem it : s.items()) {
            // an enclosing SELECT's WITH alias is hidden by a column of this SELECT's FROM
            if (it.alias() != null && !(it.isOuter() && columnNames.contains(it.alias()))) {
                aliases.putIfAbsent(it.alias(), it.expr());
            }
        }
        for (Map.Entry<String, Expr> a : src.aliasColumns.entrySet()) {
            aliases.putIfAbsent(a.getKey(), a.getValue());
        }
        ExprCompiler comp = new ExprCompiler(ctx, input, aliases, this);
        // select list with * expanded; WITH items are aliases only
        List<Expr> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        ColumnNames namer = ColumnNames.forSelect(s, namesOf(src.physical));
        for (Query.SelectItem it : s.items()) {
            if (it.isWith()) {
                continue;
            }
            if (it.expr() instanceof Expr.Star) {
                for (Column c : src.physical) {
                    // * is the FROM's columns, even where an alias of this SELECT has a column's name (WITH 3 AS n SELECT *
                    // FROM t): a qualified reference, which no alias matches, reads the column
                    exprs.add(new Expr.Ident(aliases.containsKey(c.name()) ? List.of(STAR_QUALIFIER, c.name()) : List.of(c.name())));
                    names.add(c.name());
                }
            } else if (it.expr() instanceof Expr.Call u && u.name().equalsIgnoreCase("untuple") && u.args().size() == 1) {
                untuple(u.args().get(0), it.alias(), comp, namer, exprs, names);
            } else {
                // an aliased item is compiled as a reference to its alias, so a same-named column inside its own
                // definition stays the column (SELECT k * 2 AS k is k * 2, not (k * 2) * 2)
                boolean defines = it.alias() != null && aliases.get(it.alias()) == it.expr();
                exprs.add(defines ? new Expr.Ident(List.of(it.alias())) : it.expr());
                names.add(it.alias() != null ? it.alias() : namer.name(it.expr()));
            }
        }
        s = positionalArguments(s, exprs, ctx, comp);
        Evaluator where = s.where() == null || src.whereOnShards ? null : comp.compile(s.where());
        List<Expr.Call> aggCalls = new ArrayList<>();
        for (Expr e : exprs) {
            comp.collectAggregates(comp.expand(e), aggCalls);
        }
        if (s.having() != null) {
            comp.collectAggregates(comp.expand(s.having()), aggCalls);
        }
        for (Query.OrderItem o : s.orderBy()) {
            comp.collectAggregates(comp.expand(o.expr()), aggCalls);
        }
        boolean aggregating = !aggCalls.isEmpty() || !s.groupBy().isEmpty();
        Iterator<Block> filtered = where == null ? src.blocks : BlockStreams.filter(src.blocks, where);

        List<Evaluator> projection;
        List<Evaluator> orderKeys = new ArrayList<>();
        Iterator<Object[]> rows;
        int[] sortedInputBlocks = {0}; // the non-empty blocks a sort reads: one block stays one, as ClickHouse sorts it
        Iterator<Block> streamed = null;
        boolean sortsColumns = false;
        if (aggregating) {
            List<Expr> keyExprs = new ArrayList<>();
            for (Expr g : s.groupBy()) {
                keyExprs.add(comp.expand(g));
            }
            List<Evaluator> keyEvals = new ArrayList<>();
            List<DataType> keyTypes = new ArrayList<>();
            for (Expr k : keyExprs) {
                Evaluator ev = comp.compile(k);
                keyEvals.add(ev);
                keyTypes.add(ev.type());
            }
            List<List<Evaluator>> aggArgs = new ArrayList<>();
            List<Aggregates.Aggregate> aggs = new ArrayList<>();
            List<DataType> aggTypes = new ArrayList<>();
            for (Expr.Call c : aggCalls) {
                List<Evaluator> args = new ArrayList<>();
                List<DataType> ts = new ArrayList<>();
                int values = c.args().size() - c.params(); // a parametric aggregate's parameters come last
                List<DataType> paramTypes = new ArrayList<>();
                List<Object> params = new ArrayList<>();
                for (int i = 0; i < c.args().size(); i++) {
                    Evaluator ev = comp.compile(c.args().get(i));
                    if (i < values) {
                        args.add(ev);
                        ts.add(ev.type());
                    } else { // a parameter: a constant the aggregate takes when it is made, as ClickHouse's
                        paramTypes.add(ev.type());
                        params.add(ev.eval(new Object[0]));
                    }
                }
                aggArgs.add(args);
                Aggregates.Aggregate ag = Aggregates.create(c.name(), ts, new AggregateParameters(params, paramTypes), c.distinct());
                aggs.add(ag);
                aggTypes.add(ag.type());
            }
            ExprCompiler post = new ExprCompiler(ctx, input, aliases, this, keyExprs, new ArrayList<>(aggCalls));
            post.setSlotTypes(keyTypes, aggTypes);
            projection = compileAll(post, exprs);
            for (Query.OrderItem o : s.orderBy()) {
                orderKeys.add(post.compile(o.expr()));
            }
            Evaluator having = s.having() == null ? null : post.compile(s.having());
            List<Object[]> grouped = Aggregation.aggregate(filtered, keyEvals, aggArgs, aggs, s.groupBy().isEmpty());
            List<Object[]> out = new ArrayList<>();
            for (Object[] g : grouped) {
                if (having == null || Values.isTrue(having.eval(g))) {
                    out.add(extend(g, projection, orderKeys));
                }
            }
            rows = out.iterator();
        } else {
            projection = compileAll(comp, exprs);
            for (Query.OrderItem o : s.orderBy()) {
                orderKeys.add(comp.compile(o.expr()));
            }
            if (s.having() != null) {
                throw new ChException(ErrorCode.ILLEGAL_AGGREGATION, "HAVING clause without aggregation");
            }
            List<Evaluator> proj = projection;
            List<Evaluator> ok = orderKeys;
            if (!s.distinct() && orderKeys.isEmpty() && !s.orderByAll() && s.limitBy() == null) {
                streamed = BlockStreams.mapBlocks(filtered, proj);
                rows = null;
            } else if (!s.distinct() && !s.orderByAll() && s.limitBy() == null && !WithFill.present(s)) {
                sortsColumns = true;
                rows = null;
            } else {
                rows = BlockStreams.flatten(BlockStreams.counting(filtered, sortedInputBlocks), r -> extend(r, proj, ok));
            }
        }
        List<Column> header = new ArrayList<>();
        for (int i = 0; i < exprs.size(); i++) {
            header.add(new Column(names.get(i), projection.get(i).type()));
        }
        long limit = s.limit() == null ? Long.MAX_VALUE : constLong(comp, s.limit());
        long offset = s.offset() == null ? 0 : constLong(comp, s.offset());
        if (streamed != null) {
            Iterator<Block> in = s.limit() == null ? streamed : BlockStreams.countedBeforeLimit(streamed, ctx);
            return new Stream(header, BlockStreams.limitBlocks(in, header, offset, limit));
        }
        if (sortsColumns) {
            return sortColumns(filtered, input, header, projection, orderKeys, s, offset, limit, ctx, maxBlock);
        }
        List<Object[]> all = new ArrayList<>();
        while (rows.hasNext()) {
            all.add(rows.next());
        }
        int width = exprs.size();
        if (s.distinct()) {
            Set<List<Object>> seen = new HashSet<>();
            List<Object[]> d = new ArrayList<>();
            for (Object[] r : all) {
                if (seen.add(java.util.Arrays.asList(r).subList(0, width))) {
                    d.add(r);
                }
            }
            all = d;
        }
        if (s.orderByAll()) {
            sort(all, header, width, s.orderByAllDesc());
        } else if (!orderKeys.isEmpty()) {
            sortBy(all, orderKeys, s.orderBy(), width);
            if (WithFill.present(s)) {
                all = WithFill.apply(all, s, exprs, names, header, width, comp);
            }
        }
        if (s.limitBy() != null) {
            all = limitBy(all, comp, s, header, width, ctx);
        }
        if (s.limit() != null) {
            ctx.addRowsBeforeLimit(all.size());
        }
        List<Object[]> trimmed = new ArrayList<>();
        long skipped = 0;
        for (Object[] r : all) {
            if (skipped < offset) {
                skipped++;
                continue;
            }
            if (trimmed.size() >= limit) {
                break;
            }
            trimmed.add(r.length == width ? r : java.util.Arrays.copyOf(r, width));
        }
        boolean sorted = s.orderByAll() || !orderKeys.isEmpty();
        int outBlock = sorted && sortedInputBlocks[0] <= 1 ? Math.max(maxBlock, trimmed.size()) : maxBlock;
        return new Stream(header, BlockStreams.chunk(header, trimmed, outBlock));
    }

    /**
     * ORDER BY over columns: the input's blocks put together, the key columns computed over them, the permutation of
     * the rows OFFSET and LIMIT keep (only those are ordered) applied to the projection. A projection of bare columns
     * is computed after the sort, on the rows kept; any other before it, on every row, as ClickHouse computes the
     * select list ahead of ORDER BY.
     */
    /**
     * ClickHouse's trivial count ({@code optimize_trivial_count_query}): {@code SELECT count() FROM t}, with no WHERE,
     * GROUP BY, HAVING, ORDER BY, LIMIT, DISTINCT or FINAL, on a table that knows its row count, is answered from that
     * count without reading a column. Null: the query is not one.
     */
    private Stream trivialCount(Query.Select s, QueryContext ctx) {
        if (headerOnly || s.items().size() != 1 || s.distinct() || s.where() != null || !s.groupBy().isEmpty() || s.having() != null
            || !s.orderBy().isEmpty() || s.orderByAll() || s.limit() != null || s.offset() != null || s.limitBy() != null && !s.limitBy().isEmpty()
            || !(s.from() instanceof Query.TableRef t) || t.isFinal()
            || !ctx.settings().getBool("optimize_trivial_count_query") || ctx.settings().getLong("select_sequential_consistency") != 0) {
            return null;
        }
        Query.SelectItem item = s.items().get(0);
        if (!(item.expr() instanceof Expr.Call c) || !c.name().equalsIgnoreCase("count") || c.distinct()
            || !(c.args().isEmpty() || c.args().size() == 1 && c.args().get(0) instanceof Expr.Star)) {
            return null;
        }
        java.util.OptionalLong rows = table(t, ctx).rowCountFromMetadata();
        if (rows.isEmpty()) {
            return null;
        }
        List<Column> header = List.of(new Column(item.alias() != null ? item.alias() : ColumnNames.of(item.expr()),
            DataTypes.UINT64));
        List<Object[]> one = new ArrayList<>(1);
        one.add(new Object[] {rows.getAsLong()});
        return new Stream(header, List.of(new Block(header, one)).iterator());
    }

    private static Stream sortColumns(Iterator<Block> in, List<Column> input, List<Column> header, List<Evaluator> proj,
                                      List<Evaluator> keys, Query.Select s, long offset, long limit, QueryContext ctx, int maxBlock) {
        for (Evaluator k : keys) {
            if (TypeRules.isVariantOrDynamic(k.type()) && !ctx.settings().getBool("allow_suspicious_types_in_order_by")) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Data types Variant/Dynamic are not allowed in ORDER BY keys, because it can lead"
                    + " to unexpected results. Consider using a subcolumn with a specific data type instead (for example 'column.Int64' or"
                    + " 'json.some.path.:Int64' if its a JSON path subcolumn) or casting this column to a specific data type. Set setting"
                    + " allow_suspicious_types_in_order_by = 1 in order to allow it");
            }
        }
        List<IColumn[]> parts = new ArrayList<>();
        int n = 0;
        int blocks = 0;
        while (in.hasNext()) {
            Block b = in.next();
            if (b.rowCount() == 0) {
                continue;
            }
            blocks++;
            parts.add(b.data() != null ? b.data() : columnsOf(b, input));
            n = Math.addExact(n, b.rowCount());
        }
        if (s.limit() != null) {
            ctx.addRowsBeforeLimit(n);
        }
        if (n == 0) {
            return new Stream(header, java.util.Collections.emptyIterator());
        }
        int rows = n;
        IColumn[] cols = Columns.concat(parts, n);
        parts = null;
        IColumn[] keyColumns = new IColumn[keys.size()];
        for (int k = 0; k < keyColumns.length; k++) {
            keyColumns[k] = keys.get(k).evalColumns(cols, rows);
        }
        int wanted = (int) Math.min(n, limit >= Long.MAX_VALUE - offset ? Long.MAX_VALUE : offset + limit);
        int[] perm = SortBlock.permutation(keyColumns, s.orderBy(), n, wanted);
        int[] kept = java.util.Arrays.copyOfRange(perm, (int) Math.min(offset, perm.length), perm.length);
        boolean late = proj.stream().allMatch(e -> e.columnIndex() >= 0 || e.constant());
        IColumn[] out = new IColumn[proj.size()];
        IColumn[] picked = late ? ColumnFunctions.filter(cols, kept) : null;
        for (int i = 0; i < out.length; i++) {
            out[i] = late ? proj.get(i).evalColumns(picked, kept.length) : proj.get(i).evalColumns(cols, rows).permute(kept);
        }
        int outBlock = blocks <= 1 ? Math.max(maxBlock, kept.length) : maxBlock;
        List<Block> result = new ArrayList<>();
        for (int from = 0; from < kept.length; from += outBlock) {
            int len = Math.min(outBlock, kept.length - from);
            IColumn[] piece = new IColumn[out.length];
            for (int c = 0; c < piece.length; c++) {
                piece[c] = len == kept.length ? out[c] : out[c].cut(from, len);
            }
            result.add(Block.ofColumns(header, piece, len, null));
        }
        return new Stream(header, result.iterator());
    }

    /** A block of rows as columns of the input's types, holding the rows' values as they are. */
    private static IColumn[] columnsOf(Block b, List<Column> input) {
        IColumn[] cols = new IColumn[input.size()];
        int n = b.rowCount();
        for (int c = 0; c < cols.length; c++) {
            Object[] v = new Object[n];
            for (int i = 0; i < n; i++) {
                v[i] = b.rows().get(i)[c];
            }
            cols[c] = Columns.ofValues(input.get(c).type(), v, n);
        }
        return cols;
    }

    private List<Object[]> limitBy(List<Object[]> all, ExprCompiler comp, Query.Select s, List<Column> header, int width, QueryContext ctx) {
        long n = constLong(comp, s.limitByCount());
        ExprCompiler outComp = new ExprCompiler(ctx, header, Map.of(), this);
        List<Evaluator> keys = compileAll(outComp, s.limitBy());
        Map<List<Object>, Long> counts = new HashMap<>();
        List<Object[]> out = new ArrayList<>();
        for (Object[] r : all) {
            List<Object> k = new ArrayList<>();
            for (Evaluator e : keys) {
                k.add(e.eval(r));
            }
            long c = counts.merge(k, 1L, Long::sum);
            if (c <= n) {
                out.add(r);
            }
        }
        return out;
    }

    /** Whether the SELECT names a virtual column, so the source must carry them. */
    private static boolean mentionsVirtual(Query.Select s) {
        for (Expr e : ColumnsUsed.expressions(s)) {
            if (namesVirtual(e)) {
                return true;
            }
        }
        return false;
    }

    private static boolean namesVirtual(Expr e) {
        if (e instanceof Expr.Ident) {
            String n = ((Expr.Ident) e).last();
            return n.equals("_part") || n.equals("_partition_id") || n.equals(RemoteTables.SHARD_NUM);
        }
        if (e instanceof Expr.Call c && c.args().isEmpty() && (c.name().equals("shardNum") || c.name().equals("shardCount"))) {
            return true; // read from a distributed source's virtual columns
        }
        if (e instanceof Expr.Call) {
            for (Expr a : ((Expr.Call) e).args()) {
                if (namesVirtual(a)) {
                    return true;
                }
            }
        }
        if (e instanceof Expr.Cast) {
            return namesVirtual(((Expr.Cast) e).expr());
        }
        return false;
    }

    /**
     * The block size a plain {@code SELECT ... LIMIT n [OFFSET m]} reads its source with: at most n + m rows, as
     * ClickHouse's InterpreterSelectQuery lowers max_block_size when nothing but the LIMIT needs the rows (no WHERE,
     * GROUP BY, aggregate, HAVING, ORDER BY, DISTINCT or LIMIT BY). So {@code system.numbers LIMIT 2} makes one block
     * of 2 rows: read_rows and rows_before_limit say 2, and {@code sleepEachRow} sleeps for 2 rows, not 65,409.
     */
    private static int limitedBlockSize(Query.Select s, int maxBlock) {
        boolean oneSource = s.from() instanceof Query.TableRef || s.from() instanceof Query.TableFunction; // not a JOIN's other side
        if (!oneSource || s.distinct() || s.where() != null || !s.groupBy().isEmpty() || s.having() != null || !s.orderBy().isEmpty()
            || s.orderByAll() || s.limitBy() != null && !s.limitBy().isEmpty() || !(s.limit() instanceof Expr.Literal)
            || s.offset() != null && !(s.offset() instanceof Expr.Literal)) {
            return maxBlock;
        }
        for (Query.SelectItem it : s.items()) {
            if (ExprCompiler.hasAggregate(it.expr())) {
                return maxBlock;
            }
        }
        Object limit = ((Expr.Literal) s.limit()).value();
        Object offset = s.offset() == null ? Long.valueOf(0) : ((Expr.Literal) s.offset()).value();
        if (!(limit instanceof Long) || !(offset instanceof Long) || (Long) limit < 0 || (Long) offset < 0) {
            return maxBlock;
        }
        long rows = (Long) limit + (Long) offset;
        return rows >= 0 && rows < maxBlock ? (int) Math.max(1, rows) : maxBlock;
    }

    private static long constLong(ExprCompiler comp, Expr e) {
        Evaluator ev = comp.compile(e);
        if (!ev.constant()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "LIMIT and OFFSET must be constants");
        }
        return Values.toLong(Values.toNumber(ev.eval(new Object[0]), ev.type()));
    }

    private static List<Evaluator> compileAll(ExprCompiler c, List<Expr> exprs) {
        List<Evaluator> out = new ArrayList<>();
        for (Expr e : exprs) {
            out.add(c.compile(e));
        }
        return out;
    }

    private static Object[] extend(Object[] in, List<Evaluator> proj, List<Evaluator> order) {
        Object[] o = new Object[proj.size() + order.size()];
        for (int i = 0; i < proj.size(); i++) {
            o[i] = proj.get(i).eval(in);
        }
        for (int i = 0; i < order.size(); i++) {
            o[proj.size() + i] = order.get(i).eval(in);
        }
        return o;
    }

    private static void sort(List<Object[]> rows, List<Column> header, int width, boolean desc) {
        rows.sort((a, b) -> {
            for (int i = 0; i < width; i++) {
                int c = compareNullsLast(header.get(i).type(), a[i], b[i]);
                if (c != 0) {
                    return desc ? -c : c;
                }
            }
            return 0;
        });
    }

    /** The select list with its items' scalar * arguments expanded (below), before aliases are taken from it. */
    private static Query.Select starArguments(Query.Select s, List<Column> physical) {
        List<Query.SelectItem> items = new ArrayList<>();
        boolean changed = false;
        for (Query.SelectItem it : s.items()) {
            Expr e = starArguments(it.expr(), physical);
            changed |= e != it.expr();
            items.add(e == it.expr() ? it : new Query.SelectItem(e, it.alias(), it.text()));
        }
        return !changed ? s : new Query.Select(s.distinct(), items, s.from(), s.where(), s.groupBy(), s.having(), s.orderBy(),
            s.orderByAll(), s.orderByAllDesc(), s.limit(), s.offset(), s.limitBy(), s.limitByCount());
    }

    /**
     * untuple(t) in a select list: one item per element of the tuple t, tupleElement(t, 'name') (the element's name,
     * or its position for an unnamed tuple), named so, or {@code alias.name} under an alias, as ClickHouse expands it.
     */
    private static void untuple(Expr tuple, String alias, ExprCompiler comp, ColumnNames namer, List<Expr> exprs, List<String> names) {
        DataType t = comp.compile(tuple).type();
        if (!(t.unwrap() instanceof dev.chdedup.stub.types.TupleType tt)) {
            throw new ChException(ErrorCode.UNSUPPORTED_METHOD, "Function 'untuple' argument must have compound type. Actual type " + t.name() + ".");
        }
        for (int i = 0; i < tt.elements.size(); i++) {
            String key = tt.names != null ? tt.names.get(i) : String.valueOf(i + 1);
            Expr named = new Expr.Call("tupleElement", List.of(tuple, new Expr.Literal(dev.chdedup.stub.types.ByteStrings.fromText(key))), false, 0);
            exprs.add(tt.names != null ? named : new Expr.Call("tupleElement", List.of(tuple, new Expr.Literal((long) (i + 1))), false, 0));
            names.add(alias != null ? alias + "." + key : namer.name(named));
        }
    }

    /**
     * {@code e} with an unqualified * among a scalar function's arguments replaced by the source's columns, as ClickHouse
     * expands roundAge(*) to roundAge(number), inside an aggregate's arguments too (groupBitXor(cityHash64(*))); an
     * aggregate's own * (count(*)) stays.
     */
    private static Expr starArguments(Expr e, List<Column> physical) {
        if (!(e instanceof Expr.Call c)) {
            return e;
        }
        boolean aggregate = Aggregates.isAggregate(c.name());
        List<Expr> args = new ArrayList<>();
        boolean changed = false;
        for (Expr a : c.args()) {
            if (a instanceof Expr.Star star && star.qualifier() == null && !aggregate) {
                physical.forEach(col -> args.add(new Expr.Ident(List.of(col.name()))));
                changed = true;
            } else {
                Expr x = starArguments(a, physical);
                changed |= x != a;
                args.add(x);
            }
        }
        return changed ? new Expr.Call(c.name(), args, c.distinct(), c.params()) : e;
    }

    /**
     * GROUP BY, ORDER BY and LIMIT BY with each integer literal as the item of the select list it numbers (from 1, or
     * from the end when negative), as ClickHouse reads them under {@code enable_positional_arguments}, on by default
     * since 22.7 (a {@code compatibility} before that, as the 18.16 and 22.1 emulations set, keeps them constants). A
     * number outside the list is BAD_ARGUMENTS; an aggregate put into GROUP BY so is ILLEGAL_AGGREGATION.
     */
    private static Query.Select positionalArguments(Query.Select s, List<Expr> items, QueryContext ctx, ExprCompiler comp) {
        boolean on = ctx.settings().isChanged("enable_positional_arguments") ? ctx.settings().getBool("enable_positional_arguments")
            : !dev.chdedup.stub.compat.CompatibilityVersion.before(ctx.settings().get("compatibility"), 22, 7);
        if (!on || s.groupBy().isEmpty() && s.orderBy().isEmpty() && (s.limitBy() == null || s.limitBy().isEmpty())) {
            return s;
        }
        List<Expr> groupBy = new ArrayList<>();
        for (Expr g : s.groupBy()) {
            Expr e = positional(g, items);
            if (e != g) {
                List<Expr.Call> found = new ArrayList<>();
                comp.collectAggregates(comp.expand(e), found);
                if (!found.isEmpty()) {
                    throw new ChException(ErrorCode.ILLEGAL_AGGREGATION, "Aggregate function " + ColumnNames.of(found.get(0))
                        + " is found in GROUP BY in query");
                }
            }
            groupBy.add(e);
        }
        List<Query.OrderItem> orderBy = new ArrayList<>();
        for (Query.OrderItem o : s.orderBy()) {
            orderBy.add(new Query.OrderItem(positional(o.expr(), items), o.desc(), o.nullsFirst(), o.fill()));
        }
        List<Expr> limitBy = null;
        if (s.limitBy() != null) {
            limitBy = new ArrayList<>();
            for (Expr e : s.limitBy()) {
                limitBy.add(positional(e, items));
            }
        }
        return new Query.Select(s.distinct(), s.items(), s.from(), s.where(), groupBy, s.having(), orderBy, s.orderByAll(),
            s.orderByAllDesc(), s.limit(), s.offset(), limitBy, s.limitByCount());
    }

    /** The select list's item that the integer literal {@code e} numbers, or {@code e} when it is not one. */
    private static Expr positional(Expr e, List<Expr> items) {
        if (!(e instanceof Expr.Literal) || !(((Expr.Literal) e).value() instanceof Long)) {
            return e;
        }
        long n = (Long) ((Expr.Literal) e).value();
        int size = items.size();
        if (n > 0 && n <= size) {
            return items.get((int) n - 1);
        }
        if (n < 0 && -n <= size) {
            return items.get(size + (int) n);
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, n < 0
            ? "Negative positional argument number " + n + " is out of bounds. Expected in range [-" + size + ", -1]"
            : "Positional argument number " + n + " is out of bounds. Expected in range [1, " + size + "]");
    }

    private static void sortBy(List<Object[]> rows, List<Evaluator> keys, List<Query.OrderItem> items, int width) {
        rows.sort((a, b) -> {
            for (int i = 0; i < keys.size(); i++) {
                Query.OrderItem it = items.get(i);
                int c = SortBlock.compare(TypeRules.stripNullable(keys.get(i).type()), a[width + i], b[width + i], it.desc(),
                    Boolean.TRUE.equals(it.nullsFirst()));
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        });
    }

    static int compareNullsLast(DataType t, Object a, Object b) {
        if (a == null || b == null) {
            return a == b ? 0 : a == null ? 1 : -1;
        }
        return TypeRules.stripNullable(t).compare(a, b);
    }

    // ---- sources ----

    /** {@code whereOnShards}: the rows come from shards that ran the query's WHERE (ShardFilter), which is not run again. */
    private record Source(List<Column> physical, List<Column> columns, Iterator<Block> blocks, Map<String, Expr> aliasColumns,
                          boolean whereOnShards) {
        Source(List<Column> physical, List<Column> columns, Iterator<Block> blocks) {
            this(physical, columns, blocks, Map.of());
        }

        Source(List<Column> physical, List<Column> columns, Iterator<Block> blocks, Map<String, Expr> aliasColumns) {
            this(physical, columns, blocks, aliasColumns, false);
        }
    }

    /** The name a FROM item's columns can be qualified with: its alias, else the table's name. */
    private static String aliasOf(Query.From f) {
        if (f instanceof Query.TableRef) {
            Query.TableRef t = (Query.TableRef) f;
            return t.alias() != null ? t.alias() : t.table();
        }
        if (f instanceof Query.SubqueryRef) {
            return ((Query.SubqueryRef) f).alias();
        }
        if (f instanceof Query.TableFunction) {
            return ((Query.TableFunction) f).alias();
        }
        if (f instanceof Query.RecursiveCte) {
            return ((Query.RecursiveCte) f).alias();
        }
        if (f instanceof Query.WorkingTable) {
            return ((Query.WorkingTable) f).alias();
        }
        return null;
    }

    /**
     * INNER, LEFT, RIGHT, FULL and CROSS JOIN by nested loops over the materialized right side. Right columns whose
     * names the left already has are named {@code <right alias>.<name>}; USING columns appear once, from the left.
     * Outer joins fill the other side's columns of an unmatched row with their types' defaults (ClickHouse's
     * join_use_nulls = 0).
     */
    private Source join(Query.Join j, QueryContext ctx, int maxBlock) {
        Source l = source(j.left(), ctx, maxBlock, false);
        Source r = source(j.right(), ctx, maxBlock, false);
        String ra = aliasOf(j.right());
        List<Column> cols = new ArrayList<>(l.columns);
        Set<String> leftNames = new HashSet<>();
        for (Column c : l.columns) {
            leftNames.add(c.name());
        }
        List<Integer> rightKept = new ArrayList<>();
        int[][] usingPairs = null;
        if (j.using() != null) {
            usingPairs = new int[j.using().size()][2];
            for (int u = 0; u < j.using().size(); u++) {
                String name = j.using().get(u);
                usingPairs[u][0] = indexOf(l.columns, name);
                usingPairs[u][1] = indexOf(r.columns, name);
                if (usingPairs[u][0] < 0 || usingPairs[u][1] < 0) {
                    throw new ChException(ErrorCode.UNKNOWN_IDENTIFIER, "Column " + name + " of USING is missing on one side of the JOIN");
                }
            }
        }
        for (int i = 0; i < r.columns.size(); i++) {
            Column c = r.columns.get(i);
            if (j.using() != null && j.using().contains(c.name())) {
                continue;
            }
            String name = leftNames.contains(c.name()) && ra != null ? ra + "." + c.name() : c.name();
            cols.add(new Column(name, c.type()));
            rightKept.add(i);
        }
        List<Object[]> right = new ArrayList<>();
        while (r.blocks.hasNext()) {
            right.addAll(r.blocks.next().rows());
        }
        // the ON condition sees every right column, kept or not, after the left ones
        List<Column> onHeader = new ArrayList<>(cols.subList(0, l.columns.size()));
        for (int i = 0; i < r.columns.size(); i++) {
            Column c = r.columns.get(i);
            onHeader.add(new Column(leftNames.contains(c.name()) && ra != null ? ra + "." + c.name() : c.name(), c.type()));
        }
        Evaluator on = j.on() == null ? null : new ExprCompiler(ctx, onHeader, Map.of(), this).compile(j.on());
        int lw = l.columns.size();
        int rw = r.columns.size();
        List<Object[]> out = new ArrayList<>();
        Object[] both = new Object[lw + rw];
        boolean keepRight = j.kind().equals("RIGHT") || j.kind().equals("FULL");
        boolean keepLeft = j.kind().equals("LEFT") || j.kind().equals("FULL");
        boolean[] rightMatched = new boolean[right.size()];
        while (l.blocks.hasNext()) {
            for (Object[] lr : l.blocks.next().rows()) {
                boolean matched = false;
                System.arraycopy(lr, 0, both, 0, lw);
                for (int ri = 0; ri < right.size(); ri++) {
                    Object[] rr = right.get(ri);
                    boolean match;
                    if (usingPairs != null) {
                        match = true;
                        for (int[] p : usingPairs) {
                            Object a = lr[p[0]];
                            Object b = rr[p[1]];
                            if (a == null || b == null || TypeRules.compare(a, l.columns.get(p[0]).type(), b, r.columns.get(p[1]).type()) != 0) {
                                match = false;
                                break;
                            }
                        }
                    } else if (on != null) {
                        System.arraycopy(rr, 0, both, lw, rw);
                        match = Values.isTrue(on.eval(both));
                    } else {
                        match = true;
                    }
                    if (match) {
                        matched = true;
                        rightMatched[ri] = true;
                        out.add(joined(lr, rr, rightKept));
                    }
                }
                if (!matched && keepLeft) {
                    Object[] defaults = new Object[rw];
                    for (int i = 0; i < rw; i++) {
                        defaults[i] = r.columns.get(i).type().defaultValue();
                    }
                    out.add(joined(lr, defaults, rightKept));
                }
            }
        }
        if (keepRight) {
            // unmatched right rows with the left columns' defaults; USING columns take the right side's value
            for (int ri = 0; ri < right.size(); ri++) {
                if (rightMatched[ri]) {
                    continue;
                }
                Object[] defaults = new Object[lw];
                for (int i = 0; i < lw; i++) {
                    defaults[i] = l.columns.get(i).type().defaultValue();
                }
                if (usingPairs != null) {
                    for (int[] p : usingPairs) {
                        Object v = right.get(ri)[p[1]];
                        DataType to = l.columns.get(p[0]).type();
                        DataType from = r.columns.get(p[1]).type();
                        defaults[p[0]] = v == null || to.equals(from) ? v : TypeRules.stripNullable(to).convert(v, from);
                    }
                }
                out.add(joined(defaults, right.get(ri), rightKept));
            }
        }
        return new Source(cols, cols, BlockStreams.chunk(cols, out, maxBlock));
    }

    /**
     * ARRAY JOIN: each row repeated once per element of its arrays (taken in step; the longest decides, shorter
     * ones give defaults). An aliased array adds a column of its elements; an unaliased column is replaced by its
     * elements. Rows with empty arrays are dropped, or kept once with default elements by LEFT ARRAY JOIN.
     */
    private Source arrayJoin(Query.ArrayJoin a, QueryContext ctx, int maxBlock, boolean virtuals) {
        Source src = source(a.source(), ctx, maxBlock, virtuals);
        ExprCompiler comp = new ExprCompiler(ctx, src.columns, Map.of(), this);
        int n = a.arrays().size();
        Evaluator[] arrays = new Evaluator[n];
        int[] target = new int[n];
        List<Column> cols = new ArrayList<>(src.columns);
        List<Column> physical = new ArrayList<>(src.physical);
        for (int i = 0; i < n; i++) {
            arrays[i] = comp.compile(a.arrays().get(i));
            if (!(arrays[i].type().unwrap() instanceof dev.chdedup.stub.types.ArrayType)) {
                throw new ChException(ErrorCode.TYPE_MISMATCH, "ARRAY JOIN requires an array argument, got " + arrays[i].type().name());
            }
            DataType element = ((dev.chdedup.stub.types.ArrayType) arrays[i].type().unwrap()).element;
            Expr e = a.arrays().get(i);
            String alias = a.aliases().get(i);
            if (alias == null && e instanceof Expr.Ident) {
                target[i] = indexOf(cols, ((Expr.Ident) e).joined());
                cols.set(target[i], new Column(cols.get(target[i]).name(), element));
                int p = indexOf(physical, ((Expr.Ident) e).joined());
                if (p >= 0) {
                    physical.set(p, new Column(physical.get(p).name(), element));
                }
            } else {
                String name = alias != null ? alias : "arrayJoin(" + i + ")";
                target[i] = cols.size();
                cols.add(new Column(name, element));
            }
        }
        int width = cols.size();
        List<Object[]> out = new ArrayList<>();
        while (src.blocks.hasNext()) {
            for (Object[] row : src.blocks.next().rows()) {
                List<?>[] values = new List<?>[n];
                int longest = 0;
                for (int i = 0; i < n; i++) {
                    Object v = arrays[i].eval(row);
                    values[i] = v == null ? List.of() : (List<?>) v;
                    longest = Math.max(longest, values[i].size());
                }
                int times = longest == 0 && a.left() ? 1 : longest;
                for (int k = 0; k < times; k++) {
                    Object[] o = java.util.Arrays.copyOf(row, width);
                    for (int i = 0; i < n; i++) {
                        DataType el = cols.get(target[i]).type();
                        o[target[i]] = k < values[i].size() ? values[i].get(k) : el.defaultValue();
                    }
                    out.add(o);
                }
            }
        }
        return new Source(physical, cols, BlockStreams.chunk(cols, out, maxBlock), src.aliasColumns);
    }

    private static Object[] joined(Object[] left, Object[] right, List<Integer> rightKept) {
        Object[] row = java.util.Arrays.copyOf(left, left.length + rightKept.size());
        for (int i = 0; i < rightKept.size(); i++) {
            row[left.length + i] = right[rightKept.get(i)];
        }
        return row;
    }

    private static int indexOf(List<Column> cols, String name) {
        for (int i = 0; i < cols.size(); i++) {
            if (cols.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private Source source(Query.From from, QueryContext ctx, int maxBlock, boolean virtuals) {
        return source(from, ctx, maxBlock, virtuals, null);
    }

    /** The rows of FROM; {@code select}, when given, is the query reading them, whose columns alone a table may read. */
    private Source source(Query.From from, QueryContext ctx, int maxBlock, boolean virtuals, Query.Select select) {
        if (from == null) {
            List<Column> one = List.of(new Column("dummy", DataTypes.UINT8));
            return new Source(one, one, List.of(new Block(one, new ArrayList<>(Collections.singletonList(new Object[] {0L})))).iterator());
        }
        if (from instanceof Query.Join j) {
            Stream onShards = headerOnly ? null : ShardJoin.pushDown(j, select, catalog, ctx, f -> f instanceof Query.TableRef t ? table(t, ctx)
                : TableFunctionRemote.handles(((Query.TableFunction) f).name())
                ? TableFunctionRemote.storage((Query.TableFunction) f, new ExprCompiler(ctx, List.of(), Map.of(), this), catalog, ctx) : null);
            if (onShards != null) {
                return new Source(onShards.columns(), onShards.columns(), onShards.blocks(), Map.of(), true);
            }
            return join(j, ctx, maxBlock);
        }
        if (from instanceof Query.ArrayJoin) {
            return arrayJoin((Query.ArrayJoin) from, ctx, maxBlock, virtuals);
        }
        if (from instanceof Query.SubqueryRef) {
            Stream s = execute(((Query.SubqueryRef) from).query(), ctx);
            return new Source(s.columns(), s.columns(), s.blocks());
        }
        if (from instanceof Query.Windowed w) {
            Stream s = dev.chdedup.stub.exec.window.WindowTransform.apply(w, execute(w.input(), ctx), ctx, this);
            return new Source(s.columns(), s.columns(), s.blocks());
        }
        if (from instanceof Query.RecursiveCte) {
            Stream s = RecursiveCte.evaluate((Query.RecursiveCte) from, this, ctx);
            return new Source(s.columns(), s.columns(), s.blocks());
        }
        if (from instanceof Query.WorkingTable) {
            Block w = RecursiveCte.working(((Query.WorkingTable) from).name());
            return new Source(w.columns(), w.columns(), List.of(new Block(w.columns(), w.rows())).iterator());
        }
        if (from instanceof Query.TableFunction) {
            Query.TableFunction tf = (Query.TableFunction) from;
            if (tf.name().equals("numbers") || tf.name().equals("numbers_mt")) {
                ExprCompiler c = new ExprCompiler(ctx, List.of(), Map.of(), this);
                long a = tf.args().isEmpty() ? 0 : constLong(c, tf.args().get(0));
                long start = tf.args().size() > 1 ? a : 0;
                long count = tf.args().size() > 1 ? constLong(c, tf.args().get(1)) : a;
                long step = tf.args().size() > 2 ? constLong(c, tf.args().get(2)) : 1;
                List<Column> cols = List.of(new Column("number", DataTypes.UINT64));
                return new Source(cols, cols, NumbersSource.blocks(start, count, step, maxBlock, cols));
            }
            if (TableFunctionRemote.handles(tf.name())) {
                TableSource remote = TableFunctionRemote.storage(tf, new ExprCompiler(ctx, List.of(), Map.of(), this), catalog, ctx);
                return read(remote, false, ctx, maxBlock, virtuals, select);
            }
            if (tf.name().equals("dictionary")) {
                return source(TableFunctions.dictionary(tf, catalog, ctx), ctx, maxBlock, virtuals);
            }
            if (tf.name().equals("file")) {
                Stream s = TableFunctionFile.source(tf, new ExprCompiler(ctx, List.of(), Map.of(), this), catalog, maxBlock);
                return new Source(s.columns(), s.columns(), s.blocks());
            }
            if (TableFunctions.handles(tf.name())) {
                Stream s = TableFunctions.source(tf, new ExprCompiler(ctx, List.of(), Map.of(), this), maxBlock);
                return new Source(s.columns(), s.columns(), s.blocks());
            }
            throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Unknown table function " + tf.name());
        }
        Query.TableRef t = (Query.TableRef) from;
        return read(table(t, ctx), t.isFinal(), ctx, maxBlock, virtuals, select);
    }

    /** The rows of table {@code ts}, FINAL or not; {@code select}, when given, is the query reading them. */
    private Source read(TableSource ts, boolean isFinal, QueryContext ctx, int maxBlock, boolean virtuals, Query.Select select) {
        TableSource onShards = headerOnly ? null : ShardFilter.pushDown(ts, select, catalog, ctx);
        ts = onShards != null ? onShards : ts;
        List<Column> cols = new ArrayList<>(ts.columns());
        if (virtuals) {
            cols.addAll(ts.virtualColumns());
        }
        Iterator<Block> blocks = isFinal ? ts.readFinal(maxBlock, virtuals)
            : ctx.settings().getBool("select_sequential_consistency") ? ts.readSequentiallyConsistent(maxBlock, virtuals)
            : ts.read(maxBlock, virtuals, select == null ? null : ColumnsUsed.of(select, ts.columns(), !ts.aliasColumns().isEmpty()),
                indexFilter(select, ts));
        return new Source(ts.starColumns(), cols, blocks, ts.aliasColumns(), onShards != null);
    }

    /** {@link #indexFilter} of a query as it was parsed (EXPLAIN's: its qualified names not resolved yet). */
    public static Expr indexFilterOfParsed(Query.Select select, TableSource ts) {
        return indexFilter(QualifiedNames.rewrite(select), ts);
    }

    /**
     * The WHERE of a query reading one table, for the table's index: null when an alias of the query (a select item or
     * WITH) has a column's name, since the WHERE's name would then be the alias, not the column.
     */
    private static Expr indexFilter(Query.Select select, TableSource ts) {
        if (select == null || select.where() == null) {
            return null;
        }
        for (Query.SelectItem it : select.items()) {
            if (it.alias() != null && ts.columns().stream().anyMatch(c -> c.name().equals(it.alias()))) {
                return null;
            }
        }
        return select.where();
    }

    /** The table a FROM names: a temporary table of the session first, for a name without a database, as in ClickHouse. */
    private TableSource table(Query.TableRef t, QueryContext ctx) {
        TableSource temporary = t.database() == null ? ctx.temporaryTables().get(t.table()) : null;
        return temporary != null ? temporary : catalog.table(t.database() != null ? t.database() : ctx.database(), t.table(), ctx);
    }

    private static java.util.function.Function<Expr.Ident, String> namesOf(List<Column> physical) {
        return i -> sourceName(physical, i);
    }

    /** A column reference named as its source names the column: {@code t2.a} where a join repeats {@code a}, else {@code a}. */
    private static String sourceName(List<Column> physical, Expr.Ident i) {
        if (i.parts().size() == 1) {
            return null;
        }
        String joined = i.joined();
        String last = i.last();
        boolean hasLast = false;
        for (Column c : physical) {
            if (c.name().equals(joined)) {
                return joined;
            }
            hasLast |= c.name().equals(last);
        }
        return hasLast ? last : null;
    }
}
