package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The array functions that build, cut and move arrays (ClickHouse's src/Functions/array: emptyArray*, arrayPushBack,
 * arrayPopBack, arrayResize, arrayWithConstant, replicate, range, reverse, arrayRotate*, arrayShift*, arrayShingles,
 * arrayCompact, arrayFlatten, arrayTranspose, arrayZipUnaligned, arrayElementOrNull, emptyArrayToSingle, arrayRemove),
 * with the engine's result types and errors.
 */
final class FunctionsArray {
    static final String CATEGORY = "Arrays";

    private FunctionsArray() {
    }

    static void register(FunctionFactory f) {
        String[][] empties = {{"UInt8"}, {"UInt16"}, {"UInt32"}, {"UInt64"}, {"Int8"}, {"Int16"}, {"Int32"}, {"Int64"},
            {"Float32"}, {"Float64"}, {"Date"}, {"DateTime"}};
        for (String[] e : empties) {
            String name = "emptyArray" + e[0];
            DataType t = DataTypes.array(DataTypes.parse(e[0]));
            f.register(name, CATEGORY, (args, ctx) -> {
                Functions.arity(name, args, 0);
                return Evaluator.constant(t, List.of());
            });
        }
        f.register("arrayPushBack", CATEGORY, (args, ctx) -> push("arrayPushBack", args, false));
        f.register("arrayPushFront", CATEGORY, (args, ctx) -> push("arrayPushFront", args, true));
        f.register("arrayPopBack", CATEGORY, (args, ctx) -> pop("arrayPopBack", args, false));
        f.register("arrayPopFront", CATEGORY, (args, ctx) -> pop("arrayPopFront", args, true));
        f.register("arrayResize", CATEGORY, (args, ctx) -> resize(args));
        f.register("arrayWithConstant", CATEGORY, (args, ctx) -> withConstant(args));
        f.register("replicate", CATEGORY, (args, ctx) -> replicate(args));
        f.register("range", CATEGORY, (args, ctx) -> FunctionRange.compile(args));
        f.registerCaseInsensitive("reverse", CATEGORY, (args, ctx) -> reverse(args, ctx));
        for (String n : List.of("arrayRotateLeft", "arrayRotateRight", "arrayShiftLeft", "arrayShiftRight")) {
            f.register(n, CATEGORY, (args, ctx) -> rotateOrShift(n, args));
        }
        f.register("arrayShingles", CATEGORY, (args, ctx) -> shingles(args));
        f.register("arrayCompact", CATEGORY, (args, ctx) -> compact(args));
        f.register("arrayFlatten", CATEGORY, (args, ctx) -> flatten(args));
        f.registerAlias("flatten", "arrayFlatten", true);
        f.register("arrayTranspose", CATEGORY, (args, ctx) -> transpose(args));
        f.register("arrayZipUnaligned", CATEGORY, (args, ctx) -> zipUnaligned(args));
        f.register("arrayElementOrNull", CATEGORY, (args, ctx) -> elementOrNull(args));
        f.register("emptyArrayToSingle", CATEGORY, (args, ctx) -> emptyArrayToSingle(args));
        f.register("arrayRemove", CATEGORY, (args, ctx) -> remove(args));
        f.registerAlias("array_remove", "arrayRemove", true);
        for (String n : ArrayFunctions.NAMES) {
            f.register(n, CATEGORY, (args, ctx) -> ArrayFunctions.compile(n, args));
        }
        for (String n : List.of("array", "arrayElement")) {
            f.register(n, CATEGORY, (args, ctx) -> ArithmeticFunctions.compile(n, args));
        }
        for (String n : List.of("tuple", "tupleElement")) {
            f.register(n, FunctionsTuple.CATEGORY, (args, ctx) -> ArithmeticFunctions.compile(n, args));
        }
    }

    private static DataType firstArray(String name, List<Evaluator> args) {
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof ArrayType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function " + name
                + " must be an array but it has type " + args.get(0).type().name());
        }
        return ((ArrayType) t).element;
    }

    private static Evaluator push(String name, List<Evaluator> args, boolean front) {
        Functions.arity(name, args, 2);
        DataType el = firstArray(name, args);
        DataType vt = args.get(1).type();
        DataType common = TypeRules.common(List.of(el, vt));
        Evaluator a = args.get(0);
        Evaluator x = args.get(1);
        return Evaluator.of(Functions.nullIf(a.type(), DataTypes.array(common)), r -> {
            Object l = a.eval(r);
            if (l == null) {
                return null;
            }
            List<Object> out = ArrayArgs.convertAll((List<?>) l, el, common);
            Object v = ArrayArgs.convert(x.eval(r), vt, common);
            out.add(front ? 0 : out.size(), v);
            return ArrayArgs.frozen(out);
        });
    }

    private static Evaluator pop(String name, List<Evaluator> args, boolean front) {
        Functions.arity(name, args, 1);
        firstArray(name, args);
        return Functions.strict(args.get(0).type().unwrap(), args, v -> {
            List<?> l = (List<?>) v[0];
            return l.isEmpty() ? l : ArrayArgs.frozen(new ArrayList<>(front ? l.subList(1, l.size()) : l.subList(0, l.size() - 1)));
        });
    }

    /** arrayResize(arr, size[, extender]): a negative size keeps the last elements, the new ones are the extender. */
    private static Evaluator resize(List<Evaluator> args) {
        if (args.size() != 2 && args.size() != 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function arrayResize"
                + " doesn't match: passed " + args.size() + ", should be 2 or 3");
        }
        DataType el = firstArray("arrayResize", args);
        ArrayArgs.integer("arrayResize", args, 1);
        DataType common = args.size() == 3 ? TypeRules.common(List.of(el, args.get(2).type())) : el;
        Evaluator a = args.get(0);
        Evaluator n = args.get(1);
        Evaluator ext = args.size() == 3 ? args.get(2) : null;
        return Evaluator.of(Functions.nullIf(a.type(), DataTypes.array(common)), r -> {
            Object l = a.eval(r);
            Object size = n.eval(r);
            if (l == null || size == null) {
                return null;
            }
            List<Object> src = ArrayArgs.convertAll((List<?>) l, el, common);
            Object fill = ext == null ? TypeRules.stripNullable(common).defaultValue()
                : ArrayArgs.convert(ext.eval(r), ext.type(), common);
            long s = ArrayArgs.longOf(size, args, 1);
            int want = (int) Math.min(Math.abs(s), Integer.MAX_VALUE);
            List<Object> out = new ArrayList<>(want);
            if (s >= 0) {
                out.addAll(src.subList(0, Math.min(want, src.size())));
                while (out.size() < want) {
                    out.add(fill);
                }
            } else {
                while (out.size() + src.size() < want) {
                    out.add(fill);
                }
                out.addAll(src.subList(Math.max(0, src.size() - want), src.size()));
            }
            return ArrayArgs.frozen(out);
        });
    }

    private static Evaluator withConstant(List<Evaluator> args) {
        Functions.arity("arrayWithConstant", args, 2);
        ArrayArgs.integer("arrayWithConstant", args, 0);
        Evaluator n = args.get(0);
        Evaluator x = args.get(1);
        return Evaluator.of(Functions.nullIf(n.type(), DataTypes.array(x.type())), r -> {
            Object c = n.eval(r);
            if (c == null) {
                return null;
            }
            long s = ArrayArgs.longOf(c, args, 0);
            if (s < 0) {
                throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Array size " + s + " cannot be negative: while executing function arrayWithConstant");
            }
            if (s > 1_000_000_000L) {
                throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Too large array size while executing function arrayWithConstant");
            }
            return Collections.nCopies((int) s, x.eval(r));
        });
    }

    private static Evaluator replicate(List<Evaluator> args) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Function replicate expect at least two arguments, got " + args.size());
        }
        for (int i = 1; i < args.size(); i++) {
            if (!(args.get(i).type().unwrap() instanceof ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + i + " of function replicate must be array. Found "
                    + args.get(i).type().name() + " instead.");
            }
        }
        Evaluator x = args.get(0);
        Evaluator a = args.get(1);
        return Evaluator.of(DataTypes.array(x.type()), r -> {
            Object l = a.eval(r);
            return Collections.nCopies(l == null ? 0 : ((List<?>) l).size(), x.eval(r));
        });
    }

    private static Evaluator reverse(List<Evaluator> args, QueryContext ctx) {
        Functions.arity("reverse", args, 1);
        DataType t = args.get(0).type().unwrap();
        if (t instanceof ArrayType) {
            return Functions.strict(t, args, v -> {
                List<Object> out = new ArrayList<>((List<?>) v[0]);
                Collections.reverse(out);
                return ArrayArgs.frozen(out);
            });
        }
        if (t instanceof TupleType tt) {
            List<DataType> rev = new ArrayList<>(tt.elements);
            Collections.reverse(rev);
            return Functions.strict(DataTypes.tuple(rev), args, v -> {
                List<Object> out = new ArrayList<>((List<?>) v[0]);
                Collections.reverse(out);
                return ArrayArgs.frozen(out);
            });
        }
        return StringFunctions.compile("reverse", args);
    }

    /** arrayRotate*(arr, n) turns the elements round; arrayShift*(arr, n[, default]) moves them out, filling with default. */
    private static Evaluator rotateOrShift(String name, List<Evaluator> args) {
        boolean shift = name.startsWith("arrayShift");
        if (args.size() < 2 || args.size() > (shift ? 3 : 2)) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be " + (shift ? "2 or 3" : "2"));
        }
        DataType el = ArrayArgs.element(name, args, 0);
        if (!TypeRules.isInteger(args.get(1).type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name() + " of argument of function "
                + name + ", expected Native Integer");
        }
        if (args.size() == 3 && !TypeRules.stripNullable(args.get(2).type()).equals(TypeRules.stripNullable(el))
            && !(args.get(2).type().unwrap() instanceof NothingType && el.isNullable())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(2).type().name() + " of argument of function "
                + name + ", expected " + el.name());
        }
        boolean left = name.endsWith("Left");
        Evaluator def = args.size() == 3 ? args.get(2) : null;
        return Functions.strict(args.get(0).type().unwrap(), args.subList(0, 2), v -> {
            List<?> l = (List<?>) v[0];
            int n = l.size();
            long k = ArrayArgs.longOf(v[1], args, 1);
            if (!left) {
                k = -k;
            }
            List<Object> out = new ArrayList<>(n);
            if (!shift) {
                int m = n == 0 ? 0 : (int) Math.floorMod(k, (long) n);
                for (int i = 0; i < n; i++) {
                    out.add(l.get((i + m) % n));
                }
            } else {
                Object fill = def == null ? TypeRules.stripNullable(el).defaultValue() : def.eval(new Object[0]);
                for (int i = 0; i < n; i++) {
                    long src = i + k;
                    out.add(src >= 0 && src < n ? l.get((int) src) : fill);
                }
            }
            return ArrayArgs.frozen(out);
        });
    }

    private static Evaluator shingles(List<Evaluator> args) {
        Functions.arity("arrayShingles", args, 2);
        DataType at = args.get(0).type().unwrap();
        ArrayArgs.element("arrayShingles", args, 0);
        ArrayArgs.integer("arrayShingles", args, 1);
        return Functions.strict(DataTypes.array(at), args, v -> {
            List<?> l = (List<?>) v[0];
            long k = ArrayArgs.longOf(v[1], args, 1);
            if (k <= 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Shingle argument of function arrayShingles must be a positive integer");
            }
            if (k > l.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Shingle argument of function arrayShingles must less or equal than the array length");
            }
            List<Object> out = new ArrayList<>();
            for (int i = 0; i + k <= l.size(); i++) {
                out.add(ArrayArgs.frozen(new ArrayList<>(l.subList(i, (int) (i + k)))));
            }
            return ArrayArgs.frozen(out);
        });
    }

    /** arrayCompact: consecutive equal elements once (NaN equals NaN, NULL equals NULL). */
    private static Evaluator compact(List<Evaluator> args) {
        Functions.arity("arrayCompact", args, 1);
        DataType el = ArrayArgs.element("arrayCompact", args, 0);
        return Functions.strict(args.get(0).type().unwrap(), args, v -> {
            List<Object> out = new ArrayList<>();
            for (Object o : (List<?>) v[0]) {
                if (out.isEmpty() || !equalOrBothNaN(out.get(out.size() - 1), o, el)) {
                    out.add(o);
                }
            }
            return ArrayArgs.frozen(out);
        });
    }

    private static boolean equalOrBothNaN(Object a, Object b, DataType t) {
        if (a instanceof Number x && b instanceof Number y && Double.isNaN(x.doubleValue()) && Double.isNaN(y.doubleValue())
            && (a instanceof Double || a instanceof Float)) {
            return true;
        }
        return ArrayArgs.same(a, t, b, t);
    }

    private static Evaluator flatten(List<Evaluator> args) {
        Functions.arity("arrayFlatten", args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof ArrayType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                + " of argument of function arrayFlatten, expected Array");
        }
        int depth = 0;
        DataType el = t;
        while (el.unwrap() instanceof ArrayType a && !el.isNullable()) {
            el = a.element;
            depth++;
        }
        int levels = depth - 1;
        return Functions.strict(DataTypes.array(el), args, v -> {
            List<?> cur = (List<?>) v[0];
            for (int i = 0; i < levels; i++) {
                List<Object> next = new ArrayList<>();
                for (Object o : cur) {
                    next.addAll((List<?>) o);
                }
                cur = next;
            }
            return ArrayArgs.frozen(new ArrayList<>(cur));
        });
    }

    private static Evaluator transpose(List<Evaluator> args) {
        Functions.arity("arrayTranspose", args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof ArrayType at) || !(at.element.unwrap() instanceof ArrayType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument of function arrayTranspose must be Array(Array(T)), got "
                + args.get(0).type().name());
        }
        return Functions.strict(t, args, v -> {
            List<?> rows = (List<?>) v[0];
            if (rows.isEmpty()) {
                return List.of();
            }
            int width = ((List<?>) rows.get(0)).size();
            for (Object row : rows) {
                if (((List<?>) row).size() != width) {
                    throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "All inner arrays in argument of function arrayTranspose must "
                        + "have equal sizes, but row 0 has inner arrays of size " + width + " and " + ((List<?>) row).size());
                }
            }
            List<Object> out = new ArrayList<>(width);
            for (int c = 0; c < width; c++) {
                List<Object> col = new ArrayList<>(rows.size());
                for (Object row : rows) {
                    col.add(((List<?>) row).get(c));
                }
                out.add(ArrayArgs.frozen(col));
            }
            return ArrayArgs.frozen(out);
        });
    }

    /** arrayZipUnaligned: tuples of the arrays' elements as long as the longest array, NULL past a shorter one's end. */
    private static Evaluator zipUnaligned(List<Evaluator> args) {
        List<DataType> elements = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            elements.add(DataTypes.nullable(TypeRules.stripNullable(ArrayArgs.element("arrayZipUnaligned", args, i))));
        }
        if (args.isEmpty()) {
            return Evaluator.constant(DataTypes.array(DataTypes.NOTHING), List.of());
        }
        return Functions.strict(DataTypes.array(DataTypes.tuple(elements)), args, v -> {
            int n = 0;
            for (Object a : v) {
                n = Math.max(n, ((List<?>) a).size());
            }
            List<Object> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                List<Object> t = new ArrayList<>(v.length);
                for (Object a : v) {
                    List<?> l = (List<?>) a;
                    t.add(i < l.size() ? l.get(i) : null);
                }
                out.add(ArrayArgs.frozen(t));
            }
            return ArrayArgs.frozen(out);
        });
    }

    private static Evaluator elementOrNull(List<Evaluator> args) {
        Functions.arity("arrayElementOrNull", args, 2);
        DataType el = firstArray("arrayElementOrNull", args);
        if (!TypeRules.isInteger(args.get(1).type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function 'arrayElementOrNull' must be integer, got '"
                + args.get(1).type().name() + "' instead");
        }
        DataType result = DataTypes.nullable(TypeRules.stripNullable(el));
        Evaluator a = args.get(0);
        Evaluator i = args.get(1);
        return Evaluator.of(result, r -> {
            Object l = a.eval(r);
            Object idx = i.eval(r);
            if (l == null || idx == null) {
                return null;
            }
            List<?> list = (List<?>) l;
            long k = ArrayArgs.longOf(idx, args, 1);
            long at = k > 0 ? k - 1 : list.size() + k;
            return k == 0 || at < 0 || at >= list.size() ? null : list.get((int) at);
        });
    }

    private static Evaluator emptyArrayToSingle(List<Evaluator> args) {
        Functions.arity("emptyArrayToSingle", args, 1);
        DataType el = firstArray("emptyArrayToSingle", args);
        Object single = el.isNullable() || el.unwrap() instanceof NothingType ? null : el.defaultValue();
        return Functions.strict(args.get(0).type().unwrap(), args, v -> {
            List<?> l = (List<?>) v[0];
            return l.isEmpty() ? Collections.singletonList(single) : l;
        });
    }

    /** arrayRemove(arr, x): the array without the elements equal to x (NULL removes the NULLs). */
    private static Evaluator remove(List<Evaluator> args) {
        Functions.arity("arrayRemove", args, 2);
        DataType el = firstArray("arrayRemove", args);
        DataType xt = args.get(1).type();
        TypeRules.common(List.of(el, xt));
        Evaluator a = args.get(0);
        Evaluator x = args.get(1);
        return Evaluator.of(Functions.nullIf(a.type(), a.type().unwrap()), r -> {
            Object l = a.eval(r);
            if (l == null) {
                return null;
            }
            Object y = x.eval(r);
            List<Object> out = new ArrayList<>();
            for (Object o : (List<?>) l) {
                if (!ArrayArgs.same(o, el, y, xt)) {
                    out.add(o);
                }
            }
            return ArrayArgs.frozen(out);
        });
    }
}
