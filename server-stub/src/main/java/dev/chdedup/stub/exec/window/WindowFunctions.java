package dev.chdedup.stub.exec.window;

import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.AggregateParameters;
import dev.chdedup.stub.exec.Aggregates;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The functions over a window, as ClickHouse's WindowTransform.cpp defines them: row_number, rank, dense_rank,
 * percent_rank, cume_dist and ntile over the partition and its peer groups; lagInFrame, leadInFrame, nth_value and
 * first/last_value_respect_nulls over the frame; lag and lead over the whole partition; and every aggregate function
 * of {@link Aggregates} over the frame (first_value and last_value are any and anyLast), fed row by row while the frame
 * only grows at its end and made again where its start moves.
 */
final class WindowFunctions {
    private WindowFunctions() {
    }

    /** A partition of the sorted rows being computed: {@code [start, end)} with its rows' peer groups and frames. */
    static final class Partition {
        List<Object[]> rows;
        int start;
        int end;
        int[] peerStart;
        int[] peerEnd;
        int[] frameStart;
        int[] frameEnd;
    }

    /** One function over a window: its type, and its value at each row of a partition, the rows in order. */
    abstract static class Function {
        final DataType type;

        Function(DataType type) {
            this.type = type;
        }

        /** Whether the function reads its frame (so the frame must be found). */
        boolean readsFrame() {
            return false;
        }

        /** Called once the rows are sorted for the window, before its partitions. */
        void startPass(List<Object[]> rows) {
        }

        void startPartition(Partition p) {
        }

        abstract Object value(Partition p, int r);
    }

    /** The window function {@code c} over a window with the frame {@code frame}, its arguments compiled by {@code comp}. */
    static Function create(Expr.Call c, ExprCompiler comp, WindowFrame frame, boolean ordered, String text) {
        List<Evaluator> args = new ArrayList<>();
        for (Expr a : c.args()) {
            args.add(comp.compile(a));
        }
        String lower = c.name().toLowerCase(Locale.ROOT);
        String name = CASE_INSENSITIVE.contains(lower) ? lower : c.name();
        switch (name) {
            case "row_number":
                return new Function(DataTypes.UINT64) {
                    Object value(Partition p, int r) {
                        return (long) (r - p.start + 1);
                    }
                };
            case "rank":
            case "dense_rank": case "denserank":
            case "percent_rank": case "percentrank":
            case "cume_dist":
                return rank(name, args, frame, text);
            case "ntile":
                return ntile(args, frame, ordered);
            case "lag": case "lead": case "lagInFrame": case "leadInFrame":
                return lag(name, c.name(), args, frame, text);
            case "nth_value":
                return nthValue(args);
            case "first_value_respect_nulls": case "last_value_respect_nulls":
            case "any_respect_nulls": case "anylast_respect_nulls": case "anyLast_respect_nulls":
                return respectNulls(name.startsWith("first") || name.startsWith("any_"), args, c.name());
            case "exponentialTimeDecayedSum": case "exponentialTimeDecayedMax": case "exponentialTimeDecayedCount":
            case "exponentialTimeDecayedAvg":
                return ExponentialTimeDecayed.create(c, args);
            default:
                return aggregate(c, name, args);
        }
    }

    private static final java.util.Set<String> CASE_INSENSITIVE = java.util.Set.of("row_number", "rank", "dense_rank", "denserank",
        "percent_rank", "percentrank", "ntile", "nth_value", "lag", "lead", "first_value", "last_value", "first_value_respect_nulls",
        "last_value_respect_nulls");

    private static Function rank(String name, List<Evaluator> args, WindowFrame frame, String text) {
        if (!args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for window function " + name
                + " doesn't match: passed " + args.size() + ", should be 0");
        }
        boolean ranks = name.equals("rank") || name.startsWith("dense");
        if (!ranks && !frame.isDefault && (frame.rows || !frame.unboundedBoth())) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unsupported window frame type for function '"
                + (name.startsWith("percent") ? "percentRank" : name) + "'");
        }
        switch (name) {
            case "rank":
                return new Function(DataTypes.UINT64) {
                    Object value(Partition p, int r) {
                        return (long) (p.peerStart[r] - p.start + 1);
                    }
                };
            case "percent_rank": case "percentrank":
                return new Function(DataTypes.FLOAT64) {
                    Object value(Partition p, int r) {
                        int n = p.end - p.start;
                        return n <= 1 ? 0.0 : (double) (p.peerStart[r] - p.start) / (n - 1);
                    }
                };
            case "cume_dist":
                return new Function(DataTypes.FLOAT64) {
                    Object value(Partition p, int r) {
                        return (double) (p.peerEnd[r] - p.start) / (p.end - p.start);
                    }
                };
            default:
                return new Function(DataTypes.UINT64) {
                    long dense;

                    void startPartition(Partition p) {
                        dense = 0;
                    }

                    Object value(Partition p, int r) {
                        if (p.peerStart[r] == r) {
                            dense++;
                        }
                        return dense;
                    }
                };
        }
    }

    private static Function ntile(List<Evaluator> args, WindowFrame frame, boolean ordered) {
        if (args.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function ntile takes exactly one argument");
        }
        Evaluator n = args.get(0);
        if (!n.constant()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument of 'ntile' function must be a constant");
        }
        DataType t = TypeRules.stripNullable(n.type()).unwrap();
        if (!(t instanceof IntType i) || i.signed || n.type().isNullable()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "'ntile' argument type must be an unsigned integer (not larger than 64-bit), got "
                + n.type().name());
        }
        long buckets = ((Number) n.eval(new Object[0])).longValue();
        if (buckets == 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument of 'ntile' function must be greater than zero");
        }
        if (!ordered || !frame.isDefault && !frame.unboundedBoth()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unsupported window frame type for function 'ntile'");
        }
        return new Function(DataTypes.UINT64) {
            Object value(Partition p, int r) {
                long rows = p.end - p.start;
                long i = r - p.start;
                long k = buckets < 0 || buckets > rows ? rows : buckets; // more buckets than rows: a row each
                long small = rows / k;
                long big = small + 1;
                long bigCount = rows % k;
                return i < bigCount * big ? i / big + 1 : bigCount + (i - bigCount * big) / small + 1;
            }
        };
    }

    /** lag, lead (over the whole partition, no frame written) and lagInFrame, leadInFrame (over the frame). */
    private static Function lag(String name, String written, List<Evaluator> args, WindowFrame frame, String text) {
        boolean inFrame = name.endsWith("InFrame");
        boolean back = name.startsWith("lag");
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Function " + written + " takes at least one argument");
        }
        if (args.size() > 3) {
            throw new ChException(ErrorCode.TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Function '" + written + "' accepts at most 3 arguments, "
                + args.size() + " given");
        }
        if (!inFrame && !frame.isDefault) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Window function '" + written
                + "' does not expect window frame to be explicitly specified. In expression " + text);
        }
        Evaluator x = args.get(0);
        DataType type = x.type();
        Evaluator offset = args.size() > 1 ? args.get(1) : null;
        if (offset != null) {
            integerOffset(offset);
        }
        Evaluator fallback = args.size() > 2 ? args.get(2) : null;
        if (fallback != null) {
            DataType common;
            try {
                common = TypeRules.common(List.of(type, fallback.type()));
            } catch (ChException e) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "There is no supertype for the argument type '" + type.name()
                    + "' and the default value type '" + fallback.type().name() + "'");
            }
            if (!common.equals(type)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The supertype '" + common.name() + "' for the argument type '" + type.name()
                    + "' and the default value type '" + fallback.type().name() + "' is not the same as the argument type");
            }
        }
        String function = name;
        return new Function(type) {
            boolean readsFrame() {
                return inFrame;
            }

            Object value(Partition p, int r) {
                Object[] row = p.rows.get(r);
                long n = offset == null ? 1 : offsetValue(offset, row, function, 0);
                long target = back ? r - n : r + n;
                int from = inFrame ? p.frameStart[r] : p.start;
                int to = inFrame ? p.frameEnd[r] : p.end;
                if (target >= from && target < to) {
                    return x.eval(p.rows.get((int) target));
                }
                if (fallback == null) {
                    return type.isNullable() ? null : type.defaultValue();
                }
                Object d = fallback.eval(row);
                return d == null || fallback.type().equals(type) ? d : TypeRules.stripNullable(type).convert(d, TypeRules.stripNullable(fallback.type()));
            }
        };
    }

    private static void integerOffset(Evaluator offset) {
        DataType t = offset.type().unwrap();
        if (!(t instanceof IntType)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Offset must be an integer, '" + offset.type().name() + "' given");
        }
    }

    /** The offset at {@code row}: at least {@code min}, else BAD_ARGUMENTS. */
    private static long offsetValue(Evaluator offset, Object[] row, String function, long min) {
        Number n = Values.toNumber(offset.eval(row), offset.type());
        if (n instanceof java.math.BigInteger || n.longValue() < min) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The offset for function " + function + " must be in (" + min
                + ", 9223372036854775807], " + n + " given");
        }
        return n.longValue();
    }

    private static Function nthValue(List<Evaluator> args) {
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function nth_value takes exactly two arguments");
        }
        Evaluator x = args.get(0);
        Evaluator offset = args.get(1);
        integerOffset(offset);
        DataType type = x.type();
        return new Function(type) {
            boolean readsFrame() {
                return true;
            }

            Object value(Partition p, int r) {
                long n = offsetValue(offset, p.rows.get(r), "nth_value", 1);
                long target = p.frameStart[r] + n - 1;
                return target < p.frameEnd[r] ? x.eval(p.rows.get((int) target)) : type.isNullable() ? null : type.defaultValue();
            }
        };
    }

    private static Function respectNulls(boolean first, List<Evaluator> args, String written) {
        if (args.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + written + " requires a single argument");
        }
        Evaluator x = args.get(0);
        DataType type = x.type();
        return new Function(type) {
            boolean readsFrame() {
                return true;
            }

            Object value(Partition p, int r) {
                if (p.frameStart[r] >= p.frameEnd[r]) {
                    return type.isNullable() ? null : type.defaultValue();
                }
                return x.eval(p.rows.get(first ? p.frameStart[r] : p.frameEnd[r] - 1));
            }
        };
    }

    /** The aggregate functions a window function name stands for. */
    private static final Map<String, String> AGGREGATE_ALIASES = new LinkedHashMap<>(Map.of("first_value", "any", "last_value", "anyLast"));

    /**
     * An aggregate over the frame: a state fed the frame's rows; the next row's frame, when it starts where the row
     * before's did and ends no earlier, feeds the same state the rows added, else a new state the whole frame.
     */
    private static Function aggregate(Expr.Call c, String name, List<Evaluator> allArgs) {
        String aggregate = AGGREGATE_ALIASES.getOrDefault(name, c.name());
        if (!Aggregates.isAggregate(aggregate)) {
            throw new ChException(ErrorCode.UNKNOWN_AGGREGATE_FUNCTION, "Unknown aggregate function " + c.name());
        }
        // a parametric aggregate's parameters come last: constants the aggregate takes when it is made
        List<Evaluator> args = allArgs.subList(0, allArgs.size() - c.params());
        List<DataType> types = new ArrayList<>();
        for (Evaluator a : args) {
            types.add(a.type());
        }
        List<Object> paramValues = new ArrayList<>();
        List<DataType> paramTypes = new ArrayList<>();
        for (Evaluator p : allArgs.subList(args.size(), allArgs.size())) {
            paramValues.add(p.eval(new Object[0]));
            paramTypes.add(p.type());
        }
        Aggregates.Aggregate ag = Aggregates.create(aggregate, types, new AggregateParameters(paramValues, paramTypes), c.distinct());
        return new Function(ag.type()) {
            Aggregates.State state;
            int fedFrom;
            int fedTo;
            /** The arguments of every row of the pass, as columns, so a state reads them without boxing. */
            IColumn[] columns;

            boolean readsFrame() {
                return true;
            }

            void startPass(List<Object[]> rows) {
                columns = new IColumn[args.size()];
                for (int j = 0; j < columns.length; j++) {
                    Object[] values = new Object[rows.size()];
                    for (int r = 0; r < values.length; r++) {
                        values[r] = args.get(j).eval(rows.get(r));
                    }
                    columns[j] = Columns.ofValues(args.get(j).type(), values, values.length);
                }
            }

            void startPartition(Partition p) {
                state = null;
            }

            Object value(Partition p, int r) {
                int s = p.frameStart[r];
                int e = p.frameEnd[r];
                if (state == null || s != fedFrom || e < fedTo) {
                    state = ag.factory().get();
                    fedFrom = s;
                    fedTo = s;
                }
                for (; fedTo < e; fedTo++) {
                    state.add(columns, fedTo);
                }
                return copy(state.result());
            }
        };
    }

    /** A result that a state may change when fed more rows (a list, a map) copied. */
    private static Object copy(Object v) {
        if (v instanceof List<?> l) {
            return new ArrayList<>(l);
        }
        if (v instanceof Map<?, ?> m) {
            return new LinkedHashMap<>(m);
        }
        return v;
    }
}
