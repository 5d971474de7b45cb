package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * The norms and distances of ClickHouse's FunctionsTupleVectors, arrayNorm and arrayDistance (L1, L2, L2Squared,
 * Linf and Lp norms, distances and normalizations, cosineDistance) and arrayDotProduct. Over tuples they are built
 * from the scalar functions (abs, multiply, plus) of the elements, so the result type is theirs (L2 and Lp take a
 * square root or power, so Float64, as Linf); over arrays of numbers they compute in floating point, Float32 when
 * every array holds Float32 (or BFloat16), else Float64.
 */
final class FunctionsDistance {
    private static final String CATEGORY = "Distance";

    private FunctionsDistance() {
    }

    static void register(FunctionFactory f) {
        for (String kind : List.of("L1", "L2", "L2Squared", "Linf", "Lp")) {
            String norm = kind + "Norm";
            f.register(norm, CATEGORY, (args, ctx) -> norm(norm, kind, args, false, ctx));
            f.registerAlias("norm" + kind, norm, true);
            String distance = kind + "Distance";
            f.register(distance, CATEGORY, (args, ctx) -> norm(distance, kind, args, true, ctx));
            f.registerAlias("distance" + kind, distance, true);
            if (!kind.equals("L2Squared")) {
                String normalize = kind + "Normalize";
                f.register(normalize, CATEGORY, (args, ctx) -> normalize(normalize, kind, args, ctx));
                f.registerAlias("normalize" + kind, normalize, true);
            }
        }
        f.register("cosineDistance", CATEGORY, (args, ctx) -> cosine(args, ctx));
        f.registerAlias("distanceCosine", "cosineDistance", true);
        f.register("arrayDotProduct", FunctionsArray.CATEGORY, (args, ctx) -> arrayDotProduct("arrayDotProduct", args, ctx));
    }

    /** A norm of one vector, or ({@code distance}) the norm of the difference of two; Lp takes p last. */
    private static Evaluator norm(String name, String kind, List<Evaluator> args, boolean distance, QueryContext ctx) {
        int vectors = distance ? 2 : 1;
        Functions.arity(name, args, vectors + (kind.equals("Lp") ? 1 : 0));
        Evaluator p = kind.equals("Lp") ? args.get(vectors) : null;
        if (args.get(0).type().unwrap() instanceof ArrayType) {
            return arrayNorm(name, kind, args.subList(0, vectors), p);
        }
        Evaluator v = args.get(0);
        FunctionsTuple.tupleArg(name, args, 0);
        if (distance) {
            v = Functions.compile("tupleMinus", args.subList(0, 2), ctx);
        }
        return tupleNorm(kind, v, p, ctx);
    }

    private static Evaluator tupleNorm(String kind, Evaluator v, Evaluator p, QueryContext ctx) {
        if (Functions.isNothing(v)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        List<Evaluator> xs = FunctionsTuple.elements(v);
        if (kind.equals("Linf") || kind.equals("Lp")) {
            double power = p == null ? 0 : Values.toNumber(p.eval(new Object[0]), p.type()).doubleValue();
            return Evaluator.of(DataTypes.FLOAT64, r -> {
                double acc = 0;
                for (Evaluator x : xs) {
                    Object o = x.eval(r);
                    double d = o == null ? 0 : Math.abs(Values.toNumber(o, x.type()).doubleValue());
                    acc = kind.equals("Linf") ? Math.max(acc, d) : acc + Math.pow(d, power);
                }
                return kind.equals("Linf") ? acc : Math.pow(acc, 1 / power);
            });
        }
        Evaluator sum = null;
        for (Evaluator x : xs) {
            Evaluator term = kind.equals("L1") ? Functions.compile("abs", List.of(x), ctx) : Functions.compile("multiply", List.of(x, x), ctx);
            sum = sum == null ? term : Functions.compile("plus", List.of(sum, term), ctx);
        }
        if (sum == null) {
            sum = Evaluator.constant(DataTypes.UINT8, 0L);
        }
        return kind.equals("L2") ? Functions.compile("sqrt", List.of(sum), ctx) : sum;
    }

    /** t divided by its norm, element by element (Float64 elements). */
    private static Evaluator normalize(String name, String kind, List<Evaluator> args, QueryContext ctx) {
        Functions.arity(name, args, kind.equals("Lp") ? 2 : 1);
        if (!(args.get(0).type().unwrap() instanceof TupleType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "tuple", kind + "Norm", "Tuple", args.get(0).type());
        }
        Evaluator norm = tupleNorm(kind, args.get(0), kind.equals("Lp") ? args.get(1) : null, ctx);
        List<Evaluator> out = new ArrayList<>();
        for (Evaluator x : FunctionsTuple.elements(args.get(0))) {
            out.add(Functions.compile("divide", List.of(x, norm), ctx));
        }
        return FunctionsTuple.tuple(out);
    }

    private static Evaluator cosine(List<Evaluator> args, QueryContext ctx) {
        Functions.arity("cosineDistance", args, 2);
        if (args.get(0).type().unwrap() instanceof ArrayType) {
            return arrayNorm("cosineDistance", "cosine", args, null);
        }
        FunctionsTuple.tupleArg("cosineDistance", args, 0);
        Evaluator dot = FunctionsTuple.sumOf("cosineDistance", "multiply", args, ctx);
        Evaluator na = tupleNorm("L2", args.get(0), null, ctx);
        Evaluator nb = tupleNorm("L2", args.get(1), null, ctx);
        return Evaluator.of(DataTypes.FLOAT64, r -> {
            double d = Values.toNumber(dot.eval(r), dot.type()).doubleValue();
            double a = Values.toNumber(na.eval(r), na.type()).doubleValue();
            double b = Values.toNumber(nb.eval(r), nb.type()).doubleValue();
            return 1 - d / (a * b);
        });
    }

    private static boolean isFloat32(DataType t) {
        DataType u = t.unwrap();
        return u instanceof FloatType f && !f.equals(DataTypes.FLOAT64) || u instanceof BFloat16Type;
    }

    /** The element type of array argument {@code i}: a plain number (ILLEGAL_TYPE_OF_ARGUMENT otherwise). */
    private static DataType numbers(String name, List<Evaluator> args, int i) {
        DataType t = args.get(i).type().unwrap();
        DataType el = t instanceof ArrayType a ? a.element : null;
        if (el == null || el.isNullable() || !(el.unwrap() instanceof IntType || el.unwrap() instanceof FloatType
            || el.unwrap() instanceof BFloat16Type)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Arguments of function array" + name + " has nested type "
                + (el == null ? t.name() : el.name()) + ". Supported types: UInt8, UInt16, UInt32, UInt64, Int8, Int16, Int32, Int64, "
                + "BFloat16, Float32, Float64");
        }
        return el;
    }

    private static Evaluator arrayNorm(String name, String kind, List<Evaluator> vectors, Evaluator p) {
        List<DataType> els = new ArrayList<>();
        for (int i = 0; i < vectors.size(); i++) {
            els.add(numbers(name, vectors, i));
        }
        boolean f32 = els.stream().allMatch(FunctionsDistance::isFloat32);
        DataType result = f32 ? DataTypes.FLOAT32 : DataTypes.FLOAT64;
        return Functions.strict(result, p == null ? vectors : List.of(vectors.get(0), vectors.size() > 1 ? vectors.get(1) : p, p), v -> {
            List<?> a = (List<?>) v[0];
            List<?> b = vectors.size() > 1 ? (List<?>) v[1] : null;
            if (b != null && a.size() != b.size()) {
                throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Array arguments for function array" + name
                    + " must have equal sizes");
            }
            double power = p == null ? 0 : Values.toNumber(v[v.length - 1], p.type()).doubleValue();
            double acc = 0;
            double dot = 0;
            double na = 0;
            double nb = 0;
            for (int i = 0; i < a.size(); i++) {
                double x = Values.toNumber(a.get(i), els.get(0)).doubleValue();
                double y = b == null ? 0 : Values.toNumber(b.get(i), els.get(1)).doubleValue();
                double d = Math.abs(x - y);
                switch (kind) {
                    case "L1": acc += d; break;
                    case "L2": case "L2Squared": acc += d * d; break;
                    case "Linf": acc = Math.max(acc, d); break;
                    case "Lp": acc += Math.pow(d, power); break;
                    default:
                        dot += x * y;
                        na += x * x;
                        nb += y * y;
                }
            }
            double r = kind.equals("L2") ? Math.sqrt(acc) : kind.equals("Lp") ? Math.pow(acc, 1 / power)
                : kind.equals("cosine") ? 1 - dot / Math.sqrt(na * nb) : acc;
            return f32 ? (Object) (float) r : (Object) r;
        });
    }

    /**
     * arrayDotProduct(a, b): the sum of products in the type of multiply of the element types (wrapping as it does),
     * Float32 for two Float32 arrays.
     */
    static Evaluator arrayDotProduct(String name, List<Evaluator> args, QueryContext ctx) {
        Functions.arity(name, args, 2);
        DataType ea = numbers("DotProduct", args, 0);
        DataType eb = numbers("DotProduct", args, 1);
        Evaluator product = Functions.compile("multiply", List.of(Evaluator.column(ea, 0), Evaluator.column(eb, 1)), ctx);
        // two Float32 arrays keep Float32, where multiply widens to Float64
        DataType t = isFloat32(ea) && isFloat32(eb) ? DataTypes.FLOAT32 : product.type();
        Evaluator sum = Functions.compile("plus", List.of(Evaluator.column(t, 0), Evaluator.column(t, 1)), ctx);
        return Functions.strict(t, args, v -> {
            List<?> a = (List<?>) v[0];
            List<?> b = (List<?>) v[1];
            if (a.size() != b.size()) {
                throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Array arguments for function " + name + " must have equal sizes");
            }
            Object acc = t.defaultValue();
            for (int i = 0; i < a.size(); i++) {
                Object term = product.eval(new Object[] {a.get(i), b.get(i)});
                acc = t.convert(sum.eval(new Object[] {acc, term}), sum.type());
            }
            return acc;
        });
    }
}
