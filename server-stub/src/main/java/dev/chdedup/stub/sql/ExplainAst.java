package dev.chdedup.stub.sql;

import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.StringType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The text of {@code EXPLAIN AST}: a statement as the tree of ClickHouse's AST nodes, one node a line, as
 * {@code IAST::dumpTree} writes it (src/Parsers/IAST.cpp): the node's id ({@code SelectQuery}, {@code Function plus},
 * {@code Literal UInt64_1}, {@code Identifier a}), {@code (alias x)} and {@code (children n)}, each level one space
 * deeper. The stub's statements are mapped back to the engine's nodes: a SELECT's clauses in the order
 * ASTSelectQuery keeps them, operators as the functions the parser makes of them ({@code a AND b AND c} one
 * {@code and}), an array or tuple of constants one literal ({@code Array_[UInt64_1, UInt64_2]}), a literal's value
 * as FieldVisitorDump writes it. Where the stub's parse keeps less than the engine's (a common table expression is
 * resolved while parsing, PREWHERE joins WHERE, {@code tuple(1, 2)} is {@code (1, 2)}), the tree is the one of the
 * query the stub understood.
 */
public final class ExplainAst {
    /** One AST node: its id, its alias (null when none) and its children. */
    private record Node(String id, String alias, List<Node> children) {
        Node(String id, List<Node> children) {
            this(id, null, children);
        }

        Node withAlias(String a) {
            return a == null ? this : new Node(id, a, children);
        }
    }

    private ExplainAst() {
    }

    /** The lines of {@code EXPLAIN AST statement}. */
    public static List<String> of(Statement st) {
        List<String> lines = new ArrayList<>();
        dump(statement(st), 0, lines);
        return lines;
    }

    private static void dump(Node n, int depth, List<String> lines) {
        StringBuilder sb = new StringBuilder(" ".repeat(depth)).append(n.id());
        if (n.alias() != null) {
            sb.append(" (alias ").append(n.alias()).append(')');
        }
        if (!n.children().isEmpty()) {
            sb.append(" (children ").append(n.children().size()).append(')');
        }
        lines.add(sb.toString());
        for (Node c : n.children()) {
            dump(c, depth + 1, lines);
        }
    }

    private static Node statement(Statement st) {
        if (st instanceof Statement.SelectStmt s) {
            return query(s.query());
        }
        if (st instanceof Statement.Insert i) {
            // ASTInsertQuery's id is "InsertQuery" and the database and table each after a space, both empty here
            List<Node> children = new ArrayList<>();
            if (i.database() != null) {
                children.add(leaf("Identifier " + i.database()));
            }
            children.add(leaf("Identifier " + i.table()));
            if (i.columns() != null && !i.columns().isEmpty()) {
                List<Node> cols = new ArrayList<>();
                for (String c : i.columns()) {
                    cols.add(leaf("Identifier " + c));
                }
                children.add(new Node("ExpressionList", cols));
            }
            if (i.select() != null) {
                children.add(query(i.select()));
            }
            if (!i.settings().isEmpty()) {
                children.add(leaf("Set"));
            }
            return new Node("InsertQuery  ", children);
        }
        throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.NOT_IMPLEMENTED,
            "EXPLAIN AST of this kind of statement is not supported by the stub");
    }

    private static Node leaf(String id) {
        return new Node(id, List.of());
    }

    private static Node query(Query q) {
        List<Node> selects = new ArrayList<>();
        for (int i = 0; i < q.selects().size(); i++) {
            selects.add(select(q.selects().get(i), i == q.selects().size() - 1 ? q.settings() : Map.of()));
        }
        List<Node> children = new ArrayList<>(List.of(new Node("ExpressionList", selects)));
        if (q.format() != null) {
            children.add(leaf("Identifier " + q.format()));
        }
        return new Node("SelectWithUnionQuery", children);
    }

    private static Node select(Query.Select s, Map<String, String> settings) {
        List<Node> with = new ArrayList<>();
        List<Node> items = new ArrayList<>();
        for (Query.SelectItem it : s.items()) {
            if (it.isOuter()) {
                continue; // an enclosing SELECT's alias, written there
            }
            Node n = expr(it.expr()).withAlias(it.alias());
            (it.isWith() ? with : items).add(n);
        }
        List<Node> children = new ArrayList<>();
        if (!with.isEmpty()) {
            children.add(new Node("ExpressionList", with));
        }
        children.add(new Node("ExpressionList", items));
        if (s.from() != null) {
            List<Node> elements = new ArrayList<>();
            tables(s.from(), elements);
            children.add(new Node("TablesInSelectQuery", elements));
        }
        if (s.where() != null) {
            children.add(expr(s.where()));
        }
        if (!s.groupBy().isEmpty()) {
            children.add(list(s.groupBy()));
        }
        if (s.having() != null) {
            children.add(expr(s.having()));
        }
        if (!s.orderBy().isEmpty()) {
            List<Node> keys = new ArrayList<>();
            for (Query.OrderItem o : s.orderBy()) {
                List<Node> key = new ArrayList<>(List.of(expr(o.expr())));
                if (o.fill() != null) {
                    for (Expr f : new Expr[] {o.fill().from(), o.fill().to(), o.fill().step()}) {
                        if (f != null) {
                            key.add(expr(f));
                        }
                    }
                }
                keys.add(new Node("OrderByElement", key));
            }
            children.add(new Node("ExpressionList", keys));
        }
        if (s.limitBy() != null) {
            children.add(expr(s.limitByCount()));
            children.add(list(s.limitBy()));
        }
        if (s.offset() != null) {
            children.add(expr(s.offset()));
        }
        if (s.limit() != null) {
            children.add(expr(s.limit()));
        }
        if (!settings.isEmpty()) {
            children.add(leaf("Set"));
        }
        return new Node("SelectQuery", children);
    }

    /** The TablesInSelectQueryElements of a FROM, left to right. */
    private static void tables(Query.From f, List<Node> out) {
        if (f instanceof Query.Join j) {
            tables(j.left(), out);
            List<Node> join = new ArrayList<>();
            if (j.on() != null) {
                join.add(expr(j.on()));
            } else if (j.using() != null) {
                List<Node> cols = new ArrayList<>();
                for (String c : j.using()) {
                    cols.add(leaf("Identifier " + c));
                }
                join.add(new Node("ExpressionList", cols));
            }
            out.add(new Node("TablesInSelectQueryElement", List.of(tableExpression(j.right()), new Node("TableJoin", join))));
        } else if (f instanceof Query.ArrayJoin a) {
            tables(a.source(), out);
            List<Node> arrays = new ArrayList<>();
            for (int i = 0; i < a.arrays().size(); i++) {
                arrays.add(expr(a.arrays().get(i)).withAlias(a.aliases().get(i)));
            }
            out.add(new Node("TablesInSelectQueryElement", List.of(new Node("ArrayJoin", List.of(new Node("ExpressionList", arrays))))));
        } else {
            out.add(new Node("TablesInSelectQueryElement", List.of(tableExpression(f))));
        }
    }

    private static Node tableExpression(Query.From f) {
        Node table;
        if (f instanceof Query.TableRef t) {
            table = new Node("TableIdentifier " + (t.database() == null ? "" : t.database() + ".") + t.table(), t.alias(), List.of());
        } else if (f instanceof Query.TableFunction t) {
            table = new Node("Function " + t.name(), t.alias(), List.of(list(t.args())));
        } else if (f instanceof Query.SubqueryRef s) {
            table = new Node("Subquery", s.alias(), List.of(query(s.query())));
        } else {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.NOT_IMPLEMENTED,
                "EXPLAIN AST of a recursive common table expression is not supported by the stub");
        }
        return new Node("TableExpression", List.of(table));
    }

    private static Node list(List<Expr> items) {
        List<Node> nodes = new ArrayList<>();
        for (Expr e : items) {
            nodes.add(expr(e));
        }
        return new Node("ExpressionList", nodes);
    }

    private static Node function(String name, List<Node> args) {
        return new Node("Function " + name, List.of(new Node("ExpressionList", args)));
    }

    private static Node expr(Expr e) {
        if (e instanceof Expr.Literal l) {
            return leaf("Literal " + field(l.value()));
        }
        if (e instanceof Expr.Ident i) {
            return leaf("Identifier " + i.joined());
        }
        if (e instanceof Expr.Star s) {
            return s.qualifier() == null ? leaf("Asterisk") : new Node("QualifiedAsterisk", List.of(leaf("Identifier " + s.qualifier())));
        }
        if (e instanceof Expr.Call c) {
            if (isConstant(c)) {
                return leaf("Literal " + field(c));
            }
            List<Expr> args = c.name().equals("and") || c.name().equals("or") || c.name().equals("concat") ? flatten(c, new ArrayList<>()) : c.args();
            String name = c.distinct() ? c.name() + "Distinct" : c.name();
            if (c.params() > 0) {
                return new Node("Function " + name, List.of(list(args.subList(0, args.size() - c.params())),
                    list(args.subList(args.size() - c.params(), args.size()))));
            }
            return new Node("Function " + name, List.of(list(args)));
        }
        if (e instanceof Expr.Cast c) {
            return function("CAST", List.of(expr(c.expr()), leaf("Literal " + field(c.typeName()))));
        }
        if (e instanceof Expr.Subquery s) {
            return new Node("Subquery", List.of(query(s.query())));
        }
        if (e instanceof Expr.Lambda l) {
            List<Node> params = new ArrayList<>();
            for (String p : l.params()) {
                params.add(leaf("Identifier " + p));
            }
            return function("lambda", List.of(function("tuple", params), expr(l.body())));
        }
        if (e instanceof Expr.Interval i) {
            return function("toInterval" + i.unit().substring(0, 1).toUpperCase(Locale.ROOT) + i.unit().substring(1), List.of(expr(i.amount())));
        }
        if (e instanceof Expr.WindowFunction) {
            throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.NOT_IMPLEMENTED,
                "EXPLAIN AST of a window function is not supported by the stub");
        }
        throw new IllegalStateException("no AST node for " + e);
    }

    /** A chain of one operator as the one call the engine's parser makes of it ({@code and(a, b, c)}). */
    public static List<Expr> flatten(Expr.Call c, List<Expr> out) {
        Expr first = c.args().isEmpty() ? null : c.args().get(0);
        if (c.args().size() == 2 && first instanceof Expr.Call f && f.name().equals(c.name()) && !f.distinct() && f.params() == 0) {
            flatten(f, out);
        } else if (first != null) {
            out.add(first);
        }
        out.addAll(c.args().subList(Math.min(1, c.args().size()), c.args().size()));
        return out;
    }

    /**
     * Whether {@code e} is a literal the engine's parser makes one Literal of: a constant, or an array ({@code [...]})
     * or a tuple of two or more ({@code (a, b)}) of such.
     */
    public static boolean isConstant(Expr e) {
        if (e instanceof Expr.Literal) {
            return true;
        }
        if (e instanceof Expr.Call c && !c.distinct() && c.params() == 0
            && (c.name().equals("array") || c.name().equals("tuple") && c.args().size() >= 2)) {
            for (Expr a : c.args()) {
                if (!isConstant(a)) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** A constant as FieldVisitorDump writes it: {@code UInt64_1}, {@code Int64_-1}, {@code Float64_1.5}, {@code 'x'}. */
    private static String field(Object v) {
        StringBuilder sb = new StringBuilder();
        field(v, sb);
        return sb.toString();
    }

    private static void field(Object v, StringBuilder sb) {
        if (v instanceof Expr.Literal l) {
            field(l.value(), sb);
        } else if (v instanceof Expr.Call c) {
            boolean array = c.name().equals("array");
            sb.append(array ? "Array_[" : "Tuple_(");
            for (int i = 0; i < c.args().size(); i++) {
                sb.append(i > 0 ? ", " : "");
                field(c.args().get(i), sb);
            }
            sb.append(array ? ']' : ')');
        } else if (v == null) {
            sb.append("NULL");
        } else if (v instanceof Boolean b) {
            sb.append("Bool_").append(b ? 1 : 0);
        } else if (v instanceof String s) {
            StringType.quote(ByteStrings.toText(s), sb);
        } else if (v instanceof Long l) {
            sb.append(l < 0 ? "Int64_" : "UInt64_").append(l);
        } else if (v instanceof BigInteger b) {
            sb.append(b.signum() < 0 ? "Int128_" : b.bitLength() <= 64 ? "UInt64_" : "UInt128_").append(b);
        } else {
            sb.append("Float64_");
            FloatType.appendText(((Number) v).doubleValue(), sb);
        }
    }
}
