package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The space-filling curve codes of category Encoding (ClickHouse's mortonEncode, mortonDecode, hilbertEncode and
 * hilbertDecode): a UInt64 code of up to 8 (Morton, Z-order: bit i of argument j at bit i*n+j, each argument cut to
 * 64/n bits) or 2 (Hilbert) unsigned integers, and back to a tuple. A constant tuple first argument expands the
 * ranges: for Morton, argument j's bits spread out by a factor of 1 to 8; for Hilbert, shifted left by 0 to 32 bits.
 */
final class FunctionsSpaceFillingCurve {
    private static final String CATEGORY = "Encoding";

    private FunctionsSpaceFillingCurve() {
    }

    static void register(FunctionFactory f) {
        f.register("mortonEncode", CATEGORY, (args, ctx) -> encode("mortonEncode", args, true));
        f.register("hilbertEncode", CATEGORY, (args, ctx) -> encode("hilbertEncode", args, false));
        f.register("mortonDecode", CATEGORY, (args, ctx) -> decode("mortonDecode", args, true));
        f.register("hilbertDecode", CATEGORY, (args, ctx) -> decode("hilbertDecode", args, false));
    }

    private static boolean nativeUInt(DataType t) {
        DataType u = TypeRules.stripNullable(t);
        return u instanceof IntType it && !it.signed || StringArguments.isNull(u);
    }

    /** The constant tuple of a range mask, each element checked against [min, max]. */
    private static long[] mask(String name, Evaluator e, int min, int max) {
        TupleType tt = (TupleType) e.type().unwrap();
        for (DataType el : tt.elements) {
            if (!nativeUInt(el)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + el.name() + " of argument in tuple for function "
                    + name + ", should be a native UInt");
            }
        }
        List<?> values = (List<?>) StringArguments.constant(name, List.of(e), 0);
        long[] out = new long[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = StringArguments.toLong(values.get(i), tt.elements.get(i));
            if (out[i] < min || out[i] > max) {
                throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Illegal argument " + e.type().name() + " of function " + name
                    + ", should be a number in range " + min + "-" + max);
            }
        }
        return out;
    }

    private static Evaluator encode(String name, List<Evaluator> args, boolean morton) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "At least one UInt argument is required for function " + name);
        }
        boolean masked = args.get(0).type().unwrap() instanceof TupleType;
        List<Evaluator> values = masked ? args.subList(1, args.size()) : args;
        if (masked && ((TupleType) args.get(0).type().unwrap()).elements.size() != values.size()) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Illegal argument " + args.get(0).type().name() + " for function " + name
                + ", tuple size should be equal to number of UInt arguments");
        }
        for (Evaluator v : values) {
            if (!nativeUInt(v.type())) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + v.type().name() + " of argument for function " + name
                    + ", should be a native UInt");
            }
        }
        int max = morton ? 8 : 2;
        if (values.size() > max) {
            throw new ChException(ErrorCode.TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Illegal number of UInt arguments of function " + name + ", max: " + max);
        }
        long[] mask = masked ? mask(name, args.get(0), morton ? 1 : 0, morton ? 8 : 32) : null;
        int n = values.size();
        return Functions.strict(DataTypes.UINT64, values, v -> {
            long[] x = new long[n];
            for (int i = 0; i < n; i++) {
                x[i] = StringArguments.toLong(v[i], values.get(i).type());
                if (mask != null) {
                    x[i] = morton ? spread(x[i], (int) mask[i]) : mask[i] >= 64 ? 0 : x[i] << mask[i];
                }
            }
            if (n == 1) {
                return x[0];
            }
            return morton ? interleave(x) : hilbert(x[0], x[1]);
        });
    }

    /** The Morton code of {@code x}: bit i of x[j] at bit i*n+j, each value cut to its 64/n low bits. */
    private static long interleave(long[] x) {
        int n = x.length;
        int width = 64 / n;
        long code = 0;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < width; i++) {
                code |= (x[j] >>> i & 1L) << (i * n + j);
            }
        }
        return code;
    }

    /** A value's bits spread {@code ratio} apart, as the last of {@code ratio} Morton arguments. */
    private static long spread(long v, int ratio) {
        if (ratio == 1) {
            return v;
        }
        long[] x = new long[ratio];
        x[ratio - 1] = v;
        return interleave(x);
    }

    /** The inverse of {@link #spread}. */
    private static long shrink(long code, int ratio) {
        return ratio == 1 ? code : deinterleave(code, ratio)[ratio - 1];
    }

    private static long[] deinterleave(long code, int n) {
        long[] x = new long[n];
        int width = 64 / n;
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < width; i++) {
                x[j] |= (code >>> (i * n + j) & 1L) << i;
            }
        }
        return x;
    }

    /**
     * The Hilbert code of (x, y) over as many bit levels as they use (0 when more than 32); the curve's orientation
     * alternates with the parity of that count, so that leading zero levels do not change a code.
     */
    private static long hilbert(long x, long y) {
        int levels = 64 - Long.numberOfLeadingZeros(x | y);
        if (levels > 32) {
            return 0;
        }
        if (levels % 2 == 0) {
            long t = x;
            x = y;
            y = t;
        }
        long d = 0;
        for (long s = levels == 0 ? 0 : 1L << (levels - 1); s > 0; s >>>= 1) {
            int rx = (x & s) != 0 ? 1 : 0;
            int ry = (y & s) != 0 ? 1 : 0;
            d += s * s * ((3L * rx) ^ ry);
            if (ry == 0) {
                if (rx == 1) {
                    x = s - 1 - x;
                    y = s - 1 - y;
                }
                long t = x;
                x = y;
                y = t;
            }
        }
        return d;
    }

    /** The inverse of {@link #hilbert}: (x, y) of a code over the bit levels its pairs of bits use. */
    private static long[] unhilbert(long d) {
        int levels = (64 - Long.numberOfLeadingZeros(d) + 1) / 2;
        long x = 0;
        long y = 0;
        long t = d;
        for (long s = 1; levels > 0 && s <= 1L << (levels - 1) && s > 0; s <<= 1) {
            long rx = 1 & (t >>> 1);
            long ry = 1 & (t ^ rx);
            if (ry == 0) {
                if (rx == 1) {
                    x = s - 1 - x;
                    y = s - 1 - y;
                }
                long tmp = x;
                x = y;
                y = tmp;
            }
            x += s * rx;
            y += s * ry;
            t >>>= 2;
        }
        return levels % 2 == 0 ? new long[] {y, x} : new long[] {x, y};
    }

    private static Evaluator decode(String name, List<Evaluator> args, boolean morton) {
        Functions.arity(name, args, 2);
        int max = morton ? 8 : 2;
        Evaluator first = args.get(0);
        long[] mask = null;
        int n;
        if (first.type().unwrap() instanceof TupleType) {
            mask = mask(name, first, morton ? 1 : 0, morton ? 8 : 32);
            n = mask.length;
        } else {
            Object c = first.constant() && nativeUInt(first.type()) ? first.eval(new Object[0]) : null;
            n = c == null ? -1 : (int) Math.min(Integer.MAX_VALUE, StringArguments.toLong(c, first.type()));
        }
        if (n < 1 || n > max) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Illegal first argument for function " + name
                + ", should be a number in range 1-" + max + " or a Tuple of such size");
        }
        Evaluator codeArg = args.get(1);
        if (!nativeUInt(codeArg.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + codeArg.type().name() + " of second argument of function "
                + name + ", should be a native UInt");
        }
        List<DataType> types = Collections.nCopies(n, DataTypes.UINT64);
        long[] ranges = mask;
        int dims = n;
        return Functions.strict(DataTypes.tuple(types), List.of(codeArg), v -> {
            long code = StringArguments.toLong(v[0], codeArg.type());
            long[] x = dims == 1 ? new long[] {code} : morton ? deinterleave(code, dims) : unhilbert(code);
            List<Object> out = new ArrayList<>(dims);
            for (int i = 0; i < dims; i++) {
                long value = x[i];
                if (ranges != null) {
                    value = morton ? shrink(value, (int) ranges[i]) : value >>> ranges[i];
                }
                out.add(value);
            }
            return Collections.unmodifiableList(out);
        });
    }
}
