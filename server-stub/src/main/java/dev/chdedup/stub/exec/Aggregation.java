package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.IColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hash aggregation for GROUP BY: one row per distinct key, in first-seen order, with each aggregate's state fed
 * the rows of its group; without GROUP BY, one row even for empty input, as ClickHouse answers {@code count()}
 * over nothing.
 */
final class Aggregation {
    private Aggregation() {
    }

    static List<Object[]> aggregate(Iterator<Block> in, List<Evaluator> keys, List<List<Evaluator>> args,
                                            List<Aggregates.Aggregate> aggs, boolean noKeys) {
        // a group's key: the value itself for one key, the list of values for several, the empty list for none
        Map<Object, Aggregates.State[]> groups = new LinkedHashMap<>();
        int width = keys.size();
        while (in.hasNext()) {
            Block b = in.next();
            int n = b.rowCount();
            if (b.data() == null) {
                for (Object[] r : b.rows()) {
                    Aggregates.State[] st = group(groups, aggs, key(keys, r));
                    for (int i = 0; i < st.length; i++) {
                        List<Evaluator> a = args.get(i);
                        Object[] av = a.isEmpty() ? NO_ARGUMENTS : new Object[a.size()];
                        for (int j = 0; j < av.length; j++) {
                            av[j] = a.get(j).eval(r);
                        }
                        st[i].add(av);
                    }
                }
                continue;
            }
            // a columnar block: keys and arguments over its columns, then row by row into the states
            IColumn[] keyColumns = new IColumn[width];
            for (int k = 0; k < width; k++) {
                keyColumns[k] = keys.get(k).evalColumns(b.data(), n);
            }
            IColumn[][] argColumns = new IColumn[aggs.size()][];
            for (int i = 0; i < argColumns.length; i++) {
                argColumns[i] = new IColumn[args.get(i).size()];
                for (int j = 0; j < argColumns[i].length; j++) {
                    argColumns[i][j] = args.get(i).get(j).evalColumns(b.data(), n);
                }
            }
            Aggregates.State[] only = width == 0 && n > 0 ? group(groups, aggs, List.of()) : null;
            for (int r = 0; r < n; r++) {
                Aggregates.State[] st = only;
                if (st == null) {
                    Object k;
                    if (width == 1) {
                        k = keyColumns[0].get(r);
                    } else {
                        Object[] parts = new Object[width];
                        for (int c = 0; c < width; c++) {
                            parts[c] = keyColumns[c].get(r);
                        }
                        k = Arrays.asList(parts);
                    }
                    st = group(groups, aggs, k);
                }
                for (int i = 0; i < st.length; i++) {
                    IColumn[] a = argColumns[i];
                    Object[] av = a.length == 0 ? NO_ARGUMENTS : new Object[a.length];
                    for (int j = 0; j < av.length; j++) {
                        av[j] = a[j].get(r);
                    }
                    st[i].add(av);
                }
            }
        }
        if (groups.isEmpty() && noKeys) {
            group(groups, aggs, List.of());
        }
        List<Object[]> out = new ArrayList<>(groups.size());
        for (Map.Entry<Object, Aggregates.State[]> g : groups.entrySet()) {
            Object[] row = new Object[width + aggs.size()];
            if (width == 1) {
                row[0] = g.getKey();
            } else {
                List<?> parts = (List<?>) g.getKey();
                for (int i = 0; i < width; i++) {
                    row[i] = parts.get(i);
                }
            }
            for (int i = 0; i < aggs.size(); i++) {
                row[width + i] = g.getValue()[i].result();
            }
            out.add(row);
        }
        return out;
    }

    /** The arguments of an aggregate without any (count()): shared, as no state keeps them. */
    private static final Object[] NO_ARGUMENTS = new Object[0];

    private static Object key(List<Evaluator> keys, Object[] r) {
        if (keys.size() == 1) {
            return keys.get(0).eval(r);
        }
        Object[] parts = new Object[keys.size()];
        for (int i = 0; i < parts.length; i++) {
            parts[i] = keys.get(i).eval(r);
        }
        return Arrays.asList(parts);
    }

    private static Aggregates.State[] group(Map<Object, Aggregates.State[]> groups, List<Aggregates.Aggregate> aggs, Object key) {
        Aggregates.State[] st = groups.get(key);
        if (st == null) {
            st = new Aggregates.State[aggs.size()];
            for (int i = 0; i < st.length; i++) {
                st[i] = aggs.get(i).factory().get();
            }
            groups.put(key, st);
        }
        return st;
    }
}
