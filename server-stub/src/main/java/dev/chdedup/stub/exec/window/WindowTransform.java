package dev.chdedup.stub.exec.window;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.exec.SortBlock;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.sql.ColumnNames;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.sql.WindowDefinition;
import dev.chdedup.stub.types.DataType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes the window functions of a {@link Query.Windowed} over its input's rows, as ClickHouse's WindowTransform
 * does for each window: the functions grouped by their window ({@link WindowDescription}), the windows taken in
 * the order of ClickHouse's sortWindowDescriptions (by their keys' names, longest sort first), the rows sorted (stably) by each window's PARTITION BY
 * (ascending, NULLs last) and ORDER BY keys, then each partition's rows given their peer groups and frames and each
 * function's value. The rows come out in the order of the last window's sort.
 */
public final class WindowTransform {
    private WindowTransform() {
    }

    /** The functions over one window, as ClickHouse's WindowDescription: its keys, frame and functions (their columns). */
    private record WindowDescription(List<Evaluator> partition, List<Evaluator> order, List<Query.OrderItem> orderItems,
                                     WindowFrame frame, List<WindowFunctions.Function> functions, List<Integer> columns,
                                     List<SortKey> sortDescription) {
    }

    /** One key of a window's full sort description, as the engine's SortColumnDescription: name, direction, NULLs' direction. */
    private record SortKey(String name, int direction, int nullsDirection) {
    }

    /**
     * ClickHouse's sortWindowDescriptions: by the sort descriptions' keys in turn (name, then direction, then the NULLs'
     * direction), a longer description before its prefixes, so that windows sharing a sort come together.
     */
    private static int compareDescriptions(WindowDescription a, WindowDescription b) {
        List<SortKey> l = a.sortDescription();
        List<SortKey> r = b.sortDescription();
        for (int i = 0; i < Math.min(l.size(), r.size()); i++) {
            int c = l.get(i).name().compareTo(r.get(i).name());
            c = c != 0 ? c : Integer.compare(l.get(i).direction(), r.get(i).direction());
            c = c != 0 ? c : Integer.compare(l.get(i).nullsDirection(), r.get(i).nullsDirection());
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(r.size(), l.size());
    }

    /** The rows of {@code input} (the window step's input query's result) with the window functions' columns after them. */
    public static SelectExecutor.Stream apply(Query.Windowed w, SelectExecutor.Stream input, QueryContext ctx, SelectExecutor executor) {
        List<Column> header = new ArrayList<>();
        for (int i = 0; i < input.columns().size(); i++) {
            Column c = input.columns().get(i);
            header.add(new Column(c.name().startsWith("\u0000x") ? c.name() : WindowStep.INPUT + i, c.type()));
        }
        ExprCompiler comp = new ExprCompiler(ctx, header, Map.of(), executor);
        Map<WindowDefinition, List<Integer>> byWindow = new LinkedHashMap<>();
        for (int i = 0; i < w.functions().size(); i++) {
            byWindow.computeIfAbsent(w.functions().get(i).window(), k -> new ArrayList<>()).add(i);
        }
        List<WindowDescription> windows = new ArrayList<>();
        DataType[] types = new DataType[w.functions().size()];
        for (Map.Entry<WindowDefinition, List<Integer>> e : byWindow.entrySet()) {
            WindowDefinition d = e.getKey();
            List<Evaluator> partition = new ArrayList<>();
            for (Expr p : d.partitionBy()) {
                partition.add(comp.compile(p));
            }
            List<Evaluator> order = new ArrayList<>();
            for (Query.OrderItem o : d.orderBy()) {
                order.add(comp.compile(o.expr()));
            }
            WindowFrame frame = new WindowFrame(d.frame());
            List<WindowFunctions.Function> functions = new ArrayList<>();
            for (int i : e.getValue()) {
                Expr.WindowFunction f = w.functions().get(i);
                WindowFunctions.Function fn = WindowFunctions.create(f.function(), comp, frame, !order.isEmpty(), ColumnNames.of(f));
                functions.add(fn);
                types[i] = fn.type;
            }
            frame.prepare(comp, order, !d.orderBy().isEmpty() && d.orderBy().get(0).desc());
            List<SortKey> sort = new ArrayList<>();
            for (Expr p : d.partitionBy()) {
                sort.add(new SortKey(keyName(w, p), 1, 1));
            }
            for (Query.OrderItem o : d.orderBy()) {
                int direction = o.desc() ? -1 : 1;
                sort.add(new SortKey(keyName(w, o.expr()), direction, Boolean.TRUE.equals(o.nullsFirst()) ? -direction : direction));
            }
            windows.add(new WindowDescription(partition, order, d.orderBy(), frame, functions, e.getValue(), sort));
        }
        windows.sort(WindowTransform::compareDescriptions);
        int width = header.size();
        List<Object[]> rows = new ArrayList<>();
        while (input.blocks().hasNext()) {
            for (Object[] r : input.blocks().next().rows()) {
                rows.add(java.util.Arrays.copyOf(r, width + types.length));
            }
        }
        for (WindowDescription d : windows) {
            compute(d, rows, width);
        }
        List<Column> out = new ArrayList<>(header);
        for (int i = 0; i < types.length; i++) {
            out.add(new Column(WindowStep.RESULT + i, types[i]));
        }
        List<Block> blocks = rows.isEmpty() ? List.of() : List.of(new Block(out, rows));
        return new SelectExecutor.Stream(out, blocks.iterator());
    }

    private static String keyName(Query.Windowed w, Expr key) {
        String column = key instanceof Expr.Ident i ? i.last() : "";
        return w.keyNames().getOrDefault(column, ColumnNames.of(key));
    }

    private static void compute(WindowDescription d, List<Object[]> rows, int width) {
        int n = rows.size();
        List<DataType> partitionTypes = d.partition().stream().map(e -> TypeRules.stripNullable(e.type())).toList();
        List<DataType> orderTypes = d.order().stream().map(e -> TypeRules.stripNullable(e.type())).toList();
        Object[][] keys = new Object[n][];
        for (int r = 0; r < n; r++) {
            Object[] k = new Object[partitionTypes.size() + orderTypes.size()];
            for (int i = 0; i < partitionTypes.size(); i++) {
                k[i] = d.partition().get(i).eval(rows.get(r));
            }
            for (int i = 0; i < orderTypes.size(); i++) {
                k[partitionTypes.size() + i] = d.order().get(i).eval(rows.get(r));
            }
            keys[r] = k;
        }
        Integer[] perm = new Integer[n];
        for (int i = 0; i < n; i++) {
            perm[i] = i;
        }
        int parts = partitionTypes.size();
        java.util.Arrays.sort(perm, (a, b) -> {
            int c = compareKeys(keys[a], keys[b], partitionTypes, 0, parts, null);
            return c != 0 ? c : compareKeys(keys[a], keys[b], orderTypes, parts, orderTypes.size(), d.orderItems());
        });
        List<Object[]> sorted = new ArrayList<>(n);
        Object[][] sortedKeys = new Object[n][];
        for (int i = 0; i < n; i++) {
            sorted.add(rows.get(perm[i]));
            sortedKeys[i] = keys[perm[i]];
        }
        rows.clear();
        rows.addAll(sorted);
        for (WindowFunctions.Function fn : d.functions()) {
            fn.startPass(rows);
        }
        boolean frames = d.functions().stream().anyMatch(WindowFunctions.Function::readsFrame);
        WindowFunctions.Partition p = new WindowFunctions.Partition();
        p.rows = rows;
        p.peerStart = new int[n];
        p.peerEnd = new int[n];
        p.frameStart = new int[n];
        p.frameEnd = new int[n];
        int start = 0;
        while (start < n) {
            int end = start + 1;
            while (end < n && compareKeys(sortedKeys[start], sortedKeys[end], partitionTypes, 0, parts, null) == 0) {
                end++;
            }
            for (int r = start; r < end; ) {
                int e = r + 1;
                while (e < end && compareKeys(sortedKeys[r], sortedKeys[e], orderTypes, parts, orderTypes.size(), d.orderItems()) == 0) {
                    e++;
                }
                for (int k = r; k < e; k++) {
                    p.peerStart[k] = r;
                    p.peerEnd[k] = e;
                }
                r = e;
            }
            p.start = start;
            p.end = end;
            if (frames) {
                d.frame().frames(rows, start, end, p.peerStart, p.peerEnd, p.frameStart, p.frameEnd);
            }
            for (int f = 0; f < d.functions().size(); f++) {
                WindowFunctions.Function fn = d.functions().get(f);
                int column = width + d.columns().get(f);
                fn.startPartition(p);
                for (int r = start; r < end; r++) {
                    rows.get(r)[column] = fn.value(p, r);
                }
            }
            start = end;
        }
    }

    /** Keys {@code [from, from + count)} of two rows: ascending with NULLs last, or as the ORDER BY items say. */
    private static int compareKeys(Object[] a, Object[] b, List<DataType> types, int from, int count, List<Query.OrderItem> items) {
        for (int i = 0; i < count; i++) {
            Query.OrderItem it = items == null ? null : items.get(i);
            int c = SortBlock.compare(types.get(i), a[from + i], b[from + i], it != null && it.desc(),
                it != null && Boolean.TRUE.equals(it.nullsFirst()));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
