package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.Values;
import java.math.BigInteger;
import java.util.List;

/**
 * The functions of ClickHouse's "Other" category that see the whole block a row is in ({@link BlockFunction}):
 * rowNumberInBlock, blockSize, rowNumberInAllBlocks and blockNumber (counting the rows and blocks each call has seen
 * before), neighbor (the value {@code offset} rows away in the block, or a default), runningDifference and
 * runningDifferenceStartingWithFirstValue (each value less the block's previous non-NULL one), lowCardinalityIndices and
 * lowCardinalityKeys (a LowCardinality column's positions in, and the values of, its block's dictionary). neighbor and the
 * running differences are refused unless allow_deprecated_error_prone_window_functions is set, as the engine's are.
 */
final class FunctionsBlock {
    private static final String CATEGORY = "Other";
    /**
     * The blocks the engine's planner runs a blockNumber() of the select list over before the first block of data (its
     * header blocks): the first data block of a plain SELECT is numbered after them.
     */
    private static final long PLANNER_BLOCKS = 6;

    private FunctionsBlock() {
    }

    static void register(FunctionFactory f) {
        f.register("rowNumberInBlock", CATEGORY, (args, ctx) -> {
            Functions.arity("rowNumberInBlock", args, 0);
            return new BlockFunction(DataTypes.UINT64, args) {
                @Override
                Object[] block(Object[][] values, int size) {
                    Object[] out = new Object[size];
                    for (int i = 0; i < size; i++) {
                        out[i] = (long) i;
                    }
                    return out;
                }
            };
        });
        f.register("blockSize", CATEGORY, (args, ctx) -> {
            Functions.arity("blockSize", args, 0);
            return new BlockFunction(DataTypes.UINT64, args) {
                @Override
                Object[] block(Object[][] values, int size) {
                    return filled(size, (long) size);
                }
            };
        });
        f.register("rowNumberInAllBlocks", CATEGORY, (args, ctx) -> {
            Functions.arity("rowNumberInAllBlocks", args, 0);
            return new BlockFunction(DataTypes.UINT64, args) {
                private long seen;

                @Override
                Object[] block(Object[][] values, int size) {
                    Object[] out = new Object[size];
                    for (int i = 0; i < size; i++) {
                        out[i] = seen++;
                    }
                    return out;
                }
            };
        });
        f.register("blockNumber", CATEGORY, (args, ctx) -> {
            Functions.arity("blockNumber", args, 0);
            return new BlockFunction(DataTypes.UINT64, args) {
                private long blocks = PLANNER_BLOCKS;

                @Override
                Object[] block(Object[][] values, int size) {
                    return filled(size, blocks++);
                }
            };
        });
        f.register("neighbor", CATEGORY, (args, ctx) -> neighbor(args, ctx));
        f.register("lowCardinalityIndices", CATEGORY, (args, ctx) -> lowCardinality("lowCardinalityIndices", args, false));
        f.register("lowCardinalityKeys", CATEGORY, (args, ctx) -> lowCardinality("lowCardinalityKeys", args, true));
        f.register("runningDifference", CATEGORY, (args, ctx) -> runningDifference("runningDifference", args, ctx, false));
        f.register("runningDifferenceStartingWithFirstValue", CATEGORY,
            (args, ctx) -> runningDifference("runningDifferenceStartingWithFirstValue", args, ctx, true));
    }

    private static Object[] filled(int size, Object v) {
        Object[] out = new Object[size];
        java.util.Arrays.fill(out, v);
        return out;
    }

    /** DEPRECATED_FUNCTION unless the query allows the block functions that a window function replaces. */
    static void checkAllowed(String name, QueryContext ctx) {
        if (!ctx.settings().getBool("allow_deprecated_error_prone_window_functions")) {
            throw new ChException(ErrorCode.DEPRECATED_FUNCTION, "Function " + name + " is deprecated since its usage is error-prone"
                + " (see docs).Please use proper window function or set `allow_deprecated_error_prone_window_functions` setting to"
                + " enable it");
        }
    }

    /** neighbor(column, offset[, default]): in the common type of column and default, the type's default without one. */
    private static Evaluator neighbor(List<Evaluator> args, QueryContext ctx) {
        if (args.size() < 2 || args.size() > 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function neighbor doesn't match:"
                + " passed " + args.size() + ", should be from 2 to 3");
        }
        checkAllowed("neighbor", ctx);
        DataType offsetType = args.get(1).type();
        if (!(offsetType instanceof IntType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + offsetType.name()
                + " of second argument of function neighbor - should be an integer");
        }
        DataType column = args.get(0).type();
        DataType result = args.size() == 3 ? TypeRules.common(List.of(column, args.get(2).type())) : column;
        Object zero = result.isNullable() ? null : result.defaultValue();
        return new BlockFunction(result, args) {
            @Override
            Object[] block(Object[][] values, int size) {
                Object[] out = new Object[size];
                for (int i = 0; i < size; i++) {
                    long offset = Values.toLong(Values.toNumber(values[1][i], offsetType));
                    long at = i + offset;
                    if (at >= 0 && at < size) {
                        out[i] = cast(values[0][(int) at], column);
                    } else {
                        out[i] = values.length > 2 ? cast(values[2][i], args.get(2).type()) : zero;
                    }
                }
                return out;
            }

            private Object cast(Object v, DataType from) {
                return v == null || from.equals(result) ? v : TypeRules.stripNullable(result).convert(v, TypeRules.stripNullable(from));
            }
        };
    }

    /**
     * runningDifference(x): x less the block's previous non-NULL x (0 at the first, or x itself when {@code startWithFirst}),
     * NULL where x is; in a signed type wide enough for the difference of two values (Float64 for floats).
     */
    private static Evaluator runningDifference(String name, List<Evaluator> args, QueryContext ctx, boolean startWithFirst) {
        Functions.arity(name, args, 1);
        checkAllowed(name, ctx);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        DataType unwrapped;
        if (u instanceof IntType it) {
            unwrapped = it.bits == 8 ? DataTypes.INT16 : it.bits == 16 ? DataTypes.INT32 : DataTypes.INT64;
        } else if (u instanceof BigIntType) {
            unwrapped = DataTypes.parse("Int" + u.name().replaceAll("\\D", ""));
        } else if (u instanceof FloatType) {
            unwrapped = DataTypes.FLOAT64;
        } else if (u instanceof DateType dt) {
            unwrapped = dt.equals(DataTypes.DATE) ? DataTypes.INT32 : DataTypes.INT64;
        } else if (u instanceof DateTimeType) {
            unwrapped = DataTypes.INT64;
        } else {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function " + name + " must have numeric type");
        }
        DataType result = t.isNullable() ? DataTypes.nullable(unwrapped) : unwrapped;
        boolean floats = unwrapped instanceof FloatType;
        boolean big = unwrapped instanceof BigIntType;
        return new BlockFunction(result, args) {
            @Override
            Object[] block(Object[][] values, int size) {
                Object[] out = new Object[size];
                Object prev = null;
                for (int i = 0; i < size; i++) {
                    Object v = values[0][i];
                    if (v == null) {
                        continue;
                    }
                    if (floats) {
                        double x = Values.toNumber(v, u).doubleValue();
                        out[i] = prev == null ? (startWithFirst ? x : 0.0) : x - (Double) prev;
                        prev = x;
                    } else if (big) {
                        BigInteger x = Values.toBigInteger(Values.toNumber(v, u));
                        BigInteger d = prev == null ? (startWithFirst ? x : BigInteger.ZERO) : x.subtract((BigInteger) prev);
                        out[i] = d;
                        prev = x;
                    } else {
                        long x = Values.toLong(Values.toNumber(v, u));
                        long d = prev == null ? (startWithFirst ? x : 0L) : x - (Long) prev;
                        out[i] = unwrapped.equals(DataTypes.INT64) ? d : (long) narrow(d, unwrapped);
                        prev = x;
                    }
                }
                return out;
            }
        };
    }

    /**
     * lowCardinalityIndices(col) and lowCardinalityKeys(col) of a LowCardinality column, whose block's dictionary is
     * built as an insert builds it: NULL first for a Nullable one, then the type's default, then the block's other
     * values in the order they come. The keys are the dictionary's first values, one a row, the default past its end.
     */
    private static Evaluator lowCardinality(String name, List<Evaluator> args, boolean keys) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type();
        if (!(t instanceof LowCardinalityType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "col", name, "LowCardinality", t);
        }
        DataType inner = t.unwrap();
        boolean nullable = ((LowCardinalityType) t).inner.isNullable();
        Object dflt = inner.defaultValue();
        DataType result = keys ? ((LowCardinalityType) t).inner : DataTypes.UINT64;
        return new BlockFunction(result, args) {
            @Override
            Object[] block(Object[][] values, int size) {
                List<Object> dictionary = new java.util.ArrayList<>();
                java.util.Map<Object, Long> index = new java.util.HashMap<>();
                if (nullable) {
                    dictionary.add(null);
                }
                index.put(dflt, (long) dictionary.size());
                dictionary.add(dflt);
                Object[] out = new Object[size];
                for (int i = 0; i < size; i++) {
                    Object v = values[0][i];
                    Long at = v == null ? Long.valueOf(0) : index.get(v);
                    if (at == null) {
                        at = (long) dictionary.size();
                        index.put(v, at);
                        dictionary.add(v);
                    }
                    out[i] = at;
                }
                if (keys) {
                    for (int i = 0; i < size; i++) {
                        out[i] = i < dictionary.size() ? dictionary.get(i) : nullable ? null : dflt;
                    }
                }
                return out;
            }
        };
    }

    /** {@code d} wrapped to the width of {@code t} (Int16 or Int32), as the engine's difference in that type. */
    private static long narrow(long d, DataType t) {
        return ((IntType) t).bits == 16 ? (short) d : (int) d;
    }
}
