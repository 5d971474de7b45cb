package dev.chdedup.stub.exec.timeseries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.AggregateFunctionFactory;
import dev.chdedup.stub.exec.AggregateParameters;
import dev.chdedup.stub.exec.Aggregates;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The time series aggregates (ClickHouse's src/AggregateFunctions/TimeSeries): timeSeriesGroupArray (the samples
 * sorted by timestamp), timeSeriesLastTwoSamples (the latest two, newest first) and the timeSeries*ToGrid functions
 * ({@link TimeSeriesGridKind}) of {@code (start, end, step, window[, predict_offset])}: one Nullable value of the
 * values' type a grid point {@code start, start + step, ... end}. Samples come as {@code (timestamp, value)} rows or
 * as two arrays a row; timestamps are DateTime, UInt32 or DateTime64 (the parameters in seconds, converted to its
 * scale), values Float32 or Float64.
 */
public final class AggregateFunctionsTimeSeries {
    private AggregateFunctionsTimeSeries() {
    }

    public static void register() {
        AggregateFunctionFactory.register("timeSeriesGroupArray", (name, args, p) -> {
            p.none(name);
            Arguments a = Arguments.of(name, args, true);
            DataType result = DataTypes.array(DataTypes.tuple(List.of(a.timestamp, a.value)));
            return new Aggregates.Aggregate(result, () -> new SamplesState(a) {
                @Override
                public Object result() {
                    List<Object> out = new ArrayList<>();
                    for (Map.Entry<Long, Double> e : samples.byTimestamp.entrySet()) {
                        out.add(List.of(e.getKey(), a.boxed(e.getValue())));
                    }
                    return out;
                }
            });
        });
        AggregateFunctionFactory.register("timeSeriesLastTwoSamples", (name, args, p) -> {
            if (!p.isEmpty()) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " does not accept parameters");
            }
            Arguments a = Arguments.of(name, args, false);
            DataType result = DataTypes.array(DataTypes.tuple(List.of(a.timestamp, a.value)));
            return new Aggregates.Aggregate(result, () -> new SamplesState(a) {
                @Override
                public Object result() {
                    List<Object> out = new ArrayList<>();
                    for (Map.Entry<Long, Double> e : samples.byTimestamp.descendingMap().entrySet()) {
                        if (out.size() == 2) {
                            break;
                        }
                        out.add(List.of(e.getKey(), a.boxed(e.getValue())));
                    }
                    return out;
                }
            });
        });
        for (TimeSeriesGridKind k : TimeSeriesGridKind.values()) {
            AggregateFunctionFactory.register(k.function, (name, args, p) -> grid(k, name, args, p));
        }
    }

    /** The argument types: the timestamps' and the values' (of the arrays' elements when given as arrays). */
    record Arguments(DataType timestamp, DataType value, boolean arrays) {
        static Arguments of(String name, List<DataType> args, boolean arraysAllowed) {
            if (args.size() != 2) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires two arguments");
            }
            DataType ts = args.get(0);
            DataType v = args.get(1);
            boolean arrays = arraysAllowed && ts instanceof ArrayType && v instanceof ArrayType;
            if (arraysAllowed && (ts instanceof ArrayType) != (v instanceof ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal combination of argument type " + ts.name() + " and "
                    + v.name() + " for aggregate function " + name + ", expected both arguments to be arrays or not arrays");
            }
            if (arrays) {
                ts = ((ArrayType) ts).element;
                v = ((ArrayType) v).element;
            }
            boolean tsOk = ts instanceof DateTimeType || ts instanceof DateTime64Type
                || ts instanceof IntType it && !it.signed && (it.bits == 32 || !arraysAllowed);
            if (!tsOk) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + ts.name() + " of 1st argument (timestamp)"
                    + " for aggregate function " + name);
            }
            if (!(v instanceof FloatType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + v.name() + " of 2nd argument (value)"
                    + " for aggregate function " + name);
            }
            return new Arguments(ts, v, arrays);
        }

        boolean f32() {
            return value.equals(DataTypes.FLOAT32);
        }

        Object boxed(double v) {
            return f32() ? (Object) (float) v : (Object) v;
        }

        int scale() {
            return timestamp instanceof DateTime64Type d ? d.precision : 0;
        }
    }

    /** A state that keeps the samples of its rows. */
    private abstract static class SamplesState implements Aggregates.State {
        final Arguments arguments;
        final TimeSeriesSamples samples = new TimeSeriesSamples();
        private long rows;

        SamplesState(Arguments arguments) {
            this.arguments = arguments;
        }

        @Override
        public void add(Object[] row) {
            if (!arguments.arrays()) {
                samples.add(((Number) row[0]).longValue(), ((Number) row[1]).doubleValue());
                rows++;
                return;
            }
            List<?> ts = (List<?>) row[0];
            List<?> vs = (List<?>) row[1];
            if (ts.size() != vs.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Timestamp and value arrays have different sizes at row " + rows + " : "
                    + ts.size() + " and " + vs.size());
            }
            for (int i = 0; i < ts.size(); i++) {
                samples.add(((Number) ts.get(i)).longValue(), ((Number) vs.get(i)).doubleValue());
            }
            rows++;
        }
    }

    private static Aggregates.Aggregate grid(TimeSeriesGridKind kind, String name, List<DataType> args, AggregateParameters p) {
        Arguments a = Arguments.of(name, args, true);
        boolean predict = kind == TimeSeriesGridKind.PREDICT_LINEAR;
        if (p.size() != (predict ? 5 : 4)) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires " + (predict ? 5 : 4)
                + " parameters: start_timestamp, end_timestamp, step, window" + (predict ? ", predict_offset" : ""));
        }
        int scale = a.scale();
        long multiplier = FunctionsTimeSeriesGrid.pow10(scale);
        long start = parameter(name, "start", p, 0, scale);
        long end = parameter(name, "end", p, 1, scale);
        long step = parameter(name, "step", p, 2, scale);
        long window = parameter(name, "window", p, 3, scale);
        double offset = predict ? floatParameter(name, "predict_offset", p, 4) * multiplier : 0;
        if (end < start) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "End timestamp is less than start timestamp");
        }
        if (step <= 0 && end != start) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Step should be greater than zero");
        }
        long points = end == start ? 1 : (end - start) / step + 1;
        boolean f32 = a.f32();
        DataType result = DataTypes.array(DataTypes.nullable(a.value));
        return new Aggregates.Aggregate(result, () -> new SamplesState(a) {
            @Override
            public Object result() {
                long[] ts = samples.timestamps();
                double[] vs = samples.values();
                List<Object> out = new ArrayList<>((int) points);
                int from = 0;
                int to = 0;
                for (long i = 0; i < points; i++) {
                    long t = start + i * step;
                    while (to < ts.length && ts[to] <= t) {
                        to++;
                    }
                    while (from < to && ts[from] <= t - window) {
                        from++;
                    }
                    Double v = kind.at(t, ts, vs, from, to, window, multiplier, offset, f32);
                    out.add(v == null ? null : a.boxed(v));
                }
                return out;
            }
        });
    }

    /**
     * A grid parameter in the timestamps' units: an integer (seconds), a String of one, a DateTime or DateTime64
     * value; with DateTime64 timestamps also a Decimal or a String of a decimal number of seconds.
     */
    private static long parameter(String function, String parameter, AggregateParameters p, int i, int scale) {
        DataType t = p.type(i);
        Object v = p.get(i);
        BigDecimal seconds;
        if (t instanceof DateTime64Type d) {
            seconds = BigDecimal.valueOf(((Number) v).longValue(), d.precision);
        } else if (t instanceof DateTimeType) {
            seconds = BigDecimal.valueOf(((Number) v).longValue());
        } else if (t instanceof IntType it && !(v instanceof Boolean)) {
            if (it.signed && ((Number) v).longValue() < 0) {
                throw illegalParameter(function, parameter, "Int64");
            }
            seconds = new BigDecimal(Long.toUnsignedString(p.asLong(i)));
        } else if (t instanceof DecimalType) {
            seconds = (BigDecimal) v;
            if (scale == 0 && seconds.stripTrailingZeros().scale() > 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot convert " + t.name().replaceAll("\\(.*", "") + " " + parameter
                    + " parameter to integer for aggregate function " + function);
            }
        } else if (t instanceof StringType && scale == 0) {
            // read as the engine's readIntText: the leading digits, 0 without any
            String s = p.asString(i);
            int end = 0;
            while (end < s.length() && Character.isDigit(s.charAt(end))) {
                end++;
            }
            seconds = end == 0 ? BigDecimal.ZERO : new BigDecimal(s.substring(0, end));
        } else if (t instanceof StringType) {
            String s = p.asString(i);
            try {
                seconds = new BigDecimal(s.trim());
                if (s.isBlank()) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot parse " + parameter + " parameter for aggregate function " + function);
            }
        } else {
            throw illegalParameter(function, parameter, p.fieldName(i));
        }
        return seconds.movePointRight(scale).setScale(0, RoundingMode.DOWN).longValueExact();
    }

    private static double floatParameter(String function, String parameter, AggregateParameters p, int i) {
        if (p.isNumber(i)) {
            return p.asDouble(i);
        }
        if (p.type(i) instanceof StringType) {
            try {
                return Double.parseDouble(p.asString(i).trim());
            } catch (NumberFormatException e) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot parse " + parameter + " parameter for aggregate function " + function);
            }
        }
        throw illegalParameter(function, parameter, p.fieldName(i));
    }

    private static ChException illegalParameter(String function, String parameter, String type) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + type + " of " + parameter
            + " parameter for aggregate function " + function);
    }
}
