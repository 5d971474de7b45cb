package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.types.AggregateFunctionStates;
import dev.chdedup.stub.types.AggregateFunctionType;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The combinators over any aggregate function, after ClickHouse's AggregateFunctionCombinatorFactory: a name that is
 * not registered is a registered aggregate followed by a suffix (checked longest first), each suffix wrapping the
 * aggregate of what precedes it: -If ({@link AggregateFunctionIf}), -Array, -Map, -ForEach, -Distinct, -OrNull,
 * -OrDefault, -Resample, -ArgMin/-ArgMax, -SimpleState, -State, -Merge and -MergeState
 * ({@link AggregateFunctionCombinatorsState}).
 */
final class AggregateFunctionCombinators {
    private static final String[] SUFFIXES = {"MergeState", "SimpleState", "OrDefault", "Resample", "Distinct", "ForEach", "OrNull",
        "ArgMin", "ArgMax", "State", "Merge", "Array", "Map", "If"};

    private AggregateFunctionCombinators() {
    }

    /** An aggregate's name split into the nested aggregate's name and the combinator suffix. */
    record Split(String nested, String suffix) {
    }

    /** {@code name} as a registered aggregate and a combinator, or null. */
    static Split split(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        for (String s : SUFFIXES) {
            if (lower.length() > s.length() && lower.endsWith(s.toLowerCase(Locale.ROOT))) {
                String nested = name.substring(0, name.length() - s.length());
                if (AggregateFunctionFactory.isAggregate(nested)) {
                    return new Split(nested, s);
                }
            }
        }
        return null;
    }

    static boolean isCombined(String name) {
        return AggregateFunctionFactory.find(name) == null && split(name) != null;
    }

    static Aggregates.Aggregate create(String name, Split split, List<DataType> args, AggregateParameters params, boolean distinct) {
        String base = split.nested();
        switch (split.suffix()) {
            case "If":
                return AggregateFunctionIf.create(name, base, args, params, distinct);
            case "Array":
                return arrayCombinator(name, base, args, params, distinct);
            case "ForEach":
                return forEach(name, base, args, params, distinct);
            case "Map":
                return mapCombinator(name, base, args, params, distinct);
            case "Distinct":
                return Aggregates.distinct(Aggregates.create(base, args, params, false));
            case "OrNull":
                return orNull(base, args, params, distinct);
            case "OrDefault":
                return orDefault(base, args, params, distinct);
            case "Resample":
                return resample(name, base, args, params, distinct);
            case "ArgMin":
            case "ArgMax":
                return argMinMax(name, base, args, params, distinct, split.suffix().equals("ArgMax"));
            case "SimpleState": {
                Aggregates.Aggregate inner = Aggregates.create(base, args, params, distinct);
                DataType t = DataTypes.parse("SimpleAggregateFunction(" + base + ", " + inner.type().name() + ")");
                return new Aggregates.Aggregate(t, inner.factory());
            }
            case "State":
                return AggregateFunctionCombinatorsState.state(base, args, params, distinct);
            default:
                return AggregateFunctionCombinatorsState.merge(name, base, split.suffix().equals("MergeState"), args);
        }
    }

    /** The parameters written in a state's function name ({@code groupArray(2)}): its name and parameters. */
    static Object[] nameAndParameters(String function) {
        int p = function.indexOf('(');
        if (p < 0) {
            return new Object[] {function, AggregateParameters.NONE};
        }
        Expr e = new Parser(function).standaloneExpr();
        List<Object> values = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        for (Expr a : ((Expr.Call) e).args()) {
            Object v = ((Expr.Literal) a).value();
            types.add(TypeRules.literalType(v));
            values.add(TypeRules.literalValue(v));
        }
        return new Object[] {function.substring(0, p).trim(), new AggregateParameters(values, types)};
    }

    /** fMerge(params) of the states of {@code t}: what finalizeAggregation applies to one state. */
    static Aggregates.Aggregate finalizing(AggregateFunctionType t) {
        Object[] np = nameAndParameters(t.function);
        return Aggregates.create(np[0] + "Merge", List.of(t), (AggregateParameters) np[1], false);
    }

    /** {@code name(params)} as a state type writes its function. */
    static String withParameters(String name, AggregateParameters params) {
        if (params.isEmpty()) {
            return name;
        }
        StringBuilder sb = new StringBuilder(name).append('(');
        for (int i = 0; i < params.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object v = params.get(i);
            if (v instanceof String) {
                params.type(i).formatQuoted(v, sb);
            } else {
                params.type(i).formatText(v, sb);
            }
        }
        return sb.append(')').toString();
    }

    private static List<DataType> elementTypes(String name, List<DataType> args, String what) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "-" + what + " aggregate functions require at least one argument");
        }
        List<DataType> elements = new ArrayList<>();
        for (DataType t : args) {
            if (!(t.unwrap() instanceof ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument for aggregate function "
                    + name + ", must be array");
            }
            elements.add(((ArrayType) t.unwrap()).element);
        }
        return elements;
    }

    /** The arrays of one row, checked to be of one size; null when the first is NULL. */
    private static int arraysSize(String name, Object[] args) {
        if (args[0] == null) {
            return -1;
        }
        int n = ((List<?>) args[0]).size();
        for (Object a : args) {
            if (a == null || ((List<?>) a).size() != n) {
                throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "All arrays passed to aggregate function " + name
                    + " must have the same size");
            }
        }
        return n;
    }

    private static Object[] at(Object[] args, int i) {
        Object[] at = new Object[args.length];
        for (int k = 0; k < args.length; k++) {
            at[k] = ((List<?>) args[k]).get(i);
        }
        return at;
    }

    /** -Array: f over the elements of its array arguments, taken together position by position (sumArray, groupUniqArrayArray). */
    private static Aggregates.Aggregate arrayCombinator(String name, String base, List<DataType> args, AggregateParameters params,
                                                        boolean distinct) {
        Aggregates.Aggregate inner = Aggregates.create(base, elementTypes(name, args, "Array"), params, distinct);
        return new Aggregates.Aggregate(inner.type(), () -> {
            Aggregates.State state = inner.factory().get();
            return new Aggregates.State() {
                @Override
                public void add(Object[] row) {
                    int n = arraysSize(name, row);
                    for (int i = 0; i < n; i++) {
                        state.add(at(row, i));
                    }
                }

                @Override
                public Object result() {
                    return state.result();
                }
            };
        });
    }

    /** -ForEach: one state of f per array position; the array of their results. */
    private static Aggregates.Aggregate forEach(String name, String base, List<DataType> args, AggregateParameters params, boolean distinct) {
        Aggregates.Aggregate inner = Aggregates.create(base, elementTypes(name, args, "ForEach"), params, distinct);
        return new Aggregates.Aggregate(DataTypes.array(inner.type()), () -> new Aggregates.State() {
            final List<Aggregates.State> states = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                int n = arraysSize(name, row);
                while (states.size() < n) {
                    states.add(inner.factory().get());
                }
                for (int i = 0; i < n; i++) {
                    states.get(i).add(at(row, i));
                }
            }

            @Override
            public Object result() {
                List<Object> out = new ArrayList<>(states.size());
                for (Aggregates.State s : states) {
                    out.add(s.result());
                }
                return Collections.unmodifiableList(out);
            }
        });
    }

    /** -Map: one state of f per key of the Map argument; a Map of their results, by key in order. */
    private static Aggregates.Aggregate mapCombinator(String name, String base, List<DataType> args, AggregateParameters params,
                                                      boolean distinct) {
        if (args.size() != 1 || !(args.get(0).unwrap() instanceof MapType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Aggregate function " + name + " requires map as argument");
        }
        MapType mt = (MapType) args.get(0).unwrap();
        Aggregates.Aggregate inner = Aggregates.create(base, List.of(mt.value), params, distinct);
        DataType kt = mt.key;
        return new Aggregates.Aggregate(DataTypes.map(kt, inner.type()), () -> new Aggregates.State() {
            final java.util.TreeMap<Object, Aggregates.State> states = new java.util.TreeMap<>(kt::compare);

            @Override
            public void add(Object[] row) {
                if (row[0] == null) {
                    return;
                }
                for (java.util.Map.Entry<Object, Object> e : MapEntries.entries(row[0])) {
                    states.computeIfAbsent(e.getKey(), k -> inner.factory().get()).add(new Object[] {e.getValue()});
                }
            }

            @Override
            public Object result() {
                List<Object> keys = new ArrayList<>(states.keySet());
                List<Object> values = new ArrayList<>();
                states.values().forEach(s -> values.add(s.result()));
                return MapEntries.of(keys, values);
            }
        });
    }

    /**
     * A state that knows whether any row reached {@code inner}; over an -If aggregate ({@code conditional}), a row
     * whose condition (its last argument) does not hold does not count.
     */
    private abstract static class Counting implements Aggregates.State {
        final Aggregates.State inner;
        final boolean conditional;
        boolean seen;

        Counting(Aggregates.State inner, boolean conditional) {
            this.inner = inner;
            this.conditional = conditional;
        }

        @Override
        public void add(Object[] args) {
            seen |= !conditional || holds(args[args.length - 1]);
            inner.add(args);
        }
    }

    /** Whether {@code name} is an aggregate with the -If combinator last. */
    private static boolean conditional(String name) {
        Split s = isCombined(name) ? split(name) : null;
        return s != null && s.suffix().equals("If");
    }

    /** -OrNull: f's result, Nullable, NULL when no row came. */
    private static Aggregates.Aggregate orNull(String base, List<DataType> args, AggregateParameters params, boolean distinct) {
        Aggregates.Aggregate inner = Aggregates.create(base, args, params, distinct);
        DataType t = inner.type();
        DataType rt = Aggregates.canBeInsideNullable(t) ? DataTypes.nullable(t) : t;
        boolean conditional = conditional(base);
        return new Aggregates.Aggregate(rt, () -> new Counting(inner.factory().get(), conditional) {
            @Override
            public Object result() {
                return seen ? inner.result() : rt.isNullable() ? null : t.defaultValue();
            }
        });
    }

    /** -OrDefault: f's result, or its type's default when no row came. */
    private static Aggregates.Aggregate orDefault(String base, List<DataType> args, AggregateParameters params, boolean distinct) {
        Aggregates.Aggregate inner = Aggregates.create(base, args, params, distinct);
        DataType t = inner.type();
        // ClickHouse's -OrDefault counts every row, whether an -If condition holds or not
        return new Aggregates.Aggregate(t, () -> new Counting(inner.factory().get(), false) {
            @Override
            public Object result() {
                return seen ? inner.result() : t.isNullable() ? null : t.defaultValue();
            }
        });
    }

    /**
     * -Resample(start, end, step): the last argument is a key; the rows whose key is in [start, end) go to the state
     * of their step, {@code (key - start) / step}; the array of the states' results. The last three parameters are
     * the combinator's, the others f's.
     */
    private static Aggregates.Aggregate resample(String name, String base, List<DataType> args, AggregateParameters params,
                                                 boolean distinct) {
        if (params.size() < 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name
                + " requires at least 3 parameters");
        }
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires at least one argument");
        }
        int n = params.size();
        long start = params.asLong(n - 3);
        long end = params.asLong(n - 2);
        long step = params.asLong(n - 1);
        if (step <= 0 || start >= end) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The step given in function " + name + " should not be zero");
        }
        DataType keyType = args.get(args.size() - 1).unwrap();
        if (!(keyType instanceof dev.chdedup.stub.types.IntType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types of argument for aggregate function " + name
                + ", the type of the last argument should be native integer or integer-like");
        }
        Aggregates.Aggregate inner = Aggregates.create(base, args.subList(0, args.size() - 1), params.dropLast(3), distinct);
        int size = (int) ((end - start + step - 1) / step);
        return new Aggregates.Aggregate(DataTypes.array(inner.type()), () -> new Aggregates.State() {
            final Aggregates.State[] states = new Aggregates.State[size];

            {
                for (int i = 0; i < size; i++) {
                    states[i] = inner.factory().get();
                }
            }

            @Override
            public void add(Object[] row) {
                Object k = row[row.length - 1];
                if (k == null) {
                    return;
                }
                long key = ((Number) k).longValue();
                if (key < start || key >= end) {
                    return;
                }
                states[(int) ((key - start) / step)].add(Arrays.copyOf(row, row.length - 1));
            }

            @Override
            public Object result() {
                List<Object> out = new ArrayList<>(size);
                for (Aggregates.State s : states) {
                    out.add(s.result());
                }
                return Collections.unmodifiableList(out);
            }
        });
    }

    /** -ArgMin / -ArgMax: f over the rows whose last argument is the least (greatest) of the group. */
    private static Aggregates.Aggregate argMinMax(String name, String base, List<DataType> args, AggregateParameters params,
                                                  boolean distinct, boolean max) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires at least two arguments");
        }
        DataType kt = args.get(args.size() - 1);
        Aggregates.Aggregate inner = Aggregates.create(base, args.subList(0, args.size() - 1), params, distinct);
        return new Aggregates.Aggregate(inner.type(), () -> new Aggregates.State() {
            Aggregates.State state = inner.factory().get();
            Object best;

            @Override
            public void add(Object[] row) {
                Object k = row[row.length - 1];
                if (k == null) {
                    return;
                }
                int c = best == null ? (max ? 1 : -1) : kt.compare(k, best);
                if (max ? c > 0 : c < 0) {
                    best = k;
                    state = inner.factory().get();
                    c = 0;
                }
                if (c == 0) {
                    state.add(Arrays.copyOf(row, row.length - 1));
                }
            }

            @Override
            public Object result() {
                return state.result();
            }
        });
    }

    /** Whether a -If / -State row's condition (its last argument) holds. */
    static boolean holds(Object c) {
        return c != null && Values.isTrue(c);
    }

    /** The typed name of {@code AggregateFunction(f(params), args)}. */
    static String stateTypeName(String base, AggregateParameters params, List<DataType> args) {
        StringBuilder sb = new StringBuilder("AggregateFunction(").append(withParameters(base, params));
        for (DataType t : args) {
            sb.append(", ").append(t.name());
        }
        return sb.append(')').toString();
    }

    /** The ClickHouse-shaped states of f over args, or null. */
    static AggregateFunctionStates.Ops ops(DataType stateType) {
        return ((AggregateFunctionType) stateType.unwrap()).ops;
    }
}
