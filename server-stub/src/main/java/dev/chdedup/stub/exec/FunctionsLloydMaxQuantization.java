package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * ClickHouse's Lloyd-Max codec of category QBit (LloydMaxQuantization.h): quantizeBFloat16ToInt8 maps a BFloat16 to
 * the Int8 code (cell index - 128) of its cell among the 256 cells of the MSE-optimal quantizer of a standard normal
 * value (NaN to the positive central cell, -0 to the negative one); dequantizeInt8ToBFloat16 maps a code to its
 * cell's level, cut to BFloat16. Both take a scalar, an Array or a QBit of their type. The tables are
 * {@code /functions/lloyd_max.txt}. {@link #level} also serves the ...TransposedQuantized distances, which read a code
 * from its top bits only.
 */
final class FunctionsLloydMaxQuantization {
    private static final String CATEGORY = "QBit";
    /** The 256 levels, ascending, as Float32. */
    private static final float[] LEVELS = new float[256];
    /** The 255 decision boundaries, ascending. */
    private static final float[] BOUNDARIES = new float[255];

    static {
        try (InputStream in = FunctionsLloydMaxQuantization.class.getResourceAsStream("/functions/lloyd_max.txt");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                String[] f = line.split(" ");
                if (f[0].equals("levels")) {
                    for (int i = 1; i < f.length; i++) {
                        LEVELS[127 + i] = Float.parseFloat(f[i]);
                        LEVELS[128 - i] = -Float.parseFloat(f[i]);
                    }
                } else if (f[0].equals("boundaries")) {
                    for (int i = 1; i < f.length; i++) {
                        BOUNDARIES[126 + i] = Float.parseFloat(f[i]);
                        BOUNDARIES[128 - i] = -Float.parseFloat(f[i]);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private FunctionsLloydMaxQuantization() {
    }

    static void register(FunctionFactory f) {
        f.register("quantizeBFloat16ToInt8", CATEGORY, (args, ctx) -> compile("quantizeBFloat16ToInt8", args, true));
        f.register("dequantizeInt8ToBFloat16", CATEGORY, (args, ctx) -> compile("dequantizeInt8ToBFloat16", args, false));
    }

    /** The code of {@code x}, a BFloat16 value. */
    static long quantize(float x) {
        int index;
        if (Float.isNaN(x)) {
            index = 128;
        } else if (x == 0) {
            index = Float.floatToRawIntBits(x) < 0 ? 127 : 128;
        } else {
            int lo = 0;
            int hi = BOUNDARIES.length;
            while (lo < hi) { // the count of boundaries below x
                int mid = (lo + hi) >>> 1;
                if (BOUNDARIES[mid] < x) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            index = lo;
        }
        return index - 128;
    }

    /** The level of {@code code} as a BFloat16 (a Float cut to its top 16 bits). */
    static float dequantize(long code) {
        return BFloat16Type.truncate(LEVELS[(int) code + 128]);
    }

    /**
     * The level a code's top {@code precision} bits stand for, as the ...TransposedQuantized distances read a QBit(Int8):
     * the dropped bits are filled to the coarse cell's centre (the most significant dropped bit set).
     */
    static float level(long code, int precision) {
        int raw = (int) code & 0xFF;
        int top = raw & (0xFF << (8 - precision)) & 0xFF;
        int centre = precision < 8 ? top | 1 << (7 - precision) : top;
        return BFloat16Type.truncate(LEVELS[centre ^ 0x80]);
    }

    private static Evaluator compile(String name, List<Evaluator> args, boolean quantize) {
        Functions.arity(name, args, 1);
        Evaluator a = args.get(0);
        if (Functions.isNothing(a)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        DataType from = quantize ? DataTypes.BFLOAT16 : DataTypes.INT8;
        DataType to = quantize ? DataTypes.INT8 : DataTypes.BFLOAT16;
        DataType t = a.type().unwrap();
        java.util.function.Function<Object, Object> one = quantize ? v -> quantize((Float) v) : v -> dequantize((Long) v);
        if (t.equals(from)) {
            return Functions.strict(to, args, v -> one.apply(v[0]));
        }
        if (t instanceof ArrayType at && at.element.equals(from)) {
            boolean qbit = t.name().startsWith("QBit(");
            DataType result = qbit ? DataTypes.qbit(to, dimension(t)) : DataTypes.array(to);
            return Functions.strict(result, args, v -> {
                List<Object> out = new ArrayList<>();
                for (Object x : (List<?>) v[0]) {
                    out.add(x == null ? null : one.apply(x));
                }
                return out;
            });
        }
        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument of function " + name + " must be " + from.name() + ", Array("
            + from.name() + ") or QBit(" + from.name() + ", ...), got " + a.type().name());
    }

    /** The dimension a QBit type names. */
    private static int dimension(DataType qbit) {
        String n = qbit.name();
        return Integer.parseInt(n.substring(n.lastIndexOf(',') + 1, n.length() - 1).trim());
    }
}
