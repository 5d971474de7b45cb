package dev.chdedup.stub.exec;

import dev.chdedup.stub.sql.ColumnNames;
import dev.chdedup.stub.sql.ExplainAst;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The text of {@code EXPLAIN SYNTAX}: a statement formatted back to SQL as ClickHouse 26.7 prints it, after
 * {@code IAST::format} (src/Parsers/IAST.cpp, ASTSelectQuery.cpp): one clause a line, a list of more than one item
 * one item a line four spaces deeper (WITH's always), a subquery in parentheses on lines of its own, operators as the
 * functions they stand for ({@code greater(a, 1)}), {@code ORDER BY a ASC}, {@code LIMIT offset, length}, a SELECT
 * without FROM reading {@code system.one}, a join with its strictness ({@code ALL INNER JOIN}), and a literal that is
 * NULL, an array or a tuple written as a {@code _CAST} to its type ({@code _CAST([1, 2], 'Array(UInt8)')}), but for
 * the tuple right of an IN. {@link #operators} writes an expression with its operators instead, as the plan's
 * descriptions do ({@code a > 1 AND b = 'x'}).
 */
public final class ExplainSyntax {
    private static final String INDENT = "    ";
    private static final Pattern BARE_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    /** Whether expressions are written with operators rather than as functions. */
    private final boolean operators;
    /**
     * The database a view's definition qualifies its tables with, as the engine stores a view's query; null outside a
     * view (then expressions and joins are written as EXPLAIN SYNTAX writes them).
     */
    private String viewDatabase;
    private final StringBuilder sb = new StringBuilder();

    private ExplainSyntax(boolean operators) {
        this.operators = operators;
    }

    /** The lines of {@code EXPLAIN SYNTAX statement}. */
    public static List<String> of(Statement st) {
        ExplainSyntax f = new ExplainSyntax(false);
        if (st instanceof Statement.SelectStmt s) {
            f.query(s.query(), 0);
        } else if (st instanceof Statement.Insert i) {
            f.insert(i);
        } else {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.NOT_IMPLEMENTED,
                "EXPLAIN SYNTAX of this kind of statement is not supported by the stub");
        }
        return List.of(f.sb.toString().split("\n", -1));
    }

    /** A query laid out as the engine's formatter writes it in a view's definition (SHOW CREATE VIEW): with operators. */
    public static String queryText(Query q, String database) {
        ExplainSyntax f = new ExplainSyntax(true);
        f.viewDatabase = database;
        f.query(q, 0);
        return f.sb.toString();
    }

    /** An expression as the engine's formatter writes it with operators ({@code a + 1}, {@code a > 1 AND b = 'x'}). */
    public static String operators(Expr e) {
        ExplainSyntax f = new ExplainSyntax(true);
        f.expr(e, 0, 0);
        return f.sb.toString();
    }

    private void insert(Statement.Insert i) {
        sb.append("INSERT INTO ");
        if (i.database() != null) {
            identifier(i.database());
            sb.append('.');
        }
        identifier(i.table());
        if (i.columns() != null && !i.columns().isEmpty()) {
            sb.append(" (");
            for (int c = 0; c < i.columns().size(); c++) {
                sb.append(c > 0 ? ", " : "");
                identifier(i.columns().get(c));
            }
            sb.append(')');
        }
        if (i.select() != null) {
            sb.append(' ');
            query(i.select(), 0);
            return;
        }
        if (!i.settings().isEmpty()) {
            sb.append('\n');
            settings(i.settings(), "");
        }
        sb.append(i.settings().isEmpty() ? " " : "\n").append("FORMAT ").append(i.format() == null ? "Values" : i.format());
    }

    private void query(Query q, int level) {
        String ind = INDENT.repeat(level);
        if (q.selects().size() == 1) {
            select(q.selects().get(0), level, q.settings());
            return;
        }
        for (int i = 0; i < q.selects().size(); i++) {
            if (i > 0) {
                sb.append('\n').append(ind).append("UNION ALL\n");
            }
            sb.append(ind).append("(\n");
            select(q.selects().get(i), level + 1, i == q.selects().size() - 1 ? q.settings() : Map.of());
            sb.append('\n').append(ind).append(')');
        }
    }

    private void select(Query.Select s, int level, Map<String, String> settings) {
        String ind = INDENT.repeat(level);
        List<Expr> with = new ArrayList<>();
        List<String> withAliases = new ArrayList<>();
        List<Expr> items = new ArrayList<>();
        List<String> aliases = new ArrayList<>();
        for (Query.SelectItem it : s.items()) {
            if (it.isOuter()) {
                continue; // an enclosing SELECT's alias, written there
            }
            boolean w = it.isWith();
            (w ? with : items).add(it.expr());
            (w ? withAliases : aliases).add(it.alias());
        }
        if (!with.isEmpty()) {
            sb.append(ind).append("WITH\n");
            list(with, withAliases, level + 1, true);
            sb.append('\n');
        }
        sb.append(ind).append("SELECT").append(s.distinct() ? " DISTINCT" : "");
        list(items, aliases, level + 1, false);
        sb.append('\n').append(ind).append("FROM");
        if (s.from() == null) {
            sb.append(" system.one");
        } else {
            tables(s.from(), level, true);
        }
        if (s.where() != null) {
            sb.append('\n').append(ind).append("WHERE ");
            expr(s.where(), level, 0);
        }
        if (!s.groupBy().isEmpty()) {
            sb.append('\n').append(ind).append("GROUP BY");
            list(s.groupBy(), null, level + 1, false);
        }
        if (s.having() != null) {
            sb.append('\n').append(ind).append("HAVING ");
            expr(s.having(), level, 0);
        }
        if (!s.orderBy().isEmpty()) {
            sb.append('\n').append(ind).append("ORDER BY");
            boolean multi = s.orderBy().size() > 1;
            for (int i = 0; i < s.orderBy().size(); i++) {
                Query.OrderItem o = s.orderBy().get(i);
                sb.append(i > 0 ? "," : "").append(multi ? "\n" + INDENT.repeat(level + 1) : " ");
                expr(o.expr(), level + 1, 0);
                sb.append(o.desc() ? " DESC" : " ASC");
                if (o.nullsFirst() != null) {
                    sb.append(o.nullsFirst() ? " NULLS FIRST" : " NULLS LAST");
                }
                if (o.fill() != null) {
                    sb.append(" WITH FILL");
                    fillPart(" FROM ", o.fill().from(), level);
                    fillPart(" TO ", o.fill().to(), level);
                    fillPart(" STEP ", o.fill().step(), level);
                }
            }
        }
        if (s.limitBy() != null) {
            sb.append('\n').append(ind).append("LIMIT ");
            expr(s.limitByCount(), level, 0);
            sb.append(" BY");
            list(s.limitBy(), null, level + 1, false);
        }
        if (s.limit() != null) {
            sb.append('\n').append(ind).append("LIMIT ");
            if (s.offset() != null) {
                expr(s.offset(), level, 0);
                sb.append(", ");
            }
            expr(s.limit(), level, 0);
        } else if (s.offset() != null) {
            sb.append('\n').append(ind).append("OFFSET ");
            expr(s.offset(), level, 0);
        }
        if (!settings.isEmpty()) {
            sb.append('\n');
            settings(settings, ind);
        }
    }

    private void fillPart(String keyword, Expr e, int level) {
        if (e != null) {
            sb.append(keyword);
            expr(e, level, 0);
        }
    }

    private void settings(Map<String, String> settings, String ind) {
        sb.append(ind).append("SETTINGS ");
        boolean first = true;
        for (Map.Entry<String, String> e : settings.entrySet()) {
            sb.append(first ? "" : ", ").append(e.getKey()).append(" = ").append(e.getValue());
            first = false;
        }
    }

    /** A SELECT's list: one item after a space, several (or WITH's, always) one a line at {@code level}. */
    private void list(List<Expr> items, List<String> aliases, int level, boolean alwaysOnNewLine) {
        boolean multi = alwaysOnNewLine || items.size() > 1;
        for (int i = 0; i < items.size(); i++) {
            if (!alwaysOnNewLine || i > 0) {
                sb.append(i > 0 ? "," : "").append(multi ? "\n" : " ");
            }
            if (multi) {
                sb.append(INDENT.repeat(level));
            }
            expr(items.get(i), multi ? level : level - 1, 0);
            alias(aliases == null ? null : aliases.get(i));
        }
    }

    private void alias(String alias) {
        if (alias != null) {
            sb.append(" AS ");
            identifier(alias);
        }
    }

    private void identifier(String name) {
        if (BARE_IDENTIFIER.matcher(name).matches()) {
            sb.append(name);
        } else {
            sb.append('`').append(name.replace("\\", "\\\\").replace("`", "\\`")).append('`');
        }
    }

    private void tables(Query.From f, int level, boolean first) {
        String ind = INDENT.repeat(level);
        if (f instanceof Query.Join j) {
            tables(j.left(), level, first);
            if (j.kind().equals("COMMA")) {
                sb.append(", ");
                table(j.right(), level, false);
                return;
            }
            String strictness = viewDatabase != null ? "" : "ALL "; // a view keeps the join as written
            sb.append('\n').append(ind).append(switch (j.kind()) {
                case "CROSS" -> "CROSS JOIN";
                case "FULL" -> strictness + "FULL OUTER JOIN";
                default -> strictness + j.kind() + " JOIN";
            });
            table(j.right(), level, true);
            if (j.on() != null) {
                sb.append(" ON ");
                expr(j.on(), level, 0);
            } else if (j.using() != null) {
                sb.append(" USING (");
                for (int i = 0; i < j.using().size(); i++) {
                    sb.append(i > 0 ? ", " : "");
                    identifier(j.using().get(i));
                }
                sb.append(')');
            }
        } else if (f instanceof Query.ArrayJoin a) {
            tables(a.source(), level, first);
            sb.append('\n').append(ind).append(a.left() ? "LEFT ARRAY JOIN " : "ARRAY JOIN ");
            for (int i = 0; i < a.arrays().size(); i++) {
                sb.append(i > 0 ? ", " : "");
                expr(a.arrays().get(i), level, 0);
                alias(a.aliases().get(i));
            }
        } else {
            table(f, level, true);
        }
    }

    /** One table after FROM or JOIN ({@code spaced}: a space before a name, a new line before a subquery). */
    private void table(Query.From f, int level, boolean spaced) {
        String ind = INDENT.repeat(level);
        if (f instanceof Query.TableRef t) {
            sb.append(spaced ? " " : "");
            if (t.database() != null || viewDatabase != null) {
                identifier(t.database() != null ? t.database() : viewDatabase);
                sb.append('.');
            }
            identifier(t.table());
            alias(t.alias());
            sb.append(t.isFinal() ? " FINAL" : "");
        } else if (f instanceof Query.TableFunction t) {
            sb.append(spaced ? " " : "").append(t.name());
            args(t.args(), level, null);
            alias(t.alias());
        } else if (f instanceof Query.SubqueryRef s) {
            sb.append('\n').append(ind).append("(\n");
            query(s.query(), level + 1);
            sb.append('\n').append(ind).append(')');
            alias(s.alias());
        } else {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.NOT_IMPLEMENTED,
                "EXPLAIN SYNTAX of a recursive common table expression is not supported by the stub");
        }
    }

    private void args(List<Expr> args, int level, String name) {
        sb.append('(');
        for (int i = 0; i < args.size(); i++) {
            sb.append(i > 0 ? ", " : "");
            Expr a = args.get(i);
            boolean inSet = i == 1 && name != null && (name.equals("in") || name.equals("notIn") || name.equals("globalIn")
                || name.equals("globalNotIn"));
            if (inSet && a instanceof Expr.Call c && c.name().equals("tuple") && ExplainAst.isConstant(c)) {
                sb.append(ColumnNames.of(a)); // the set of an IN stays a tuple
            } else {
                expr(a, level, 0);
            }
        }
        sb.append(')');
    }

    /** The binary operators the formatter writes as operators, with their priority (higher binds tighter). */
    private static final Map<String, Object[]> OPERATORS = Map.ofEntries(
        Map.entry("or", new Object[] {" OR ", 1}), Map.entry("and", new Object[] {" AND ", 2}),
        Map.entry("equals", new Object[] {" = ", 4}), Map.entry("notEquals", new Object[] {" != ", 4}),
        Map.entry("less", new Object[] {" < ", 4}), Map.entry("greater", new Object[] {" > ", 4}),
        Map.entry("lessOrEquals", new Object[] {" <= ", 4}), Map.entry("greaterOrEquals", new Object[] {" >= ", 4}),
        Map.entry("like", new Object[] {" LIKE ", 4}), Map.entry("notLike", new Object[] {" NOT LIKE ", 4}),
        Map.entry("in", new Object[] {" IN ", 4}), Map.entry("notIn", new Object[] {" NOT IN ", 4}),
        Map.entry("concat", new Object[] {" || ", 5}),
        Map.entry("plus", new Object[] {" + ", 6}), Map.entry("minus", new Object[] {" - ", 6}),
        Map.entry("multiply", new Object[] {" * ", 7}), Map.entry("divide", new Object[] {" / ", 7}),
        Map.entry("modulo", new Object[] {" % ", 7}));

    /** Writes {@code e} at {@code level} (for the lines of a subquery); {@code outer} is the enclosing operator's priority. */
    private void expr(Expr e, int level, int outer) {
        if (viewDatabase != null) {
            try {
                sb.append(dev.chdedup.stub.sql.ExpressionFormatter.format(e)); // a view: the definition's formatter
                return;
            } catch (IllegalArgumentException subquery) {
                // a subquery inside: written below
            }
        }
        if (e instanceof Expr.Literal) {
            constant(e);
        } else if (e instanceof Expr.Ident i) {
            for (int p = 0; p < i.parts().size(); p++) {
                sb.append(p > 0 ? "." : "");
                identifier(i.parts().get(p));
            }
        } else if (e instanceof Expr.Star s) {
            sb.append(s.qualifier() == null ? "*" : s.qualifier() + ".*");
        } else if (e instanceof Expr.Call c) {
            call(c, level, outer);
        } else if (e instanceof Expr.Cast c) {
            sb.append("CAST(");
            expr(c.expr(), level, 0);
            sb.append(", ");
            sb.append(ColumnNames.of(new Expr.Literal(c.typeName())));
            sb.append(')');
        } else if (e instanceof Expr.Subquery s) {
            sb.append("(\n");
            query(s.query(), level + 1);
            sb.append('\n').append(INDENT.repeat(level)).append(')');
        } else if (e instanceof Expr.Lambda || e instanceof Expr.Interval || e instanceof Expr.WindowFunction) {
            sb.append(ColumnNames.of(e)); // a window function as its column's name: f(...) OVER (...)
        } else {
            throw new IllegalStateException("no text for " + e);
        }
    }

    private void call(Expr.Call c, int level, int outer) {
        if (ExplainAst.isConstant(c)) {
            constant(c);
            return;
        }
        List<Expr> args = c.name().equals("and") || c.name().equals("or") || c.name().equals("concat")
            ? ExplainAst.flatten(c, new ArrayList<>()) : c.args();
        Object[] op = operators && !c.distinct() && c.params() == 0 && args.size() >= 2 ? OPERATORS.get(c.name()) : null;
        if (op != null && (args.size() == 2 || c.name().equals("and") || c.name().equals("or") || c.name().equals("concat"))) {
            int priority = (Integer) op[1];
            sb.append(priority <= outer ? "(" : "");
            for (int i = 0; i < args.size(); i++) {
                sb.append(i > 0 ? (String) op[0] : "");
                expr(args.get(i), level, i == 0 ? priority : priority + 1);
            }
            sb.append(priority <= outer ? ")" : "");
            return;
        }
        if (operators && c.name().equals("not") && args.size() == 1) {
            sb.append(outer >= 3 ? "(NOT " : "NOT ");
            expr(args.get(0), level, 3);
            sb.append(outer >= 3 ? ")" : "");
            return;
        }
        sb.append(c.name()).append(c.distinct() ? "Distinct" : "");
        if (c.params() > 0) {
            args(args.subList(args.size() - c.params(), args.size()), level, null);
            args = args.subList(0, args.size() - c.params());
        }
        args(args, level, c.name());
    }

    /** A literal; NULL, an array or a tuple as the {@code _CAST} to its type the formatter writes for it. */
    private void constant(Expr e) {
        boolean typed = e instanceof Expr.Call || ((Expr.Literal) e).value() == null;
        if (typed && !operators) {
            DataType type = type(e);
            sb.append("_CAST(").append(ColumnNames.of(converted(e, type))).append(", ");
            sb.append(ColumnNames.of(new Expr.Literal(type.name()))).append(')');
        } else {
            sb.append(ColumnNames.of(e));
        }
    }

    /** A constant with the numbers of an array of floats as floats ({@code [1.5, 2.]}), as the engine converts them. */
    private static Expr converted(Expr e, DataType type) {
        if (e instanceof Expr.Literal l) {
            return type.unwrap() instanceof dev.chdedup.stub.types.FloatType && l.value() instanceof Number n
                ? new Expr.Literal(n.doubleValue()) : e;
        }
        Expr.Call c = (Expr.Call) e;
        DataType element = c.name().equals("array") && type instanceof dev.chdedup.stub.types.ArrayType a ? a.element : null;
        List<Expr> args = new ArrayList<>();
        for (int i = 0; i < c.args().size(); i++) {
            Expr x = c.args().get(i);
            args.add(element != null ? converted(x, element) : x instanceof Expr.Call ? converted(x, type(x)) : x);
        }
        return new Expr.Call(c.name(), args, false);
    }

    /** The type of a constant: an array's the common type of its elements (Nothing when empty). */
    private static DataType type(Expr e) {
        if (e instanceof Expr.Literal l) {
            return TypeRules.literalType(l.value());
        }
        Expr.Call c = (Expr.Call) e;
        List<DataType> types = new ArrayList<>();
        for (Expr a : c.args()) {
            types.add(type(a));
        }
        if (c.name().equals("array")) {
            return DataTypes.parse("Array(" + (types.isEmpty() ? "Nothing" : TypeRules.common(types).name()) + ")");
        }
        StringBuilder t = new StringBuilder("Tuple(");
        for (int i = 0; i < types.size(); i++) {
            t.append(i > 0 ? ", " : "").append(types.get(i).name());
        }
        return DataTypes.parse(t.append(')').toString());
    }
}
