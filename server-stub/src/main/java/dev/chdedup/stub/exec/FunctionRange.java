package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code range([start,] end[, step])}, as ClickHouse's FunctionRange: the integers from start (0) up to end, exclusive,
 * by step (1; a negative step counts down), in the arguments' common integer type; Nullable arguments are taken as
 * their values (NULL gives NULL), at most 500,000,000 elements.
 */
final class FunctionRange {
    private static final long MAX_ELEMENTS = 500_000_000L;

    private FunctionRange() {
    }

    static Evaluator compile(List<Evaluator> args) {
        if (args.isEmpty() || args.size() > 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function range needs 1..3 arguments; passed " + args.size());
        }
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        List<DataType> types = new ArrayList<>();
        for (Evaluator a : args) {
            DataType t = TypeRules.stripNullable(a.type());
            if (!TypeRules.isInteger(t) || t.unwrap() instanceof dev.chdedup.stub.types.BigIntType) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of argument of function range");
            }
            types.add(t);
        }
        DataType t = TypeRules.common(types);
        boolean unsigned64 = t.equals(DataTypes.UINT64);
        return Evaluator.of(DataTypes.array(t), r -> {
            long[] v = new long[args.size()];
            for (int i = 0; i < v.length; i++) {
                Object o = args.get(i).eval(r);
                if (o == null) {
                    throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal NULL argument of function range");
                }
                v[i] = ArrayArgs.longOf(o, args, i);
            }
            long start = v.length > 1 ? v[0] : 0;
            long end = v.length > 1 ? v[1] : v[0];
            long step = v.length > 2 ? v[2] : 1;
            if (step == 0) {
                throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "A call to function range underflows, the 3rd argument step can't be "
                    + "less or equal to zero");
            }
            List<Object> out = new ArrayList<>();
            if (unsigned64) {
                for (long x = start; Long.compareUnsigned(x, end) < 0; x += step) {
                    add(out, x);
                    if (Long.compareUnsigned(x + step, x) < 0) {
                        break;
                    }
                }
            } else if (step > 0) {
                for (long x = start; x < end; x += step) {
                    add(out, x);
                    if (x + step < x) {
                        break;
                    }
                }
            } else {
                for (long x = start; x > end; x += step) {
                    add(out, x);
                    if (x + step > x) {
                        break;
                    }
                }
            }
            return ArrayArgs.frozen(out);
        });
    }

    private static void add(List<Object> out, long x) {
        if (out.size() >= MAX_ELEMENTS) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "A call to function range would produce more than " + MAX_ELEMENTS
                + " array elements");
        }
        out.add(x);
    }
}
