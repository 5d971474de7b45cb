package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The aggregate functions: count (also DISTINCT), sum, min, max, avg, any, anyLast, uniq/uniqExact, groupArray,
 * argMin/argMax, and each of them with the {@code -If} combinator ({@link AggregateFunctionIf}). Each is a factory of per-group {@link State}s; NULL arguments are skipped as ClickHouse does.
 */
public final class Aggregates {
    private Aggregates() {
    }

    /** One group's running state. */
    public interface State {
        void add(Object[] args);

        Object result();
    }

    /** A compiled aggregate: its result type and a state factory. */
    public record Aggregate(DataType type, java.util.function.Supplier<State> factory) {
    }

    public static boolean isAggregate(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "count": case "sum": case "min": case "max": case "avg": case "any": case "anylast": case "uniq":
            case "uniqexact": case "grouparray": case "argmax": case "argmin": case "countdistinct": case "groupuniqarray":
            case "sumwithoverflow": case "groupbitmap":
                return true;
            default:
                return AggregateFunctionIf.nestedName(name) != null || AggregateFunctionCombinators.isCombined(name);
        }
    }

    public static Aggregate create(String rawName, List<DataType> argTypes, boolean distinct) {
        String name = rawName.toLowerCase(Locale.ROOT);
        String nested = AggregateFunctionIf.nestedName(rawName);
        if (nested != null) {
            return AggregateFunctionIf.create(rawName, nested, argTypes, distinct);
        }
        Aggregate combined = AggregateFunctionCombinators.create(rawName, argTypes);
        if (combined != null) {
            return combined;
        }
        if (distinct && !name.equals("count") && !name.startsWith("uniq")) {
            Aggregate inner = create(rawName, argTypes, false);
            return new Aggregate(inner.type(), () -> new DistinctState(inner.factory().get()));
        }
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
            case "sum": case "sumwithoverflow": return sum(arg(name, argTypes));
            case "avg": {
                DataType t = arg(name, argTypes);
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
                    public Object result() {
                        return n == 0 ? Double.NaN : s / n;
                    }
                });
            }
            case "min": case "max": {
                DataType t = arg(name, argTypes);
                boolean max = name.equals("max");
                return new Aggregate(t, () -> new State() {
                    Object best;

                    @Override
                    public void add(Object[] args) {
                        Object v = args[0];
                        if (v != null && (best == null || (max ? t.compare(v, best) > 0 : t.compare(v, best) < 0))) {
                            best = v;
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
            case "grouparray": case "groupuniqarray": {
                DataType t = TypeRules.stripNullable(arg(name, argTypes));
                boolean uniq = name.equals("groupuniqarray");
                return new Aggregate(DataTypes.array(t), () -> new State() {
                    final List<Object> l = new ArrayList<>();
                    final Set<Object> seen = new HashSet<>();

                    @Override
                    public void add(Object[] args) {
                        if (args[args.length - 1] != null && (!uniq || seen.add(args[args.length - 1]))) {
                            l.add(args[args.length - 1]);
                        }
                    }

                    @Override
                    public Object result() {
                        return Collections.unmodifiableList(new ArrayList<>(l));
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
