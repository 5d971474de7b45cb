package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.format.RowReader;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.NothingType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Turns an input row (target columns only) into a full table row: defaults, NULL as default, MATERIALIZED. */
public final class RowCompleter {
    private final List<TableColumn> all;
    private final int[] targets;
    private final Evaluator[] defaults;
    private final boolean trivial;
    /** The stored columns come first in {@link #all}; EPHEMERAL ones after them are dropped from a completed row. */
    private final int stored;

    public RowCompleter(List<TableColumn> all, List<Integer> targets, QueryContext ctx) {
        this.all = all;
        int width = all.size();
        while (width > 0 && all.get(width - 1).isEphemeral()) {
            width--;
        }
        this.stored = width;
        this.targets = targets.stream().mapToInt(Integer::intValue).toArray();
        this.defaults = new Evaluator[all.size()];
        List<Column> header = new ArrayList<>();
        for (TableColumn c : all) {
            header.add(new Column(c.name(), c.type()));
        }
        boolean anyDefaults = false;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).hasDefault()) {
                Evaluator e = new ExprCompiler(ctx, header, Map.of(), null).compile(all.get(i).defaultExpr());
                defaults[i] = e;
                anyDefaults = true;
            }
        }
        this.trivial = !anyDefaults && stored == all.size() && targets.size() == all.size() && isIdentity(this.targets);
    }

    private static boolean isIdentity(int[] t) {
        for (int i = 0; i < t.length; i++) {
            if (t[i] != i) {
                return false;
            }
        }
        return true;
    }

    /** Whether a row as read is the table's row: every column sent in order, no defaults to compute. */
    public boolean trivial() {
        return trivial;
    }

    public Object[] complete(Object[] in) {
        if (trivial) {
            boolean clean = true;
            for (int i = 0; i < in.length; i++) {
                if (in[i] == RowReader.DEFAULT || in[i] == RowReader.DEFAULT_OR_ZERO || in[i] == null && !all.get(i).type().isNullable()) {
                    clean = false;
                    break;
                }
            }
            if (clean) {
                return in;
            }
        }
        Object[] row = new Object[all.size()];
        boolean[] given = new boolean[all.size()];
        for (int k = 0; k < targets.length; k++) {
            Object v = in[k];
            int i = targets[k];
            if (v == RowReader.DEFAULT_OR_ZERO && defaults[i] == null && all.get(i).type() instanceof EnumType) {
                row[i] = 0L;
                given[i] = true;
                continue;
            }
            if (v == RowReader.DEFAULT || v == RowReader.DEFAULT_OR_ZERO || v == null && !all.get(i).type().isNullable()) {
                continue;
            }
            row[i] = v;
            given[i] = true;
        }
        for (int i = stored; i < row.length; i++) { // EPHEMERAL columns first: the stored ones' defaults read them
            if (!given[i]) {
                row[i] = defaultFor(i, row);
            }
        }
        for (int i = 0; i < stored; i++) {
            if (!given[i]) {
                row[i] = defaultFor(i, row);
            }
        }
        return stored == row.length ? row : Arrays.copyOf(row, stored);
    }

    public Object[] fromSelect(Object[] in, List<Column> from) {
        Object[] conv = new Object[in.length];
        for (int k = 0; k < in.length; k++) {
            DataType to = all.get(targets[k]).type();
            DataType f = from.get(k).type();
            Object v = in[k];
            conv[k] = v == null || f.equals(to) || f.unwrap() instanceof NothingType ? v : to.convert(v, f);
        }
        return complete(conv);
    }

    private Object defaultFor(int i, Object[] row) {
        Evaluator d = defaults[i];
        DataType t = all.get(i).type();
        if (d == null) {
            return t.defaultValue();
        }
        Object v = d.eval(row);
        if (v == null) {
            return t.defaultValue();
        }
        return d.type().equals(t) ? v : t.convert(v, d.type());
    }
}
