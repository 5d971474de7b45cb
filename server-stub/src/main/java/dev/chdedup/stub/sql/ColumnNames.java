package dev.chdedup.stub.sql;

import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.StringType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The name ClickHouse gives a result column that has no alias, as its {@code getColumnName} writes an expression: an
 * operator as the function it stands for with its arguments ({@code a + 1} is {@code plus(a, 1)}, {@code a OR b OR c}
 * is {@code or(a, b, c)}), a function under the name it was called by ({@code COUNT(*)} is {@code COUNT()}), a
 * literal in its canonical form ({@code 1.50} is {@code 1.5}, {@code 1e3} is {@code 1000.}, strings single-quoted with
 * backslash escapes), arrays and tuples in brackets, {@code CAST(a, 'T')}, {@code toIntervalDay(1)},
 * {@code lambda(tuple(x), ...)}, a scalar subquery {@code _subquery_N}. A column is named as its source names it (the
 * qualifier dropped, kept where a join repeats a name: {@code t2.a}). Checked against ClickHouse 26.7's names.
 */
public final class ColumnNames {
    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    /** TRIM, LTRIM and RTRIM in any case are keywords of the parser, named by the functions they call. */
    private static final java.util.Map<String, String> TRIMS = java.util.Map.of("trim", "trimBoth", "ltrim", "trimLeft", "rtrim", "trimRight");

    private final Function<Expr.Ident, String> columns;
    private int subqueries;

    /** {@code columns} names a column reference as its source names it (or null to keep it as written). */
    public ColumnNames(Function<Expr.Ident, String> columns) {
        this.columns = columns;
    }

    /**
     * The namer of a SELECT's result columns: its scalar subqueries are numbered after the subqueries of its FROM, as
     * the engine numbers them (the query itself is the first when it reads no table).
     */
    public static ColumnNames forSelect(Query.Select select, Function<Expr.Ident, String> columns) {
        ColumnNames n = new ColumnNames(columns);
        int inFrom = subqueries(select.from());
        n.subqueries = inFrom == 0 ? -1 : inFrom - 1;
        return n;
    }

    private static int subqueries(Query.From from) {
        if (from instanceof Query.SubqueryRef r) {
            int n = 1;
            for (Query.Select s : r.query().selects()) {
                n += subqueries(s.from());
                for (Query.SelectItem it : s.items()) {
                    n += subqueries(it.expr());
                }
            }
            return n;
        }
        if (from instanceof Query.Join j) {
            return subqueries(j.left()) + subqueries(j.right());
        }
        if (from instanceof Query.ArrayJoin a) {
            return subqueries(a.source());
        }
        return 0;
    }

    private static int subqueries(Expr e) {
        if (e instanceof Expr.Subquery) {
            return 1;
        }
        if (e instanceof Expr.Call c) {
            int n = 0;
            for (Expr a : c.args()) {
                n += subqueries(a);
            }
            return n;
        }
        if (e instanceof Expr.Cast c) {
            return subqueries(c.expr());
        }
        return 0;
    }

    /** The name of an expression that is alone (a subquery is the first one's). */
    public static String of(Expr e) {
        return new ColumnNames(i -> null).name(e);
    }

    /** The next result column's name; scalar subqueries are numbered across the calls on this object. */
    public String name(Expr e) {
        StringBuilder sb = new StringBuilder();
        append(e, sb);
        return sb.toString();
    }

    private void append(Expr e, StringBuilder sb) {
        if (e instanceof Expr.Literal l) {
            literal(l.value(), sb);
        } else if (e instanceof Expr.Ident i) {
            String n = columns.apply(i);
            sb.append(n != null ? n : i.joined());
        } else if (e instanceof Expr.Star s) {
            sb.append(s.qualifier() == null ? "*" : s.qualifier() + ".*");
        } else if (e instanceof Expr.Call c) {
            call(c, sb);
        } else if (e instanceof Expr.WindowFunction w) {
            call(w.function(), sb);
            sb.append(" OVER ");
            if (w.written().bare()) {
                sb.append(w.written().parent());
            } else {
                sb.append('(').append(w.written().text(this)).append(')');
            }
        } else if (e instanceof Expr.Cast c) {
            sb.append("CAST(");
            append(c.expr(), sb);
            sb.append(", ");
            quoted(c.typeName(), sb);
            sb.append(')');
        } else if (e instanceof Expr.Subquery) {
            // the engine counts the query itself first
            sb.append("_subquery_").append(2 + subqueries++);
        } else if (e instanceof Expr.Lambda l) {
            sb.append("lambda(tuple(").append(String.join(", ", l.params())).append("), ");
            append(l.body(), sb);
            sb.append(')');
        } else if (e instanceof Expr.Interval i) {
            sb.append("toInterval").append(i.unit().substring(0, 1).toUpperCase(Locale.ROOT)).append(i.unit().substring(1)).append('(');
            append(i.amount(), sb);
            sb.append(')');
        } else {
            throw new IllegalStateException("no column name for " + e);
        }
    }

    private void call(Expr.Call c, StringBuilder sb) {
        List<Expr> args = c.args();
        if (c.name().equals("array") && c.params() == 0 && !c.distinct()) {
            list(args, '[', ']', sb);
            return;
        }
        if (c.name().equals("tuple") && c.params() == 0 && !c.distinct()) {
            list(args, '(', ')', sb);
            return;
        }
        if (c.name().equals("or") || c.name().equals("and") || c.name().equals("concat")) {
            // a chain of one operator is one call with every operand (the parser nests them two by two)
            args = ExplainAst.flatten(c, new ArrayList<>());
        }
        sb.append(TRIMS.getOrDefault(c.name().toLowerCase(Locale.ROOT), c.name()));
        if (c.distinct()) {
            sb.append("Distinct");
        }
        if (c.params() > 0) {
            list(args.subList(args.size() - c.params(), args.size()), '(', ')', sb);
            args = args.subList(0, args.size() - c.params());
        }
        list(args, '(', ')', sb);
    }

    private void list(List<Expr> items, char open, char close, StringBuilder sb) {
        sb.append(open);
        for (int i = 0; i < items.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            append(items.get(i), sb);
        }
        sb.append(close);
    }

    private static void literal(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("NULL");
        } else if (v instanceof Boolean b) {
            sb.append(b ? "true" : "false");
        } else if (v instanceof String s) {
            // a String value holds bytes; the name is text
            quoted(ByteStrings.toText(s), sb);
        } else if (v instanceof Long) {
            sb.append(v);
        } else if (v instanceof BigInteger b && b.signum() >= 0 && b.compareTo(UINT64_MAX) <= 0) {
            sb.append(b);
        } else if (v instanceof Number n) {
            // a float, or an integer beyond 64 bits, which the engine reads as a Float64: written with a point
            int start = sb.length();
            FloatType.appendText(n.doubleValue(), sb);
            boolean integral = true;
            for (int i = start; i < sb.length(); i++) {
                char ch = sb.charAt(i);
                integral &= ch == '-' || ch >= '0' && ch <= '9';
            }
            if (integral) {
                sb.append('.');
            }
        } else {
            sb.append(v);
        }
    }

    private static void quoted(String s, StringBuilder sb) {
        StringType.quote(s, sb);
    }
}
