package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import java.util.ArrayList;
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
        Map<List<Object>, Aggregates.State[]> groups = new LinkedHashMap<>();
        while (in.hasNext()) {
            for (Object[] r : in.next().rows()) {
                List<Object> k = new ArrayList<>(keys.size());
                for (Evaluator e : keys) {
                    k.add(e.eval(r));
                }
                Aggregates.State[] st = groups.get(k);
                if (st == null) {
                    st = new Aggregates.State[aggs.size()];
                    for (int i = 0; i < st.length; i++) {
                        st[i] = aggs.get(i).factory().get();
                    }
                    groups.put(k, st);
                }
                for (int i = 0; i < st.length; i++) {
                    List<Evaluator> a = args.get(i);
                    Object[] av = new Object[a.size()];
                    for (int j = 0; j < av.length; j++) {
                        av[j] = a.get(j).eval(r);
                    }
                    st[i].add(av);
                }
            }
        }
        if (groups.isEmpty() && noKeys) {
            Aggregates.State[] st = new Aggregates.State[aggs.size()];
            for (int i = 0; i < st.length; i++) {
                st[i] = aggs.get(i).factory().get();
            }
            groups.put(List.of(), st);
        }
        List<Object[]> out = new ArrayList<>(groups.size());
        for (Map.Entry<List<Object>, Aggregates.State[]> g : groups.entrySet()) {
            Object[] row = new Object[keys.size() + aggs.size()];
            for (int i = 0; i < keys.size(); i++) {
                row[i] = g.getKey().get(i);
            }
            for (int i = 0; i < aggs.size(); i++) {
                row[keys.size() + i] = g.getValue()[i].result();
            }
            out.add(row);
        }
        return out;
    }
}
