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

/**
 * The -State, -Merge and -MergeState combinators, as ClickHouse's AggregateFunctionState and AggregateFunctionMerge:
 * {@code fState(x)} returns an {@code AggregateFunction(f(params), T)} state, {@code fMerge(state)} finishes the
 * states of a group into f's result, {@code fMergeState(state)} merges them into one state. A state is ClickHouse's
 * where {@link AggregateFunctionStates} holds f's, else the list of argument rows f has seen
 * ({@link AggregateFunctionType}), so merging works for every function; {@code fIfState} is f's state of the rows
 * whose condition holds.
 */
final class AggregateFunctionCombinatorsState {
    private AggregateFunctionCombinatorsState() {
    }

    static Aggregates.Aggregate state(String base, List<DataType> args, AggregateParameters params, boolean distinct) {
        Aggregates.create(base, args, params, distinct); // checks the arguments and parameters
        // fIfState keeps f's state of the rows whose condition holds, as ClickHouse types it: AggregateFunction(f, ...)
        AggregateFunctionCombinators.Split split = AggregateFunctionCombinators.isCombined(base) ? AggregateFunctionCombinators.split(base) : null;
        boolean conditional = split != null && split.suffix().equals("If");
        List<DataType> stateArgs = conditional ? args.subList(0, args.size() - 1) : args;
        DataType type = DataTypes.parse(AggregateFunctionCombinators.stateTypeName(conditional ? split.nested() : base, params, stateArgs));
        AggregateFunctionStates.Ops ops = AggregateFunctionCombinators.ops(type);
        return new Aggregates.Aggregate(type, () -> ops != null ? new OpsState(ops, conditional, false) : new Collecting(conditional));
    }

    static Aggregates.Aggregate merge(String name, String base, boolean mergeState, List<DataType> args) {
        AggregateFunctionType state = args.size() == 1 && args.get(0).unwrap() instanceof AggregateFunctionType a ? a : null;
        Object[] np = state == null ? null : AggregateFunctionCombinators.nameAndParameters(state.function);
        if (state == null || !((String) np[0]).equalsIgnoreCase(base)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + (args.isEmpty() ? "(none)" : args.get(0).name())
                + " of argument for aggregate function " + name + ", expected AggregateFunction(" + base + ", ...) or equivalent type");
        }
        AggregateParameters params = (AggregateParameters) np[1];
        if (state.ops != null) { // ClickHouse's states: merged by the function's own merge
            DataType type = mergeState ? state : Aggregates.create(base, state.arguments, params, false).type();
            return new Aggregates.Aggregate(type, () -> new OpsState(state.ops, false, true) {
                @Override
                public Object result() {
                    return mergeState ? acc : state.ops.finish(acc);
                }
            });
        }
        if (mergeState) {
            return new Aggregates.Aggregate(state, () -> new Merging(null));
        }
        Aggregates.Aggregate inner = Aggregates.create(base, state.arguments, params, false);
        return new Aggregates.Aggregate(inner.type(), () -> new Merging(inner.factory().get()));
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
                if (!AggregateFunctionCombinators.holds(args[args.length - 1])) {
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
                if (!AggregateFunctionCombinators.holds(args[args.length - 1])) {
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
