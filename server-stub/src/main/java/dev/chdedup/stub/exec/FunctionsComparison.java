package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.TupleType;
import java.util.List;

/**
 * The Comparison functions beyond the operators and IN: nullIn and notNullIn (and their global and IgnoreSet forms),
 * isDistinctFrom and isNotDistinctFrom, as ClickHouse answers them.
 */
final class FunctionsComparison {
    private static final String CATEGORY = "Comparison";

    private FunctionsComparison() {
    }

    static void register(FunctionFactory f) {
        for (String prefix : List.of("", "global")) {
            String in = prefix.isEmpty() ? "nullIn" : "globalNullIn";
            String notIn = prefix.isEmpty() ? "notNullIn" : "globalNotNullIn";
            f.register(in, CATEGORY, (args, ctx) -> nullIn(in, args, false));
            f.register(notIn, CATEGORY, (args, ctx) -> nullIn(notIn, args, true));
            f.register(in + "IgnoreSet", CATEGORY, (args, ctx) -> ignoreSet(in + "IgnoreSet", args));
            f.register(notIn + "IgnoreSet", CATEGORY, (args, ctx) -> ignoreSet(notIn + "IgnoreSet", args));
        }
        f.register("isDistinctFrom", CATEGORY, (args, ctx) -> distinct("isDistinctFrom", args, true));
        f.register("isNotDistinctFrom", CATEGORY, (args, ctx) -> distinct("isNotDistinctFrom", args, false));
    }

    private static void twoArguments(String name, List<Evaluator> args) {
        if (args.size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function '" + name + "' expects 2 arguments");
        }
    }

    /**
     * nullIn(x, set) and notNullIn: IN and NOT IN answering 0 and 1 (never NULL): a NULL x is in no set, as the set
     * keeps no NULL.
     */
    private static Evaluator nullIn(String name, List<Evaluator> args, boolean negate) {
        twoArguments(name, args);
        Evaluator in = Functions.in(args, false);
        return Evaluator.of(DataTypes.UINT8, r -> {
            Object v = in.eval(r);
            boolean found = v != null && (Long) v != 0;
            return found != negate ? 1L : 0L;
        });
    }

    /** The IgnoreSet forms, which ClickHouse uses only to type a query: 0, whatever the arguments. */
    private static Evaluator ignoreSet(String name, List<Evaluator> args) {
        twoArguments(name, args);
        return Evaluator.constant(DataTypes.UINT8, 0L);
    }

    /** isDistinctFrom(a, b): whether a and b differ, NULL being equal to NULL only (within tuples too); a UInt8. */
    private static Evaluator distinct(String name, List<Evaluator> args, boolean distinct) {
        Functions.arity(name, args, 2);
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        try {
            if (!(ta.unwrap() instanceof TupleType) || !(tb.unwrap() instanceof TupleType)) {
                TypeRules.common(List.of(ta, tb));
            }
        } catch (ChException e) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types of arguments (`" + ta.name() + "`, `" + tb.name()
                + "`) of function `" + name + "`");
        }
        Evaluator a = args.get(0);
        Evaluator b = args.get(1);
        return Evaluator.of(DataTypes.UINT8, r -> same(a.eval(r), ta, b.eval(r), tb) != distinct ? 1L : 0L);
    }

    private static boolean same(Object x, DataType tx, Object y, DataType ty) {
        if (x == null || y == null) {
            return x == null && y == null;
        }
        if (tx.unwrap() instanceof TupleType a && ty.unwrap() instanceof TupleType b && a.elements.size() == b.elements.size()) {
            List<?> l = (List<?>) x;
            List<?> m = (List<?>) y;
            for (int i = 0; i < l.size(); i++) {
                if (!same(l.get(i), a.elements.get(i), m.get(i), b.elements.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return TypeRules.compare(x, tx, y, ty) == 0;
    }
}
