package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The sorts of ClickHouse's arraySort.cpp and arrayTopK: arraySort, arrayReverseSort, arrayPartialSort,
 * arrayPartialReverseSort, arrayTopK and arrayBottomK, ordering the first array by keys (a lambda's results, or the
 * array itself). NaN and then NULL keys come last in either direction. The partial sorts select their first
 * {@code limit} elements as ClickHouse's partial_sort does (miniselect's Floyd-Rivest selection, then a sort of the
 * selected part), which fixes the order of the rest; a limit outside (0, size) sorts all. TopK and BottomK are the
 * first k of the sorted array without its NULLs.
 */
final class FunctionArraySort {
    private static final List<String> NAMES = List.of("arraySort", "arrayReverseSort", "arrayPartialSort",
        "arrayPartialReverseSort", "arrayTopK", "arrayBottomK");

    private FunctionArraySort() {
    }

    static void register(FunctionFactory f) {
        for (String n : NAMES) {
            f.register(n, FunctionsArray.CATEGORY, (args, ctx) -> {
                int lead = takesLimit(n) ? 1 : 0;
                if (args.size() != lead + 1) {
                    throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + n
                        + " doesn't match: passed " + args.size() + ", should be " + (lead + 1));
                }
                ArrayArgs.element(n, args, lead);
                return compile(n, args.subList(0, lead), args.get(lead), args.get(lead));
            });
        }
    }

    static boolean handles(String name) {
        return NAMES.contains(name);
    }

    static boolean takesLimit(String name) {
        return name.startsWith("arrayPartial") || name.equals("arrayTopK") || name.equals("arrayBottomK");
    }

    /** The function ordering the array {@code data} by {@code keys}, of equal sizes; {@code params} its limit. */
    static Evaluator compile(String name, List<Evaluator> params, Evaluator keys, Evaluator data) {
        DataType keyType = ((ArrayType) keys.type().unwrap()).element;
        DataType element = ((ArrayType) data.type().unwrap()).element;
        boolean desc = name.equals("arrayReverseSort") || name.equals("arrayPartialReverseSort") || name.equals("arrayTopK");
        boolean top = name.equals("arrayTopK") || name.equals("arrayBottomK");
        if (!params.isEmpty() && !TypeRules.isInteger(params.get(0).type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + params.get(0).type().name() + " of argument 1 of function " + name);
        }
        DataType result = top ? DataTypes.array(TypeRules.stripNullable(element)) : data.type().unwrap();
        Comparator<Object> order = order(keyType, desc);
        return Evaluator.of(result, r -> {
            Object d = data.eval(r);
            if (d == null) {
                return null;
            }
            List<?> src = (List<?>) d;
            List<?> key = keys == data ? src : (List<?>) keys.eval(r);
            Integer[] idx = new Integer[src.size()];
            for (int i = 0; i < idx.length; i++) {
                idx[i] = i;
            }
            Comparator<Integer> byKey = (a, b) -> order.compare(key.get(a), key.get(b));
            long limit = params.isEmpty() ? 0 : ArrayArgs.longOf(params.get(0).eval(r), params, 0);
            if (top && limit < 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Argument K of function " + name + " must be non-negative, got " + limit);
            }
            if (name.startsWith("arrayPartial") && limit > 0 && limit < idx.length) {
                partialSort(idx, (int) limit, byKey);
            } else {
                java.util.Arrays.sort(idx, byKey);
            }
            List<Object> out = new ArrayList<>(idx.length);
            for (Integer i : idx) {
                if (top && (out.size() >= limit || src.get(i) == null)) {
                    continue;
                }
                out.add(src.get(i));
            }
            return ArrayArgs.frozen(out);
        });
    }

    /** Ascending or descending by value, NaN after every number and NULL after everything, in either direction. */
    private static Comparator<Object> order(DataType keyType, boolean desc) {
        DataType plain = TypeRules.stripNullable(keyType);
        return (a, b) -> {
            if (a == null || b == null) {
                return a == b ? 0 : a == null ? 1 : -1;
            }
            boolean na = isNaN(a);
            boolean nb = isNaN(b);
            if (na || nb) {
                return na == nb ? 0 : na ? 1 : -1;
            }
            int c = plain.compare(a, b);
            return desc ? -c : c;
        };
    }

    private static boolean isNaN(Object v) {
        return v instanceof Double d && d.isNaN() || v instanceof Float f && f.isNaN();
    }

    /**
     * Puts the {@code limit} least elements first, sorted: miniselect's Floyd-Rivest selection of the element at
     * {@code limit - 1} (the one the map sorts share), then a sort of the first {@code limit}.
     */
    private static void partialSort(Integer[] a, int limit, Comparator<Integer> comp) {
        MapHigherOrderFunctions.floydRivestSelect(a, 0, a.length - 1, limit - 1, comp);
        java.util.Arrays.sort(a, 0, limit, comp);
    }
}
