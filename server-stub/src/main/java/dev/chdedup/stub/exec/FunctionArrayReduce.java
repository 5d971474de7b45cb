package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.List;

/**
 * arrayReduce('agg', arr1, ...) and arrayReduceInRanges('agg', ranges, arr1, ...), as ClickHouse's arrayReduce.cpp:
 * the aggregate function named by the constant string (with its parameters, 'quantile(0.5)') over the elements of the
 * arrays taken in step, through the aggregates of {@link Aggregates} (parametric ones through their own maker); in
 * ranges, one result per (start, length) range, start counted from 1.
 */
final class FunctionArrayReduce {
    private FunctionArrayReduce() {
    }

    static void register(FunctionFactory f) {
        f.register("arrayReduce", FunctionsArray.CATEGORY, (args, ctx) -> compile("arrayReduce", args));
        f.register("arrayReduceInRanges", FunctionsArray.CATEGORY, (args, ctx) -> compile("arrayReduceInRanges", args));
    }

    private static Evaluator compile(String name, List<Evaluator> args) {
        boolean ranges = name.equals("arrayReduceInRanges");
        int first = ranges ? 2 : 1;
        if (args.size() < first + 1) {
            // the engine's codes differ between the two: TOO_FEW_ARGUMENTS_FOR_FUNCTION for arrayReduce
            throw new ChException(ranges ? ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH : ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION,
                "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be at least " + (first + 1));
        }
        if (!args.get(0).constant() || !Functions.isString(args.get(0).type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function " + name
                + " must be constant string: name of aggregate function");
        }
        if (ranges && !(args.get(1).type().unwrap() instanceof ArrayType rt && rt.element.unwrap() instanceof TupleType tt
            && tt.elements.size() == 2 && TypeRules.isInteger(tt.elements.get(0)) && TypeRules.isInteger(tt.elements.get(1)))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function " + name
                + " must be an array of pairs of integers");
        }
        List<DataType> elements = new ArrayList<>();
        for (int i = first; i < args.size(); i++) {
            if (!(args.get(i).type().unwrap() instanceof ArrayType at)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + i + " for function " + name
                    + " must be an array but it has type " + args.get(i).type().name());
            }
            elements.add(at.element);
        }
        Aggregates.Aggregate aggregate = aggregate(Functions.constString(args.get(0)), elements);
        List<Evaluator> arrays = args.subList(first, args.size());
        DataType result = ranges ? DataTypes.array(aggregate.type()) : aggregate.type();
        return Functions.strict(result, args.subList(1, args.size()), v -> {
            List<?>[] lists = new List<?>[arrays.size()];
            for (int i = 0; i < lists.length; i++) {
                lists[i] = (List<?>) v[first - 1 + i];
                if (lists[i].size() != lists[0].size()) {
                    throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "All arrays must be of same size");
                }
            }
            if (!ranges) {
                return reduce(aggregate, lists, 0, lists[0].size());
            }
            List<Object> out = new ArrayList<>();
            for (Object range : (List<?>) v[0]) {
                List<?> r = (List<?>) range;
                long start = ((Number) r.get(0)).longValue() - 1;
                long length = ((Number) r.get(1)).longValue();
                long from = Math.max(0, Math.min(lists[0].size(), start));
                long to = Math.max(from, Math.min(lists[0].size(), start + length));
                out.add(reduce(aggregate, lists, (int) from, (int) to));
            }
            return ArrayArgs.frozen(out);
        });
    }

    private static Object reduce(Aggregates.Aggregate aggregate, List<?>[] lists, int from, int to) {
        Aggregates.State state = aggregate.factory().get();
        for (int k = from; k < to; k++) {
            Object[] row = new Object[lists.length];
            for (int i = 0; i < lists.length; i++) {
                row[i] = lists[i].get(k);
            }
            state.add(row);
        }
        return state.result();
    }

    /**
     * The aggregate a name such as {@code max}, {@code maxIf} or {@code quantile(0.5)} stands for, over these types:
     * the {@link AggregateFunctionFactory}'s, with its combinators and parameters.
     */
    private static Aggregates.Aggregate aggregate(String text, List<DataType> types) {
        Object[] np = AggregateFunctionCombinators.nameAndParameters(text.trim());
        return Aggregates.create((String) np[0], types, (AggregateParameters) np[1], false);
    }
}
