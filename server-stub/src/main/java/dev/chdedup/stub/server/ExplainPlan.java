package dev.chdedup.stub.server;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.Aggregates;
import dev.chdedup.stub.exec.ExplainSyntax;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.storages.Storage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The text of {@code EXPLAIN PLAN} and {@code EXPLAIN PIPELINE} for a SELECT, in the shape ClickHouse 26.7 gives
 * them (QueryPlan::explainPlan and explainPipeline, src/Processors/QueryPlan/QueryPlan.cpp): the steps a query of the
 * stub's subset takes, top to bottom: Expression (Project names + Projection), Limit (preliminary LIMIT), Sorting
 * (Sorting for ORDER BY) over Expression (Before ORDER BY), Distinct, Filter (HAVING), Aggregating over Expression
 * (Before GROUP BY), Filter (WHERE), and the read (ReadFromMergeTree with its parts and granules, ReadFromSystemNumbers,
 * ReadFromSystemOne, ReadFromMemoryStorage, ReadFromPreparedSource for a trivial count, ReadNothing for a MergeTree
 * without parts); joins and UNION ALL as Join and Union over their inputs. The plan is drawn as the engine's pretty
 * plan ({@code Output:} the result's columns, then the tree, the Expression steps left out as in its compact plan),
 * the pipeline as the processors of each step. It is the stub's plan, not the engine's optimized one: no PREWHERE
 * moves, no reading in order, no runtime filters (docs/stub.md).
 */
final class ExplainPlan {
    /** One step: its name, its description (in parentheses after the name), its detail lines and its inputs. */
    private record Step(String name, String description, List<String> details, List<Step> children) {
        Step(String name, String description, List<String> details, Step child) {
            this(name, description, details, child == null ? List.of() : List.of(child));
        }
    }

    private final DatabaseCatalog catalog;
    private final QueryContext ctx;
    /** The result columns of the query explained. */
    private final List<Column> header;

    ExplainPlan(DatabaseCatalog catalog, QueryContext ctx, List<Column> header) {
        this.catalog = catalog;
        this.ctx = ctx;
        this.header = header;
    }

    /** The lines of EXPLAIN PLAN. */
    List<String> plan(Query q, boolean withHeader, boolean description, boolean compact, boolean pretty) {
        List<String> lines = new ArrayList<>();
        Step root = query(q, compact);
        if (pretty) {
            lines.add("Output: " + outputNames(q));
            lines.add("");
            drawPretty(root, "", "", true, withHeader, description, lines);
        } else {
            drawLegacy(root, 0, withHeader, description, lines);
        }
        return lines;
    }

    /** The lines of EXPLAIN PIPELINE: each step as {@code (Name)} and its processors, each level two spaces deeper. */
    List<String> pipeline(Query q) {
        List<String> lines = new ArrayList<>();
        pipeline(query(q, false), 0, lines);
        return lines;
    }

    private void pipeline(Step s, int depth, List<String> lines) {
        String ind = "  ".repeat(depth);
        lines.add(ind + "(" + s.name() + ")");
        List<String> processors = switch (s.name()) {
            case "Expression" -> List.of("ExpressionTransform");
            case "Filter" -> List.of("FilterTransform");
            case "Limit" -> List.of("Limit");
            case "Sorting" -> List.of("MergeSortingTransform", "LimitsCheckingTransform", "PartialSortingTransform");
            case "Distinct" -> List.of("DistinctTransform");
            case "Aggregating" -> List.of("AggregatingTransform");
            case "MergingAggregated" -> List.of("MergingAggregatedTransform");
            case "ReadFromPreparedSource" -> List.of("SourceFromSingleChunk 0 \u2192 1");
            case "ReadFromMergeTree" -> List.of("MergeTreeSelect(pool: ReadPoolInOrder, algorithm: InOrder) 0 \u2192 1");
            case "ReadFromSystemNumbers" -> List.of("NumbersRange 0 \u2192 1");
            case "ReadNothing" -> List.of("NullSource 0 \u2192 1");
            case "Join" -> List.of("JoiningTransform 2 \u2192 1");
            default -> List.of();
        };
        int d = depth;
        for (String p : processors) {
            lines.add("  ".repeat(d++) + p);
        }
        int childDepth = s.name().equals("Union") ? depth + 1 : processors.isEmpty() ? depth + 1 : d;
        for (Step c : s.children()) {
            pipeline(c, childDepth, lines);
        }
    }

    /** A step and its inputs as the pretty plan draws them: {@code │  } and {@code └──} before each line. */
    private void drawPretty(Step s, String prefix, String connector, boolean last, boolean withHeader, boolean description, List<String> lines) {
        lines.add(prefix + connector + title(s, description));
        String inner = prefix + (connector.isEmpty() ? "" : last ? "   " : "\u2502  ");
        String detailPrefix = inner + (s.children().isEmpty() ? "   " : "\u2502  ");
        for (String d : details(s, withHeader)) {
            lines.add(detailPrefix + d);
        }
        for (int i = 0; i < s.children().size(); i++) {
            boolean lastChild = i == s.children().size() - 1;
            drawPretty(s.children().get(i), inner, lastChild ? "\u2514\u2500\u2500" : "\u251c\u2500\u2500", lastChild, withHeader, description, lines);
        }
    }

    private void drawLegacy(Step s, int depth, boolean withHeader, boolean description, List<String> lines) {
        String ind = "  ".repeat(depth);
        lines.add(ind + title(s, description));
        for (String d : details(s, withHeader)) {
            lines.add(ind + d);
        }
        for (Step c : s.children()) {
            drawLegacy(c, depth + 1, withHeader, description, lines);
        }
    }

    private static String title(Step s, boolean description) {
        return description && s.description() != null ? s.name() + " (" + s.description() + ")" : s.name();
    }

    /** A step's detail lines, after {@code Header:} with its columns when asked for (the result's, or the columns read). */
    private List<String> details(Step s, boolean withHeader) {
        List<String> cols = new ArrayList<>();
        if (!withHeader) {
            // no header lines
        } else if (s.name().startsWith("Read")) {
            for (String d : s.details()) {
                if (d.startsWith("Header: ")) {
                    cols.add(d.substring(8));
                }
            }
        } else {
            for (Column c : header) {
                cols.add(c.name() + " " + c.type().name());
            }
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < cols.size(); i++) {
            out.add((i == 0 ? "Header: " : "        ") + cols.get(i));
        }
        for (String d : s.details()) {
            if (!d.startsWith("Header: ")) {
                out.add(d);
            }
        }
        return out;
    }

    /** The plan's Output line: the result's names as the formatter writes them with operators. */
    private String outputNames(Query q) {
        List<String> names = new ArrayList<>();
        Query.Select s = q.selects().get(0);
        boolean star = false;
        for (Query.SelectItem it : s.items()) {
            star |= it.expr() instanceof Expr.Star;
        }
        int i = 0;
        for (Query.SelectItem it : s.items()) {
            if (it.isWith()) {
                continue;
            }
            names.add(star || i >= header.size() ? null : it.alias() != null ? it.alias() : ExplainSyntax.operators(it.expr()));
            i++;
        }
        if (star || names.size() != header.size()) {
            names.clear();
            for (Column c : header) {
                names.add(c.name());
            }
        }
        return String.join(", ", names);
    }

    private Step query(Query q, boolean compact) {
        if (q.selects().size() == 1) {
            return select(q.selects().get(0), compact);
        }
        List<Step> inputs = new ArrayList<>();
        for (Query.Select s : q.selects()) {
            inputs.add(select(s, compact));
        }
        return new Step("Union", null, List.of(), inputs);
    }

    private Step select(Query.Select s, boolean compact) {
        List<Expr> aggregates = new ArrayList<>();
        for (Query.SelectItem it : s.items()) {
            collectAggregates(it.expr(), aggregates);
        }
        if (s.having() != null) {
            collectAggregates(s.having(), aggregates);
        }
        Step step;
        boolean grouped = !s.groupBy().isEmpty() || !aggregates.isEmpty();
        if (grouped && s.groupBy().isEmpty() && s.where() == null && aggregates.stream().allMatch(ExplainPlan::isCount)
            && s.from() instanceof Query.TableRef t && catalog.find(Interpreter.db(t.database(), ctx), t.table()) instanceof StorageMergeTree) {
            step = new Step("MergingAggregated", null, List.of("Keys:", "Aggregates: " + names(aggregates)),
                new Step("ReadFromPreparedSource", "Optimized trivial count", List.of(), List.of()));
        } else {
            step = source(s, compact);
            if (s.where() != null && step.name().equals("ReadFromMergeTree") && movesToPrewhere(s)) {
                // optimize_move_to_prewhere: a condition on columns the result does not all need is read first
                List<String> details = new ArrayList<>(step.details());
                Set<String> shown = new LinkedHashSet<>();
                for (Query.SelectItem it : s.items()) {
                    identifiers(it.expr(), shown);
                }
                details.removeIf(d -> d.startsWith("Output: ") || d.startsWith("Header: ") && !shown.contains(d.substring(8, d.lastIndexOf(' '))));
                List<String> out = new ArrayList<>();
                for (String d : details) {
                    if (d.startsWith("Header: ")) {
                        out.add(d.substring(8, d.lastIndexOf(' ')));
                    }
                }
                details.add("Output: " + (out.isEmpty() ? "Empty" : String.join(", ", out)));
                details.add("Prewhere filter");
                details.add("Prewhere filter column:  " + ExplainSyntax.operators(s.where()));
                step = new Step(step.name(), step.description(), details, step.children());
            } else if (s.where() != null) {
                step = new Step("Filter", "(WHERE + Change column names to column identifiers)",
                    List.of("Filter column: " + ExplainSyntax.operators(s.where())), step);
            }
            if (grouped) {
                step = expression("Before GROUP BY", step, compact);
                step = new Step("Aggregating", null, List.of(("Keys: " + names(s.groupBy())).trim(), "Aggregates: " + names(aggregates),
                    "Skip merging: 0"), step);
            }
        }
        if (s.having() != null) {
            step = new Step("Filter", "HAVING", List.of("Filter column: " + ExplainSyntax.operators(s.having())), step);
        }
        if (s.distinct()) {
            List<Expr> items = new ArrayList<>();
            for (Query.SelectItem it : s.items()) {
                items.add(it.alias() != null ? new Expr.Ident(List.of(it.alias())) : it.expr());
            }
            String columns = "Columns: " + names(items);
            step = expression("Before DISTINCT", step, compact);
            step = new Step("Distinct", "Preliminary DISTINCT", List.of(columns), step);
            step = new Step("Distinct", "DISTINCT", List.of(columns), step);
        }
        String limit = s.limit() instanceof Expr.Literal l && l.value() instanceof Long n ? String.valueOf(n) : null;
        String offset = s.offset() instanceof Expr.Literal l && l.value() instanceof Long n ? String.valueOf(n) : "0";
        if (!s.orderBy().isEmpty()) {
            List<String> keys = new ArrayList<>();
            for (Query.OrderItem o : s.orderBy()) {
                keys.add(ExplainSyntax.operators(o.expr()) + (o.desc() ? " DESC" : " ASC"));
            }
            List<String> details = new ArrayList<>(List.of("Sort description: " + String.join(", ", keys)));
            if (limit != null) {
                details.add("Limit " + (Long.parseLong(limit) + Long.parseLong(offset)));
            }
            step = expression("Before ORDER BY", step, compact);
            step = new Step("Sorting", "Sorting for ORDER BY", details, step);
        }
        if (limit != null) {
            step = new Step("Limit", "preliminary LIMIT", List.of("Limit " + limit, "Offset " + offset), step);
        }
        return expression("(Project names + Projection)", step, compact);
    }

    /**
     * Whether the WHERE of a SELECT from one MergeTree table moves to PREWHERE: it reads a column that nothing else in
     * the query needs (the engine weighs column sizes; the stub only this).
     */
    private static boolean movesToPrewhere(Query.Select s) {
        if (!s.groupBy().isEmpty() || s.having() != null || !s.orderBy().isEmpty() || s.distinct()) {
            return false;
        }
        Set<String> where = new LinkedHashSet<>();
        Set<String> rest = new LinkedHashSet<>();
        boolean all = identifiers(s.where(), where);
        for (Query.SelectItem it : s.items()) {
            all |= identifiers(it.expr(), rest);
            all |= Aggregates.isAggregate(it.expr() instanceof Expr.Call c ? c.name() : "");
        }
        return !all && !rest.isEmpty() && !rest.containsAll(where);
    }

    private static Step expression(String description, Step input, boolean compact) {
        return compact ? input : new Step("Expression", description, List.of(), input);
    }

    private static boolean isCount(Expr e) {
        return e instanceof Expr.Call c && c.name().equalsIgnoreCase("count") && !c.distinct() && c.args().isEmpty();
    }

    private static void collectAggregates(Expr e, List<Expr> out) {
        if (e instanceof Expr.Call c) {
            if (Aggregates.isAggregate(c.name())) {
                if (!out.contains(c)) {
                    out.add(c);
                }
                return;
            }
            for (Expr a : c.args()) {
                collectAggregates(a, out);
            }
        } else if (e instanceof Expr.Cast c) {
            collectAggregates(c.expr(), out);
        }
    }

    private static String names(List<Expr> exprs) {
        List<String> names = new ArrayList<>();
        for (Expr e : exprs) {
            names.add(ExplainSyntax.operators(e));
        }
        return String.join(", ", names);
    }

    /** The read a SELECT starts from, or its join of reads. */
    private Step source(Query.Select s, boolean compact) {
        Set<String> used = new LinkedHashSet<>();
        boolean all = false;
        for (Query.SelectItem it : s.items()) {
            all |= identifiers(it.expr(), used);
        }
        for (Expr e : new Expr[] {s.where(), s.having()}) {
            all |= e != null && identifiers(e, used);
        }
        for (Expr e : s.groupBy()) {
            all |= identifiers(e, used);
        }
        for (Query.OrderItem o : s.orderBy()) {
            all |= identifiers(o.expr(), used);
        }
        return from(s.from(), used, all, compact, s);
    }

    /** Adds the column names {@code e} mentions to {@code out}; true when it reads every column ({@code *}). */
    private static boolean identifiers(Expr e, Set<String> out) {
        if (e instanceof Expr.Ident i) {
            out.add(i.last());
            return false;
        }
        if (e instanceof Expr.Star) {
            return true;
        }
        boolean all = false;
        if (e instanceof Expr.Call c) {
            for (Expr a : c.args()) {
                all |= identifiers(a, out);
            }
        } else if (e instanceof Expr.Cast c) {
            all = identifiers(c.expr(), out);
        } else if (e instanceof Expr.Lambda l) {
            all = identifiers(l.body(), out);
        } else if (e instanceof Expr.Interval i) {
            all = identifiers(i.amount(), out);
        }
        return all;
    }

    private Step from(Query.From f, Set<String> used, boolean all, boolean compact) {
        return from(f, used, all, compact, null);
    }

    /** The read steps of FROM; {@code select}, when given, is the query reading it, whose WHERE the primary index may narrow. */
    private Step from(Query.From f, Set<String> used, boolean all, boolean compact, Query.Select select) {
        if (f == null) {
            return new Step("ReadFromSystemOne", null, List.of("Header: dummy UInt8"), List.of());
        }
        if (f instanceof Query.SubqueryRef r) {
            return query(r.query(), compact);
        }
        if (f instanceof Query.Join j) {
            String type = j.kind().toLowerCase(Locale.ROOT);
            return new Step("Join", "JOIN FillRightFirst", List.of("Type: " + type + " | Strictness: all | Algorithm: HashJoin"),
                List.of(from(j.left(), used, all, compact), from(j.right(), used, all, compact)));
        }
        if (f instanceof Query.ArrayJoin a) {
            return new Step("ArrayJoin", "ARRAY JOIN", List.of(), from(a.source(), used, all, compact));
        }
        if (f instanceof Query.TableFunction t && t.name().equals("numbers")) {
            return numbers();
        }
        if (f instanceof Query.TableRef t) {
            String db = Interpreter.db(t.database(), ctx);
            Object table = catalog.find(db, t.table());
            if (table instanceof StorageMergeTree m) {
                return mergeTree(db, t.table(), m, columns(m.definition().allColumns(), used, all),
                    select == null ? null : dev.chdedup.stub.exec.SelectExecutor.indexFilterOfParsed(select, m));
            }
            if (table instanceof Storage st) {
                List<String> read = columns(st.tableColumns(), used, all);
                String name = st.engine().equals("Memory") ? "ReadFromMemoryStorage" : "ReadFromStorage";
                return new Step(name, name.equals("ReadFromStorage") ? st.engine() : null, output(read, st.tableColumns()), List.of());
            }
            if (DatabaseCatalog.SYSTEM.equals(db) && (t.table().equals("numbers") || t.table().equals("numbers_mt"))) {
                return numbers();
            }
            if (DatabaseCatalog.SYSTEM.equals(db) && t.table().equals("one")) {
                return new Step("ReadFromSystemOne", null, List.of("Header: dummy UInt8"), List.of());
            }
        }
        return new Step("ReadFromStorage", null, List.of(), List.of());
    }

    private static Step numbers() {
        return new Step("ReadFromSystemNumbers", null, List.of("Header: number UInt64", "Output: number"), List.of());
    }

    private static Step mergeTree(String db, String table, StorageMergeTree m, List<String> read, Expr filter) {
        if (m.activeParts().isEmpty()) {
            return new Step("ReadNothing", "Read from NullSource", List.of(), List.of());
        }
        StorageMergeTree.ReadEstimate e = m.estimate(filter);
        List<String> details = new ArrayList<>(output(read, m.definition().allColumns()));
        details.add(0, "Read type: Default");
        details.add(1, "Parts: " + e.parts() + " | Granules: " + e.granules());
        return new Step("ReadFromMergeTree", db + "." + table, details, List.of());
    }

    /** The table's columns the query reads, in the table's order. */
    private static List<String> columns(List<TableColumn> columns, Set<String> used, boolean all) {
        List<String> read = new ArrayList<>();
        for (TableColumn c : columns) {
            if (all || used.contains(c.name())) {
                read.add(c.name());
            }
        }
        return read;
    }

    /** The Header lines (dropped unless asked for) and the Output line of a read of {@code read}. */
    private static List<String> output(List<String> read, List<TableColumn> columns) {
        List<String> details = new ArrayList<>();
        for (TableColumn c : columns) {
            if (read.contains(c.name())) {
                details.add("Header: " + c.name() + " " + c.type().name());
            }
        }
        details.add("Output: " + (read.isEmpty() ? "Empty" : String.join(", ", read)));
        return details;
    }
}
