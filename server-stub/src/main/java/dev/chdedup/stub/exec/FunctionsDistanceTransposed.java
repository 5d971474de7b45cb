package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * The distances of a QBit to a reference vector at a precision (ClickHouse's L2DistanceTransposed,
 * cosineDistanceTransposed and dotProductTransposed): each element of the QBit is read from the first {@code precision}
 * bits of its IEEE pattern (of its Float64, Float32 or BFloat16), as ClickHouse reads the bit planes it stores; when
 * the kept bits reach into the mantissa but not to its end, the next bit is set, so the element is the middle of the
 * values those bits stand for. The reference is taken in the QBit's element type; results are Float64, computed in
 * double (the engine's cosineDistanceTransposed can differ from it past the tenth digit).
 */
final class FunctionsDistanceTransposed {
    private static final String CATEGORY = "Distance";

    private FunctionsDistanceTransposed() {
    }

    static void register(FunctionFactory f) {
        f.register("L2DistanceTransposed", CATEGORY, (args, ctx) -> compile("L2DistanceTransposed", args));
        f.registerAlias("distanceL2Transposed", "L2DistanceTransposed", true);
        f.register("cosineDistanceTransposed", CATEGORY, (args, ctx) -> compile("cosineDistanceTransposed", args));
        f.registerAlias("distanceCosineTransposed", "cosineDistanceTransposed", true);
        f.register("dotProductTransposed", CATEGORY, (args, ctx) -> compile("dotProductTransposed", args));
        f.registerAlias("scalarProductTransposed", "dotProductTransposed", true);
        for (String n : List.of("L2DistanceTransposed", "cosineDistanceTransposed", "dotProductTransposed")) {
            f.register(n + "Quantized", CATEGORY, (args, ctx) -> quantized(n + "Quantized", args));
        }
    }

    /**
     * The distances of a QBit(Int8) of quantizeBFloat16ToInt8 codes to a reference: each code read from its top
     * {@code precision} bits is its Lloyd-Max level ({@link FunctionsLloydMaxQuantization#level}); a reference of Int8
     * codes is dequantized in full, any other is taken as Float32; the sums are Float32, as the engine computes them.
     */
    private static Evaluator quantized(String name, List<Evaluator> args) {
        if (args.size() < 3) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Number of arguments for function " + name + " can't be " + args.size()
                + ", should be at least 3");
        }
        if (args.size() > 3) {
            throw new ChException(ErrorCode.TOO_MANY_ARGUMENTS_FOR_FUNCTION, "Number of arguments for function " + name + " is " + args.size()
                + ". Expected 3");
        }
        DataType t = args.get(0).type();
        if (!(t instanceof ArrayType qbit) || !t.name().startsWith("QBit(")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument of function " + name + " must be a QBit");
        }
        if (!qbit.element.equals(DataTypes.INT8)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument of function " + name
                + " must be a QBit(Int8) holding quantizeBFloat16ToInt8 codes, got QBit(" + qbit.element.name() + ")");
        }
        if (!(args.get(1).type() instanceof ArrayType refType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument of function " + name + " must be an Array");
        }
        Evaluator p = args.get(2);
        if (!p.type().equals(DataTypes.UINT8) || !p.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The third argument of function " + name + " must be a UInt8 constant, got "
                + p.type().name() + (p.type().equals(DataTypes.UINT8) ? " (not constant)" : ""));
        }
        int precision = (int) (long) (Long) p.eval(new Object[0]);
        if (precision < 1 || precision > 8) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The third argument (precision) of function " + name
                + " must be in range [1, 8] for Int8 QBit, got " + precision);
        }
        DataType ref = refType.element;
        boolean codes = ref.equals(DataTypes.INT8);
        return Functions.strict(DataTypes.FLOAT64, args.subList(0, 2), v -> {
            List<?> x = (List<?>) v[0];
            List<?> r = (List<?>) v[1];
            if (r.size() != x.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The reference vector in the last argument of function " + name
                    + " has wrong size. Got: " + r.size() + ", expected: " + x.size());
            }
            float ab = 0;
            float a2 = 0;
            float b2 = 0;
            float d2 = 0;
            for (int i = 0; i < x.size(); i++) {
                float a = FunctionsLloydMaxQuantization.level((Long) x.get(i), precision);
                float b = codes ? FunctionsLloydMaxQuantization.dequantize((Long) r.get(i)) : Values.toNumber(r.get(i), ref).floatValue();
                ab += a * b;
                a2 += a * a;
                b2 += b * b;
                d2 += (a - b) * (a - b);
            }
            switch (name) {
                case "dotProductTransposedQuantized": return (double) ab;
                case "L2DistanceTransposedQuantized": return Math.sqrt(d2);
                default:
                    if (a2 == 0 && b2 == 0) {
                        return 0.0;
                    }
                    if (ab == 0) {
                        return 1.0;
                    }
                    float cos = 1 - ab / ((float) Math.sqrt(a2) * (float) Math.sqrt(b2));
                    return cos > 0 ? (double) cos : 0.0;
            }
        });
    }

    /** The bits of an element type's pattern and of its sign and exponent. */
    private record Format(int bits, int exponentBits) {
    }

    private static Format format(DataType element) {
        switch (element.name()) {
            case "Float64": return new Format(64, 11);
            case "Float32": return new Format(32, 8);
            case "BFloat16": return new Format(16, 8);
            default: throw new ChException(ErrorCode.NOT_IMPLEMENTED, "QBit of " + element.name() + " is not supported by the stub's distances");
        }
    }

    private static Evaluator compile(String name, List<Evaluator> args) {
        Functions.arity(name, args, 3);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof ArrayType qbit) || !t.name().startsWith("QBit(")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument of function " + name + " must be a QBit");
        }
        DataType element = qbit.element;
        Format format = format(element);
        DataType ref = ArrayArgs.element(name, args, 1);
        ArrayArgs.integer(name, args, 2);
        return Functions.strict(DataTypes.FLOAT64, args, v -> {
            List<?> x = (List<?>) v[0];
            List<?> r = (List<?>) v[1];
            long precision = ArrayArgs.longOf(v[2], args, 2);
            if (precision < 1 || precision > format.bits()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The third argument (precision) of function " + name + " must be in range [1, "
                    + format.bits() + "] for " + element.name() + " QBit, got " + precision);
            }
            if (r.size() != x.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The reference vector in the last argument of function " + name
                    + " has wrong size. Got: " + r.size() + ", expected: " + x.size());
            }
            double dot = 0;
            double xx = 0;
            double rr = 0;
            double squares = 0;
            for (int i = 0; i < x.size(); i++) {
                double a = truncated(((Number) x.get(i)).doubleValue(), format, (int) precision);
                double b = asElement(Values.toNumber(r.get(i), ref).doubleValue(), format);
                dot += a * b;
                xx += a * a;
                rr += b * b;
                squares += (a - b) * (a - b);
            }
            switch (name) {
                case "dotProductTransposed": return dot;
                case "L2DistanceTransposed": return Math.sqrt(squares);
                default: return 1 - dot / Math.sqrt(xx * rr);
            }
        });
    }

    private static double asElement(double d, Format f) {
        return f.bits() == 64 ? d : (double) (float) d;
    }

    /** {@code d} as the first {@code p} bits of its pattern give it, the next bit set within the mantissa. */
    private static double truncated(double d, Format f, int p) {
        if (p >= f.bits()) {
            return asElement(d, f);
        }
        if (f.bits() == 64) {
            long bits = Double.doubleToRawLongBits(d) & (-1L << (64 - p));
            if (p >= 1 + f.exponentBits()) {
                bits |= 1L << (63 - p);
            }
            return Double.longBitsToDouble(bits);
        }
        int bits = Float.floatToRawIntBits((float) d) & (-1 << (32 - p));
        if (p >= 1 + f.exponentBits()) {
            bits |= 1 << (31 - p);
        }
        return Float.intBitsToFloat(bits);
    }
}
