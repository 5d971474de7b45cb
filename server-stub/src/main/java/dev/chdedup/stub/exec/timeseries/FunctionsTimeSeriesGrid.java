package dev.chdedup.stub.exec.timeseries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionFactory;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The time series functions of a grid and of a series (ClickHouse's timeSeriesRange, timeSeriesFromGrid and
 * seriesOutliersDetectTukey): a grid is {@code start, start + step, ...} up to {@code end}, its timestamps of the
 * arguments' type (DateTime64 of the largest scale of the arguments and a Decimal step, else the start's DateTime or
 * UInt32).
 */
public final class FunctionsTimeSeriesGrid {
    private FunctionsTimeSeriesGrid() {
    }

    public static void register(FunctionFactory f) {
        String category = FunctionsTimeSeriesTags.CATEGORY;
        f.register("timeSeriesRange", category, (args, ctx) -> range(args));
        f.register("timeSeriesFromGrid", category, (args, ctx) -> fromGrid(args));
        f.register("seriesOutliersDetectTukey", category, (args, ctx) -> SeriesOutliersDetectTukey.build(args));
        f.register("seriesDecomposeSTL", category, (args, ctx) -> SeriesDecomposeSTL.build(args));
    }

    /** A grid's timestamp type and how to read its arguments in that type's units. */
    record Grid(DataType type, int scale, DataType startType, DataType endType, DataType stepType) {
        static Grid of(String fn, List<Evaluator> args) {
            DataType s = timestampType(fn, args, 0, "start_timestamp");
            DataType e = timestampType(fn, args, 1, "end_timestamp");
            DataType st = args.get(2).type().unwrap();
            if (!(st instanceof IntType || st instanceof DecimalType || st instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument #3 (step) of function " + fn + " has wrong type "
                    + args.get(2).type().name() + ", it must be a number");
            }
            DataType type = s;
            int scale = scale(s);
            if (scale(e) > scale) {
                type = e;
                scale = scale(e);
            }
            if (st instanceof DecimalType d && d.scale > scale) {
                scale = d.scale;
                type = DataTypes.dateTime64(scale, null);
            }
            if (scale > 0 && !(type instanceof DateTime64Type)) {
                type = DataTypes.dateTime64(scale, null);
            } else if (type instanceof DateTime64Type d && d.precision != scale) {
                type = DataTypes.dateTime64(scale, d.tz);
            }
            return new Grid(type, scale, s, e, st);
        }

        private static DataType timestampType(String fn, List<Evaluator> args, int i, String what) {
            DataType t = args.get(i).type().unwrap();
            if (t instanceof DateTime64Type || t instanceof DateTimeType || t instanceof NothingType
                || t instanceof IntType it && it.bits == 32 && !it.signed) {
                return t;
            }
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument #" + (i + 1) + " (" + what + ") of function " + fn
                + " has wrong type " + args.get(i).type().name() + ", it must be DateTime64 or DateTime or UInt32");
        }

        private static int scale(DataType t) {
            return t instanceof DateTime64Type d ? d.precision : 0;
        }

        /** A timestamp argument's value in this grid's units. */
        long ticks(Object v, DataType t) {
            long x = ((Number) v).longValue();
            return x * pow10(scale - scale(t));
        }

        /** The step in this grid's units. */
        long step(Object v) {
            if (stepType instanceof DecimalType) {
                return ((BigDecimal) v).movePointRight(scale).longValue();
            }
            return Values.toLong(Values.toNumber(v, stepType)) * pow10(scale);
        }

        /** The grid's timestamps, checked as the engine checks them. */
        List<Long> timestamps(Object[] v) {
            long start = ticks(v[0], startType);
            long end = ticks(v[1], endType);
            long step = step(v[2]);
            if (end < start) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "End timestamp is less than start timestamp");
            }
            List<Long> out = new ArrayList<>();
            if (start == end) {
                out.add(start);
                return out;
            }
            if (step <= 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Step should be greater than zero");
            }
            for (long t = start; t <= end; t += step) {
                out.add(t);
            }
            return out;
        }
    }

    static long pow10(int n) {
        long p = 1;
        for (int i = 0; i < n; i++) {
            p *= 10;
        }
        return p;
    }

    private static Evaluator range(List<Evaluator> args) {
        Functions.arity("timeSeriesRange", args, 3);
        if (anyNothing(args)) {
            return TimeSeriesTagsArguments.withNulls(DataTypes.NOTHING, args, v -> null);
        }
        Grid g = Grid.of("timeSeriesRange", args);
        return TimeSeriesTagsArguments.withNulls(DataTypes.array(g.type()), args, v -> new ArrayList<Object>(g.timestamps(v)));
    }

    private static Evaluator fromGrid(List<Evaluator> args) {
        String fn = "timeSeriesFromGrid";
        Functions.arity(fn, args, 4);
        if (anyNothing(args)) {
            return TimeSeriesTagsArguments.withNulls(DataTypes.NOTHING, args, v -> null);
        }
        Grid g = Grid.of(fn, args);
        DataType values = args.get(3).type().unwrap();
        if (!(values instanceof ArrayType) && !(values instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument #4 of function " + fn + " has wrong type "
                + args.get(3).type().name() + ", it must be an array of values");
        }
        DataType element = values instanceof ArrayType a ? a.element.unwrap() instanceof NothingType ? DataTypes.NOTHING
            : dev.chdedup.stub.exec.TypeRules.stripNullable(a.element) : DataTypes.NOTHING;
        DataType result = DataTypes.array(DataTypes.tuple(List.of(g.type(), element)));
        return TimeSeriesTagsArguments.withNulls(result, args, v -> {
            List<Long> ts = g.timestamps(v);
            List<?> vals = (List<?>) v[3];
            if (vals.size() != ts.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Number of values (" + vals.size() + ") doesn't match number of steps ("
                    + ts.size() + ")");
            }
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < ts.size(); i++) {
                if (vals.get(i) != null) {
                    out.add(List.of(ts.get(i), vals.get(i)));
                }
            }
            return out;
        });
    }

    /** Whether an argument is the literal NULL: the function is then NULL, its other arguments unchecked. */
    static boolean anyNothing(List<Evaluator> args) {
        return args.stream().anyMatch(a -> a.type().unwrap() instanceof NothingType);
    }

    /** Whether {@code t} is a native number type (an integer of at most 64 bits or a float). */
    static boolean isNativeNumber(DataType t) {
        return t instanceof IntType || t instanceof FloatType;
    }
}
