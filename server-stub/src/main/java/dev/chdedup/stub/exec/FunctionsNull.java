package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import java.util.ArrayList;
import java.util.List;

/**
 * The NULL functions registered in the {@link FunctionFactory} (ClickHouse's isNullable, isZeroOrNull, nullIf and
 * firstNonDefault): isNull, coalesce, ifNull and assumeNotNull stay in {@link Functions}.
 */
final class FunctionsNull {
    private static final String CATEGORY = "Null";

    private FunctionsNull() {
    }

    static void register(FunctionFactory f) {
        f.register("isNullable", CATEGORY, (args, ctx) -> {
            Functions.arity("isNullable", args, 1);
            return Evaluator.constant(DataTypes.UINT8, args.get(0).type().isNullable() ? 1L : 0L);
        });
        f.register("isZeroOrNull", CATEGORY, (args, ctx) -> isZeroOrNull(args));
        f.registerCaseInsensitive("nullIf", CATEGORY, (args, ctx) -> nullIf(args));
        f.registerCaseInsensitive("firstNonDefault", CATEGORY, (args, ctx) -> firstNonDefault(args));
    }

    private static Evaluator isZeroOrNull(List<Evaluator> args) {
        Functions.arity("isZeroOrNull", args, 1);
        Evaluator a = args.get(0);
        DataType t = TypeRules.stripNullable(a.type());
        if (!TypeRules.isNumeric(t) && !(t instanceof NothingType)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS,
                "The argument of function isZeroOrNull must have simple numeric type, possibly Nullable or Null");
        }
        return Evaluator.of(DataTypes.UINT8, r -> {
            Object v = a.eval(r);
            return v == null || TypeRules.compare(v, t, 0L, DataTypes.UINT8) == 0 ? 1L : 0L;
        });
    }

    /** nullIf(a, b): NULL where a equals b, else a, in a's type made Nullable; a and b need a common type. */
    private static Evaluator nullIf(List<Evaluator> args) {
        Functions.arity("nullIf", args, 2);
        Evaluator a = args.get(0);
        Evaluator b = args.get(1);
        TypeRules.common(List.of(a.type(), b.type()));
        DataType result = DataTypes.nullable(a.type());
        return Evaluator.of(result, r -> {
            Object x = a.eval(r);
            Object y = b.eval(r);
            return x == null || y != null && TypeRules.compare(x, a.type(), y, b.type()) == 0 ? null : x;
        });
    }

    /**
     * The first argument that is not its type's default (NULL for a Nullable argument, 0 or '' otherwise), in the
     * arguments' common type; that type's default when every argument is.
     */
    private static Evaluator firstNonDefault(List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH,
                "Function firstNonDefault requires at least one argument");
        }
        List<DataType> types = new ArrayList<>();
        for (Evaluator e : args) {
            types.add(e.type());
        }
        DataType common = TypeRules.common(types);
        List<Evaluator> conv = Functions.casts(args, TypeRules.stripNullable(common));
        return Evaluator.of(common, r -> {
            for (int i = 0; i < conv.size(); i++) {
                Object v = conv.get(i).eval(r);
                DataType own = args.get(i).type();
                if (v == null) {
                    continue;
                }
                Object dflt = TypeRules.stripNullable(common).defaultValue();
                if (own.isNullable() || TypeRules.compare(v, TypeRules.stripNullable(common), dflt, TypeRules.stripNullable(common)) != 0) {
                    return v;
                }
            }
            return common.isNullable() ? null : common.defaultValue();
        });
    }
}
