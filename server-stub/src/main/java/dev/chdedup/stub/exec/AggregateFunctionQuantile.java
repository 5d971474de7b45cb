package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The quantile aggregates, as ClickHouse's AggregateFunctionQuantile: {@code quantile(level)(x)} and {@code median(x)}
 * (level 0.5) interpolate linearly between the two values around {@code level * (n - 1)} of the sorted values, a
 * Float64 (ClickHouse samples 8192 values by reservoir; below that it is this exact interpolation);
 * {@code quantileExact(level)(x)} and {@code medianExact} take the value at {@code floor(level * n)}, of the argument's
 * type; {@code quantiles(l1, l2, ...)} and {@code quantilesExact} give an array of them. A level is a number in
 * [0, 1]; NULLs are skipped; of no value the interpolating ones are nan and the exact ones the type's default.
 * Numeric arguments only.
 */
final class AggregateFunctionQuantile {
    private AggregateFunctionQuantile() {
    }

    static void register() {
        for (String n : List.of("quantile", "quantiles", "median", "quantileExact", "quantilesExact", "medianExact")) {
            AggregateFunctionFactory.register(n, (name, args, params) -> create(name, args, params.types(), params.values()));
        }
    }

    /** The aggregate {@code name(params)(argument)}; {@code paramTypes}/{@code params} the parameters' types and values. */
    static Aggregates.Aggregate create(String name, List<DataType> argTypes, List<DataType> paramTypes, List<Object> params) {
        String n = name.toLowerCase(Locale.ROOT);
        boolean exact = n.contains("exact");
        boolean many = n.startsWith("quantiles");
        if (argTypes.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires one argument");
        }
        DataType t = argTypes.get(0).unwrap();
        if (!(t instanceof IntType) && !(t instanceof FloatType)) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Aggregate function " + name + " of " + t.name() + " is not supported by the stub");
        }
        double[] levels;
        if (n.startsWith("median") || params.isEmpty() && !many) {
            if (n.startsWith("median") && !params.isEmpty()) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires no parameters");
            }
            levels = new double[] {0.5};
        } else {
            levels = new double[params.size()];
            for (int i = 0; i < levels.length; i++) {
                if (!(paramTypes.get(i).unwrap() instanceof FloatType) && !(paramTypes.get(i).unwrap() instanceof IntType)) {
                    throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert " + paramTypes.get(i).unwrap().name() + " to double");
                }
                levels[i] = ((Number) params.get(i)).doubleValue();
                if (!(levels[i] >= 0 && levels[i] <= 1)) {
                    throw new ChException(ErrorCode.PARAMETER_OUT_OF_BOUND, "Quantile level is out of range [0..1]");
                }
            }
            if (!many && levels.length != 1) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires one parameter");
            }
        }
        DataType one = exact ? t : DataTypes.FLOAT64;
        DataType type = many ? DataTypes.array(one) : one;
        boolean unsigned64 = t instanceof IntType && !((IntType) t).signed && ((IntType) t).bits == 64;
        return new Aggregates.Aggregate(type, () -> new Aggregates.State() {
            final List<Object> values = new ArrayList<>();

            @Override
            public void add(Object[] args) {
                if (args[0] != null) {
                    values.add(args[0]);
                }
            }

            @Override
            public Object result() {
                List<Object> sorted = new ArrayList<>(values);
                sorted.sort((a, b) -> compare(a, b, unsigned64));
                Object[] out = new Object[levels.length];
                for (int i = 0; i < levels.length; i++) {
                    out[i] = exact ? exactAt(sorted, levels[i], t) : interpolated(sorted, levels[i], unsigned64);
                }
                return many ? java.util.Arrays.asList(out) : out[0];
            }
        });
    }

    private static Object exactAt(List<Object> sorted, double level, DataType t) {
        if (sorted.isEmpty()) {
            return t.defaultValue();
        }
        int n = level < 1 ? (int) (level * sorted.size()) : sorted.size() - 1;
        return sorted.get(n);
    }

    private static double interpolated(List<Object> sorted, double level, boolean unsigned64) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        double index = level * (sorted.size() - 1);
        int left = (int) Math.floor(index);
        int right = Math.min(left + 1, sorted.size() - 1);
        double l = asDouble(sorted.get(left), unsigned64);
        double r = asDouble(sorted.get(right), unsigned64);
        double f = index - left;
        return (1 - f) * l + f * r;
    }

    private static double asDouble(Object v, boolean unsigned64) {
        if (unsigned64 && v instanceof Long && (Long) v < 0) {
            return new BigInteger(Long.toUnsignedString((Long) v)).doubleValue();
        }
        return ((Number) v).doubleValue();
    }

    private static int compare(Object a, Object b, boolean unsigned64) {
        if (a instanceof Long && b instanceof Long) {
            return unsigned64 ? Long.compareUnsigned((Long) a, (Long) b) : Long.compare((Long) a, (Long) b);
        }
        if (a instanceof BigInteger && b instanceof BigInteger) {
            return ((BigInteger) a).compareTo((BigInteger) b);
        }
        return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
    }
}
