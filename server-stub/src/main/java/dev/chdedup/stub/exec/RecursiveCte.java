package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.types.DataType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The rows of {@code WITH RECURSIVE r AS (base UNION ALL recursive)}, as ClickHouse's RecursiveCTESource makes them: the
 * base rows, then each step's rows, a step being the recursive SELECTs over the rows of the step before (the working
 * table), until a step gives none. They are produced one step at a time, so a LIMIT over the CTE ends a recursion
 * that never would. A step past {@code max_recursive_cte_evaluation_depth} is TOO_DEEP_RECURSION. The columns' types
 * are those of the base widened by the recursive SELECTs' until they stop changing (1 and n + 1 make a UInt64).
 */
final class RecursiveCte {
    /** The working table of each recursive CTE being evaluated on this thread, by name: its columns and rows. */
    private static final ThreadLocal<Map<String, Block>> WORKING = ThreadLocal.withInitial(HashMap::new);
    /** How often the types are widened before the stub gives up on a fixed point. */
    private static final int MAX_TYPE_ROUNDS = 16;

    private RecursiveCte() {
    }

    /** The working table {@code name} holds now, for a FROM inside its definition. */
    static Block working(String name) {
        Block b = WORKING.get().get(name);
        if (b == null) {
            throw new ChException(ErrorCode.LOGICAL_ERROR, "Recursive CTE " + name + " is read outside its evaluation");
        }
        return b;
    }

    static SelectExecutor.Stream evaluate(Query.RecursiveCte cte, SelectExecutor executor, QueryContext ctx) {
        SelectExecutor.Stream base = executor.execute(cte.base(), ctx);
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < base.columns().size(); i++) {
            String name = cte.columns() != null && i < cte.columns().size() ? cte.columns().get(i) : base.columns().get(i).name();
            columns.add(new Column(name, base.columns().get(i).type()));
        }
        if (cte.columns() != null && cte.columns().size() != columns.size()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "CTE " + cte.name() + " has " + cte.columns().size()
                + " column names for " + columns.size() + " columns");
        }
        for (int round = 0; round < MAX_TYPE_ROUNDS; round++) {
            List<Column> recursive = step(cte, executor, ctx, new Block(columns, new ArrayList<>())).columns();
            List<Column> widened = widen(columns, recursive);
            if (widened.equals(columns)) {
                break;
            }
            columns = widened;
        }
        List<Column> header = List.copyOf(columns);
        long maxDepth = ctx.settings().getLong("max_recursive_cte_evaluation_depth");
        return new SelectExecutor.Stream(header, new Iterator<>() {
            private Block pending = null;
            private boolean baseDone = false;
            private List<Object[]> working = new ArrayList<>();
            private long depth = 0;
            private boolean done = false;

            @Override
            public boolean hasNext() {
                while (pending == null && !done) {
                    if (!baseDone) {
                        if (base.blocks().hasNext()) {
                            Block b = cast(base.blocks().next(), base.columns(), header);
                            working.addAll(b.rows());
                            pending = b.rowCount() > 0 ? b : null;
                            continue;
                        }
                        baseDone = true;
                    }
                    if (working.isEmpty()) {
                        done = true;
                        break;
                    }
                    if (++depth > maxDepth) {
                        throw new ChException(ErrorCode.TOO_DEEP_RECURSION, "Maximum recursive CTE evaluation depth (" + maxDepth
                            + ") exceeded, during evaluation of " + cte.name()
                            + ". Consider raising max_recursive_cte_evaluation_depth setting");
                    }
                    SelectExecutor.Stream s = step(cte, executor, ctx, new Block(header, working));
                    List<Object[]> rows = new ArrayList<>();
                    while (s.blocks().hasNext()) {
                        rows.addAll(cast(s.blocks().next(), s.columns(), header).rows());
                    }
                    working = rows;
                    pending = rows.isEmpty() ? null : new Block(header, rows);
                }
                return pending != null;
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Block b = pending;
                pending = null;
                return b;
            }
        });
    }

    /** The recursive SELECTs over {@code working}: their header now, their rows when read (they are read at once). */
    private static SelectExecutor.Stream step(Query.RecursiveCte cte, SelectExecutor executor, QueryContext ctx, Block working) {
        Map<String, Block> bound = WORKING.get();
        Block before = bound.put(cte.name(), working);
        try {
            SelectExecutor.Stream s = executor.execute(cte.recursive(), ctx);
            List<Object[]> rows = new ArrayList<>();
            while (s.blocks().hasNext()) {
                rows.addAll(s.blocks().next().rows());
            }
            if (s.columns().size() != working.columns().size()) {
                throw new ChException(ErrorCode.NUMBER_OF_COLUMNS_DOESNT_MATCH, "UNION ALL: different number of columns: "
                    + working.columns().size() + " and " + s.columns().size());
            }
            return new SelectExecutor.Stream(s.columns(), List.of(new Block(s.columns(), rows)).iterator());
        } finally {
            if (before == null) {
                bound.remove(cte.name());
            } else {
                bound.put(cte.name(), before);
            }
        }
    }

    private static List<Column> widen(List<Column> columns, List<Column> recursive) {
        List<Column> out = new ArrayList<>();
        for (int i = 0; i < columns.size(); i++) {
            out.add(new Column(columns.get(i).name(), TypeRules.common(List.of(columns.get(i).type(), recursive.get(i).type()))));
        }
        return out;
    }

    private static Block cast(Block b, List<Column> from, List<Column> to) {
        List<Object[]> rows = new ArrayList<>(b.rowCount());
        for (Object[] r : b.rows()) {
            Object[] o = new Object[r.length];
            for (int i = 0; i < r.length; i++) {
                DataType f = from.get(i).type();
                DataType t = to.get(i).type();
                o[i] = r[i] == null || f.equals(t) ? r[i] : TypeRules.stripNullable(t).convert(r[i], f);
            }
            rows.add(o);
        }
        return new Block(to, rows);
    }
}
