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
        int[] groupOf = new int[0];
        while (in.hasNext()) {
            Block b = in.next();
            int n = b.rowCount();
            if (b.data() == null) {
                List<Object[]> rows = b.rows();
                BlockContext before = BlockContext.enter(rows);
                BlockContext block = BlockContext.current();
                for (int row = 0; row < rows.size(); row++) {
                    Object[] r = rows.get(row);
                    block.row = row;
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
                BlockContext.restore(before);
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
            if (n == 0) {
                continue;
            }
            // each row's group first, then each aggregate over the whole block (as ClickHouse's addBatch), so the
            // states of one aggregate are fed by one loop of their own class
            if (groupOf.length < n) {
                groupOf = new int[n];
            }
            ColumnVector longKeys = groups.longKeyed() && width == 1 && keyColumns[0] instanceof ColumnVector ? (ColumnVector) keyColumns[0] : null;
            if (width == 0) {
                Arrays.fill(groupOf, 0, n, groups.indexOf(List.of()));
            } else if (longKeys != null) {
                for (int r = 0; r < n; r++) {
                    groupOf[r] = groups.indexOf(longKeys.getLong(r));
                }
            } else if (width == 1) {
                for (int r = 0; r < n; r++) {
                    groupOf[r] = groups.indexOf(keyColumns[0].get(r));
                }
            } else {
                for (int r = 0; r < n; r++) {
                    Object[] parts = new Object[width];
                    for (int c = 0; c < width; c++) {
                        parts[c] = keyColumns[c].get(r);
                    }
                    groupOf[r] = groups.indexOf(Arrays.asList(parts));
                }
            }
            for (int i = 0; i < argColumns.length; i++) {
                Aggregates.State[] byGroup = groups.byAggregate[i];
                byGroup[groupOf[0]].addBatch(byGroup, groupOf, argColumns[i], n);
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
        /** Each aggregate's states by group number: what {@link Aggregates.State#addBatch} feeds. */
        final Aggregates.State[][] byAggregate;

        Groups(List<Aggregates.Aggregate> aggs, boolean longKeyed) {
            this.aggs = aggs;
            this.byLong = longKeyed ? new LongGroupIndex() : null;
            this.byAggregate = new Aggregates.State[aggs.size()][0];
        }

        boolean longKeyed() {
            return byLong != null;
        }

        int size() {
            return keys.size();
        }

        Aggregates.State[] of(Object key) {
            return states.get(indexOf(key));
        }

        /** The number of {@code key}'s group, created if new. */
        int indexOf(long key) {
            int g = byLong.find(key);
            if (g < 0) {
                g = create(key);
                byLong.put(key, g);
            }
            return g;
        }

        int indexOf(Object key) {
            if (byLong != null && key instanceof Long) {
                return indexOf(((Long) key).longValue());
            }
            Integer g = byKey.get(key);
            if (g == null) {
                g = create(key);
                byKey.put(key, g);
            }
            return g;
        }

        private int create(Object key) {
            Aggregates.State[] st = new Aggregates.State[aggs.size()];
            int g = keys.size();
            for (int i = 0; i < st.length; i++) {
                st[i] = aggs.get(i).factory().get();
                if (g == byAggregate[i].length) {
                    byAggregate[i] = Arrays.copyOf(byAggregate[i], Math.max(16, g * 2));
                }
                byAggregate[i][g] = st[i];
            }
            keys.add(key);
            states.add(st);
            return g;
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
