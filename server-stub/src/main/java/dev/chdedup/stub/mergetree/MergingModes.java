package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * What ReplacingMergeTree, SummingMergeTree and CollapsingMergeTree do to the rows of one sorting key when parts
 * merge (and when a SELECT reads with FINAL): Replacing keeps the row with the greatest version (the last one
 * without a version column), Summing adds up the numeric columns outside the key (or the given ones) and drops a
 * row whose sums are all zero, Collapsing cancels rows of sign -1 against rows of sign 1 (keeping, per key, the
 * first cancel row and the last state row as ClickHouse's CollapsingSortedTransform does). Plain MergeTree keeps
 * every row. Mirrors ClickHouse's ReplacingSortedAlgorithm, SummingSortedAlgorithm and CollapsingSortedAlgorithm;
 * AggregatingMergeTree and VersionedCollapsingMergeTree have their own classes ({@link AggregatingSortedAlgorithm},
 * {@link VersionedCollapsingAlgorithm}).
 */
public final class MergingModes {
    /** The engines with a merging mode besides plain MergeTree. */
    public static final Set<String> ENGINES = Set.of("ReplacingMergeTree", "SummingMergeTree", "CollapsingMergeTree",
        "AggregatingMergeTree", "VersionedCollapsingMergeTree");

    private MergingModes() {
    }

    /** The mode of {@code def}'s engine; the identity for MergeTree and ReplicatedMergeTree. */
    public static MergeTreeDataMergerMutator.MergingMode of(TableDefinition def) {
        List<TableColumn> cols = def.columns();
        switch (def.engine()) {
            case "ReplacingMergeTree": {
                int ver = def.engineArgs().isEmpty() ? -1 : column(def, def.engineArgs().get(0), "version");
                return (rows, order) -> groups(rows, order, g -> List.<Object[]>of(replacing(g, ver, cols)));
            }
            case "SummingMergeTree": {
                List<Integer> sums = new ArrayList<>();
                if (def.engineArgs().isEmpty()) {
                    String key = def.clauseSql().getOrDefault("ORDER BY", def.clauseSql().getOrDefault("PRIMARY KEY", ""));
                    for (int i = 0; i < cols.size(); i++) {
                        if (isNumber(cols.get(i).type()) && !key.matches("(?s).*\\b" + java.util.regex.Pattern.quote(cols.get(i).name()) + "\\b.*")) {
                            sums.add(i);
                        }
                    }
                } else {
                    Expr a = def.engineArgs().get(0);
                    List<Expr> named = a instanceof Expr.Call && ((Expr.Call) a).name().equals("tuple") ? ((Expr.Call) a).args() : def.engineArgs();
                    for (Expr e : named) {
                        sums.add(column(def, e, "column to sum"));
                    }
                }
                return (rows, order) -> groups(rows, order, g -> summing(g, sums, cols));
            }
            case "CollapsingMergeTree": {
                if (def.engineArgs().size() != 1) {
                    throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                        "With extended storage definition syntax storage CollapsingMergeTree requires 1 parameter: name of column with sign");
                }
                int sign = column(def, def.engineArgs().get(0), "sign");
                return (rows, order) -> groups(rows, order, g -> collapsing(g, sign));
            }
            case "AggregatingMergeTree":
                return AggregatingSortedAlgorithm.mode(def);
            case "VersionedCollapsingMergeTree":
                return VersionedCollapsingAlgorithm.mode(def);
            default:
                return MergeTreeDataMergerMutator.MergingMode.KEEP_ALL;
        }
    }

    static int column(TableDefinition def, Expr e, String what) {
        if (e instanceof Expr.Ident) {
            String n = ((Expr.Ident) e).last();
            for (int i = 0; i < def.columns().size(); i++) {
                if (def.columns().get(i).name().equals(n)) {
                    return i;
                }
            }
            throw new ChException(ErrorCode.NO_SUCH_COLUMN_IN_TABLE, "The " + what + " column " + n + " of " + def.engine()
                + " is not a column of the table");
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, def.engine() + " expects the " + what + " column by name");
    }

    private static boolean isNumber(DataType t) {
        DataType u = t.unwrap();
        return u instanceof IntType || u instanceof FloatType || u instanceof DecimalType || u instanceof BigIntType;
    }

    interface GroupMerge {
        List<Object[]> apply(List<Object[]> group);
    }

    /** Hands each run of rows with an equal key (the input is in key order) to {@code merge}, streaming. */
    static Iterator<Object[]> groups(Iterator<Object[]> rows, MergeTreeDataMergerMutator.KeyOrder order, GroupMerge merge) {
        if (!order.sorted()) {
            return rows; // ORDER BY tuple(): no key to merge by
        }
        return new Iterator<>() {
            private Object[] pending = rows.hasNext() ? rows.next() : null;
            private Iterator<Object[]> out = List.<Object[]>of().iterator();

            @Override
            public boolean hasNext() {
                while (!out.hasNext() && pending != null) {
                    List<Object[]> group = new ArrayList<>();
                    Object key = order.key(pending);
                    group.add(pending);
                    pending = null;
                    while (rows.hasNext()) {
                        Object[] r = rows.next();
                        if (order.compare(key, order.key(r)) != 0) {
                            pending = r;
                            break;
                        }
                        group.add(r);
                    }
                    out = merge.apply(group).iterator();
                }
                return out.hasNext();
            }

            @Override
            public Object[] next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return out.next();
            }
        };
    }

    private static Object[] replacing(List<Object[]> g, int ver, List<TableColumn> cols) {
        if (ver < 0) {
            return g.get(g.size() - 1);
        }
        DataType t = cols.get(ver).type();
        Object[] best = g.get(0);
        for (Object[] r : g) {
            if (best[ver] == null || r[ver] != null && t.unwrap().compare(r[ver], best[ver]) >= 0) {
                best = r;
            }
        }
        return best;
    }

    private static List<Object[]> summing(List<Object[]> g, List<Integer> sums, List<TableColumn> cols) {
        Object[] out = g.get(0).clone();
        for (int i = 0; i < cols.size(); i++) {
            if (cols.get(i).type().unwrap() instanceof dev.chdedup.stub.types.AggregateFunctionType) { // merged as AggregatingMergeTree does
                dev.chdedup.stub.types.AggregateFunctionType t = (dev.chdedup.stub.types.AggregateFunctionType) cols.get(i).type().unwrap();
                for (int r = 1; r < g.size(); r++) {
                    out[i] = t.mergeStates(out[i], g.get(r)[i]);
                }
            }
        }
        boolean allZero = true;
        for (int i : sums) {
            Object acc = null;
            for (Object[] r : g) {
                acc = add(acc, r[i]);
            }
            out[i] = acc;
            if (acc != null && !isZero(acc)) {
                allZero = false;
            }
        }
        return allZero && !sums.isEmpty() ? List.of() : List.<Object[]>of(out);
    }

    private static Object add(Object a, Object b) {
        if (a == null) {
            return b;
        }
        if (b == null) {
            return a;
        }
        if (a instanceof Long) {
            return (Long) a + (Long) b; // wraps as ClickHouse's integer sums do
        }
        if (a instanceof Double) {
            return (Double) a + (Double) b;
        }
        if (a instanceof Float) {
            return (Float) a + (Float) b;
        }
        if (a instanceof BigDecimal) {
            return ((BigDecimal) a).add((BigDecimal) b);
        }
        return ((BigInteger) a).add((BigInteger) b);
    }

    private static boolean isZero(Object v) {
        if (v instanceof BigDecimal) {
            return ((BigDecimal) v).signum() == 0;
        }
        if (v instanceof BigInteger) {
            return ((BigInteger) v).signum() == 0;
        }
        return ((Number) v).doubleValue() == 0;
    }

    private static List<Object[]> collapsing(List<Object[]> g, int sign) {
        int positives = 0;
        int negatives = 0;
        Object[] firstNegative = null;
        Object[] lastPositive = null;
        for (Object[] r : g) {
            long s = r[sign] == null ? 0 : ((Number) r[sign]).longValue();
            if (s == 1) {
                positives++;
                lastPositive = r;
            } else if (s == -1) {
                negatives++;
                if (firstNegative == null) {
                    firstNegative = r;
                }
            }
        }
        Object[] last = g.get(g.size() - 1);
        boolean lastIsPositive = last[sign] != null && ((Number) last[sign]).longValue() == 1;
        if (positives == negatives && lastIsPositive) {
            return List.of(firstNegative, lastPositive);
        }
        if (positives > negatives) {
            return List.<Object[]>of(lastPositive);
        }
        if (negatives > positives) {
            return List.<Object[]>of(firstNegative);
        }
        return List.of();
    }
}
