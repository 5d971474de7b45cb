package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.ColumnFloat;
import dev.chdedup.stub.data.ColumnString;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.JsonType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import dev.chdedup.stub.types.VariantType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The first aggregate functions: count (also DISTINCT), sum, min, max, avg, any, anyLast, uniq/uniqExact,
 * argMin/argMax, sumWithOverflow and groupBitmap, registered in the {@link AggregateFunctionFactory}; the state
 * interface every aggregate implements; the Null combinator ({@link #nullsSkipped}) and the Distinct one. Each
 * aggregate is a factory of per-group {@link State}s.
 */
public final class Aggregates {
    private Aggregates() {
    }

    /** One group's running state. */
    public interface State {
        void add(Object[] args);

        Object result();

        /**
         * Adds row {@code row} of the argument columns, as {@link #add(Object[])} of that row's values does; a state
         * that can reads the columns' primitives instead of boxing them.
         */
        default void add(IColumn[] args, int row) {
            Object[] av = args.length == 0 ? NO_ARGUMENTS : new Object[args.length];
            for (int j = 0; j < av.length; j++) {
                av[j] = args[j].get(row);
            }
            add(av);
        }

        /**
         * Adds rows {@code [0, n)} of the argument columns, row {@code r} to the state {@code byGroup[groupOf[r]]}: the
         * states of one aggregate, of this state's class, this one among them (ClickHouse's {@code addBatch}). A state
         * whose add is cheap repeats this loop in its own class, so that the loop's call of add sees that class alone
         * and is inlined.
         */
        default void addBatch(State[] byGroup, int[] groupOf, IColumn[] args, int n) {
            for (int r = 0; r < n; r++) {
                byGroup[groupOf[r]].add(args, r);
            }
        }
    }

    /** The arguments of an aggregate without any (count()): shared, as no state keeps them. */
    static final Object[] NO_ARGUMENTS = new Object[0];

    /** Whether row {@code row} of {@code c} is NULL, without making its value where the column cannot hold one. */
    private static boolean isNull(IColumn c, int row) {
        return !(c instanceof ColumnVector) && !(c instanceof ColumnFloat) && !(c instanceof ColumnString) && c.get(row) == null;
    }

    /** Whether the {@code long}s of a column of type {@code t} compare as {@code t} compares its values (unsigned for a UInt). */
    private static boolean comparesAsLongs(DataType t) {
        return t instanceof IntType || t instanceof DateType || t instanceof DateTimeType || t instanceof DateTime64Type;
    }

    /** A compiled aggregate: its result type and a state factory. */
    public record Aggregate(DataType type, java.util.function.Supplier<State> factory) {
    }

    public static boolean isAggregate(String name) {
        return AggregateFunctionFactory.isAggregate(name);
    }

    public static Aggregate create(String rawName, List<DataType> argTypes, boolean distinct) {
        return AggregateFunctionFactory.create(rawName, argTypes, AggregateParameters.NONE, distinct);
    }

    /** The aggregate {@code rawName(params)(argTypes)}, as {@link AggregateFunctionFactory#create} makes it. */
    public static Aggregate create(String rawName, List<DataType> argTypes, AggregateParameters params, boolean distinct) {
        return AggregateFunctionFactory.create(rawName, argTypes, params, distinct);
    }

    /** The functions of this class, registered case-insensitively; those that take NULLs themselves so marked. */
    static void register() {
        for (String n : List.of("count", "sum", "min", "max", "avg", "any", "anyLast", "uniq", "uniqExact", "argMax", "argMin",
            "sumWithOverflow", "groupBitmap")) {
            boolean takesNulls = TAKE_NULLS.contains(n.toLowerCase(Locale.ROOT));
            AggregateFunctionFactory.registerCaseInsensitive(n, (name, args, params) -> {
                params.none(name);
                return createOverValues(name, args, false);
            }, takesNulls);
        }
    }

    /** Whether {@code name} counts distinct values itself with DISTINCT (count(DISTINCT x) is uniqExact). */
    static boolean countsDistinct(String name) {
        return name.toLowerCase(Locale.ROOT).startsWith("uniq");
    }

    /** {@code a} fed each distinct argument row once: ClickHouse's Distinct combinator. */
    static Aggregate distinct(Aggregate a) {
        return new Aggregate(a.type(), () -> new DistinctState(a.factory().get()));
    }

    /** The aggregate functions that take NULLs themselves: ClickHouse does not wrap them in its Null combinator. */
    private static final Set<String> TAKE_NULLS = Set.of("count", "uniq", "uniqexact", "groupbitmap");

    /**
     * {@code a} as ClickHouse's Null combinator makes it when an argument is Nullable: a row where any argument is
     * NULL is skipped, and the result is NULL (its type Nullable) when no row was left, so {@code sum} of NULLs is
     * NULL and {@code argMin(n, k)} ignores the rows whose n is NULL. A result type that cannot be inside Nullable
     * (an Array, a Map) stays as it is, and is the result of no row then.
     */
    static Aggregate nullsSkipped(List<DataType> argTypes, Aggregate a) {
        if (argTypes.stream().noneMatch(DataType::isNullable)) {
            return a;
        }
        DataType t = a.type();
        boolean nullable = canBeInsideNullable(t);
        java.util.function.Supplier<State> f = a.factory();
        if (!nullable) {
            return new Aggregate(t, () -> new NullsSkipped(f.get(), null, false));
        }
        return new Aggregate(DataTypes.nullable(t), () -> new NullsSkipped(f.get(), null, true));
    }

    /** Whether a value of {@code t} can be inside Nullable (not an Array, a Map or a dynamic type). */
    static boolean canBeInsideNullable(DataType t) {
        return !(t instanceof ArrayType || t instanceof MapType || t instanceof DynamicType || t instanceof VariantType
            || t instanceof JsonType);
    }

    /** A state that leaves out the rows with a NULL argument; NULL (or {@code none}) when no row was left. */
    private static final class NullsSkipped implements State {
        final State inner;
        final Object none;
        /** Whether no row left is NULL; else it is the inner state's result of no row. */
        final boolean nullOfNone;
        boolean seen;

        NullsSkipped(State inner, Object none, boolean nullOfNone) {
            this.inner = inner;
            this.none = none;
            this.nullOfNone = nullOfNone;
        }

        @Override
        public void add(Object[] args) {
            for (Object v : args) {
                if (v == null) {
                    return;
                }
            }
            seen = true;
            inner.add(args);
        }

        @Override
        public void add(IColumn[] args, int row) {
            for (IColumn c : args) {
                if (isNull(c, row)) {
                    return;
                }
            }
            seen = true;
            inner.add(args, row);
        }

        @Override
        public Object result() {
            return seen || !nullOfNone ? inner.result() : none;
        }
    }

    private static Aggregate createOverValues(String rawName, List<DataType> argTypes, boolean distinct) {
        String name = rawName.toLowerCase(Locale.ROOT);
        switch (name) {
            case "count":
                if (distinct) {
                    return new Aggregate(DataTypes.UINT64, () -> new UniqState(true));
                }
                return new Aggregate(DataTypes.UINT64, () -> new State() {
                    long n;

                    @Override
                    public void add(Object[] args) {
                        if (args.length == 0 || args[0] != null) {
                            n++;
                        }
                    }

                    @Override
                    public void add(IColumn[] args, int row) {
                        if (args.length == 0 || !isNull(args[0], row)) {
                            n++;
                        }
                    }

                    @Override
                    public void addBatch(State[] byGroup, int[] groupOf, IColumn[] args, int n) {
                        for (int r = 0; r < n; r++) {
                            byGroup[groupOf[r]].add(args, r); // this class's own call site: one receiver class
                        }
                    }

                    @Override
                    public Object result() {
                        return n;
                    }
                });
            case "countdistinct": case "uniq": case "uniqexact":
                return new Aggregate(DataTypes.UINT64, () -> new UniqState(true));
            case "groupbitmap": {
                DataType t = arg(rawName, argTypes);
                if (!dev.chdedup.stub.types.AggregateFunctionStates.bitmapValue(t)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, t instanceof dev.chdedup.stub.types.StringType
                        ? "The type " + t.name() + " of argument for aggregate function " + rawName + " is illegal, because it cannot be used in"
                            + " Bitmap operations"
                        : "Illegal type " + t.name() + " of argument for aggregate function " + rawName);
                }
                return new Aggregate(DataTypes.UINT64, () -> new UniqState(true));
            }
            case "sum": return sum(arg(name, argTypes));
            case "sumwithoverflow": return sumWithOverflow(arg(name, argTypes));
            case "avg": {
                DataType t = arg(name, argTypes);
                DataType u = t.unwrap();
                if (u instanceof IntType) {
                    return avgOfIntegers(((IntType) u).signed);
                }
                return new Aggregate(DataTypes.FLOAT64, () -> new State() {
                    double s;
                    long n;

                    @Override
                    public void add(Object[] args) {
                        if (args[0] != null) {
                            s += Values.toNumber(args[0], t).doubleValue();
                            n++;
                        }
                    }

                    @Override
                    public void add(IColumn[] args, int row) {
                        if (args[0] instanceof ColumnFloat) {
                            s += ((ColumnFloat) args[0]).getDouble(row);
                            n++;
                        } else {
                            State.super.add(args, row);
                        }
                    }

                    @Override
                    public Object result() {
                        return n == 0 ? Double.NaN : s / n;
                    }
                });
            }
            case "min": case "max": {
                DataType t = arg(name, argTypes);
                boolean max = name.equals("max");
                boolean unsigned = t instanceof IntType && !((IntType) t).signed;
                boolean longs = comparesAsLongs(t);
                boolean strings = t instanceof StringType;
                return new Aggregate(t, () -> new State() {
                    Object best;
                    /** The best string's bytes, once a string column compared with it. */
                    byte[] bestBytes;

                    @Override
                    public void add(Object[] args) {
                        Object v = args[0];
                        if (v != null && (best == null || (max ? t.compare(v, best) > 0 : t.compare(v, best) < 0))) {
                            best = v;
                            bestBytes = null;
                        }
                    }

                    @Override
                    public void add(IColumn[] args, int row) {
                        IColumn c = args[0];
                        if (longs && c instanceof ColumnVector) {
                            long v = ((ColumnVector) c).getLong(row);
                            if (best != null) {
                                long b = (Long) best;
                                int cmp = unsigned ? Long.compareUnsigned(v, b) : Long.compare(v, b);
                                if (max ? cmp <= 0 : cmp >= 0) {
                                    return;
                                }
                            }
                            best = v;
                        } else if (strings && c instanceof ColumnString) {
                            ColumnString cs = (ColumnString) c;
                            int from = cs.start(row);
                            int to = from + cs.length(row);
                            if (best != null) {
                                if (bestBytes == null) {
                                    bestBytes = ByteStrings.bytes((String) best);
                                }
                                int cmp = ByteStrings.compare(cs.chars(), from, to - from, bestBytes, 0, bestBytes.length);
                                if (max ? cmp <= 0 : cmp >= 0) {
                                    return;
                                }
                            }
                            bestBytes = Arrays.copyOfRange(cs.chars(), from, to);
                            best = ByteStrings.of(bestBytes);
                        } else {
                            State.super.add(args, row);
                        }
                    }

                    @Override
                    public void addBatch(State[] byGroup, int[] groupOf, IColumn[] args, int n) {
                        for (int r = 0; r < n; r++) {
                            byGroup[groupOf[r]].add(args, r); // this class's own call site: one receiver class
                        }
                    }

                    @Override
                    public Object result() {
                        return best == null ? t.defaultValue() : best;
                    }
                });
            }
            case "any": case "anylast": {
                DataType t = arg(name, argTypes);
                boolean last = name.equals("anylast");
                return new Aggregate(t, () -> new State() {
                    Object v;
                    boolean seen;

                    @Override
                    public void add(Object[] args) {
                        if (args[0] != null && (last || !seen)) {
                            v = args[0];
                            seen = true;
                        }
                    }

                    @Override
                    public Object result() {
                        return seen ? v : t.defaultValue();
                    }
                });
            }
            case "argmax": case "argmin": {
                if (argTypes.size() != 2) {
                    throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + rawName + " requires two arguments");
                }
                DataType vt = argTypes.get(0);
                DataType kt = argTypes.get(1);
                boolean max = name.equals("argmax");
                return new Aggregate(vt, () -> new State() {
                    Object val;
                    Object key;

                    @Override
                    public void add(Object[] args) {
                        if (args[1] != null && (key == null || (max ? kt.compare(args[1], key) > 0 : kt.compare(args[1], key) < 0))) {
                            key = args[1];
                            val = args[0];
                        }
                    }

                    @Override
                    public Object result() {
                        return key == null ? vt.defaultValue() : val;
                    }
                });
            }
            default:
                throw new ChException(ErrorCode.UNKNOWN_AGGREGATE_FUNCTION, "Unknown aggregate function " + rawName);
        }
    }

    private static DataType arg(String name, List<DataType> ts) {
        if (ts.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name + " requires an argument");
        }
        return ts.get(0);
    }

    /**
     * avg of integers of up to 64 bits, as ClickHouse computes it: the sum in 64 bits, wrapping as {@code sum} does,
     * divided by the count (so the average of two UInt64s whose sum passes 2^64 is that of the wrapped sum).
     */
    private static Aggregate avgOfIntegers(boolean signed) {
        return new Aggregate(DataTypes.FLOAT64, () -> new State() {
            long s;
            long n;

            @Override
            public void add(Object[] args) {
                if (args[0] != null) {
                    s += (Long) args[0];
                    n++;
                }
            }

            @Override
            public void add(IColumn[] args, int row) {
                if (args[0] instanceof ColumnVector) {
                    s += ((ColumnVector) args[0]).getLong(row);
                    n++;
                } else {
                    State.super.add(args, row);
                }
            }

            @Override
            public Object result() {
                if (n == 0) {
                    return Double.NaN;
                }
                double sum = signed || s >= 0 ? (double) s : (double) ((s >>> 1) | (s & 1)) * 2; // unsigned, rounded once
                return sum / n;
            }
        });
    }

    /** sumWithOverflow: the sum in the argument's own type, wrapping at its width (two UInt8 200s are 144). */
    private static Aggregate sumWithOverflow(DataType t) {
        DataType u = t.unwrap();
        if (!(u instanceof IntType)) {
            return sum(t);
        }
        IntType it = (IntType) u;
        Aggregate wide = sum(t);
        return new Aggregate(u, () -> {
            State inner = wide.factory().get();
            return new State() {
                @Override
                public void add(Object[] args) {
                    inner.add(args);
                }

                @Override
                public void add(IColumn[] args, int row) {
                    inner.add(args, row);
                }

                @Override
                public Object result() {
                    return it.wrap((Long) inner.result());
                }
            };
        });
    }

    private static Aggregate sum(DataType t) {
        DataType u = t.unwrap();
        if (u instanceof DecimalType) {
            DataType rt = DataTypes.decimal(((DecimalType) u).precision <= 38 ? 38 : 76, ((DecimalType) u).scale);
            return new Aggregate(rt, () -> new State() {
                BigDecimal s = BigDecimal.ZERO.setScale(((DecimalType) u).scale);

                @Override
                public void add(Object[] args) {
                    if (args[0] != null) {
                        s = s.add((BigDecimal) args[0]);
                    }
                }

                @Override
                public Object result() {
                    return s;
                }
            });
        }
        if (Functions.isFloat(u)) {
            return new Aggregate(DataTypes.FLOAT64, () -> new State() {
                double s;

                @Override
                public void add(Object[] args) {
                    if (args[0] != null) {
                        s += ((Number) args[0]).doubleValue();
                    }
                }

                @Override
                public void add(IColumn[] args, int row) {
                    if (args[0] instanceof ColumnFloat) {
                        s += ((ColumnFloat) args[0]).getDouble(row);
                    } else {
                        State.super.add(args, row);
                    }
                }

                @Override
                public void addBatch(State[] byGroup, int[] groupOf, IColumn[] args, int n) {
                    for (int r = 0; r < n; r++) {
                        byGroup[groupOf[r]].add(args, r); // this class's own call site: one receiver class
                    }
                }

                @Override
                public Object result() {
                    return s;
                }
            });
        }
        if (!TypeRules.isNumeric(u)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument for aggregate function sum");
        }
        boolean signed = TypeRules.signed(u);
        if (TypeRules.bits(u) > 64) {
            DataType rt = u;
            return new Aggregate(rt, () -> new State() {
                BigInteger s = BigInteger.ZERO;

                @Override
                public void add(Object[] args) {
                    if (args[0] != null) {
                        s = s.add((BigInteger) args[0]);
                    }
                }

                @Override
                public Object result() {
                    return rt.convert(s, rt);
                }
            });
        }
        return new Aggregate(signed ? DataTypes.INT64 : DataTypes.UINT64, () -> new State() {
            long s;

            @Override
            public void add(Object[] args) {
                if (args[0] != null) {
                    s += args[0] instanceof Boolean ? ((Boolean) args[0] ? 1 : 0) : (Long) args[0];
                }
            }

            @Override
            public void add(IColumn[] args, int row) {
                if (args[0] instanceof ColumnVector) {
                    s += ((ColumnVector) args[0]).getLong(row);
                } else {
                    State.super.add(args, row);
                }
            }

            @Override
            public void addBatch(State[] byGroup, int[] groupOf, IColumn[] args, int n) {
                for (int r = 0; r < n; r++) {
                    byGroup[groupOf[r]].add(args, r); // this class's own call site: one receiver class
                }
            }

            @Override
            public Object result() {
                return s;
            }
        });
    }

    private static final class UniqState implements State {
        final Set<Object> seen = new HashSet<>();
        final boolean skipNulls;

        UniqState(boolean skipNulls) {
            this.skipNulls = skipNulls;
        }

        @Override
        public void add(Object[] args) {
            if (args.length == 1) {
                if (args[0] != null || !skipNulls) {
                    seen.add(key(args[0]));
                }
            } else {
                List<Object> k = new ArrayList<>();
                for (Object a : args) {
                    k.add(key(a));
                }
                seen.add(k);
            }
        }

        private static Object key(Object v) {
            if (v instanceof BigDecimal) {
                return ((BigDecimal) v).stripTrailingZeros();
            }
            return v;
        }

        @Override
        public Object result() {
            return (long) seen.size();
        }
    }

    private static final class DistinctState implements State {
        final State inner;
        final Set<Object> seen = new HashSet<>();

        DistinctState(State inner) {
            this.inner = inner;
        }

        @Override
        public void add(Object[] args) {
            if (seen.add(List.of(args.length == 1 && args[0] != null ? args[0] : java.util.Arrays.asList(args)))) {
                inner.add(args);
            }
        }

        @Override
        public Object result() {
            return inner.result();
        }
    }
}
