package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The registry of aggregate functions, after ClickHouse's AggregateFunctionFactory: a name (case-sensitive, or
 * case-insensitive when registered so) gives a builder of the aggregate from its parameters and argument types. A
 * name that is not registered is tried as a registered aggregate with combinators appended
 * ({@link AggregateFunctionCombinators}, {@link AggregateFunctionIf}). An aggregate that does not take NULLs itself
 * is wrapped so that rows with a NULL argument are skipped (ClickHouse's Null combinator, {@link Aggregates}).
 */
public final class AggregateFunctionFactory {
    /** Makes an aggregate of its name as called, its argument types and its parameters. */
    @FunctionalInterface
    public interface Builder {
        Aggregates.Aggregate build(String name, List<DataType> argTypes, AggregateParameters params);
    }

    /** A registered function: {@code takesNulls} when it sees NULL arguments itself (count, uniq, anyRespectNulls...). */
    record Entry(String name, Builder builder, boolean takesNulls) {
    }

    private static final Map<String, Entry> EXACT = new HashMap<>();
    private static final Map<String, Entry> CASE_INSENSITIVE = new HashMap<>();

    static {
        Aggregates.register();
        AggregateFunctionQuantile.register();
        AggregateFunctionQuantileVariants.register();
        AggregateFunctionQuantileGK.register();
        AggregateFunctionQuantileDD.register();
        AggregateFunctionQuantilePrometheusHistogram.register();
        AggregateFunctionsStatistics.register();
        AggregateFunctionsGroupArray.register();
        AggregateFunctionsMisc.register();
        AggregateFunctionsTopK.register();
        AggregateFunctionsIntervals.register();
        AggregateFunctionsCrossTab.register();
        AggregateFunctionSparkbar.register();
        AggregateFunctionGroupNumericIndexedVector.register();
        AggregateFunctionGroupFormat.register();
        dev.chdedup.stub.exec.timeseries.AggregateFunctionsTimeSeries.register();
        AggregateFunctionEstimateCompressionRatio.register();
    }

    private AggregateFunctionFactory() {
    }

    public static void register(String name, Builder b) {
        EXACT.put(name, new Entry(name, b, false));
    }

    static void registerTakingNulls(String name, Builder b) {
        EXACT.put(name, new Entry(name, b, true));
    }

    static void registerCaseInsensitive(String name, Builder b, boolean takesNulls) {
        Entry e = new Entry(name, b, takesNulls);
        EXACT.put(name, e);
        CASE_INSENSITIVE.put(name.toLowerCase(Locale.ROOT), e);
    }

    /** The registered function named {@code name}, or null. */
    static Entry find(String name) {
        Entry e = EXACT.get(name);
        return e != null ? e : CASE_INSENSITIVE.get(name.toLowerCase(Locale.ROOT));
    }

    /** Whether {@code name} is an aggregate function, registered or a registered one with combinators. */
    public static boolean isAggregate(String name) {
        return find(name) != null || AggregateFunctionCombinators.split(name) != null;
    }

    /** The aggregate {@code name(params)(args)}; UNKNOWN_AGGREGATE_FUNCTION when there is none of that name. */
    public static Aggregates.Aggregate create(String name, List<DataType> argTypes, AggregateParameters params, boolean distinct) {
        Entry e = find(name);
        if (e != null && distinct && name.equalsIgnoreCase("count")) {
            e = find("uniqExact");
        }
        if (e != null) {
            // the Null combinator gives the function its arguments' types without Nullable
            List<DataType> types = e.takesNulls ? argTypes : argTypes.stream().map(TypeRules::stripNullable).toList();
            Aggregates.Aggregate a = e.builder.build(name, types, params);
            if (distinct && !Aggregates.countsDistinct(name)) {
                a = Aggregates.distinct(a);
            }
            return e.takesNulls ? a : Aggregates.nullsSkipped(argTypes, a);
        }
        AggregateFunctionCombinators.Split split = AggregateFunctionCombinators.split(name);
        if (split != null) {
            return AggregateFunctionCombinators.create(name, split, argTypes, params, distinct);
        }
        throw new ChException(ErrorCode.UNKNOWN_AGGREGATE_FUNCTION, "Unknown aggregate function " + name);
    }
}
