package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What the array families share: the checks of their array and integer arguments with ClickHouse's errors, the
 * conversion of an element to a common element type, and the equality of elements as ClickHouse compares them
 * (NULL equals NULL, numbers by value across types).
 */
final class ArrayArgs {
    private ArrayArgs() {
    }

    /** The element type of argument {@code i}, which must be an array (ILLEGAL_TYPE_OF_ARGUMENT otherwise). */
    static DataType element(String name, List<Evaluator> args, int i) {
        DataType t = args.get(i).type().unwrap();
        if (!(t instanceof ArrayType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + (i + 1) + " of function " + name
                + " must be array. Found " + args.get(i).type().name() + " instead.");
        }
        return ((ArrayType) t).element;
    }

    /** Argument {@code i}'s type, which must be an integer (ILLEGAL_TYPE_OF_ARGUMENT otherwise). */
    static DataType integer(String name, List<Evaluator> args, int i) {
        DataType t = args.get(i).type();
        if (!TypeRules.isInteger(t) && !(t.unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument "
                + (i + 1) + " of function " + name);
        }
        return t;
    }

    /** A value of argument {@code i} as a long (an integer argument). */
    static long longOf(Object v, List<Evaluator> args, int i) {
        return Values.toLong(Values.toNumber(v, args.get(i).type()));
    }

    /** {@code v} of type {@code from} as a value of {@code to} (NULL stays NULL). */
    static Object convert(Object v, DataType from, DataType to) {
        if (v == null || from.equals(to) || TypeRules.stripNullable(from).equals(TypeRules.stripNullable(to))) {
            return v;
        }
        return TypeRules.stripNullable(to).convert(v, TypeRules.stripNullable(from));
    }

    /** Each element of {@code l} (of type {@code from}) as {@code to}. */
    static List<Object> convertAll(List<?> l, DataType from, DataType to) {
        List<Object> out = new ArrayList<>(l.size());
        for (Object o : l) {
            out.add(convert(o, from, to));
        }
        return out;
    }

    /** Whether two elements are equal as ClickHouse's has and indexOf see them: NULL is equal to NULL only. */
    static boolean same(Object a, DataType ta, Object b, DataType tb) {
        if (a == null || b == null) {
            return a == null && b == null;
        }
        if (ta.unwrap() instanceof ArrayType at && tb.unwrap() instanceof ArrayType bt) {
            List<?> x = (List<?>) a;
            List<?> y = (List<?>) b;
            if (x.size() != y.size()) {
                return false;
            }
            for (int i = 0; i < x.size(); i++) {
                if (!same(x.get(i), at.element, y.get(i), bt.element)) {
                    return false;
                }
            }
            return true;
        }
        return TypeRules.compare(a, ta, b, tb) == 0;
    }

    /** A value key under which equal elements of one type collide (for sets of elements of one array type). */
    static Object key(Object v) {
        if (v instanceof Double d) {
            return d == 0.0 ? (Object) 0.0 : d; // -0.0 and 0.0 are one element
        }
        if (v instanceof Float f) {
            return f == 0.0f ? (Object) 0.0f : f;
        }
        return v;
    }

    static List<Object> frozen(List<Object> l) {
        return Collections.unmodifiableList(l);
    }
}
