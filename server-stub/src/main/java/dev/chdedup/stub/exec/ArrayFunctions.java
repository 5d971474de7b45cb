package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Array functions beyond element access and the higher-order ones: {@code arrayEnumerate}, {@code arrayZip},
 * {@code arrayConcat}, {@code arrayReverse}, {@code arraySlice}, {@code arrayDistinct}, {@code indexOf} and
 * {@code emptyArrayString}, with ClickHouse's result types (indexes are 1-based UInt32/UInt64 as there).
 */
final class ArrayFunctions {
    private ArrayFunctions() {
    }

    /** The functions of this class, which {@link FunctionsArray} registers. */
    static final java.util.List<String> NAMES = java.util.List.of("arrayEnumerate", "arrayZip", "arrayConcat", "arrayReverse",
        "arraySlice", "arrayDistinct", "indexOf", "emptyArrayString");

    static Evaluator compile(String name, List<Evaluator> args) {
        if (name.equals("emptyArrayString")) {
            Functions.arity(name, args, 0);
            return Evaluator.constant(DataTypes.array(DataTypes.STRING), List.of());
        }
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed 0, should be at least 1");
        }
        int arrays = name.equals("arrayZip") || name.equals("arrayConcat") ? args.size() : 1;
        List<DataType> elements = new ArrayList<>();
        for (int i = 0; i < arrays; i++) {
            DataType t = args.get(i).type().unwrap();
            if (!(t instanceof ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(i).type().name()
                    + " of argument " + (i + 1) + " of function " + name + ", expected Array");
            }
            elements.add(((ArrayType) t).element);
        }
        DataType at = args.get(0).type().unwrap();
        switch (name) {
            case "arrayEnumerate":
                Functions.arity(name, args, 1);
                return Functions.strict(DataTypes.array(DataTypes.UINT32), args, v -> {
                    List<Object> out = new ArrayList<>();
                    for (long i = 1; i <= ((List<?>) v[0]).size(); i++) {
                        out.add(i);
                    }
                    return Collections.unmodifiableList(out);
                });
            case "arrayZip":
                return Functions.strict(DataTypes.array(DataTypes.tuple(elements)), args, v -> {
                    int n = ((List<?>) v[0]).size();
                    for (Object a : v) {
                        if (((List<?>) a).size() != n) {
                            throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "The argument 1 and argument "
                                + "of function arrayZip have different array sizes");
                        }
                    }
                    List<Object> out = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        List<Object> t = new ArrayList<>(v.length);
                        for (Object a : v) {
                            t.add(((List<?>) a).get(i));
                        }
                        out.add(Collections.unmodifiableList(t));
                    }
                    return Collections.unmodifiableList(out);
                });
            case "arrayConcat": {
                DataType e = TypeRules.common(elements);
                return Functions.strict(DataTypes.array(e), args, v -> {
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < v.length; i++) {
                        for (Object o : (List<?>) v[i]) {
                            DataType from = elements.get(i);
                            out.add(o == null || from.equals(e) ? o : TypeRules.stripNullable(e).convert(o, from));
                        }
                    }
                    return Collections.unmodifiableList(out);
                });
            }
            case "arrayReverse":
                Functions.arity(name, args, 1);
                return Functions.strict(at, args, v -> {
                    List<Object> out = new ArrayList<>((List<?>) v[0]);
                    Collections.reverse(out);
                    return Collections.unmodifiableList(out);
                });
            case "arrayDistinct":
                Functions.arity(name, args, 1);
                return Functions.strict(DataTypes.array(TypeRules.stripNullable(elements.get(0))), args, v -> {
                    LinkedHashSet<Object> s = new LinkedHashSet<>((List<?>) v[0]);
                    s.remove(null);
                    return Collections.unmodifiableList(new ArrayList<>(s));
                });
            case "indexOf":
                Functions.arity(name, args, 2);
                return Evaluator.of(DataTypes.UINT64, r -> {
                    Object a = args.get(0).eval(r);
                    Object x = args.get(1).eval(r);
                    if (a == null) {
                        return 0L;
                    }
                    List<?> l = (List<?>) a;
                    for (int i = 0; i < l.size(); i++) {
                        Object e = l.get(i);
                        if (e == null ? x == null : x != null && TypeRules.compare(e, elements.get(0), x, args.get(1).type()) == 0) {
                            return (long) i + 1;
                        }
                    }
                    return 0L;
                });
            default: {
                // arraySlice(arr, offset[, length]): offset 1-based, negative from the end
                if (args.size() < 2 || args.size() > 3) {
                    throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function"
                        + " arraySlice doesn't match: passed " + args.size() + ", should be 2 or 3");
                }
                return Functions.strict(at, args, v -> {
                    List<?> l = (List<?>) v[0];
                    long off = ((Number) v[1]).longValue();
                    int n = l.size();
                    long from = off > 0 ? off - 1 : off < 0 ? n + off : n;
                    long to = v.length > 2 ? (((Number) v[2]).longValue() >= 0 ? from + ((Number) v[2]).longValue()
                        : n + ((Number) v[2]).longValue()) : n;
                    from = Math.max(0, Math.min(n, from));
                    to = Math.max(from, Math.min(n, to));
                    return Collections.unmodifiableList(new ArrayList<>(l.subList((int) from, (int) to)));
                });
            }
        }
    }
}
