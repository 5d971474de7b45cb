package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.Values;
import java.util.Arrays;
import java.util.List;

/**
 * The {@code -If} combinator, as ClickHouse's {@code AggregateFunctionIf}: {@code sumIf(x, cond)},
 * {@code countIf(cond)}, {@code uniqIf(x, cond)} and so on for every aggregate. The last argument is the
 * condition (UInt8, Bool or Nullable of them); a row reaches the nested aggregate, without the condition, only
 * where the condition is true (NULL counts as false).
 */
final class AggregateFunctionIf {
    private AggregateFunctionIf() {
    }

    static Aggregates.Aggregate create(String name, String nested, List<DataType> argTypes, AggregateParameters params, boolean distinct) {
        if (argTypes.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name
                + " requires at least one argument: the condition");
        }
        DataType cond = argTypes.get(argTypes.size() - 1);
        DataType plain = TypeRules.stripNullable(cond);
        if (!plain.name().equals(DataTypes.UINT8.name()) && !plain.name().equals(DataTypes.BOOL.name())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + cond.name()
                + " of last argument for aggregate function with If suffix. Must be UInt8 or Bool");
        }
        Aggregates.Aggregate inner = Aggregates.create(nested, argTypes.subList(0, argTypes.size() - 1), params, distinct);
        return new Aggregates.Aggregate(inner.type(), () -> {
            Aggregates.State state = inner.factory().get();
            return new Aggregates.State() {
                @Override
                public void add(Object[] args) {
                    Object c = args[args.length - 1];
                    if (c != null && Values.isTrue(c)) {
                        state.add(Arrays.copyOf(args, args.length - 1));
                    }
                }

                @Override
                public Object result() {
                    return state.result();
                }
            };
        });
    }
}
