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
 * bitmapAndnot with their Cardinality forms.
 */
final class BitmapFunctions {
    private static final Set<String> BINARY = Set.of("bitmapAnd", "bitmapOr", "bitmapXor", "bitmapAndnot");
    private static final Set<String> ALL = Set.of("bitmapBuild", "bitmapToArray", "bitmapCardinality", "bitmapContains", "bitmapMin",
        "bitmapMax", "bitmapHasAny", "bitmapHasAll", "bitmapAnd", "bitmapOr", "bitmapXor", "bitmapAndnot", "bitmapAndCardinality",
        "bitmapOrCardinality", "bitmapXorCardinality", "bitmapAndnotCardinality");

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
