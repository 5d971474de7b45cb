package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.List;

/**
 * The tuple functions of ClickHouse's FunctionsTupleVectors / tupleConcat / tupleNames / flattenTuple: the
 * element-wise arithmetic (tuplePlus, tupleMinus, tupleMultiply, tupleDivide, tupleIntDiv(OrZero), tupleModulo of two
 * or more tuples, the *ByNumber forms and tupleNegate) built, as in ClickHouse, from the scalar functions of each
 * pair of elements (plus, minus, ...), so each element has that function's type; tupleHammingDistance and dotProduct
 * as sums (plus) of notEquals and multiply; and tupleConcat, tupleNames, tupleToNameValuePairs and flattenTuple.
 */
final class FunctionsTuple {
    static final String CATEGORY = "Tuple";

    private FunctionsTuple() {
    }

    static void register(FunctionFactory f) {
        String[][] pairwise = {{"tuplePlus", "plus"}, {"tupleMinus", "minus"}, {"tupleMultiply", "multiply"},
            {"tupleDivide", "divide"}, {"tupleIntDiv", "intDiv"}, {"tupleIntDivOrZero", "intDivOrZero"}, {"tupleModulo", "modulo"}};
        for (String[] p : pairwise) {
            f.register(p[0], CATEGORY, (args, ctx) -> pairwise(p[0], p[1], args, ctx));
        }
        f.registerAlias("vectorSum", "tuplePlus", true);
        f.registerAlias("vectorDifference", "tupleMinus", true);
        String[][] byNumber = {{"tupleMultiplyByNumber", "multiply"}, {"tupleDivideByNumber", "divide"},
            {"tupleIntDivByNumber", "intDiv"}, {"tupleIntDivOrZeroByNumber", "intDivOrZero"}, {"tupleModuloByNumber", "modulo"},
            {"tuplePositiveModuloByNumber", "positiveModulo"}};
        for (String[] p : byNumber) {
            f.register(p[0], CATEGORY, (args, ctx) -> byNumber(p[0], p[1], args, ctx));
        }
        f.register("tupleNegate", CATEGORY, (args, ctx) -> {
            Functions.arity("tupleNegate", args, 1);
            if (Functions.isNothing(args.get(0))) {
                return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
            }
            tupleArg("tupleNegate", args, 0);
            List<Evaluator> out = new ArrayList<>();
            for (Evaluator e : elements(args.get(0))) {
                out.add(Functions.compile("negate", List.of(e), ctx));
            }
            return tuple(out);
        });
        f.register("tupleHammingDistance", CATEGORY, (args, ctx) -> sumOf("tupleHammingDistance", "notEquals", args, ctx));
        f.register("dotProduct", CATEGORY, (args, ctx) -> dotProduct(args, ctx));
        f.registerAlias("scalarProduct", "dotProduct", true);
        f.register("tupleConcat", CATEGORY, (args, ctx) -> concat(args));
        f.register("tupleNames", CATEGORY, (args, ctx) -> names(args));
        f.register("tupleToNameValuePairs", CATEGORY, (args, ctx) -> nameValuePairs(args));
        f.register("flattenTuple", CATEGORY, (args, ctx) -> flatten(args));
    }

    static TupleType tupleArg(String name, List<Evaluator> args, int i) {
        DataType t = args.get(i).type().unwrap();
        if (!(t instanceof TupleType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + i + " of function " + name + " should be tuple, got "
                + args.get(i).type().name());
        }
        return (TupleType) t;
    }

    /** The elements of a tuple-valued expression, each an expression of its own (constant when the tuple is). */
    static List<Evaluator> elements(Evaluator t) {
        TupleType tt = (TupleType) t.type().unwrap();
        List<Evaluator> out = new ArrayList<>();
        Object constant = t.constant() ? t.eval(new Object[0]) : null;
        for (int i = 0; i < tt.elements.size(); i++) {
            int k = i;
            DataType et = tt.elements.get(i);
            out.add(t.constant() ? Evaluator.constant(et, constant == null ? null : ((List<?>) constant).get(k))
                : Evaluator.of(et, r -> {
                    Object v = t.eval(r);
                    return v == null ? null : ((List<?>) v).get(k);
                }));
        }
        return out;
    }

    /** The tuple of the values of {@code parts}. */
    static Evaluator tuple(List<Evaluator> parts) {
        List<DataType> types = new ArrayList<>();
        parts.forEach(p -> types.add(p.type()));
        return Evaluator.of(DataTypes.tuple(types), r -> {
            List<Object> l = new ArrayList<>(parts.size());
            for (Evaluator p : parts) {
                l.add(p.eval(r));
            }
            return ArrayArgs.frozen(l);
        });
    }

    private static boolean anyNull(List<Evaluator> args) {
        return args.stream().anyMatch(Functions::isNothing);
    }

    /** The element-wise {@code function} of two or more tuples of one size, folded from the left. */
    private static Evaluator pairwise(String name, String function, List<Evaluator> args, QueryContext ctx) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " requires at least 2 arguments, passed "
                + args.size());
        }
        if (anyNull(args)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        List<Evaluator> acc = elements(sameSize(name, args, 0));
        for (int a = 1; a < args.size(); a++) {
            sameSize(name, args, a);
            List<Evaluator> next = elements(args.get(a));
            List<Evaluator> out = new ArrayList<>();
            for (int i = 0; i < acc.size(); i++) {
                out.add(Functions.compile(function, List.of(acc.get(i), next.get(i)), ctx));
            }
            acc = out;
        }
        return tuple(acc);
    }

    private static Evaluator sameSize(String name, List<Evaluator> args, int i) {
        TupleType t = tupleArg(name, args, i);
        TupleType first = tupleArg(name, args, 0);
        if (t.elements.size() != first.elements.size()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Expected tuples of the same size as arguments 0 and " + i
                + " of function " + name + ", got " + args.get(0).type().name() + " and " + args.get(i).type().name());
        }
        return args.get(i);
    }

    private static Evaluator byNumber(String name, String function, List<Evaluator> args, QueryContext ctx) {
        Functions.arity(name, args, 2);
        if (anyNull(args)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        tupleArg(name, args, 0);
        List<Evaluator> out = new ArrayList<>();
        for (Evaluator e : elements(args.get(0))) {
            out.add(function.equals("positiveModulo") ? positiveModulo(e, args.get(1), ctx)
                : Functions.compile(function, List.of(e, args.get(1)), ctx));
        }
        return tuple(out);
    }

    /** a modulo b made non-negative (b's absolute value added to a negative remainder), in modulo's type. */
    private static Evaluator positiveModulo(Evaluator a, Evaluator b, QueryContext ctx) {
        Evaluator m = Functions.compile("modulo", List.of(a, b), ctx);
        DataType t = TypeRules.stripNullable(m.type());
        return Evaluator.of(m.type(), r -> {
            Object v = m.eval(r);
            if (v == null) {
                return null;
            }
            double d = ((Number) v).doubleValue();
            if (d >= 0) {
                return v;
            }
            double divisor = Math.abs(dev.chdedup.stub.types.Values.toNumber(b.eval(r), b.type()).doubleValue());
            Object fixed = v instanceof Long ? (Object) ((Long) v + (long) divisor) : (Object) (d + divisor);
            return t.convert(fixed, v instanceof Long ? DataTypes.INT64 : DataTypes.FLOAT64);
        });
    }

    /** The sum (plus) of {@code function} of each pair of elements of two tuples; 0 (UInt8) for empty tuples. */
    static Evaluator sumOf(String name, String function, List<Evaluator> args, QueryContext ctx) {
        Functions.arity(name, args, 2);
        if (anyNull(args)) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        sameSize(name, args, 1);
        List<Evaluator> a = elements(args.get(0));
        List<Evaluator> b = elements(args.get(1));
        Evaluator sum = null;
        for (int i = 0; i < a.size(); i++) {
            Evaluator term = Functions.compile(function, List.of(a.get(i), b.get(i)), ctx);
            sum = sum == null ? term : Functions.compile("plus", List.of(sum, term), ctx);
        }
        return sum == null ? Evaluator.constant(DataTypes.UINT8, 0L) : sum;
    }

    private static Evaluator dotProduct(List<Evaluator> args, QueryContext ctx) {
        Functions.arity("dotProduct", args, 2);
        if (args.get(0).type().unwrap() instanceof ArrayType) {
            return FunctionsDistance.arrayDotProduct("dotProduct", args, ctx);
        }
        return sumOf("dotProduct", "multiply", args, ctx);
    }

    private static Evaluator concat(List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function tupleConcat requires at least one argument.");
        }
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof TupleType tt)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, "tupleN", "tupleConcat", "Tuple", args.get(i).type());
            }
            types.addAll(tt.elements);
        }
        return Functions.strict(DataTypes.tuple(types), args, v -> {
            List<Object> out = new ArrayList<>();
            for (Object t : v) {
                out.addAll((List<?>) t);
            }
            return ArrayArgs.frozen(out);
        });
    }

    /** The element names of a tuple type: its names, or the positions from 1 for an unnamed tuple. */
    private static List<String> elementNames(TupleType t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.elements.size(); i++) {
            out.add(t.names != null ? t.names.get(i) : String.valueOf(i + 1));
        }
        return out;
    }

    private static Evaluator names(List<Evaluator> args) {
        Functions.arity("tupleNames", args, 1);
        if (!(args.get(0).type().unwrap() instanceof TupleType t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function tupleNames must be a Tuple or Nullable(Tuple)");
        }
        List<Object> out = new ArrayList<>();
        for (String n : elementNames(t)) {
            out.add(ByteStrings.fromText(n));
        }
        return Evaluator.constant(DataTypes.array(DataTypes.STRING), ArrayArgs.frozen(out));
    }

    private static Evaluator nameValuePairs(List<Evaluator> args) {
        Functions.arity("tupleToNameValuePairs", args, 1);
        if (!(args.get(0).type().unwrap() instanceof TupleType t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function tupleToNameValuePairs must be a tuple");
        }
        for (DataType e : t.elements) {
            if (!e.equals(t.elements.get(0))) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The argument tuple for function tupleToNameValuePairs must contain just one type");
            }
        }
        DataType value = t.elements.isEmpty() ? DataTypes.NOTHING : t.elements.get(0);
        List<String> names = elementNames(t);
        return Functions.strict(DataTypes.array(DataTypes.tuple(List.of(DataTypes.STRING, value))), args, v -> {
            List<?> l = (List<?>) v[0];
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                out.add(List.of(ByteStrings.fromText(names.get(i)), l.get(i)));
            }
            return ArrayArgs.frozen(out);
        });
    }

    /** flattenTuple(t): the leaves of a named tuple of tuples, named by their paths joined with dots. */
    private static Evaluator flatten(List<Evaluator> args) {
        Functions.arity("flattenTuple", args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof TupleType tt) || tt.names == null) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Tuple argument for function 'flattenTuple' must be named. Got '"
                + args.get(0).type().name() + "'");
        }
        List<DataType> types = new ArrayList<>();
        List<String> names = new ArrayList<>();
        leaves(tt, "", types, names);
        return Functions.strict(DataTypes.tuple(types, names), args, v -> {
            List<Object> out = new ArrayList<>();
            values(v[0], tt, out);
            return ArrayArgs.frozen(out);
        });
    }

    private static void leaves(TupleType t, String prefix, List<DataType> types, List<String> names) {
        List<String> own = elementNames(t);
        for (int i = 0; i < t.elements.size(); i++) {
            DataType e = t.elements.get(i);
            if (e instanceof TupleType inner) {
                leaves(inner, prefix + own.get(i) + ".", types, names);
            } else {
                types.add(e);
                names.add(prefix + own.get(i));
            }
        }
    }

    private static void values(Object v, TupleType t, List<Object> out) {
        List<?> l = (List<?>) v;
        for (int i = 0; i < t.elements.size(); i++) {
            if (t.elements.get(i) instanceof TupleType inner) {
                values(l.get(i), inner, out);
            } else {
                out.add(l.get(i));
            }
        }
    }
}
