package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * arrayReduce('f(params)', arr1, ...), as ClickHouse's FunctionArrayReduce: the aggregate f (any aggregate of the
 * {@link AggregateFunctionFactory}, with combinators and parameters) over the arrays' elements taken position by
 * position, one result per row. The name must be a constant string; the arrays must be of one length.
 */
final class FunctionArrayReduce {
    private static final String CATEGORY = "Arrays";

    private FunctionArrayReduce() {
    }

    static void register(FunctionFactory f) {
        f.register("arrayReduce", CATEGORY, (args, ctx) -> arrayReduce(args));
    }

    private static Evaluator arrayReduce(List<Evaluator> args) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Number of arguments for function arrayReduce doesn't match: passed "
                + args.size() + ", should be at least 2");
        }
        Evaluator name = args.get(0);
        if (!name.constant() || !(name.type().unwrap() instanceof dev.chdedup.stub.types.StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function arrayReduce must be constant string: name of"
                + " aggregate function");
        }
        List<DataType> elements = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
            DataType t = args.get(i).type();
            if (!(t instanceof ArrayType at)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + i + " for function arrayReduce must be an array but it has"
                    + " type " + t.name());
            }
            elements.add(at.element);
        }
        Object[] np = AggregateFunctionCombinators.nameAndParameters(Functions.constString(name));
        Aggregates.Aggregate agg = Aggregates.create((String) np[0], elements, (AggregateParameters) np[1], false);
        List<Evaluator> arrays = args.subList(1, args.size());
        return Evaluator.of(agg.type(), r -> {
            List<List<?>> values = new ArrayList<>();
            for (Evaluator a : arrays) {
                values.add((List<?>) a.eval(r));
            }
            int n = values.get(0).size();
            for (List<?> v : values) {
                if (v.size() != n) {
                    throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Lengths of all arrays passed to arrayReduce must be equal");
                }
            }
            Aggregates.State st = agg.factory().get();
            for (int i = 0; i < n; i++) {
                Object[] row = new Object[values.size()];
                for (int k = 0; k < row.length; k++) {
                    row[k] = values.get(k).get(i);
                }
                st.add(row);
            }
            return st.result();
        });
    }
}
