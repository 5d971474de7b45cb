package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * The functions of ClickHouse's FunctionArrayMapped family: each works on an array of values (the results of a
 * lambda over the arrays, or without a lambda the array itself) and, for the filtering ones, on the first array:
 * arrayMap, arrayFilter, arrayCount, arrayExists, arrayAll, arrayFirst, arrayLast (with Index and OrNull), arrayFill,
 * arrayReverseFill, arraySplit, arrayReverseSplit, the sorts of {@link FunctionArraySort} and the aggregations of
 * {@link FunctionsArrayAggregation}. Masks are UInt8, Bool or Nullable(UInt8), NULL being false.
 */
final class FunctionsArrayMapped {
    private static final List<String> NEED_LAMBDA = List.of("arrayMap", "arrayFilter", "arrayFirst", "arrayLast",
        "arrayFirstIndex", "arrayLastIndex", "arrayFirstOrNull", "arrayLastOrNull", "arrayFill", "arrayReverseFill",
        "arraySplit", "arrayReverseSplit", "arrayFold");

    private FunctionsArrayMapped() {
    }

    static void register(FunctionFactory f) {
        for (String n : NEED_LAMBDA) {
            f.register(n, FunctionsArray.CATEGORY, (args, ctx) -> {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + n + " needs at least "
                    + (n.equals("arrayFold") ? 3 : 2) + " arguments, passed " + args.size());
            });
        }
        for (String n : List.of("arrayCount", "arrayExists", "arrayAll")) {
            f.register(n, FunctionsArray.CATEGORY, (args, ctx) -> {
                Functions.arity(n, args, 1);
                DataType el = ArrayArgs.element(n, args, 0);
                if (!isMask(el) || TypeRules.stripNullable(el).unwrap() instanceof NothingType) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The 1st and only argument for function " + n
                        + " must be array of UInt8. Found " + args.get(0).type().name() + " instead");
                }
                return count(n, args.get(0));
            });
        }
        FunctionsArrayAggregation.register(f);
        FunctionArraySort.register(f);
    }

    /** Whether the function takes a limit before its arrays (arrayPartialSort(limit, arr), arrayTopK(k, arr)). */
    static boolean takesLimit(String name) {
        return FunctionArraySort.takesLimit(name);
    }

    /** The function over {@code mapped}, the lambda's results, of {@code arrays}; {@code params} its limit, if any. */
    static Evaluator withLambda(String name, Evaluator mapped, List<Evaluator> arrays, List<Evaluator> params) {
        DataType resultType = ((ArrayType) mapped.type()).element;
        Evaluator first = arrays.get(0);
        DataType element = ((ArrayType) first.type().unwrap()).element;
        if (FunctionsArrayAggregation.handles(name)) {
            return FunctionsArrayAggregation.compile(name, mapped);
        }
        if (FunctionArraySort.handles(name)) {
            return FunctionArraySort.compile(name, params, mapped, first);
        }
        if (name.equals("arrayMap")) {
            return mapped;
        }
        if (!isMask(resultType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Expression for function " + name
                + " must return UInt8 or Nullable(UInt8), found " + resultType.name());
        }
        switch (name) {
            case "arrayCount": case "arrayExists": case "arrayAll":
                return count(name, mapped);
            case "arrayFilter":
                return Evaluator.of(DataTypes.array(element), r -> {
                    List<?> src = list(first.eval(r));
                    List<?> mask = (List<?>) mapped.eval(r);
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < src.size(); i++) {
                        if (Values.isTrue(mask.get(i))) {
                            out.add(src.get(i));
                        }
                    }
                    return ArrayArgs.frozen(out);
                });
            case "arrayFirst": case "arrayLast": case "arrayFirstOrNull": case "arrayLastOrNull":
            case "arrayFirstIndex": case "arrayLastIndex":
                return find(name, mapped, first, element);
            case "arrayFill": case "arrayReverseFill": {
                boolean reverse = name.equals("arrayReverseFill");
                return Evaluator.of(DataTypes.array(element), r -> {
                    List<?> src = list(first.eval(r));
                    List<?> mask = (List<?>) mapped.eval(r);
                    int n = src.size();
                    Object[] out = new Object[n];
                    for (int k = 0; k < n; k++) {
                        int i = reverse ? n - 1 - k : k;
                        out[i] = k == 0 || Values.isTrue(mask.get(i)) ? src.get(i) : out[reverse ? i + 1 : i - 1];
                    }
                    return ArrayArgs.frozen(new ArrayList<>(java.util.Arrays.asList(out)));
                });
            }
            case "arraySplit": case "arrayReverseSplit": {
                boolean reverse = name.equals("arrayReverseSplit");
                return Evaluator.of(DataTypes.array(DataTypes.array(element)), r -> {
                    List<?> src = list(first.eval(r));
                    List<?> mask = (List<?>) mapped.eval(r);
                    List<Object> out = new ArrayList<>();
                    List<Object> part = new ArrayList<>();
                    for (int i = 0; i < src.size(); i++) {
                        if (!reverse && i > 0 && Values.isTrue(mask.get(i))) {
                            out.add(ArrayArgs.frozen(part));
                            part = new ArrayList<>();
                        }
                        part.add(src.get(i));
                        if (reverse && i < src.size() - 1 && Values.isTrue(mask.get(i))) {
                            out.add(ArrayArgs.frozen(part));
                            part = new ArrayList<>();
                        }
                    }
                    if (!part.isEmpty()) {
                        out.add(ArrayArgs.frozen(part));
                    }
                    return ArrayArgs.frozen(out);
                });
            }
            default:
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " does not take a lambda");
        }
    }

    /** UInt8, Bool, Nullable(UInt8) or NULL's Nothing: what a lambda of arrayFilter and its kin may return. */
    static boolean isMask(DataType t) {
        DataType u = TypeRules.stripNullable(t).unwrap();
        return u instanceof BoolType || u instanceof NothingType || u instanceof IntType i && i.bits == 8 && !i.signed;
    }

    private static List<?> list(Object v) {
        return v == null ? List.of() : (List<?>) v;
    }

    private static Evaluator count(String name, Evaluator mask) {
        return Evaluator.of(name.equals("arrayCount") ? DataTypes.UINT32 : DataTypes.UINT8, r -> {
            long c = 0;
            List<?> l = list(mask.eval(r));
            for (Object o : l) {
                if (Values.isTrue(o)) {
                    c++;
                }
            }
            switch (name) {
                case "arrayExists": return c > 0 ? 1L : 0L;
                case "arrayAll": return c == l.size() ? 1L : 0L;
                default: return c;
            }
        });
    }

    /** arrayFirst/Last: the element where the mask is first (last) true, else the default (OrNull: NULL, Index: 0). */
    private static Evaluator find(String name, Evaluator mapped, Evaluator first, DataType element) {
        boolean last = name.startsWith("arrayLast");
        boolean index = name.endsWith("Index");
        boolean orNull = name.endsWith("OrNull");
        DataType type = index ? DataTypes.UINT32 : orNull ? DataTypes.nullable(TypeRules.stripNullable(element)) : element;
        Object none = index ? (Object) 0L : orNull || element.isNullable() ? null : TypeRules.stripNullable(element).defaultValue();
        return Evaluator.of(type, r -> {
            List<?> src = list(first.eval(r));
            List<?> mask = (List<?>) mapped.eval(r);
            int n = src.size();
            for (int k = 0; k < n; k++) {
                int i = last ? n - 1 - k : k;
                if (Values.isTrue(mask.get(i))) {
                    return index ? (Object) (long) (i + 1) : src.get(i);
                }
            }
            return none;
        });
    }
}
