package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.MapType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The array functions that look elements up or count them (ClickHouse's has, hasAll, hasAny, hasSubstr, countEqual,
 * indexOfAssumeSorted, arrayExcept, arrayJaccardIndex, arrayUniq, arrayEnumerateUniq, arrayEnumerateDense and their
 * Ranked forms). Elements compare by value across numeric types and NULL equals NULL; the element types must have a
 * common type (NO_COMMON_TYPE otherwise).
 */
final class FunctionsArraySet {
    private FunctionsArraySet() {
    }

    static void register(FunctionFactory f) {
        String c = FunctionsArray.CATEGORY;
        f.register("has", c, (args, ctx) -> has(args));
        f.register("hasAll", c, (args, ctx) -> hasAllAny("hasAll", args));
        f.register("hasAny", c, (args, ctx) -> hasAllAny("hasAny", args));
        f.register("hasSubstr", c, (args, ctx) -> hasAllAny("hasSubstr", args));
        f.register("countEqual", c, (args, ctx) -> countEqual(args));
        f.register("indexOfAssumeSorted", c, (args, ctx) -> indexOfAssumeSorted(args));
        f.register("arrayExcept", c, (args, ctx) -> except(args));
        f.register("arrayIntersect", c, (args, ctx) -> intersect(args));
        f.register("arrayUnion", c, (args, ctx) -> unionOrDifference("arrayUnion", args));
        f.register("arraySymmetricDifference", c, (args, ctx) -> unionOrDifference("arraySymmetricDifference", args));
        f.register("arrayJaccardIndex", c, (args, ctx) -> jaccard(args));
        f.register("arrayUniq", c, (args, ctx) -> enumerate("arrayUniq", args));
        f.register("arrayEnumerateUniq", c, (args, ctx) -> enumerate("arrayEnumerateUniq", args));
        f.register("arrayEnumerateDense", c, (args, ctx) -> enumerate("arrayEnumerateDense", args));
        f.register("arrayEnumerateUniqRanked", c, (args, ctx) -> ranked("arrayEnumerateUniqRanked", args, false));
        f.register("arrayEnumerateDenseRanked", c, (args, ctx) -> ranked("arrayEnumerateDenseRanked", args, true));
    }

    private static DataType firstOf(String name, List<Evaluator> args, String what) {
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof ArrayType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function " + name + " must be an "
                + what + ". Actual " + args.get(0).type().name());
        }
        return ((ArrayType) t).element;
    }

    /** has(arr, x); has(map, key) for a map's keys; has(json, path) for a path of the object or below it (its non-NULL values). */
    private static Evaluator has(List<Evaluator> args) {
        Functions.arity("has", args, 2);
        Evaluator a = args.get(0);
        Evaluator x = args.get(1);
        DataType xt = x.type();
        if (a.type().unwrap() instanceof MapType mt) {
            TypeRules.common(List.of(mt.key, xt));
            return Evaluator.of(DataTypes.UINT8, r -> {
                Object m = a.eval(r);
                Object k = x.eval(r);
                if (m == null) {
                    return 0L;
                }
                for (Object key : ((Map<?, ?>) m).keySet()) {
                    if (ArrayArgs.same(key, mt.key, k, xt)) {
                        return 1L;
                    }
                }
                return 0L;
            });
        }
        if (a.type().unwrap() instanceof dev.chdedup.stub.types.JsonType) {
            if (!Functions.isString(xt)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function has must be String when the first "
                    + "argument is JSON. Actual " + xt.name());
            }
            return Evaluator.of(DataTypes.UINT8, r -> {
                Object json = a.eval(r);
                Object path = x.eval(r);
                if (json == null || path == null) {
                    return 0L;
                }
                String p = ByteStrings.toText((String) path);
                for (Object key : ((Map<?, ?>) json).keySet()) {
                    String k = key.toString();
                    if (k.equals(p) || k.startsWith(p + ".")) {
                        return 1L;
                    }
                }
                return 0L;
            });
        }
        DataType el = firstOf("has", args, "array, map or JSON");
        TypeRules.common(List.of(el, xt));
        return Evaluator.of(DataTypes.UINT8, r -> {
            Object l = a.eval(r);
            Object v = x.eval(r);
            return l != null && indexOf((List<?>) l, el, v, xt) >= 0 ? 1L : 0L;
        });
    }

    private static int indexOf(List<?> l, DataType el, Object v, DataType vt) {
        for (int i = 0; i < l.size(); i++) {
            if (ArrayArgs.same(l.get(i), el, v, vt)) {
                return i;
            }
        }
        return -1;
    }

    private static Evaluator hasAllAny(String name, List<Evaluator> args) {
        Functions.arity(name, args, 2);
        for (int i = 0; i < 2; i++) {
            if (!(args.get(i).type().unwrap() instanceof ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + i + " for function " + name
                    + " must be an array but it has type " + args.get(i).type().name());
            }
        }
        DataType ea = ((ArrayType) args.get(0).type().unwrap()).element;
        DataType eb = ((ArrayType) args.get(1).type().unwrap()).element;
        TypeRules.common(List.of(ea, eb));
        return Functions.strict(DataTypes.UINT8, args, v -> {
            List<?> a = (List<?>) v[0];
            List<?> b = (List<?>) v[1];
            switch (name) {
                case "hasAll":
                    for (Object o : b) {
                        if (indexOf(a, ea, o, eb) < 0) {
                            return 0L;
                        }
                    }
                    return 1L;
                case "hasAny":
                    for (Object o : b) {
                        if (indexOf(a, ea, o, eb) >= 0) {
                            return 1L;
                        }
                    }
                    return 0L;
                default:
                    for (int s = 0; s + b.size() <= a.size(); s++) {
                        int k = 0;
                        while (k < b.size() && ArrayArgs.same(a.get(s + k), ea, b.get(k), eb)) {
                            k++;
                        }
                        if (k == b.size()) {
                            return 1L;
                        }
                    }
                    return 0L;
            }
        });
    }

    private static Evaluator countEqual(List<Evaluator> args) {
        Functions.arity("countEqual", args, 2);
        DataType el = firstOf("countEqual", args, "array");
        DataType xt = args.get(1).type();
        TypeRules.common(List.of(el, xt));
        Evaluator a = args.get(0);
        Evaluator x = args.get(1);
        return Evaluator.of(DataTypes.UINT64, r -> {
            Object l = a.eval(r);
            Object v = x.eval(r);
            long n = 0;
            for (Object o : l == null ? List.of() : (List<?>) l) {
                if (ArrayArgs.same(o, el, v, xt)) {
                    n++;
                }
            }
            return n;
        });
    }

    /** indexOfAssumeSorted(arr, x): the first position of x by binary search in an ascending array, 0 when not found. */
    private static Evaluator indexOfAssumeSorted(List<Evaluator> args) {
        Functions.arity("indexOfAssumeSorted", args, 2);
        DataType el = firstOf("indexOfAssumeSorted", args, "array");
        DataType xt = args.get(1).type();
        TypeRules.common(List.of(el, xt));
        Evaluator a = args.get(0);
        Evaluator x = args.get(1);
        return Evaluator.of(DataTypes.UINT64, r -> {
            Object l = a.eval(r);
            Object v = x.eval(r);
            if (l == null || v == null) {
                return 0L;
            }
            List<?> list = (List<?>) l;
            int lo = 0;
            int hi = list.size();
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                Object m = list.get(mid);
                if (m != null && TypeRules.compare(m, el, v, xt) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo < list.size() && ArrayArgs.same(list.get(lo), el, v, xt) ? (long) lo + 1 : 0L;
        });
    }

    /** arrayExcept(source, exclude): source's elements not in exclude, in order, with their repeats. */
    private static Evaluator except(List<Evaluator> args) {
        Functions.arity("arrayExcept", args, 2);
        String[] names = {"source", "exclude"};
        for (int i = 0; i < 2; i++) {
            if (!(args.get(i).type().unwrap() instanceof ArrayType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i], "arrayExcept", "Array",
                    args.get(i).type());
            }
        }
        DataType ea = ((ArrayType) args.get(0).type().unwrap()).element;
        DataType eb = ((ArrayType) args.get(1).type().unwrap()).element;
        if (!TypeRules.stripNullable(ea).equals(TypeRules.stripNullable(eb))) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function arrayExcept requires both arrays to have exactly the same "
                + "element type. Got " + args.get(0).type().name() + " and " + args.get(1).type().name());
        }
        return Functions.strict(args.get(0).type().unwrap(), args, v -> {
            Set<Object> exclude = new HashSet<>();
            for (Object o : (List<?>) v[1]) {
                exclude.add(ArrayArgs.key(o));
            }
            List<Object> out = new ArrayList<>();
            for (Object o : (List<?>) v[0]) {
                if (!exclude.contains(ArrayArgs.key(o))) {
                    out.add(o);
                }
            }
            return ArrayArgs.frozen(out);
        });
    }

    /**
     * arrayIntersect(a, ...): the distinct elements of the first array found in every other, in the first array's order
     * (NULL once, where the first array has it, when every array holds one); the element type is the narrowest of the
     * arrays' (Nullable only when all are), as ClickHouse's getMostSubtype.
     */
    private static Evaluator intersect(List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function arrayIntersect requires at least one argument");
        }
        List<DataType> els = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (!(args.get(i).type().unwrap() instanceof ArrayType at)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + i + " for function arrayIntersect must be an array but"
                    + " it has type " + args.get(i).type().name());
            }
            els.add(at.element);
        }
        DataType narrowest = TypeRules.stripNullable(els.get(0));
        for (DataType e : els) {
            DataType u = TypeRules.stripNullable(e);
            if (Functions.isString(u) != Functions.isString(narrowest)) {
                throw new ChException(ErrorCode.NO_COMMON_TYPE, "There is no subtype for types " + narrowest.name() + ", " + u.name()
                    + " because some of them are String/FixedString and some of them are not");
            }
            if (TypeRules.isInteger(u) && !TypeRules.isInteger(narrowest)) {
                narrowest = u;
            }
        }
        boolean allNullable = els.stream().allMatch(DataType::isNullable);
        DataType result = allNullable ? DataTypes.nullable(narrowest) : narrowest;
        return Functions.strict(DataTypes.array(result), args, v -> {
            List<Object> out = new ArrayList<>();
            boolean nullAdded = false;
            for (Object o : (List<?>) v[0]) {
                boolean everywhere = true;
                for (int i = 1; i < v.length && everywhere; i++) {
                    everywhere = indexOf((List<?>) v[i], els.get(i), o, els.get(0)) >= 0;
                }
                if (!everywhere || o == null && (nullAdded || !allNullable)) {
                    continue;
                }
                if (o == null) {
                    nullAdded = true;
                    out.add(null);
                } else if (indexOf(out, result, ArrayArgs.convert(o, els.get(0), result), result) < 0) {
                    out.add(ArrayArgs.convert(o, els.get(0), result));
                }
            }
            return ArrayArgs.frozen(out);
        });
    }

    /**
     * arrayUnion (the distinct elements of all the arrays) and arraySymmetricDifference (those not in every array), in
     * the arrays' common type, in the order ClickHouse's hash table yields them ({@link HashTableOrder}; first
     * appearance for the types it does not cover), NULL last when one array (for the difference: not every array)
     * holds a NULL.
     */
    private static Evaluator unionOrDifference(String name, List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " requires at least one argument");
        }
        List<DataType> els = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            if (!(args.get(i).type().unwrap() instanceof ArrayType at)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + i + " for function " + name + " must be an array but"
                    + " it has type " + args.get(i).type().name());
            }
            els.add(at.element);
        }
        DataType common = TypeRules.common(els);
        DataType plain = TypeRules.stripNullable(common);
        boolean union = name.equals("arrayUnion");
        return Functions.strict(DataTypes.array(common), args, v -> {
            List<Object> all = new ArrayList<>();
            List<Set<Object>> each = new ArrayList<>();
            int withNull = 0;
            for (int i = 0; i < v.length; i++) {
                Set<Object> own = new HashSet<>();
                boolean sawNull = false;
                for (Object o : (List<?>) v[i]) {
                    if (o == null) {
                        sawNull = true;
                        continue;
                    }
                    Object x = ArrayArgs.convert(o, els.get(i), plain);
                    all.add(x);
                    own.add(ArrayArgs.key(x));
                }
                withNull += sawNull ? 1 : 0;
                each.add(own);
            }
            List<Object> distinct = HashTableOrder.hashable(plain) ? HashTableOrder.distinct(all, plain)
                : new ArrayList<>(new java.util.LinkedHashSet<>(all));
            List<Object> out = new ArrayList<>();
            for (Object x : distinct) {
                if (union || !each.stream().allMatch(s -> s.contains(ArrayArgs.key(x)))) {
                    out.add(x);
                }
            }
            if (union ? withNull > 0 : withNull > 0 && withNull < v.length) {
                out.add(null);
            }
            return ArrayArgs.frozen(out);
        });
    }

    /** arrayJaccardIndex(a, b): the distinct common elements over the sizes of a and b less them. */
    private static Evaluator jaccard(List<Evaluator> args) {
        Functions.arity("arrayJaccardIndex", args, 2);
        DataType ea = ArrayArgs.element("arrayJaccardIndex", args, 0);
        DataType eb = ArrayArgs.element("arrayJaccardIndex", args, 1);
        TypeRules.common(List.of(ea, eb));
        return Functions.strict(DataTypes.FLOAT64, args, v -> {
            List<?> a = (List<?>) v[0];
            List<?> b = (List<?>) v[1];
            if (a.isEmpty() && b.isEmpty()) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "array aggregate functions cannot be performed on two empty arrays");
            }
            List<Object> common = new ArrayList<>();
            for (Object o : a) {
                if (indexOf(b, eb, o, ea) >= 0 && indexOf(common, ea, o, ea) < 0) {
                    common.add(o);
                }
            }
            double i = common.size();
            return i / (a.size() + b.size() - i);
        });
    }

    /**
     * arrayUniq (the number of distinct tuples of the arrays' elements), arrayEnumerateUniq (each position's count of
     * its tuple so far) and arrayEnumerateDense (each tuple's number in order of first appearance).
     */
    private static Evaluator enumerate(String name, List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Number of arguments for function " + name
                + " doesn't match: passed 0, should be at least 1.");
        }
        for (int i = 0; i < args.size(); i++) {
            ArrayArgs.element(name, args, i);
        }
        boolean uniq = name.equals("arrayUniq");
        return Functions.strict(uniq ? DataTypes.UINT32 : DataTypes.array(DataTypes.UINT32), args, v -> {
            int n = ((List<?>) v[0]).size();
            for (Object a : v) {
                if (((List<?>) a).size() != n) {
                    throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Lengths of all arrays passed to " + name + " must be equal.");
                }
            }
            List<Object> keys = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                List<Object> k = new ArrayList<>(v.length);
                for (Object a : v) {
                    k.add(ArrayArgs.key(((List<?>) a).get(i)));
                }
                keys.add(k);
            }
            List<Object> out = numbering(keys, name.equals("arrayEnumerateDense"), new HashMap<>());
            return uniq ? (Object) (long) new HashSet<>(keys).size() : ArrayArgs.frozen(out);
        });
    }

    /** For each key its count so far, or (dense) its number in order of first appearance, in {@code seen}. */
    private static List<Object> numbering(List<?> keys, boolean dense, Map<Object, Long> seen) {
        List<Object> out = new ArrayList<>(keys.size());
        for (Object k : keys) {
            Object key = ArrayArgs.key(k);
            if (dense) {
                Long id = seen.get(key);
                if (id == null) {
                    id = (long) seen.size() + 1;
                    seen.put(key, id);
                }
                out.add(id);
            } else {
                out.add(seen.merge(key, 1L, Long::sum));
            }
        }
        return out;
    }

    /**
     * arrayEnumerateUniqRanked / DenseRanked([clear_depth,] arr[, max_array_depth]): the numbering of the elements at
     * depth max_array_depth (the array's own depth by default), counting anew in each array at depth clear_depth (1).
     */
    private static Evaluator ranked(String name, List<Evaluator> args, boolean dense) {
        int i = 0;
        int clear = 1;
        if (!args.isEmpty() && TypeRules.isInteger(args.get(0).type())) {
            clear = (int) Functions.constLong(args.get(0));
            i = 1;
        }
        if (args.size() <= i || !(args.get(i).type().unwrap() instanceof ArrayType)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function " + name + " needs an array argument");
        }
        Evaluator arr = args.get(i);
        int depth = 0;
        DataType t = arr.type().unwrap();
        while (t instanceof ArrayType at) {
            depth++;
            t = at.element.unwrap();
        }
        int max = args.size() > i + 1 ? (int) Functions.constLong(args.get(i + 1)) : depth;
        if (args.size() > i + 2) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Function " + name + " of several arrays is not supported by the stub");
        }
        if (max < 1 || max > depth || clear < 1 || clear > max) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Incorrect arguments for function " + name + ": clear_depth=" + clear
                + ", max_array_depth=" + max);
        }
        DataType result = DataTypes.UINT32;
        for (int d = 0; d < max; d++) {
            result = DataTypes.array(result);
        }
        int clearDepth = clear;
        int maxDepth = max;
        return Functions.strict(result, List.of(arr), v -> walk(v[0], 1, clearDepth, maxDepth, dense, new HashMap<>()));
    }

    private static Object walk(Object value, int depth, int clear, int max, boolean dense, Map<Object, Long> seen) {
        Map<Object, Long> scope = depth == clear ? new HashMap<>() : seen;
        List<?> l = (List<?>) value;
        if (depth == max) {
            return ArrayArgs.frozen(numbering(l, dense, scope));
        }
        List<Object> out = new ArrayList<>(l.size());
        for (Object o : l) {
            out.add(walk(o, depth + 1, clear, max, dense, scope));
        }
        return ArrayArgs.frozen(out);
    }
}
