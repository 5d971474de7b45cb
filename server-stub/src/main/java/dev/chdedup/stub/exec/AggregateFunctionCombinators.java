package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.AggregateFunctionStates;
import dev.chdedup.stub.types.AggregateFunctionType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The -State, -Merge, -MergeState and -Array combinators over the aggregate functions of {@link Aggregates}:
 * {@code fState(x)} returns an {@code AggregateFunction(f, T)} state, {@code fMerge(state)} finishes the states of
 * a group into f's result, {@code fMergeState(state)} merges them into one state. A state is the list of argument
 * rows f has seen ({@link AggregateFunctionType}), so merging works for every function. Mirrors ClickHouse's
 * {@code AggregateFunctionState} and {@code AggregateFunctionMerge}; {@code fIfState} is f's state of the rows whose
 * condition holds.
 */
final class AggregateFunctionCombinators {
    private static final String[] SUFFIXES = {"mergestate", "state", "merge", "array"};

    private AggregateFunctionCombinators() {
    }

    /** The suffix {@code name} (lower case) ends with, when what precedes it is an aggregate function, else null. */
    private static String suffix(String lower) {
        for (String s : SUFFIXES) {
            if (lower.length() > s.length() && lower.endsWith(s) && Aggregates.isAggregate(lower.substring(0, lower.length() - s.length()))) {
                return s;
            }
        }
        return null;
    }

    static boolean isCombined(String name) {
        return suffix(name.toLowerCase(Locale.ROOT)) != null;
    }

    /** The combined aggregate {@code rawName}, or null when it has no combinator. */
    static Aggregates.Aggregate create(String rawName, List<DataType> argTypes) {
        String lower = rawName.toLowerCase(Locale.ROOT);
        String suffix = suffix(lower);
        if (suffix == null) {
            return null;
        }
        String base = rawName.substring(0, rawName.length() - suffix.length());
        if (suffix.equals("array")) {
            return arrayCombinator(rawName, base, argTypes);
        }
        if (suffix.equals("state")) {
            Aggregates.create(base, argTypes, false); // checks the arguments
            // fIfState keeps f's state of the rows whose condition holds, as ClickHouse types it: AggregateFunction(f, ...)
            String unconditional = AggregateFunctionIf.nestedName(base);
            boolean conditional = unconditional != null;
            List<DataType> stateArgs = conditional ? argTypes.subList(0, argTypes.size() - 1) : argTypes;
            DataType type = DataTypes.parse(typeName(conditional ? unconditional : base, stateArgs));
            AggregateFunctionStates.Ops ops = ((AggregateFunctionType) type.unwrap()).ops;
            return new Aggregates.Aggregate(type, () -> ops != null ? new OpsState(ops, conditional, false) : new Collecting(conditional));
        }
        if (argTypes.size() != 1 || !(argTypes.get(0).unwrap() instanceof AggregateFunctionType)
            || !((AggregateFunctionType) argTypes.get(0).unwrap()).function.equalsIgnoreCase(base)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + (argTypes.isEmpty() ? "(none)" : argTypes.get(0).name())
                + " of argument for aggregate function " + rawName + ", expected AggregateFunction(" + base + ", ...) or equivalent type");
        }
        AggregateFunctionType state = (AggregateFunctionType) argTypes.get(0).unwrap();
        if (state.ops != null) { // ClickHouse's states: merged by the function's own merge
            boolean finish = !suffix.equals("mergestate");
            DataType type = finish ? Aggregates.create(base, state.arguments, false).type() : state;
            return new Aggregates.Aggregate(type, () -> new OpsState(state.ops, false, true) {
                @Override
                public Object result() {
                    return finish ? state.ops.finish(acc) : acc;
                }
            });
        }
        if (suffix.equals("mergestate")) {
            return new Aggregates.Aggregate(state, () -> new Merging(null));
        }
        Aggregates.Aggregate inner = Aggregates.create(base, state.arguments, false);
        return new Aggregates.Aggregate(inner.type(), () -> new Merging(inner.factory().get()));
    }

    /** -Array: f over the elements of its array arguments, taken together position by position (sumArray, groupUniqArrayArray). */
    private static Aggregates.Aggregate arrayCombinator(String rawName, String base, List<DataType> argTypes) {
        if (argTypes.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "-Array aggregate functions require at least one argument");
        }
        List<DataType> elements = new ArrayList<>();
        for (DataType t : argTypes) {
            if (!(t.unwrap() instanceof dev.chdedup.stub.types.ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument for aggregate function "
                    + rawName + ", must be array");
            }
            elements.add(((dev.chdedup.stub.types.ArrayType) t.unwrap()).element);
        }
        Aggregates.Aggregate inner = Aggregates.create(base, elements, false);
        return new Aggregates.Aggregate(inner.type(), () -> {
            Aggregates.State state = inner.factory().get();
            return new Aggregates.State() {
                @Override
                public void add(Object[] args) {
                    if (args[0] == null) {
                        return;
                    }
                    int n = ((List<?>) args[0]).size();
                    for (Object a : args) {
                        if (a == null || ((List<?>) a).size() != n) {
                            throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "All arrays passed to aggregate function " + rawName
                                + " must have the same size");
                        }
                    }
                    for (int i = 0; i < n; i++) {
                        Object[] at = new Object[args.length];
                        for (int k = 0; k < args.length; k++) {
                            at[k] = ((List<?>) args[k]).get(i);
                        }
                        state.add(at);
                    }
                }

                @Override
                public Object result() {
                    return state.result();
                }
            };
        });
    }

    private static String typeName(String base, List<DataType> argTypes) {
        StringBuilder sb = new StringBuilder("AggregateFunction(").append(base);
        for (DataType t : argTypes) {
            sb.append(", ").append(t.name());
        }
        return sb.append(')').toString();
    }

    /**
     * A state of {@link AggregateFunctionStates}: -State adds argument rows (with -If those whose condition holds),
     * -Merge / -MergeState ({@code merging}) merge the states given.
     */
    private static class OpsState implements Aggregates.State {
        final AggregateFunctionStates.Ops ops;
        final boolean conditional;
        final boolean merging;
        final Object acc;

        OpsState(AggregateFunctionStates.Ops ops, boolean conditional, boolean merging) {
            this.ops = ops;
            this.conditional = conditional;
            this.merging = merging;
            this.acc = ops.create();
        }

        @Override
        public void add(Object[] args) {
            if (merging) {
                if (args[0] != null) {
                    ops.mergeInto(acc, args[0]);
                }
                return;
            }
            if (conditional) {
                if (!dev.chdedup.stub.types.Values.isTrue(args[args.length - 1])) {
                    return;
                }
                args = Arrays.copyOf(args, args.length - 1);
            }
            ops.add(acc, args);
        }

        @Override
        public Object result() {
            return acc;
        }
    }

    /** -State: keeps every argument row (with -If, those whose condition, the last argument, holds, without it). */
    private static final class Collecting implements Aggregates.State {
        final List<List<Object>> rows = new ArrayList<>();
        final boolean conditional;

        Collecting(boolean conditional) {
            this.conditional = conditional;
        }

        @Override
        public void add(Object[] args) {
            if (conditional) {
                if (!dev.chdedup.stub.types.Values.isTrue(args[args.length - 1])) {
                    return;
                }
                args = Arrays.copyOf(args, args.length - 1);
            }
            rows.add(Collections.unmodifiableList(Arrays.asList(args.clone())));
        }

        @Override
        public Object result() {
            return Collections.unmodifiableList(new ArrayList<>(rows));
        }
    }

    /** -Merge (into {@code inner}'s result) and -MergeState (into one state, when {@code inner} is null). */
    private static final class Merging implements Aggregates.State {
        final Aggregates.State inner;
        final List<List<Object>> rows = new ArrayList<>();

        Merging(Aggregates.State inner) {
            this.inner = inner;
        }

        @Override
        public void add(Object[] args) {
            if (args[0] == null) {
                return;
            }
            for (List<Object> row : AggregateFunctionType.rows(args[0])) {
                if (inner != null) {
                    inner.add(row.toArray());
                } else {
                    rows.add(row);
                }
            }
        }

        @Override
        public Object result() {
            return inner != null ? inner.result() : Collections.unmodifiableList(new ArrayList<>(rows));
        }
    }
}
