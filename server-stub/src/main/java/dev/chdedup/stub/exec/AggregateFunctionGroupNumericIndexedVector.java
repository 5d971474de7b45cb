package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NumericIndexedVectorBSI;
import java.util.List;

/**
 * ClickHouse's groupNumericIndexedVector(index, value) (AggregateFunctionGroupNumericIndexedVector.h): adds each row's
 * value at its index into a {@link NumericIndexedVectorBSI}; the result is the Float64 sum of the vector's values,
 * and -State keeps the vector itself (the state numericIndexedVectorBuild also makes).
 */
final class AggregateFunctionGroupNumericIndexedVector {
    private AggregateFunctionGroupNumericIndexedVector() {
    }

    static void register() {
        AggregateFunctionFactory.register(FunctionsNumericIndexedVector.AGGREGATE, AggregateFunctionGroupNumericIndexedVector::create);
    }

    private static Aggregates.Aggregate create(String name, List<DataType> args, AggregateParameters params) {
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
        }
        if (!params.isEmpty() && !"BSI".equals(params.get(0) instanceof String s ? dev.chdedup.stub.types.ByteStrings.toText(s) : null)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Aggregate function " + name + " only supports BSI format");
        }
        DataType index = args.get(0).unwrap();
        DataType value = args.get(1).unwrap();
        if (!FunctionsNumericIndexedVector.indexType(index)) {
            throw FunctionsNumericIndexedVector.badIndex("");
        }
        if (!FunctionsNumericIndexedVector.valueType(value)) {
            throw FunctionsNumericIndexedVector.badValue("");
        }
        return new Aggregates.Aggregate(DataTypes.FLOAT64, () -> new Aggregates.State() {
            final NumericIndexedVectorBSI acc = new NumericIndexedVectorBSI((IntType) index, value);

            @Override
            public void add(Object[] row) {
                if (row[0] != null && row[1] != null) {
                    acc.addValue((Long) row[0], row[1]);
                }
            }

            @Override
            public Object result() {
                return acc.allValueSum();
            }
        });
    }
}
