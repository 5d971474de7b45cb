package dev.chdedup.stub.exec.timeseries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.timeseries.TimeSeriesTagsCollector.Tag;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The argument checks and readers the tag functions share, as ClickHouse's TimeSeriesTagsFunctionHelpers: a tags
 * argument (Array(Tuple(String, String)), a Map of strings, [] or NULL) with extra name and value arguments, a group
 * (UInt64), a constant tag name or list of names; and the default handling of NULL arguments those functions get.
 */
final class TimeSeriesTagsArguments {
    private TimeSeriesTagsArguments() {
    }

    static TimeSeriesTagsCollector collector(QueryContext ctx) {
        return ctx.queryState(TimeSeriesTagsCollector.class, TimeSeriesTagsCollector::new);
    }

    static ChException wrongType(String fn, int index, DataType type, String expected) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument #" + (index + 1) + " of function " + fn
            + " has wrong type " + type.name() + ", it must be " + expected);
    }

    private static boolean isStringOrNothing(DataType t) {
        DataType u = t.unwrap();
        return u instanceof StringType || u instanceof NothingType;
    }

    /** Checks {@code args[start]} is a tags argument and the arguments after it pairs of tag names and values. */
    static void checkTags(String fn, List<Evaluator> args, int start, String signature) {
        if (start >= args.size()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + fn + " must be called with at least "
                + (start + 1) + " arguments: " + signature);
        }
        DataType type = args.get(start).type();
        if (!isTagsArray(type)) {
            throw wrongType(fn, start, type, "Array(Tuple(String, String))");
        }
        if (start + 1 < args.size()) {
            boolean odd = start % 2 == 0;
            if ((args.size() % 2 == 1) != odd) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Expected " + (odd ? "odd" : "even")
                    + " number of arguments of function " + fn);
            }
            for (int i = start + 1; i < args.size(); i++) {
                if (!isStringOrNothing(args.get(i).type())) {
                    throw wrongType(fn, i, args.get(i).type(), "String or FixedString");
                }
            }
        }
    }

    private static boolean isTagsArray(DataType type) {
        DataType t = type instanceof dev.chdedup.stub.types.NullableType ? type.unwrap() : type;
        if (t.unwrap() instanceof NothingType) {
            return true;
        }
        if (t instanceof MapType m) {
            return isStringOrNothing(m.key) && isStringOrNothing(m.value);
        }
        if (t instanceof ArrayType a) {
            if (a.element instanceof NothingType) {
                return true;
            }
            return a.element instanceof TupleType tt && tt.elements.size() == 2 && tt.elements.get(0).unwrap() instanceof StringType
                && tt.elements.get(1).unwrap() instanceof StringType;
        }
        return false;
    }

    /** The tags of one row: {@code args[start]} and the name and value arguments after it, sorted and checked. */
    static List<Tag> tags(String fn, Object[] values, List<Evaluator> args, int start) {
        List<Tag> tags = new ArrayList<>();
        Object v = values[start];
        if (v instanceof Map<?, ?> m) {
            for (Map.Entry<?, ?> e : m.entrySet()) {
                tags.add(new Tag(str(e.getKey()), str(e.getValue())));
            }
        } else if (v instanceof List<?> l) {
            for (Object o : l) {
                List<?> pair = (List<?>) o;
                tags.add(new Tag(str(pair.get(0)), str(pair.get(1))));
            }
        }
        for (int i = start + 1; i + 1 < values.length; i += 2) {
            tags.add(new Tag(trimmed(values[i], args.get(i).type()), trimmed(values[i + 1], args.get(i + 1).type())));
        }
        return sorted(fn, tags);
    }

    private static String str(Object o) {
        return o == null ? "" : (String) o;
    }

    /** A FixedString argument without its zero padding. */
    private static String trimmed(Object o, DataType t) {
        String s = str(o);
        if (t.unwrap() instanceof StringType st && st.fixedLength > 0) {
            int end = s.length();
            while (end > 0 && s.charAt(end - 1) == 0) {
                end--;
            }
            s = s.substring(0, end);
        }
        return s;
    }

    /** Sorted by name, repeated tags once, empty values left out; an empty name or two values of one name are errors. */
    static List<Tag> sorted(String fn, List<Tag> tags) {
        for (Tag t : tags) {
            if (t.name().isEmpty()) {
                throw emptyName(fn);
            }
        }
        List<Tag> s = new ArrayList<>(tags);
        s.sort(Comparator.comparing(Tag::name));
        List<Tag> out = new ArrayList<>(s.size());
        for (Tag t : s) {
            if (!t.value().isEmpty() && !out.contains(t)) {
                out.add(t);
            }
        }
        for (int i = 1; i < out.size(); i++) {
            if (out.get(i).name().equals(out.get(i - 1).name())) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Found two tags with the same name " + quoted(out.get(i).name())
                    + " but different values " + quoted(out.get(i - 1).value()) + " and " + quoted(out.get(i).value())
                    + " while executing function " + fn);
            }
        }
        return out;
    }

    private static String quoted(String s) {
        return TimeSeriesTagsCollector.text(List.of(new Tag(s, ""))).replaceAll("^\\{|: ''\\}$", "");
    }

    static ChException emptyName(String fn) {
        return new ChException(ErrorCode.BAD_ARGUMENTS, "Function " + fn + " must not be called with an empty tag name");
    }

    /** Checks {@code args[index]} is a group: UInt64 (Nullable or LowCardinality). */
    static void checkGroup(String fn, List<Evaluator> args, int index) {
        if (index >= args.size()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + fn + " can't be called with "
                + args.size() + " arguments");
        }
        DataType t = args.get(index).type();
        if (!(t.unwrap() instanceof IntType it && it.bits == 64 && !it.signed) && !(t.unwrap() instanceof NothingType)) {
            throw wrongType(fn, index, t, "UInt64");
        }
    }

    /** The constant String {@code args[index]}: ILLEGAL_TYPE_OF_ARGUMENT for another type, ILLEGAL_COLUMN when not constant. */
    static String constString(String fn, List<Evaluator> args, int index) {
        Evaluator e = args.get(index);
        if (!(e.type().unwrap() instanceof StringType st && st.fixedLength == 0) || e.type().isNullable()) {
            throw wrongType(fn, index, e.type(), "String");
        }
        return (String) constant(fn, e, index);
    }

    /** {@link #constString}, not empty. */
    static String constTagName(String fn, List<Evaluator> args, int index) {
        String s = constString(fn, args, index);
        if (s.isEmpty()) {
            throw emptyName(fn);
        }
        return s;
    }

    /** The constant Array(String) {@code args[index]}, each a tag name (not empty). */
    static List<String> constTagNames(String fn, List<Evaluator> args, int index) {
        Evaluator e = args.get(index);
        DataType t = e.type();
        if (!(t instanceof ArrayType a) || !(a.element instanceof NothingType || a.element instanceof StringType st && st.fixedLength == 0)) {
            throw wrongType(fn, index, t, "Array(String)");
        }
        List<String> names = new ArrayList<>();
        for (Object o : (List<?>) constant(fn, e, index)) {
            if (((String) o).isEmpty()) {
                throw emptyName(fn);
            }
            names.add((String) o);
        }
        return names;
    }

    private static Object constant(String fn, Evaluator e, int index) {
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index " + index + " for function " + fn + " must be constant");
        }
        return e.eval(new Object[0]);
    }

    /**
     * {@code fn} of each row, as ClickHouse's default implementation for NULLs runs it: the literal NULL gives
     * Nullable(Nothing) NULL; a NULL of a Nullable argument is computed as its type's default value and answers NULL
     * where the result can be inside Nullable.
     */
    static Evaluator withNulls(DataType result, List<Evaluator> args, Function<Object[], Object> fn) {
        for (Evaluator a : args) {
            if (a.type().unwrap() instanceof NothingType) {
                return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
            }
        }
        boolean nullable = args.stream().anyMatch(a -> a.type().isNullable());
        boolean wrap = nullable && !(result instanceof ArrayType) && !result.isNullable();
        DataType type = wrap ? DataTypes.nullable(result) : result;
        return Evaluator.of(type, r -> {
            Object[] vals = new Object[args.size()];
            boolean anyNull = false;
            for (int i = 0; i < vals.length; i++) {
                Object v = args.get(i).eval(r);
                if (v == null) {
                    anyNull = true;
                    v = args.get(i).type().unwrap().defaultValue();
                }
                vals[i] = v;
            }
            Object out = fn.apply(vals);
            return anyNull && (wrap || result.isNullable()) ? null : out;
        });
    }
}
