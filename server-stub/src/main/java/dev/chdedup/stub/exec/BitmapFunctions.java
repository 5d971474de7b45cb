package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.AggregateFunctionStates;
import dev.chdedup.stub.types.AggregateFunctionType;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.RoaringBitmapWithSmallSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The bitmap functions over groupBitmap states, as ClickHouse's FunctionsBitmap has them: bitmapBuild of an array of
 * integers, bitmapToArray (a small set's values in the order they came, a bitmap's ascending), bitmapCardinality,
 * bitmapContains, bitmapMin and bitmapMax, bitmapHasAny and bitmapHasAll, and bitmapAnd, bitmapOr, bitmapXor and
 * bitmapAndnot with their Cardinality forms, the subsets bitmapSubsetInRange ([start, end)), bitmapSubsetLimit (at most
 * a limit of the values from a start, in the state's order) and subBitmap (a limit of values after an offset), and bitmapTransform
 * (each value of a from-array present replaced by the to-array's, in turn, cast to the bitmap's type).
 */
final class BitmapFunctions {
    private static final Set<String> BINARY = Set.of("bitmapAnd", "bitmapOr", "bitmapXor", "bitmapAndnot");
    private static final Set<String> ALL = Set.of("bitmapBuild", "bitmapToArray", "bitmapCardinality", "bitmapContains", "bitmapMin",
        "bitmapMax", "bitmapHasAny", "bitmapHasAll", "bitmapAnd", "bitmapOr", "bitmapXor", "bitmapAndnot", "bitmapAndCardinality",
        "bitmapOrCardinality", "bitmapXorCardinality", "bitmapAndnotCardinality", "bitmapSubsetInRange", "bitmapSubsetLimit",
        "subBitmap", "bitmapTransform");

    private BitmapFunctions() {
    }

    static boolean handles(String name) {
        return ALL.contains(name);
    }

    /** The function names, for system.functions. */
    static Set<String> names() {
        return ALL;
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        if (name.equals("bitmapBuild")) {
            Functions.arity(name, args, 1);
            DataType t = args.get(0).type().unwrap();
            DataType element = t instanceof ArrayType ? ((ArrayType) t).element : null;
            if (element == null || !AggregateFunctionStates.bitmapValue(element)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The nested type " + (element == null ? t.name() : element.name())
                    + " of the first argument of function bitmapBuild is illegal, because it cannot be used in Bitmap operations");
            }
            DataType state = DataTypes.parse("AggregateFunction(groupBitmap, " + element.name() + ")");
            return Functions.strict(state, args, v -> {
                RoaringBitmapWithSmallSet s = new RoaringBitmapWithSmallSet();
                for (Object x : (List<?>) v[0]) {
                    if (x != null) {
                        s.add((Long) x);
                    }
                }
                return s;
            });
        }
        if (name.equals("bitmapSubsetInRange") || name.equals("bitmapSubsetLimit") || name.equals("subBitmap")) {
            return subset(name, args);
        }
        if (name.equals("bitmapTransform")) {
            return transform(args);
        }
        int arity = name.equals("bitmapToArray") || name.equals("bitmapCardinality") || name.equals("bitmapMin") || name.equals("bitmapMax") ? 1 : 2;
        Functions.arity(name, args, arity);
        AggregateFunctionType first = bitmap(name, args.get(0), 1);
        DataType element = first.arguments.get(0);
        switch (name) {
            case "bitmapToArray":
                return Functions.strict(DataTypes.parse("Array(" + element.name() + ")"), args, v -> new ArrayList<Object>(state(v[0]).toList()));
            case "bitmapCardinality":
                return Functions.strict(DataTypes.UINT64, args, v -> state(v[0]).cardinality());
            case "bitmapMin":
            case "bitmapMax": {
                boolean max = name.equals("bitmapMax");
                int bits = ((dev.chdedup.stub.types.IntType) element).bits;
                long largest = bits >= 64 ? -1L : (1L << bits) - 1;
                return Functions.strict(DataTypes.UINT64, args, v -> {
                    List<Long> sorted = state(v[0]).sorted();
                    // an empty bitmap's min is the type's largest value and its max 0, as ClickHouse answers
                    return sorted.isEmpty() ? (max ? 0L : largest) : sorted.get(max ? sorted.size() - 1 : 0);
                });
            }
            case "bitmapContains": {
                DataType x = args.get(1).type().unwrap();
                if (!AggregateFunctionStates.bitmapValue(x)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function bitmapContains must be an integer");
                }
                return Functions.strict(DataTypes.UINT8, args, v -> state(v[0]).contains((Long) v[1]) ? 1L : 0L);
            }
            default:
                break;
        }
        bitmap(name, args.get(1), 2);
        if (name.equals("bitmapHasAny") || name.equals("bitmapHasAll")) {
            boolean any = name.equals("bitmapHasAny");
            return Functions.strict(DataTypes.UINT8, args, v -> {
                RoaringBitmapWithSmallSet a = state(v[0]);
                RoaringBitmapWithSmallSet b = state(v[1]);
                long common = a.filtered(b::contains).cardinality();
                return (any ? common > 0 : common == b.cardinality()) ? 1L : 0L;
            });
        }
        boolean cardinality = name.endsWith("Cardinality");
        String op = cardinality ? name.substring(0, name.length() - "Cardinality".length()) : name;
        if (!BINARY.contains(op)) {
            throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Unknown bitmap function " + name);
        }
        return Functions.strict(cardinality ? DataTypes.UINT64 : first, args, v -> {
            RoaringBitmapWithSmallSet r = combine(op, state(v[0]), state(v[1]));
            return cardinality ? (Object) r.cardinality() : r;
        });
    }

    private static Evaluator subset(String name, List<Evaluator> args) {
        Functions.arity(name, args, 3);
        AggregateFunctionType type = bitmap(name, args.get(0), 1);
        for (int i = 1; i < 3; i++) {
            if (!(args.get(i).type().unwrap() instanceof dev.chdedup.stub.types.IntType it) || it.signed || it.bits > 64) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The second and third arguments for function " + name
                    + " must be one of [UInt8, UInt16, UInt32, UInt64] but one of them has type " + args.get(i).type().name());
            }
        }
        return Functions.strict(type, args, v -> {
            // a small set's values in the order they came, a bitmap's ascending, as the engine walks them
            List<Long> sorted = state(v[0]).toList();
            long a = (Long) v[1];
            long b = (Long) v[2];
            RoaringBitmapWithSmallSet r = new RoaringBitmapWithSmallSet();
            long taken = 0;
            for (int i = 0; i < sorted.size(); i++) {
                long x = sorted.get(i);
                boolean keep = switch (name) {
                    case "bitmapSubsetInRange" -> Long.compareUnsigned(x, a) >= 0 && Long.compareUnsigned(x, b) < 0;
                    case "bitmapSubsetLimit" -> Long.compareUnsigned(x, a) >= 0 && Long.compareUnsigned(taken, b) < 0;
                    default -> Long.compareUnsigned(i, a) >= 0 && Long.compareUnsigned(taken, b) < 0;
                };
                if (keep) {
                    r.add(x);
                    taken++;
                }
            }
            return r;
        });
    }

    private static Evaluator transform(List<Evaluator> args) {
        Functions.arity("bitmapTransform", args, 3);
        AggregateFunctionType type = bitmap("bitmapTransform", args.get(0), 1);
        for (int i = 1; i < 3; i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof ArrayType at) || !(at.element.unwrap() instanceof dev.chdedup.stub.types.IntType it) || it.signed) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The second and third arguments for function bitmapTransform "
                    + "must be an one of [Array(UInt8), Array(UInt16), Array(UInt32), Array(UInt64)] but one of them has type "
                    + args.get(i).type().name());
            }
        }
        dev.chdedup.stub.types.IntType element = (dev.chdedup.stub.types.IntType) type.arguments.get(0);
        long mask = element.bits >= 64 ? -1L : (1L << element.bits) - 1;
        return Functions.strict(type, args, v -> {
            List<?> from = (List<?>) v[1];
            List<?> to = (List<?>) v[2];
            if (from.size() != to.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "From array size and to array size mismatch");
            }
            java.util.Set<Long> values = new java.util.HashSet<>(state(v[0]).toList());
            for (int i = 0; i < from.size(); i++) {
                if (values.remove((Long) from.get(i))) {
                    values.add((Long) to.get(i) & mask);
                }
            }
            // the engine replaces in a bitmap: the result is one, listed in ascending order
            RoaringBitmapWithSmallSet r = new RoaringBitmapWithSmallSet();
            java.util.List<Long> sorted = new java.util.ArrayList<>(values);
            sorted.sort(Long::compareUnsigned);
            sorted.forEach(r::add);
            r.toLarge();
            return r;
        });
    }

    private static RoaringBitmapWithSmallSet combine(String op, RoaringBitmapWithSmallSet a, RoaringBitmapWithSmallSet b) {
        switch (op) {
            case "bitmapAnd":
                return a.filtered(b::contains);
            case "bitmapAndnot":
                return a.filtered(x -> !b.contains(x));
            case "bitmapOr": {
                RoaringBitmapWithSmallSet r = a.filtered(x -> true);
                r.addAll(b);
                return r;
            }
            default: {
                RoaringBitmapWithSmallSet r = a.filtered(x -> !b.contains(x));
                r.addAll(b.filtered(x -> !a.contains(x)));
                return r;
            }
        }
    }

    private static RoaringBitmapWithSmallSet state(Object v) {
        return (RoaringBitmapWithSmallSet) v;
    }

    private static AggregateFunctionType bitmap(String name, Evaluator e, int position) {
        DataType t = e.type().unwrap();
        if (!(t instanceof AggregateFunctionType) || !((AggregateFunctionType) t).function.equals("groupBitmap")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The " + (position == 1 ? "first" : "second") + " argument for function "
                + name + " must be a bitmap but it has type " + e.type().name());
        }
        return (AggregateFunctionType) t;
    }
}
