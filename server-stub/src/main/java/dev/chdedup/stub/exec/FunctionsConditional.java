package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import java.util.ArrayList;
import java.util.List;

/**
 * The Conditional functions that pick one of their arguments by value (ClickHouse's greatest, least and clamp), in the
 * arguments' common type: greatest and least skip NULLs (NULL only when every argument is), clamp is NULL when an
 * argument is. if and multiIf stay in {@link Functions}.
 */
final class FunctionsConditional {
    private static final String CATEGORY = "Conditional";

    private FunctionsConditional() {
    }

    static void register(FunctionFactory f) {
        f.registerCaseInsensitive("greatest", CATEGORY, (args, ctx) -> extreme("greatest", args, true));
        f.registerCaseInsensitive("least", CATEGORY, (args, ctx) -> extreme("least", args, false));
        f.register("clamp", CATEGORY, (args, ctx) -> clamp(args));
    }

    private static DataType common(List<Evaluator> args) {
        List<DataType> ts = new ArrayList<>();
        args.forEach(a -> ts.add(a.type()));
        return TypeRules.common(ts);
    }

    private static Evaluator extreme(String name, List<Evaluator> args, boolean greatest) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " requires at least one argument");
        }
        DataType t = common(args);
        DataType inner = TypeRules.stripNullable(t);
        List<Evaluator> conv = Functions.casts(args, inner);
        boolean floats = inner instanceof dev.chdedup.stub.types.FloatType;
        int sign = greatest ? 1 : -1;
        // the kept value stays only while it beats the next one: a NaN, beaten by nothing, gives way to what follows it
        return Evaluator.of(t, r -> {
            Object best = null;
            for (Evaluator e : conv) {
                Object v = e.eval(r);
                if (v != null && (best == null || !(floats ? beats(((Number) best).doubleValue(), ((Number) v).doubleValue(), greatest)
                    : Integer.signum(inner.compare(best, v)) == sign))) {
                    best = v;
                }
            }
            return best;
        });
    }

    /** Whether a kept float {@code a} beats {@code b}, compared as IEEE numbers are (a NaN beats nothing, nothing beats it). */
    private static boolean beats(double a, double b, boolean greatest) {
        return greatest ? a > b : a < b;
    }

    /** clamp(x, min, max): x within [min, max]; BAD_ARGUMENTS where min > max. */
    private static Evaluator clamp(List<Evaluator> args) {
        Functions.arity("clamp", args, 3);
        DataType inner = TypeRules.stripNullable(common(args));
        List<Evaluator> conv = Functions.casts(args, inner);
        return Functions.strict(inner, conv, v -> {
            if (inner.compare(v[1], v[2]) > 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The minimum value cannot be greater than the maximum value for function clamp");
            }
            return inner.compare(v[0], v[1]) < 0 ? v[1] : inner.compare(v[0], v[2]) > 0 ? v[2] : v[0];
        });
    }
}
