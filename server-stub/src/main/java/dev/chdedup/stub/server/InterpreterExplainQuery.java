package dev.chdedup.stub.server;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.ExplainSyntax;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.sql.ExplainAst;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Answers {@code EXPLAIN}, as ClickHouse's InterpreterExplainQuery does (src/Interpreters/InterpreterExplainQuery.cpp):
 * one String column {@code explain}, one row a line, for AST ({@link ExplainAst}), SYNTAX ({@link ExplainSyntax}),
 * PLAN and PIPELINE ({@link ExplainPlan}), and ESTIMATE (columns database, table, parts, rows, marks: the MergeTree
 * parts a SELECT reads). Each kind takes the explain settings the engine lists for it, a boolean one 0 or 1, and
 * refuses others with the engine's UNKNOWN_SETTING; PLAN, PIPELINE and ESTIMATE explain a SELECT only.
 */
final class InterpreterExplainQuery {
    /** The settings each kind of EXPLAIN takes, in the order the engine lists them; ESTIMATE takes PLAN's. */
    private static final Map<String, List<String>> SETTINGS = Map.of(
        "PLAN", List.of("compact", "column_structure", "distributed", "description", "json", "sorting", "input_headers",
            "projections", "keep_logical_steps", "indexes", "actions", "pretty", "indices", "optimize", "header"),
        "PIPELINE", List.of("compact_repeated_processor_chains", "compact", "distributed", "graph", "header"),
        "QUERY TREE", List.of("dump_ast", "dump_passes", "dump_tree", "run_passes", "passes"),
        "AST", List.of("optimize", "graph"),
        "SYNTAX", List.of("run_query_tree_passes", "oneline", "query_tree_passes"));
    /** The explain settings that hold a number rather than a boolean. */
    private static final List<String> INTEGER_SETTINGS = List.of("passes", "query_tree_passes");

    static final List<Column> EXPLAIN_HEADER = List.of(new Column("explain", DataTypes.STRING));
    static final List<Column> ESTIMATE_HEADER = List.of(new Column("database", DataTypes.STRING), new Column("table", DataTypes.STRING),
        new Column("parts", DataTypes.UINT64), new Column("rows", DataTypes.UINT64), new Column("marks", DataTypes.UINT64));

    private final DatabaseCatalog catalog;
    private final SelectExecutor selects;

    InterpreterExplainQuery(DatabaseCatalog catalog, SelectExecutor selects) {
        this.catalog = catalog;
        this.selects = selects;
    }

    QueryResult execute(Statement.Explain ex, QueryContext ctx) {
        String settingsKind = ex.kind().equals("ESTIMATE") ? "PLAN" : ex.kind();
        Map<String, Long> settings = settings(ex.settings(), settingsKind);
        Statement st = ex.statement();
        switch (ex.kind()) {
            case "AST":
                refuse(settings, "graph", "EXPLAIN AST graph = 1");
                return lines(ExplainAst.of(st), null);
            case "SYNTAX":
                refuse(settings, "run_query_tree_passes", "EXPLAIN SYNTAX run_query_tree_passes = 1");
                refuse(settings, "oneline", "EXPLAIN SYNTAX oneline = 1");
                return lines(ExplainSyntax.of(st), st instanceof Statement.SelectStmt s ? s.query().format() : null);
            case "QUERY TREE":
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "EXPLAIN QUERY TREE is not supported by the stub");
            default:
                break;
        }
        if (!(st instanceof Statement.SelectStmt)) {
            if (ex.kind().equals("PIPELINE") && st instanceof Statement.Insert) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "EXPLAIN PIPELINE of an INSERT is not supported by the stub");
            }
            throw new ChException(ErrorCode.INCORRECT_QUERY, "Only SELECT is supported for EXPLAIN " + (ex.kind().equals("ESTIMATE") ? "ESTIMATE " : "") + "query");
        }
        Query q = ((Statement.SelectStmt) st).query();
        List<Column> header = selects.header(q, ctx); // the errors of the query explained come first, as in the engine
        if (ex.kind().equals("ESTIMATE")) {
            return estimate(q, ctx);
        }
        ExplainPlan plan = new ExplainPlan(catalog, ctx, header);
        if (ex.kind().equals("PIPELINE")) {
            refuse(settings, "graph", "EXPLAIN PIPELINE graph = 1");
            return lines(plan.pipeline(q), q.format());
        }
        refuse(settings, "json", "EXPLAIN PLAN json = 1");
        return lines(plan.plan(q, settings.getOrDefault("header", 0L) == 1, settings.getOrDefault("description", 1L) == 1,
            settings.getOrDefault("compact", 1L) == 1, settings.getOrDefault("pretty", 1L) == 1), q.format());
    }

    /** The explain settings by name, checked against the kind's list and their types as the engine checks them. */
    private static Map<String, Long> settings(Map<String, String> given, String kind) {
        Map<String, Long> out = new java.util.HashMap<>();
        List<String> known = SETTINGS.get(kind);
        for (Map.Entry<String, String> e : given.entrySet()) {
            String name = e.getKey();
            if (!known.contains(name)) {
                throw new ChException(ErrorCode.UNKNOWN_SETTING, "Unknown setting \"" + name + "\" for EXPLAIN " + kind
                    + " query. Supported settings: " + String.join(", ", known) + ".");
            }
            String v = e.getValue();
            if (v.startsWith("'")) {
                throw new ChException(ErrorCode.INVALID_SETTING_VALUE, "Invalid type String for setting \"" + name
                    + "\" only integer settings are supported.");
            }
            long n;
            try {
                n = Long.parseLong(v);
            } catch (NumberFormatException nfe) {
                throw new ChException(ErrorCode.INVALID_SETTING_VALUE, "Invalid type Float64 for setting \"" + name
                    + "\" only integer settings are supported.");
            }
            if (!INTEGER_SETTINGS.contains(name) && n != 0 && n != 1) {
                throw new ChException(ErrorCode.INVALID_SETTING_VALUE, "Invalid value " + n + " for setting \"" + name
                    + "\". Expected boolean type.");
            }
            out.put(name, n);
        }
        return out;
    }

    private static void refuse(Map<String, Long> settings, String name, String what) {
        if (settings.getOrDefault(name, 0L) != 0) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, what + " is not supported by the stub");
        }
    }

    /** EXPLAIN ESTIMATE: per MergeTree table the query reads, its active parts, their rows and granules. */
    private QueryResult estimate(Query q, QueryContext ctx) {
        List<Object[]> rows = new ArrayList<>();
        for (Query.Select s : q.selects()) {
            estimate(s.from(), ctx, rows, s);
        }
        return Interpreter.rows(ESTIMATE_HEADER, rows);
    }

    private void estimate(Query.From f, QueryContext ctx, List<Object[]> rows) {
        estimate(f, ctx, rows, null);
    }

    /** The rows EXPLAIN ESTIMATE gives for FROM; {@code select}, when given, reads it, and its WHERE may narrow the parts read. */
    private void estimate(Query.From f, QueryContext ctx, List<Object[]> rows, Query.Select select) {
        if (f instanceof Query.Join j) {
            estimate(j.left(), ctx, rows);
            estimate(j.right(), ctx, rows);
        } else if (f instanceof Query.ArrayJoin a) {
            estimate(a.source(), ctx, rows);
        } else if (f instanceof Query.SubqueryRef s) {
            for (Query.Select inner : s.query().selects()) {
                estimate(inner.from(), ctx, rows);
            }
        } else if (f instanceof Query.TableRef t) {
            String db = Interpreter.db(t.database(), ctx);
            if (catalog.find(db, t.table()) instanceof StorageMergeTree m && !m.activeParts().isEmpty()) {
                StorageMergeTree.ReadEstimate e = m.estimate(select == null ? null
                    : dev.chdedup.stub.exec.SelectExecutor.indexFilterOfParsed(select, m));
                rows.add(new Object[] {ByteStrings.fromText(db), ByteStrings.fromText(t.table()), e.parts(), e.rows(), e.granules()});
            }
        }
    }

    private static QueryResult lines(List<String> lines, String format) {
        List<Object[]> rows = new ArrayList<>(lines.size());
        for (String l : lines) {
            rows.add(new Object[] {ByteStrings.fromText(l)});
        }
        QueryResult.Rows r = (QueryResult.Rows) Interpreter.rows(EXPLAIN_HEADER, rows);
        return format == null ? r : new QueryResult.Rows(r.stream(), format);
    }
}
