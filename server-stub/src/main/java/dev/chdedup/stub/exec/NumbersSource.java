package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.types.DataTypes;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The {@code numbers(...)} table function and {@code system.numbers}: UInt64 values generated block by block. The
 * endless {@code system.numbers} read under a WHERE that bounds {@code number} (IN a tuple or an array literal, =, <, <=,
 * >, >=, joined by AND) generates only that range, as ClickHouse's ReadFromSystemNumbersStep does, so such a query ends.
 */
public final class NumbersSource {
    private NumbersSource() {
    }

    /**
     * {@code s}'s FROM as a finite {@code numbers(lo, n)} when it reads system.numbers and its WHERE bounds
     * {@code number}; null otherwise. The WHERE still filters the rows: the range only has to contain them.
     */
    static Query.From bounded(Query.Select s) {
        if (!(s.from() instanceof Query.TableRef) || s.where() == null) {
            return null;
        }
        Query.TableRef t = (Query.TableRef) s.from();
        if (!"system".equals(t.database()) || !(t.table().equals("numbers") || t.table().equals("numbers_mt"))) {
            return null;
        }
        long[] range = {0, Long.MAX_VALUE};
        if (!bound(s.where(), range)) {
            return null;
        }
        long n = Math.max(0, range[1] - range[0]);
        return new Query.TableFunction("numbers", List.of(new Expr.Literal(range[0]), new Expr.Literal(n)),
            t.alias() != null ? t.alias() : t.table());
    }

    /** Narrows {@code range} [lo, hi) by the conjuncts of {@code e} on {@code number}; true if any bounded it above. */
    private static boolean bound(Expr e, long[] range) {
        if (!(e instanceof Expr.Call)) {
            return false;
        }
        Expr.Call c = (Expr.Call) e;
        List<Expr> a = c.args();
        switch (c.name()) {
            case "and": {
                boolean any = false;
                for (Expr x : a) {
                    any |= bound(x, range);
                }
                return any;
            }
            case "in": {
                if (a.size() != 2 || !isNumber(a.get(0))) {
                    return false;
                }
                List<Expr> values = a.get(1) instanceof Expr.Call && ((Expr.Call) a.get(1)).name().equals("tuple")
                    ? ((Expr.Call) a.get(1)).args() : elements(a.get(1));
                long lo = Long.MAX_VALUE;
                long hi = 0;
                for (Expr v : values) {
                    Long x = constant(v);
                    if (x == null) {
                        return false;
                    }
                    lo = Math.min(lo, x);
                    hi = Math.max(hi, x + 1);
                }
                return narrow(range, values.isEmpty() ? 0 : lo, hi);
            }
            case "equals": case "less": case "lessOrEquals": case "greater": case "greaterOrEquals": {
                if (a.size() != 2) {
                    return false;
                }
                boolean left = isNumber(a.get(0));
                Long x = constant(left ? a.get(1) : a.get(0));
                if (x == null || !left && !isNumber(a.get(1))) {
                    return false;
                }
                String op = left ? c.name() : mirror(c.name());
                switch (op) {
                    case "equals": return narrow(range, x, x + 1);
                    case "less": return narrow(range, 0, x);
                    case "lessOrEquals": return narrow(range, 0, x + 1);
                    case "greater": narrow(range, x + 1, Long.MAX_VALUE); return false;
                    default: narrow(range, x, Long.MAX_VALUE); return false;
                }
            }
            default:
                return false;
        }
    }

    /** The set of {@code number IN x}: an array literal's elements ({@code IN ([2, 4])} as the JDBC driver sends an array), else x. */
    private static List<Expr> elements(Expr x) {
        if (x instanceof Expr.Call && ((Expr.Call) x).name().equals("array")) {
            return ((Expr.Call) x).args();
        }
        if (x instanceof Expr.Literal && ((Expr.Literal) x).value() instanceof List) {
            return ((List<?>) ((Expr.Literal) x).value()).stream().map(v -> (Expr) new Expr.Literal(v)).toList();
        }
        return List.of(x);
    }

    private static String mirror(String op) {
        switch (op) {
            case "less": return "greater";
            case "lessOrEquals": return "greaterOrEquals";
            case "greater": return "less";
            case "greaterOrEquals": return "lessOrEquals";
            default: return op;
        }
    }

    private static boolean narrow(long[] range, long lo, long hi) {
        range[0] = Math.max(range[0], lo);
        range[1] = Math.min(range[1], hi);
        return hi != Long.MAX_VALUE;
    }

    private static boolean isNumber(Expr e) {
        return e instanceof Expr.Ident && ((Expr.Ident) e).last().equals("number");
    }

    /** A non-negative integer literal below 2^62 (so x + 1 cannot overflow), else null. */
    private static Long constant(Expr e) {
        if (e instanceof Expr.Literal && ((Expr.Literal) e).value() instanceof Long) {
            long v = (Long) ((Expr.Literal) e).value();
            return v >= 0 && v < (1L << 62) ? v : null;
        }
        return null;
    }

    /** {@code count} of -1 is endless (system.numbers; the query's LIMIT ends it). */
    public static Iterator<Block> blocks(long start, long count, long step, int maxBlock, List<Column> cols) {
        return new Iterator<>() {
            long produced;

            @Override
            public boolean hasNext() {
                return count < 0 || produced < count;
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                int n = (int) (count < 0 ? maxBlock : Math.min(maxBlock, count - produced));
                long[] values = new long[n];
                for (int i = 0; i < n; i++) {
                    values[i] = start + (produced + i) * step;
                }
                produced += n;
                return Block.ofColumns(cols, new IColumn[] {ColumnVector.of(DataTypes.UINT64, values, n)}, n, null);
            }
        };
    }
}
