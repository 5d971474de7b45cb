package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Hash aggregation for GROUP BY: one row per distinct key, in first-seen order, with each aggregate's state fed
 * the rows of its group; without GROUP BY, one row even for empty input, as ClickHouse answers {@code count()}
 * over nothing. A columnar block is aggregated over its columns, as ClickHouse's {@code Aggregator} does: the keys
 * and arguments are computed for the whole block, each row finds its group (by a {@code long} in a table of its own
 * when the one key is an integer, a date or a time, as the engine's {@code key64} method), and the states read the
 * argument columns' values without boxing where they can ({@link Aggregates.State#add(IColumn[], int)}).
 */
final class Aggregation {
    private Aggregation() {
    }

    static List<Object[]> aggregate(Iterator<Block> in, List<Evaluator> keys, List<List<Evaluator>> args,
                                    List<Aggregates.Aggregate> aggs, boolean noKeys) {
        int width = keys.size();
        Groups groups = new Groups(aggs, width == 1 && DataTypes.fixedLongWidth(keys.get(0).type()) > 0);
        while (in.hasNext()) {
            Block b = in.next();
            int n = b.rowCount();
            if (b.data() == null) {
                for (Object[] r : b.rows()) {
                    Aggregates.State[] st = groups.of(key(keys, r));
                    for (int i = 0; i < st.length; i++) {
                        List<Evaluator> a = args.get(i);
                        Object[] av = a.isEmpty() ? Aggregates.NO_ARGUMENTS : new Object[a.size()];
                        for (int j = 0; j < av.length; j++) {
                            av[j] = a.get(j).eval(r);
                        }
                        st[i].add(av);
                    }
                }
                continue;
            }
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
            Aggregates.State[] only = width == 0 && n > 0 ? groups.of(List.of()) : null;
            ColumnVector longKeys = groups.longKeyed() && keyColumns[0] instanceof ColumnVector ? (ColumnVector) keyColumns[0] : null;
            for (int r = 0; r < n; r++) {
                Aggregates.State[] st;
                if (only != null) {
                    st = only;
                } else if (longKeys != null) {
                    st = groups.of(longKeys.getLong(r));
                } else if (width == 1) {
                    st = groups.of(keyColumns[0].get(r));
                } else {
                    Object[] parts = new Object[width];
                    for (int c = 0; c < width; c++) {
                        parts[c] = keyColumns[c].get(r);
                    }
                    st = groups.of(Arrays.asList(parts));
                }
                for (int i = 0; i < st.length; i++) {
                    st[i].add(argColumns[i], r);
                }
            }
        }
        if (groups.size() == 0 && noKeys) {
            groups.of(List.of());
        }
        List<Object[]> out = new ArrayList<>(groups.size());
        for (int g = 0; g < groups.size(); g++) {
            Object[] row = new Object[width + aggs.size()];
            Object key = groups.keys.get(g);
            if (width == 1) {
                row[0] = key;
            } else {
                List<?> parts = (List<?>) key;
                for (int i = 0; i < width; i++) {
                    row[i] = parts.get(i);
                }
            }
            Aggregates.State[] st = groups.states.get(g);
            for (int i = 0; i < aggs.size(); i++) {
                row[width + i] = st[i].result();
            }
            out.add(row);
        }
        return out;
    }

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

    /**
     * The groups in first-seen order: each one's key (the value for one key, the list of values for several, the
     * empty list for none) and its states. With one key held in {@code long}s, every {@code Long} key is found
     * through an open-addressing table of {@code long}s, whichever way it came, so a group is never split between
     * the two lookups.
     */
    private static final class Groups {
        final List<Aggregates.Aggregate> aggs;
        final List<Object> keys = new ArrayList<>();
        final List<Aggregates.State[]> states = new ArrayList<>();
        final Map<Object, Integer> byKey = new HashMap<>();
        final LongGroupIndex byLong;

        Groups(List<Aggregates.Aggregate> aggs, boolean longKeyed) {
            this.aggs = aggs;
            this.byLong = longKeyed ? new LongGroupIndex() : null;
        }

        boolean longKeyed() {
            return byLong != null;
        }

        int size() {
            return keys.size();
        }

        Aggregates.State[] of(long key) {
            int g = byLong.find(key);
            if (g < 0) {
                g = create(key);
                byLong.put(key, g);
            }
            return states.get(g);
        }

        Aggregates.State[] of(Object key) {
            if (byLong != null && key instanceof Long) {
                return of(((Long) key).longValue());
            }
            Integer g = byKey.get(key);
            if (g == null) {
                g = create(key);
                byKey.put(key, g);
            }
            return states.get(g);
        }

        private int create(Object key) {
            Aggregates.State[] st = new Aggregates.State[aggs.size()];
            for (int i = 0; i < st.length; i++) {
                st[i] = aggs.get(i).factory().get();
            }
            keys.add(key);
            states.add(st);
            return keys.size() - 1;
        }
    }

    /** Group numbers by a {@code long} key: open addressing with linear probing, grown at half full. */
    static final class LongGroupIndex {
        private long[] keys = new long[16];
        /** The group number plus one; 0 marks a free slot. */
        private int[] groups = new int[16];
        private int size;

        /** The group of {@code key}, or -1. */
        int find(long key) {
            int mask = keys.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                int g = groups[i];
                if (g == 0) {
                    return -1;
                }
                if (keys[i] == key) {
                    return g - 1;
                }
            }
        }

        /** Records {@code key}'s group; the key is not in the index yet. */
        void put(long key, int group) {
            if (2 * (size + 1) > keys.length) {
                grow();
            }
            insert(key, group);
            size++;
        }

        private void insert(long key, int group) {
            int mask = keys.length - 1;
            int i = slot(key, mask);
            while (groups[i] != 0) {
                i = (i + 1) & mask;
            }
            keys[i] = key;
            groups[i] = group + 1;
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldGroups = groups;
            keys = new long[oldKeys.length * 2];
            groups = new int[oldKeys.length * 2];
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldGroups[i] != 0) {
                    insert(oldKeys[i], oldGroups[i] - 1);
                }
            }
        }

        private static int slot(long key, int mask) {
            long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32)) & mask;
        }
    }
}
