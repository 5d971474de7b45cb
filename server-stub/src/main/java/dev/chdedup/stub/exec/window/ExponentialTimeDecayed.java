package dev.chdedup.stub.exec.window;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * exponentialTimeDecayedSum, Max, Count and Avg ({@code f(decay)(value, time)}; Count takes the time alone), the
 * window functions of ClickHouse's WindowTransform.cpp: over the frame, each row's value weighted by
 * {@code exp((time - t) / decay)}, {@code t} the time of the frame's last row; Sum adds them, Max takes the largest,
 * Count adds the weights, Avg is Sum over Count. Float64; an empty frame is 0 (Sum, Count) or nan (Max, Avg).
 */
final class ExponentialTimeDecayed {
    private ExponentialTimeDecayed() {
    }

    static WindowFunctions.Function create(Expr.Call c, List<Evaluator> all) {
        String name = c.name();
        if (c.params() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " takes exactly one parameter");
        }
        List<Evaluator> args = all.subList(0, all.size() - 1);
        boolean count = name.endsWith("Count");
        if (args.size() != (count ? 1 : 2)) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " takes exactly "
                + (count ? "one argument" : "two arguments"));
        }
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type();
            DataType u = t.unwrap();
            if (t.isNullable() || !(u instanceof IntType || u instanceof FloatType || u instanceof DecimalType || u instanceof DateType
                || u instanceof DateTimeType)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument " + i + " must be a number, '" + t.name() + "' given");
            }
        }
        Evaluator decayParameter = all.get(all.size() - 1);
        Object p = decayParameter.eval(new Object[0]);
        if (!(p instanceof Number) && !(p instanceof Boolean)) {
            throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert " + decayParameter.type().name() + " to double");
        }
        double decay = Values.toNumber(p, decayParameter.type()).doubleValue();
        Evaluator value = count ? null : args.get(0);
        Evaluator time = args.get(count ? 0 : 1);
        String kind = name.substring("exponentialTimeDecayed".length());
        return new WindowFunctions.Function(DataTypes.FLOAT64) {
            @Override
            boolean readsFrame() {
                return true;
            }

            @Override
            Object value(WindowFunctions.Partition part, int r) {
                int s = part.frameStart[r];
                int e = part.frameEnd[r];
                if (s >= e) {
                    return kind.equals("Sum") || kind.equals("Count") ? 0.0 : Double.NaN;
                }
                double last = number(time, part.rows.get(e - 1));
                double sum = 0;
                double weights = 0;
                double max = Double.NEGATIVE_INFINITY;
                for (int j = s; j < e; j++) {
                    Object[] row = part.rows.get(j);
                    double weight = Math.exp((number(time, row) - last) / decay);
                    weights += weight;
                    if (value != null) {
                        double v = number(value, row) * weight;
                        sum += v;
                        max = Math.max(max, v);
                    }
                }
                switch (kind) {
                    case "Sum": return sum;
                    case "Max": return max;
                    case "Count": return weights;
                    default: return sum / weights;
                }
            }
        };
    }

    private static double number(Evaluator e, Object[] row) {
        return Values.toNumber(e.eval(row), e.type()).doubleValue();
    }
}
