package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A MergeTree table's definition compiled from its CREATE statement: stored columns with their defaults, ALIAS
 * columns (computed when read, never stored), EPHEMERAL columns (given by an INSERT for the DEFAULT expressions of
 * others, never stored nor read), the partition
 * key, the sorting key, the table settings and the statement text kept for SHOW CREATE and for reloading.
 */
public record TableDefinition(String engine, List<Expr> engineArgs, List<TableColumn> columns, PartitionKey partitionKey,
                              Evaluator sortingKey, Map<String, String> clauseSql, Map<String, String> settings,
                              List<TableColumn> aliasColumns, List<TableColumn> ephemeralColumns, List<String> declaredOrder,
                              List<String> primaryKeyColumns) {

    public static final Set<String> ENGINES = Set.of("MergeTree", "ReplicatedMergeTree", "ReplacingMergeTree", "SummingMergeTree",
        "CollapsingMergeTree", "AggregatingMergeTree", "VersionedCollapsingMergeTree");

    /**
     * Whether the CREATE splits a Nested column into {@code name.field} arrays: {@code flatten_nested} of its SETTINGS
     * (where the interpreter also puts the query's own setting), 1 by default. With 0 the column stays one
     * Array(Tuple(...)) shown as Nested(...).
     */
    public static boolean flattenNested(Statement.CreateTable ct) {
        String v = ct.settings().get(FLATTEN_NESTED);
        return v == null || !(v.trim().equals("0") || v.trim().equalsIgnoreCase("false"));
    }

    public static final String FLATTEN_NESTED = "flatten_nested";

    public static TableDefinition from(Statement.CreateTable ct) {
        String engine = ct.engine() == null ? "MergeTree" : ct.engine();
        if (engine.equals("Distributed") && !ct.engineArgs().isEmpty() && ct.engineArgs().get(0) instanceof Expr.Ident cluster
            && !cluster.joined().equals("default")) {
            // the server's one cluster is named default: a Distributed table over another fails on its cluster first
            throw new ChException(ErrorCode.CLUSTER_DOESNT_EXIST, "Requested cluster '" + cluster.joined() + "' not found");
        }
        if (!ENGINES.contains(engine)) {
            throw new ChException(ErrorCode.UNKNOWN_STORAGE, "Unknown table engine " + engine
                + " (the stub implements " + String.join(", ", ENGINES) + ")");
        }
        if (ct.columns().isEmpty()) {
            throw new ChException(ErrorCode.EMPTY_LIST_OF_COLUMNS_PASSED, "Empty list of columns passed");
        }
        List<TableColumn> cols = new ArrayList<>();
        List<TableColumn> aliases = new ArrayList<>();
        List<TableColumn> ephemeral = new ArrayList<>();
        Set<String> names = new HashSet<>();
        boolean flattenNested = flattenNested(ct);
        for (Statement.ColumnDef c : ct.columns()) {
            if (!names.add(c.name())) {
                throw new ChException(ErrorCode.DUPLICATE_COLUMN, "Column " + c.name() + " already exists");
            }
            DataType t = c.type() != null ? DataTypes.parse(c.type()) : null;
            if (flattenNested && t instanceof ArrayType && ((ArrayType) t).isNested() && c.defaultKind() == null) {
                cols.addAll(ArrayType.flattenNested(c.name(), (ArrayType) t, (n, ty) -> new TableColumn(n, ty, null, null, null)));
                continue;
            }
            TableColumn tc = new TableColumn(c.name(), t, c.defaultKind(), c.defaultExpr(), c.defaultSql());
            if ("ALIAS".equals(c.defaultKind())) {
                aliases.add(tc);
            } else if ("EPHEMERAL".equals(c.defaultKind())) {
                if (t == null && c.defaultExpr() == null) {
                    throw new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: column " + c.name() + " EPHEMERAL needs a type or a default");
                }
                ephemeral.add(tc);
            } else {
                cols.add(tc);
            }
        }
        List<Column> header = new ArrayList<>();
        QueryContext ctx = new QueryContext("default", "default", "", Settings.DEFAULTS);
        for (int i = 0; i < ephemeral.size(); i++) { // the stored columns' defaults may read them
            TableColumn c = ephemeral.get(i);
            if (c.type() == null) {
                Evaluator e = new ExprCompiler(ctx, List.of(), Map.of(), null).compile(c.defaultExpr());
                ephemeral.set(i, new TableColumn(c.name(), e.type(), c.defaultKind(), c.defaultExpr(), c.defaultSql()));
            }
        }
        List<Column> ephemeralHeader = new ArrayList<>();
        for (TableColumn c : ephemeral) {
            ephemeralHeader.add(new Column(c.name(), c.type()));
        }
        for (int i = 0; i < cols.size(); i++) {
            TableColumn c = cols.get(i);
            if (c.type() == null) {
                Evaluator e = new ExprCompiler(ctx, header, Map.of(), null).compile(c.defaultExpr());
                c = new TableColumn(c.name(), e.type(), c.defaultKind(), c.defaultExpr(), c.defaultSql());
                cols.set(i, c);
            }
            header.add(new Column(c.name(), c.type()));
        }
        List<Column> insertHeader = new ArrayList<>(header);
        insertHeader.addAll(ephemeralHeader);
        for (TableColumn c : cols) {
            if (c.defaultExpr() != null) {
                new ExprCompiler(ctx, insertHeader, Map.of(), null).compile(c.defaultExpr());
            }
        }
        // ALIAS columns are computed from the stored ones when read; they take the declared type or the expression's
        for (int i = 0; i < aliases.size(); i++) {
            TableColumn a = aliases.get(i);
            Evaluator e = new ExprCompiler(ctx, header, Map.of(), null).compile(a.defaultExpr());
            if (a.type() == null) {
                aliases.set(i, new TableColumn(a.name(), e.type(), a.defaultKind(), a.defaultExpr(), a.defaultSql()));
            }
        }
        // without ORDER BY and PRIMARY KEY the key is empty (ORDER BY tuple()); CREATE refuses that where
        // create_table_empty_primary_key_by_default is off (Interpreter.createTable)
        Evaluator partition = ct.partitionBy() == null || isEmptyTuple(ct.partitionBy()) ? null
            : new ExprCompiler(ctx, header, Map.of(), null).compile(ct.partitionBy());
        Expr order = ct.orderBy() != null ? ct.orderBy() : ct.primaryKey() != null ? ct.primaryKey() : new Expr.Call("tuple", List.of(), false, 0);
        Evaluator sorting = isEmptyTuple(order) ? null : new ExprCompiler(ctx, header, Map.of(), null).compile(order);
        Map<String, String> settings = MergeTreeSettings.forCreate(ct.settings(), engine);
        List<String> declared = new ArrayList<>(); // the column names as CREATE gave them (a Nested column once)
        for (Statement.ColumnDef c : ct.columns()) {
            declared.add(c.name());
        }
        return new TableDefinition(engine, ct.engineArgs(), List.copyOf(cols), new PartitionKey(partition), sorting,
            ct.clauseSql(), settings, List.copyOf(aliases), List.copyOf(ephemeral), List.copyOf(declared),
            primaryKeyColumns(ct.primaryKey() != null ? ct.primaryKey() : order, cols));
    }

    /**
     * The stored columns the primary key starts with, up to its first element that is not a bare stored column: what
     * the primary index ({@code primary.idx}) holds for each granule. The primary key is PRIMARY KEY, else ORDER BY.
     */
    private static List<String> primaryKeyColumns(Expr key, List<TableColumn> stored) {
        List<Expr> elements = key instanceof Expr.Call && ((Expr.Call) key).name().equals("tuple") ? ((Expr.Call) key).args() : List.of(key);
        List<String> names = new ArrayList<>();
        for (Expr e : elements) {
            if (!(e instanceof Expr.Ident) || ((Expr.Ident) e).parts().size() != 1) {
                break;
            }
            String name = ((Expr.Ident) e).parts().get(0);
            if (stored.stream().noneMatch(c -> c.name().equals(name))) {
                break;
            }
            names.add(name);
        }
        return List.copyOf(names);
    }

    /** Every column in the order CREATE declared them: what DESCRIBE, SHOW CREATE and system.columns list. */
    public List<TableColumn> allColumns() {
        List<TableColumn> all = new ArrayList<>(columns);
        all.addAll(ephemeralColumns);
        all.addAll(aliasColumns);
        List<String> order = declaredOrder;
        if (!ephemeralColumns.isEmpty() || !aliasColumns.isEmpty()) {
            all.sort(java.util.Comparator.comparingInt(c -> {
                int i = order.indexOf(c.name().contains(".") && !order.contains(c.name()) ? c.name().substring(0, c.name().indexOf('.')) : c.name());
                return i < 0 ? Integer.MAX_VALUE : i;
            })); // stable: a Nested column's arrays stay together, in order
        }
        return all;
    }



    /**
     * The columns an INSERT may name: the stored ones, then the EPHEMERAL ones (the first {@code columns().size()}
     * of a completed row are stored, the rest only feed DEFAULT expressions).
     */
    public List<TableColumn> insertColumns() {
        if (ephemeralColumns.isEmpty()) {
            return columns;
        }
        List<TableColumn> all = new ArrayList<>(columns);
        all.addAll(ephemeralColumns);
        return all;
    }

    private static boolean isEmptyTuple(Expr e) {
        return e instanceof Expr.Call && ((Expr.Call) e).name().equals("tuple") && ((Expr.Call) e).args().isEmpty();
    }
}
