package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compiles expression ASTs against an input header into {@link Evaluator}s: resolves identifiers (aliases
 * first, as ClickHouse does, with an alias referring to a same-named column inside its own definition), folds
 * constants, runs scalar and IN subqueries once. In aggregation mode, group keys and aggregate calls resolve to
 * slots of the aggregated row, and any other column reference is {@code NOT_AN_AGGREGATE}.
 */
public final class ExprCompiler {
    private final QueryContext ctx;
    private final List<Column> input;
    private final Map<String, Expr> aliases;
    private final SelectExecutor subqueries;
    /** In aggregation mode: group key expressions (slots 0..k-1) and aggregate calls (slots k..). */
    private final List<Expr> keys;
    private final List<Expr.Call> aggregates;
    private final Set<String> expanding = new HashSet<>();

    public ExprCompiler(QueryContext ctx, List<Column> input, Map<String, Expr> aliases, SelectExecutor subqueries) {
        this(ctx, input, aliases, subqueries, null, null);
    }

    ExprCompiler(QueryContext ctx, List<Column> input, Map<String, Expr> aliases, SelectExecutor subqueries,
                 List<Expr> keys, List<Expr.Call> aggregates) {
        this.ctx = ctx;
        this.input = input;
        this.aliases = aliases;
        this.subqueries = subqueries;
        this.keys = keys;
        this.aggregates = aggregates;
    }

    /** Replaces alias references by their definitions, recursively. */
    public Expr expand(Expr e) {
        if (e instanceof Expr.Ident) {
            Expr.Ident id = (Expr.Ident) e;
            // a dotted name may be one alias column (system.query_log's ProfileEvents.Names)
            if (id.parts().size() == 1 || aliases.containsKey(id.joined())) {
                String n = id.parts().size() == 1 ? id.last() : id.joined();
                Expr def = aliases.get(n);
                if (def != null && !expanding.contains(n) && !(def instanceof Expr.Ident && ((Expr.Ident) def).joined().equals(n))) {
                    expanding.add(n);
                    try {
                        return expand(def);
                    } finally {
                        expanding.remove(n);
                    }
                }
            }
            return e;
        }
        if (e instanceof Expr.Call) {
            Expr.Call c = (Expr.Call) e;
            List<Expr> args = new ArrayList<>(c.args().size());
            for (Expr a : c.args()) {
                args.add(expand(a));
            }
            return new Expr.Call(c.name(), args, c.distinct(), c.params());
        }
        if (e instanceof Expr.Cast) {
            return new Expr.Cast(expand(((Expr.Cast) e).expr()), ((Expr.Cast) e).typeName());
        }
        if (e instanceof Expr.Interval) {
            return new Expr.Interval(expand(((Expr.Interval) e).amount()), ((Expr.Interval) e).unit());
        }
        return e;
    }

    public Evaluator compile(Expr e) {
        return compileExpanded(expand(e));
    }

    private Evaluator compileExpanded(Expr e) {
        if (keys != null) {
            int k = keys.indexOf(e);
            if (k < 0 && e instanceof Expr.Ident id) {
                k = keyOfColumn(id);
            }
            if (k >= 0) {
                return Evaluator.column(keyType(k), k);
            }
            if (e instanceof Expr.Call && Aggregates.isAggregate(((Expr.Call) e).name())) {
                int a = aggregates.indexOf(e);
                return Evaluator.column(aggTypes.get(a), keys.size() + a);
            }
        }
        if (e instanceof Expr.Literal) {
            Object v = ((Expr.Literal) e).value();
            return Evaluator.constant(TypeRules.literalType(v), TypeRules.literalValue(v));
        }
        if (e instanceof Expr.Ident) {
            return identifier((Expr.Ident) e);
        }
        if (e instanceof Expr.Cast) {
            Evaluator inner = compileExpanded(((Expr.Cast) e).expr());
            return fold(ConversionFunctions.cast(inner, DataTypes.parse(((Expr.Cast) e).typeName())), inner.constant());
        }
        if (e instanceof Expr.Interval) {
            // INTERVAL n unit is toIntervalUnit(n), as ClickHouse's parser makes it
            Evaluator amount = compileExpanded(((Expr.Interval) e).amount());
            String unit = ((Expr.Interval) e).unit();
            String fn = "toInterval" + Character.toUpperCase(unit.charAt(0)) + unit.substring(1);
            return fold(ConversionFunctions.toInterval(fn, unit, List.of(amount)), amount.constant());
        }
        if (e instanceof Expr.Subquery) {
            return scalarSubquery(((Expr.Subquery) e).query());
        }
        if (e instanceof Expr.Star) {
            throw new ChException(ErrorCode.UNEXPECTED_EXPRESSION, "Asterisk is not allowed here");
        }
        if (e instanceof Expr.Lambda) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Lambda functions are not supported by the stub");
        }
        Expr.Call c = (Expr.Call) e;
        if (c.name().equals("globalIn") || c.name().equals("globalNotIn")) { // here, where the query runs, GLOBAL IN is IN
            c = new Expr.Call(c.name().equals("globalIn") ? "in" : "notIn", c.args(), c.distinct(), c.params());
        }
        if (!c.args().isEmpty() && c.args().get(0) instanceof Expr.Lambda) {
            return HigherOrderFunctions.compile(c, this);
        }
        if (Aggregates.isAggregate(c.name())) {
            throw new ChException(ErrorCode.ILLEGAL_AGGREGATION, "Aggregate function " + c.name() + " is found in a wrong place in the query");
        }
        if (keys == null && c.args().isEmpty() && (c.name().equals("shardNum") || c.name().equals("shardCount"))) {
            // over a distributed read, the shard's own scalars, which each row carries
            int i = columnIndex(new Expr.Ident(List.of(c.name().equals("shardNum") ? RemoteTables.SHARD_NUM : RemoteTables.SHARD_COUNT)));
            if (i >= 0) {
                return Evaluator.column(input.get(i).type(), i);
            }
        }
        if (FunctionJoinGet.handles(c.name())) {
            return FunctionJoinGet.compile(c, this, subqueries == null ? null : subqueries.catalog(), ctx);
        }
        List<Evaluator> args = new ArrayList<>(c.args().size());
        boolean allConst = true;
        for (int i = 0; i < c.args().size(); i++) {
            Expr a = c.args().get(i);
            Evaluator ev;
            if ((c.name().equals("in") || c.name().equals("notIn")) && i == 1 && a instanceof Expr.Subquery) {
                ev = inSubquery(((Expr.Subquery) a).query());
            } else {
                ev = compileExpanded(a);
            }
            allConst &= ev.constant();
            args.add(ev);
        }
        if (FunctionsExternalDictionaries.handles(c.name())) {
            // never folded: the dictionary may change between calls
            return FunctionsExternalDictionaries.compile(c.name(), args, subqueries == null ? null : subqueries.catalog(), ctx);
        }
        if (FunctionsTableIntrospection.handles(c.name())) {
            return FunctionsTableIntrospection.compile(c.name(), args, subqueries == null ? null : subqueries.catalog(), ctx);
        }
        if (c.name().equals("array") && !args.isEmpty() && c.args().stream().allMatch(ExprCompiler::isLiteral)) {
            // a literal array needs a common type of its elements, where the function array makes a Variant of them
            TypeRules.common(args.stream().map(Evaluator::type).toList());
        }
        if (FunctionFormatRow.handles(c.name())) { // its columns are named as the select list names its arguments
            List<String> names = c.args().stream().map(dev.chdedup.stub.sql.ColumnNames::of).toList();
            return FunctionFormatRow.compile(c.name(), args, names, ctx);
        }
        Evaluator f = Functions.compile(c.name(), args, ctx);
        return fold(f, allConst && !Functions.isNonDeterministic(c.name()));
    }

    /** A literal, or an array or tuple of literals: what ClickHouse's parser reads as one literal. */
    private static boolean isLiteral(Expr e) {
        return e instanceof Expr.Literal || e instanceof Expr.Call c && (c.name().equals("array") || c.name().equals("tuple"))
            && c.params() == 0 && c.args().stream().allMatch(ExprCompiler::isLiteral);
    }

    private final List<DataType> aggTypes = new ArrayList<>();
    private final List<DataType> keyTypes = new ArrayList<>();

    /** A compiler for a lambda's body: this one's input plus the lambda's parameters as trailing columns. */
    ExprCompiler withParameters(List<Column> params) {
        List<Column> in = new ArrayList<>(rowColumns());
        in.addAll(params);
        return new ExprCompiler(ctx, in, keys == null ? aliases : Map.of(), subqueries, null, null);
    }

    /** The columns of the rows this compiler's evaluators see: the input, or the aggregation slots. */
    private List<Column> rowColumns() {
        if (keys == null) {
            return input;
        }
        List<Column> slots = new ArrayList<>();
        for (int i = 0; i < keyTypes.size(); i++) {
            slots.add(new Column("\u0000key" + i, keyTypes.get(i)));
        }
        for (int i = 0; i < aggTypes.size(); i++) {
            slots.add(new Column("\u0000agg" + i, aggTypes.get(i)));
        }
        return slots;
    }

    int inputWidth() {
        return rowColumns().size();
    }

    /** Compiles an argument that is not a lambda (arrays of a higher-order function). */
    Evaluator compileArgument(Expr e) {
        return compileExpanded(e);
    }

    void setSlotTypes(List<DataType> keyTypes, List<DataType> aggTypes) {
        this.keyTypes.addAll(keyTypes);
        this.aggTypes.addAll(aggTypes);
    }

    private DataType keyType(int k) {
        return keyTypes.get(k);
    }

    private static Evaluator fold(Evaluator e, boolean constant) {
        if (constant && !e.constant()) {
            return Evaluator.constant(e.type(), e.eval(new Object[0]));
        }
        return e;
    }

    /** The input column {@code id} names: by its whole name, else a qualified name by its last part; -1 for none. */
    private int columnIndex(Expr.Ident id) {
        String full = id.joined();
        for (int i = 0; i < input.size(); i++) {
            if (input.get(i).name().equals(full)) {
                return i;
            }
        }
        if (id.parts().size() > 1) {
            for (int i = 0; i < input.size(); i++) {
                if (input.get(i).name().equals(id.last())) {
                    return i;
                }
            }
        }
        return -1;
    }

    /**
     * The GROUP BY key that names the same input column as {@code id} in other words ({@code t.database} and
     * {@code database}), or -1: the engine compares keys with the query's expressions once their identifiers are resolved.
     */
    private int keyOfColumn(Expr.Ident id) {
        int column = columnIndex(id);
        if (column < 0) {
            return -1;
        }
        for (int k = 0; k < keys.size(); k++) {
            if (keys.get(k) instanceof Expr.Ident key && columnIndex(key) == column) {
                return k;
            }
        }
        return -1;
    }

    private Evaluator identifier(Expr.Ident id) {
        String full = id.joined();
        int found = columnIndex(id);
        if (found < 0 && id.parts().size() > 1) {
            Evaluator sub = subcolumn(id);
            if (sub != null) {
                return sub;
            }
        }
        if (found < 0) {
            if (id.parts().size() == 1 && Functions.callableWithoutParentheses(full)) {
                // now, today, current_date...: a name no column has is the function of that name, as the engine resolves it
                return Functions.compile(full, List.of(), ctx);
            }
            if (keys != null) {
                throw new ChException(ErrorCode.UNKNOWN_IDENTIFIER, "Unknown expression identifier `" + full + "` in scope of the aggregated query");
            }
            throw new ChException(ErrorCode.UNKNOWN_IDENTIFIER, "Unknown expression identifier `" + full.replace("`", "\\`") + "` in scope SELECT. Maybe you meant: "
                + input.stream().map(Column::name).filter(n -> !n.startsWith("_")).limit(5).toList());
        }
        if (keys != null) {
            throw new ChException(ErrorCode.NOT_AN_AGGREGATE, "Column `" + full + "` is not under aggregate function and not in GROUP BY keys");
        }
        return Evaluator.column(input.get(found).type(), found);
    }

    /** A JSON path subcolumn of a column or of an alias of a JSON expression ({@code j.a.b}), or null. */
    private Evaluator subcolumn(Expr.Ident id) {
        Evaluator sub = JsonSubcolumns.resolve(keys == null ? input : List.of(), id);
        String head = id.parts().get(0);
        Expr def = aliases.get(head);
        Evaluator base = null;
        if (sub == null && def != null && !expanding.contains(head)) {
            base = compile(def);
            if (base.type() instanceof dev.chdedup.stub.types.JsonType) {
                sub = JsonSubcolumns.of(base, id.parts().subList(1, id.parts().size()));
            }
        }
        if (sub == null && base == null && keys == null) {
            for (int i = 0; i < input.size(); i++) {
                if (input.get(i).name().equals(head)) {
                    base = Evaluator.column(input.get(i).type(), i);
                    break;
                }
            }
        }
        return sub != null || base == null ? sub : tupleElements(base, id.parts().subList(1, id.parts().size()));
    }

    /**
     * {@code t.a.b} of a tuple {@code t} (a column or an alias) as ClickHouse reads it: the element named a (or numbered,
     * {@code t.1}), then its element b; null when an element is missing, so the name stays unknown.
     */
    private Evaluator tupleElements(Evaluator base, List<String> path) {
        Evaluator e = base;
        for (String part : path) {
            if (!(TypeRules.stripNullable(e.type()) instanceof dev.chdedup.stub.types.TupleType tt)) {
                return null;
            }
            Evaluator index;
            if (part.chars().allMatch(Character::isDigit) && !part.isEmpty()) {
                index = Evaluator.constant(DataTypes.UINT64, Long.parseLong(part));
            } else if (tt.names != null && tt.names.contains(part)) {
                index = Evaluator.constant(DataTypes.STRING, dev.chdedup.stub.types.ByteStrings.fromText(part));
            } else {
                return null;
            }
            e = Functions.compile("tupleElement", List.of(e, index), ctx);
        }
        return e;
    }

    private Evaluator scalarSubquery(Query q) {
        SelectExecutor.Result r = subqueries.executeToRows(q, ctx);
        if (r.columns().size() != 1) {
            List<DataType> ts = new ArrayList<>();
            r.columns().forEach(c -> ts.add(c.type()));
            DataType t = DataTypes.tuple(ts);
            Object v = r.rows().isEmpty() ? t.defaultValue() : List.of(r.rows().get(0));
            return Evaluator.constant(t, v);
        }
        DataType t = r.columns().get(0).type();
        if (r.rows().isEmpty()) {
            return Evaluator.constant(DataTypes.nullable(TypeRules.stripNullable(t)), null);
        }
        return Evaluator.constant(t, r.rows().get(0)[0]);
    }

    /** The set of an IN subquery: its values, or tuples of them when it has several columns. */
    private Evaluator inSubquery(Query q) {
        SelectExecutor.Result r = subqueries.executeToRows(q, ctx);
        boolean tuples = r.columns().size() > 1;
        List<DataType> ts = new ArrayList<>();
        r.columns().forEach(c -> ts.add(c.type()));
        DataType t = tuples ? DataTypes.tuple(ts) : ts.get(0);
        List<Object> vals = new ArrayList<>();
        for (Object[] row : r.rows()) {
            vals.add(tuples ? java.util.Collections.unmodifiableList(java.util.Arrays.asList(row.clone())) : row[0]);
        }
        return Evaluator.constant(DataTypes.array(t), java.util.Collections.unmodifiableList(vals));
    }

    /** Collects the aggregate calls in {@code e} (after alias expansion) into {@code out}, without duplicates. */
    public void collectAggregates(Expr e, List<Expr.Call> out) {
        collect(e, out);
    }

    /** Whether {@code e} calls an aggregate function (outside a subquery). */
    public static boolean hasAggregate(Expr e) {
        List<Expr.Call> out = new java.util.ArrayList<>();
        collect(e, out);
        return !out.isEmpty();
    }

    private static void collect(Expr e, List<Expr.Call> out) {
        if (e instanceof Expr.Call) {
            Expr.Call c = (Expr.Call) e;
            if (Aggregates.isAggregate(c.name())) {
                if (!out.contains(c)) {
                    out.add(c);
                }
                return;
            }
            for (Expr a : c.args()) {
                collect(a, out);
            }
        } else if (e instanceof Expr.Cast) {
            collect(((Expr.Cast) e).expr(), out);
        }
    }
}
