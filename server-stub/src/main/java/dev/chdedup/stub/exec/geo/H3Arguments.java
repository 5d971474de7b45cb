package dev.chdedup.stub.exec.geo;

import com.uber.h3core.H3Core;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.Functions;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * What the h3 functions share, as ClickHouse's h3Common and H3Validator: Uber's H3 library (loaded on first use), the
 * argument type checks (an index is UInt64, a resolution UInt8 of at most 15), the validation of cells and directed
 * edges (INCORRECT_DATA, or the function's default when functions_h3_default_if_invalid is set) and the two ways a
 * NULL argument is answered: NULL for a result that can be inside Nullable, else the function of the type's default.
 */
final class H3Arguments {
    static final String CATEGORY = "Geo";
    static final int MAX_RES = 15;
    static final DataType LAT_LNG = DataTypes.tuple(List.of(DataTypes.FLOAT64, DataTypes.FLOAT64));
    static final DataType INDEXES = DataTypes.array(DataTypes.UINT64);

    private H3Arguments() {
    }

    /** The H3 library, loaded when an h3 function is first compiled. */
    static H3Core h3() {
        return Holder.CORE;
    }

    private static final class Holder {
        static final H3Core CORE = load();

        private static H3Core load() {
            try {
                return H3Core.newInstance();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot load the H3 library", e);
            }
        }
    }

    static ChException illegalType(String fn, int position, DataType got, String expected) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + got.name() + " of argument " + position
            + " of function " + fn + ". Must be " + expected);
    }

    private static boolean isUnsigned(DataType t, int bits) {
        return t.unwrap() instanceof IntType it && !it.signed && it.bits == bits;
    }

    /** Argument {@code i} (from 0) must be UInt64, Nullable aside: an H3 index. */
    static void index(String fn, List<Evaluator> args, int i) {
        if (!isUnsigned(args.get(i).type(), 64) && !Functions.isNothing(args.get(i))) {
            throw illegalType(fn, i + 1, args.get(i).type(), "UInt64");
        }
    }

    /** Argument {@code i} must be UInt8: a resolution. */
    static void resolutionType(String fn, List<Evaluator> args, int i) {
        unsigned(fn, args, i, 8, "UInt8");
    }

    static void unsigned(String fn, List<Evaluator> args, int i, int bits, String expected) {
        if (!isUnsigned(args.get(i).type(), bits) && !Functions.isNothing(args.get(i))) {
            throw illegalType(fn, i + 1, args.get(i).type(), expected);
        }
    }

    /** Argument {@code i} must be Float64 (a coordinate in degrees). */
    static void float64(String fn, List<Evaluator> args, int i) {
        DataType t = args.get(i).type().unwrap();
        if (!(t instanceof FloatType f && f.is64) && !Functions.isNothing(args.get(i))) {
            throw illegalType(fn, i + 1, args.get(i).type(), "Float64");
        }
    }

    /** A resolution value, ARGUMENT_OUT_OF_BOUND above 15 (whatever functions_h3_default_if_invalid says). */
    static int resolution(String fn, Object v) {
        long r = ((Number) v).longValue();
        if (r > MAX_RES) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "The argument 'resolution' (" + r + ") of function " + fn
                + " is out of bounds because the maximum resolution in H3 library is " + MAX_RES);
        }
        return (int) r;
    }

    /** Whether invalid cells and edges throw (functions_h3_default_if_invalid off) or give the function's default. */
    static boolean throwOnInvalid(QueryContext ctx) {
        return !ctx.settings().getBool("functions_h3_default_if_invalid");
    }

    /** Whether {@code h} is a cell: INCORRECT_DATA if not and {@code throwOnInvalid}. */
    static boolean validCell(long h, boolean throwOnInvalid) {
        if (h3().isValidCell(h)) {
            return true;
        }
        if (throwOnInvalid) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "Invalid H3 cell index: " + Long.toUnsignedString(h));
        }
        return false;
    }

    /** Whether {@code h} is a directed edge: INCORRECT_DATA if not and {@code throwOnInvalid}. */
    static boolean validEdge(long h, boolean throwOnInvalid) {
        if (h3().isValidDirectedEdge(h)) {
            return true;
        }
        if (throwOnInvalid) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "Invalid H3 directed edge index: " + Long.toUnsignedString(h));
        }
        return false;
    }

    static long asLong(Object v) {
        return ((Number) v).longValue();
    }

    static double asDouble(Object v) {
        return ((Number) v).doubleValue();
    }

    /** A function whose result can be inside Nullable: NULL where an argument is NULL (ClickHouse's default for nulls). */
    static Evaluator scalar(DataType result, List<Evaluator> args, Function<Object[], Object> fn) {
        return Functions.defaultForNulls(result, args, fn);
    }

    /**
     * A function returning an array, which cannot be inside Nullable: a NULL argument row is computed as its type's
     * default (0), as the engine computes the nested column; the NULL literal still answers NULL.
     */
    static Evaluator array(DataType result, List<Evaluator> args, Function<Object[], Object> fn) {
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        int n = args.size();
        return Evaluator.of(result, r -> {
            Object[] vals = new Object[n];
            for (int i = 0; i < n; i++) {
                Object v = args.get(i).eval(r);
                vals[i] = v != null ? v : args.get(i).type().unwrap().defaultValue();
            }
            return fn.apply(vals);
        });
    }

    /** {@code cells} as the engine's Array(UInt64) value. */
    static List<Object> longs(Iterable<Long> cells) {
        List<Object> out = new ArrayList<>();
        for (Long c : cells) {
            out.add(c);
        }
        return out;
    }
}
