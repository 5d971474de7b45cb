package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.AggregateFunctionType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;

/**
 * The functions of ClickHouse's "Other" category over aggregate function states: initializeAggregation('fState', x...)
 * (the state of f over each row alone, or f's value when the name has no State), and runningAccumulate(state[,
 * grouping]) (the states of a block merged row by row from its first, afresh where the grouping value changes, each
 * row the value of the states merged so far). The aggregates are those of {@link AggregateFunctionFactory}.
 */
final class FunctionsAggregateState {
    private static final String CATEGORY = "Other";

    private FunctionsAggregateState() {
    }

    static void register(FunctionFactory f) {
        f.register("initializeAggregation", CATEGORY, (args, ctx) -> initializeAggregation(args));
        f.register("runningAccumulate", CATEGORY, (args, ctx) -> runningAccumulate(args, ctx));
    }

    private static Evaluator initializeAggregation(List<Evaluator> args) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function initializeAggregation requires at least 2 arguments");
        }
        Evaluator name = args.get(0);
        if (!name.constant() || !(name.type() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function initializeAggregation must be"
                + " constant string: name of aggregate function");
        }
        Object[] np = AggregateFunctionCombinators.nameAndParameters(Functions.constString(name));
        List<Evaluator> values = args.subList(1, args.size());
        List<DataType> types = new ArrayList<>();
        for (Evaluator e : values) {
            types.add(e.type());
        }
        Aggregates.Aggregate agg = Aggregates.create((String) np[0], types, (AggregateParameters) np[1], false);
        return Evaluator.of(agg.type(), r -> {
            Object[] row = new Object[values.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = values.get(i).eval(r);
            }
            Aggregates.State st = agg.factory().get();
            st.add(row);
            return st.result();
        });
    }

    private static Evaluator runningAccumulate(List<Evaluator> args, QueryContext ctx) {
        if (args.isEmpty() || args.size() > 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Incorrect number of arguments of function"
                + " runningAccumulate. Must be 1 or 2");
        }
        FunctionsBlock.checkAllowed("runningAccumulate", ctx);
        DataType t = args.get(0).type();
        if (!(t instanceof AggregateFunctionType at)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function runningAccumulate must have type"
                + " AggregateFunction - state of aggregate function");
        }
        Aggregates.Aggregate merge = AggregateFunctionCombinators.finalizing(at);
        DataType grouping = args.size() > 1 ? args.get(1).type() : null;
        return new BlockFunction(merge.type(), args) {
            @Override
            Object[] block(Object[][] values, int size) {
                Object[] out = new Object[size];
                Aggregates.State st = null;
                for (int i = 0; i < size; i++) {
                    if (st == null || grouping != null && !same(values[1][i], values[1][i - 1])) {
                        st = merge.factory().get();
                    }
                    st.add(new Object[] {values[0][i]});
                    out[i] = st.result();
                }
                return out;
            }

            private boolean same(Object a, Object b) {
                return a == null || b == null ? a == b : TypeRules.compare(a, grouping, b, grouping) == 0;
            }
        };
    }
}
