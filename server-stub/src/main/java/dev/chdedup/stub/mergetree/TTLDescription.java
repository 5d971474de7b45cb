package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.NullableType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A MergeTree table's TTL, as ClickHouse's TTLDescription: the table's DELETE rules (a row whose TTL expression is past,
 * and that the rule's WHERE accepts, goes) and the columns' TTLs (a value whose TTL is past becomes its type's
 * default). ClickHouse applies them when it writes a part (an INSERT stores no expired row), on merges and by
 * MATERIALIZE TTL; the stub does the same, taking "now" when a part is written. Rules that move, recompress or group
 * rows need storage the stub does not have: they are kept in the definition and do nothing.
 */
public final class TTLDescription {
    public static final TTLDescription NONE = new TTLDescription(List.of(), new Evaluator[0], new DataType[0]);

    private record Rule(Evaluator ttl, Evaluator where) {
    }

    private final List<Rule> rows;
    /** Per stored column, its TTL, or null. */
    private final Evaluator[] columns;
    /** The stored columns' types, whose defaults replace expired values. */
    private final DataType[] types;

    private TTLDescription(List<Rule> rows, Evaluator[] columns, DataType[] types) {
        this.rows = rows;
        this.columns = columns;
        this.types = types;
    }

    /** The TTL of a definition's clauses ({@code TTL}, {@code TTL COLUMN name}) over its stored columns. */
    static TTLDescription of(Map<String, String> clauses, List<TableColumn> stored) {
        List<Column> header = new ArrayList<>();
        for (TableColumn c : stored) {
            header.add(new Column(c.name(), c.type()));
        }
        QueryContext ctx = new QueryContext("default", "default", "", Settings.DEFAULTS);
        List<Rule> rules = new ArrayList<>();
        String table = clauses.get("TTL");
        if (table != null) {
            for (Statement.TtlElement e : Parser.ttl(table)) {
                if (e.action().equals("DELETE")) {
                    rules.add(new Rule(compile(ctx, header, e.expr()), e.where() == null ? null : compile(ctx, header, e.where())));
                }
            }
        }
        Evaluator[] columns = new Evaluator[stored.size()];
        boolean any = false;
        for (int i = 0; i < stored.size(); i++) {
            String ttl = clauses.get(Statement.COLUMN_TTL + stored.get(i).name());
            if (ttl != null) {
                columns[i] = compile(ctx, header, new Parser(ttl).standaloneExpr());
                any = true;
            }
        }
        DataType[] types = new DataType[stored.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = stored.get(i).type();
        }
        return rules.isEmpty() && !any ? NONE : new TTLDescription(List.copyOf(rules), columns, types);
    }

    private static Evaluator compile(QueryContext ctx, List<Column> header, dev.chdedup.stub.sql.Expr e) {
        return new ExprCompiler(ctx, header, Map.of(), null).compile(e);
    }

    public boolean isEmpty() {
        return this == NONE;
    }

    /**
     * A row as it is stored at {@code nowSeconds}: null when a DELETE rule removes it, a copy with the expired columns at
     * their defaults, or the row itself.
     */
    public Object[] apply(Object[] row, long nowSeconds) {
        for (Rule r : rows) {
            if (expired(r.ttl(), row, nowSeconds) && (r.where() == null || dev.chdedup.stub.types.Values.isTrue(r.where().eval(row)))) {
                return null;
            }
        }
        Object[] out = row;
        for (int i = 0; i < columns.length; i++) {
            if (columns[i] != null && expired(columns[i], row, nowSeconds)) {
                if (out == row) {
                    out = row.clone();
                }
                out[i] = types[i].defaultValue();
            }
        }
        return out;
    }

    /** The rows that stay of {@code rows} at {@code nowSeconds} ({@link #apply}). */
    public List<Object[]> apply(List<Object[]> rows, long nowSeconds) {
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Object[] r : rows) {
            Object[] kept = apply(r, nowSeconds);
            if (kept != null) {
                out.add(kept);
            }
        }
        return out;
    }

    /** Whether the TTL expression's value (a date or time, as seconds since the epoch) is at or before now. */
    private static boolean expired(Evaluator ttl, Object[] row, long nowSeconds) {
        Object v = ttl.eval(row);
        if (v == null) {
            return false;
        }
        DataType t = ttl.type();
        if (t instanceof NullableType) {
            t = ((NullableType) t).inner;
        }
        long seconds;
        if (t instanceof DateType) {
            seconds = ((Number) v).longValue() * 86_400L;
        } else if (t instanceof DateTime64Type) {
            seconds = Math.floorDiv(((Number) v).longValue(), pow10(((DateTime64Type) t).precision));
        } else {
            seconds = ((Number) v).longValue();
        }
        return seconds <= nowSeconds;
    }

    private static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }
}
