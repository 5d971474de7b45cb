package dev.chdedup.stub.sql;

import dev.chdedup.stub.types.StringType;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Writes an expression as ClickHouse's AST formatter does in a table's definition (SHOW CREATE, DESCRIBE, system.columns):
 * operators with spaces around them ({@code a * 2}), an operator inside another in parentheses ({@code (a * 2) + 1},
 * {@code (a = 1) AND (NOT b)}), AND/OR chains flat, tuples {@code (a, b)}, arrays {@code [1, 2]}, {@code a[1]},
 * {@code t.2}, {@code a IS NULL}, {@code CAST(a, 'T')} for both cast forms, {@code toIntervalDay(1)} for an INTERVAL,
 * strings quoted with backslash escapes, a whole Float64 with a trailing point ({@code 1500.}). A subquery cannot be
 * written here: {@link #format} throws and the caller keeps the statement's own text.
 */
public final class ExpressionFormatter {
    private static final Map<String, String> BINARY = Map.ofEntries(Map.entry("plus", " + "), Map.entry("minus", " - "),
        Map.entry("multiply", " * "), Map.entry("divide", " / "), Map.entry("modulo", " % "), Map.entry("equals", " = "),
        Map.entry("notEquals", " != "), Map.entry("less", " < "), Map.entry("greater", " > "), Map.entry("lessOrEquals", " <= "),
        Map.entry("greaterOrEquals", " >= "), Map.entry("like", " LIKE "), Map.entry("notLike", " NOT LIKE "),
        Map.entry("ilike", " ILIKE "), Map.entry("notILike", " NOT ILIKE "), Map.entry("in", " IN "), Map.entry("notIn", " NOT IN "),
        Map.entry("globalIn", " GLOBAL IN "), Map.entry("globalNotIn", " GLOBAL NOT IN "));

    private ExpressionFormatter() {
    }

    /** The parsed expression's text as the engine writes it. */
    public static String format(String sql) {
        return format(new Parser(sql).standaloneExpr());
    }

    /**
     * A TTL clause as the engine writes it (SHOW CREATE, a replicated table's metadata): each rule formatted, DELETE
     * left out, WHERE kept; the clause's own text where it cannot be read.
     */
    public static String formatTtl(String sql) {
        try {
            StringBuilder sb = new StringBuilder();
            for (Statement.TtlElement e : Parser.ttl(sql)) {
                sb.append(sb.length() > 0 ? ", " : "").append(format(e.expr()));
                if (!e.action().equals("DELETE")) {
                    sb.append(' ').append(e.action());
                }
                if (e.where() != null) {
                    sb.append(" WHERE ").append(format(e.where()));
                }
            }
            return sb.toString();
        } catch (RuntimeException e) {
            return sql;
        }
    }

    public static String format(Expr e) {
        StringBuilder sb = new StringBuilder();
        write(e, sb);
        return sb.toString();
    }

    private static boolean isOperator(Expr e) {
        if (!(e instanceof Expr.Call)) {
            return false;
        }
        Expr.Call c = (Expr.Call) e;
        String n = c.name();
        return BINARY.containsKey(n) && c.args().size() == 2 || (n.equals("and") || n.equals("or")) && c.args().size() >= 2
            || (n.equals("not") || n.equals("negate") || n.equals("isNull") || n.equals("isNotNull")) && c.args().size() == 1;
    }

    /** An operator's operand: in parentheses when it is an operator itself. */
    private static void operand(Expr e, StringBuilder sb) {
        if (isOperator(e)) {
            sb.append('(');
            write(e, sb);
            sb.append(')');
        } else {
            write(e, sb);
        }
    }

    private static void write(Expr e, StringBuilder sb) {
        if (e instanceof Expr.Literal) {
            literal(((Expr.Literal) e).value(), sb);
        } else if (e instanceof Expr.Ident) {
            List<String> parts = ((Expr.Ident) e).parts();
            for (int i = 0; i < parts.size(); i++) {
                sb.append(i > 0 ? "." : "").append(identifier(parts.get(i)));
            }
        } else if (e instanceof Expr.Cast) {
            Expr.Cast c = (Expr.Cast) e;
            sb.append("CAST(");
            write(c.expr(), sb);
            sb.append(", ");
            StringType.quote(c.typeName(), sb);
            sb.append(')');
        } else if (e instanceof Expr.Interval) {
            Expr.Interval i = (Expr.Interval) e;
            String unit = i.unit().toLowerCase(java.util.Locale.ROOT);
            sb.append("toInterval").append(Character.toUpperCase(unit.charAt(0))).append(unit.substring(1)).append('(');
            write(i.amount(), sb);
            sb.append(')');
        } else if (e instanceof Expr.Lambda) {
            Expr.Lambda l = (Expr.Lambda) e;
            sb.append(l.params().size() == 1 ? l.params().get(0) : "(" + String.join(", ", l.params()) + ")").append(" -> ");
            write(l.body(), sb);
        } else if (e instanceof Expr.Call) {
            call((Expr.Call) e, sb);
        } else {
            throw new IllegalArgumentException("not formatted: " + e.getClass().getSimpleName());
        }
    }

    private static void call(Expr.Call c, StringBuilder sb) {
        String n = c.name();
        List<Expr> a = c.args();
        if (isOperator(c)) {
            switch (n) {
                case "and", "or" -> {
                    List<Expr> chain = new java.util.ArrayList<>();
                    flatten(c, n, chain);
                    for (int i = 0; i < chain.size(); i++) {
                        sb.append(i > 0 ? (n.equals("and") ? " AND " : " OR ") : "");
                        operand(chain.get(i), sb);
                    }
                }
                case "not" -> {
                    sb.append("NOT ");
                    operand(a.get(0), sb);
                }
                case "negate" -> {
                    sb.append('-');
                    operand(a.get(0), sb);
                }
                case "isNull", "isNotNull" -> {
                    operand(a.get(0), sb);
                    sb.append(n.equals("isNull") ? " IS NULL" : " IS NOT NULL");
                }
                default -> {
                    operand(a.get(0), sb);
                    sb.append(BINARY.get(n));
                    operand(a.get(1), sb);
                }
            }
            return;
        }
        if (n.equals("tuple") && a.size() >= 2 && c.params() == 0) {
            sb.append('(');
            list(a, sb);
            sb.append(')');
        } else if (n.equals("array") && c.params() == 0) {
            sb.append('[');
            list(a, sb);
            sb.append(']');
        } else if (n.equals("arrayElement") && a.size() == 2) {
            operand(a.get(0), sb);
            sb.append('[');
            write(a.get(1), sb);
            sb.append(']');
        } else if (n.equals("tupleElement") && a.size() == 2 && a.get(1) instanceof Expr.Literal
            && ((Expr.Literal) a.get(1)).value() instanceof Long) {
            operand(a.get(0), sb);
            sb.append('.').append(((Expr.Literal) a.get(1)).value());
        } else {
            sb.append(n);
            int args = a.size() - c.params();
            if (c.params() > 0) {
                sb.append('(');
                list(a.subList(args, a.size()), sb);
                sb.append(')');
            }
            sb.append('(').append(c.distinct() ? "DISTINCT " : "");
            list(a.subList(0, args), sb);
            sb.append(')');
        }
    }

    /** The operands of a chain of one logical operator ({@code a AND b AND c} however it was nested), in order. */
    private static void flatten(Expr e, String op, List<Expr> out) {
        if (e instanceof Expr.Call && ((Expr.Call) e).name().equals(op) && ((Expr.Call) e).args().size() >= 2) {
            for (Expr a : ((Expr.Call) e).args()) {
                flatten(a, op, out);
            }
        } else {
            out.add(e);
        }
    }

    private static void list(List<Expr> items, StringBuilder sb) {
        for (int i = 0; i < items.size(); i++) {
            sb.append(i > 0 ? ", " : "");
            write(items.get(i), sb);
        }
    }

    private static void literal(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("NULL");
        } else if (v instanceof String) {
            StringType.quote((String) v, sb);
        } else if (v instanceof byte[]) {
            StringType.quote(new String((byte[]) v, java.nio.charset.StandardCharsets.UTF_8), sb);
        } else if (v instanceof Double) {
            double d = (Double) v;
            if (Double.isNaN(d)) {
                sb.append("nan");
            } else if (Double.isInfinite(d)) {
                sb.append(d > 0 ? "inf" : "-inf");
            } else if (d == Math.rint(d) && Math.abs(d) < 1e21) {
                sb.append(new BigDecimal(d).toPlainString()).append('.');
            } else {
                BigDecimal b = new BigDecimal(Double.toString(d)).stripTrailingZeros();
                if (Math.abs(d) < 1e-6 || Math.abs(d) >= 1e21) { // as the engine writes them: 1e-7, 1.5e-7
                    int exp = b.precision() - b.scale() - 1;
                    sb.append(b.movePointLeft(exp).toPlainString()).append('e').append(exp);
                } else {
                    sb.append(b.toPlainString());
                }
            }
        } else if (v instanceof Boolean) {
            sb.append((Boolean) v ? "true" : "false");
        } else {
            sb.append(v);
        }
    }

    private static final java.util.regex.Pattern PLAIN_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** A name as a back-quoted identifier that reads back as the same name. */
    public static String backQuote(String name) {
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }

    /** A name as ClickHouse's formatter writes an identifier: bare when it is a plain word, else back-quoted. */
    public static String backQuoteIfNeed(String name) {
        return PLAIN_NAME.matcher(name).matches() ? name : backQuote(name);
    }

    private static String identifier(String name) {
        return backQuoteIfNeed(name);
    }
}
