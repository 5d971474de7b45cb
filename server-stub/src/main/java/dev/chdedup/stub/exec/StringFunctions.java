package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * String functions (concat, length, lower/upper, substring, hex/unhex, trimming, search) and length/empty of
 * arrays. String values are bytes ({@link ByteStrings}): lengths, offsets and case mapping work on bytes, as
 * ClickHouse's do; the UTF-8-aware variants live in {@link Utf8Functions}.
 */
final class StringFunctions {
    private StringFunctions() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "concat": case "length": case "lower": case "upper": case "substring":
            case "empty": case "notEmpty": case "startsWith": case "endsWith": case "replaceAll":
            case "replaceOne": case "trimBoth": case "trimLeft": case "trimRight": case "reverse":
            case "repeat": case "lengthUTF8": case "char_length":
                return true;
            default:
                return false;
        }
    }

    /** Functions whose arguments (all, or the first {@code n}) must be strings. */
    private static int stringArgs(String name) {
        switch (name) {
            case "lower": case "upper": case "reverse": case "lengthUTF8": case "char_length": case "repeat": case "substring":
                return 1;
            case "startsWith": case "endsWith":
                return 2;
            case "replaceAll": case "replaceOne":
                return 3;
            default:
                return 0;
        }
    }

    static void checkArgs(String name, List<Evaluator> args) {
        int n = stringArgs(name);
        if (args.size() < Math.max(1, n) && n > 0) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be at least " + n);
        }
        for (int i = 0; i < n; i++) {
            DataType t = args.get(i).type();
            if (!Functions.isString(t) && !(t.unwrap() instanceof dev.chdedup.stub.types.NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument " + (i + 1)
                    + " of function " + name + ", expected String");
            }
        }
        if (name.equals("substring") || name.equals("repeat")) {
            for (int i = 1; i < Math.min(args.size(), 3); i++) {
                if (!TypeRules.isInteger(args.get(i).type()) && !(args.get(i).type().unwrap() instanceof dev.chdedup.stub.types.NothingType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(i).type().name() + " of argument "
                        + (i + 1) + " of function " + name + ", expected an integer");
                }
            }
        }
        if (name.equals("length") || name.equals("empty") || name.equals("notEmpty")) {
            DataType u = args.get(0).type().unwrap();
            if (!(u instanceof dev.chdedup.stub.types.StringType || u instanceof ArrayType || u instanceof MapType
                || u instanceof dev.chdedup.stub.types.NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name()
                    + " of argument of function " + name);
            }
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        if (name.startsWith("trim")) {
            return trim(name, args);
        }
        checkArgs(name, args);
        switch (name) {
            case "concat": {
                List<Evaluator> strs = new ArrayList<>();
                for (Evaluator a : args) {
                    DataType t = a.type();
                    strs.add(Functions.isString(t) ? a : Evaluator.of(Functions.nullIf(t, DataTypes.STRING), r -> {
                        Object v = a.eval(r);
                        return v == null ? null : Values.text(v, TypeRules.stripNullable(t));
                    }));
                }
                return Functions.strict(DataTypes.STRING, strs, v -> {
                    StringBuilder sb = new StringBuilder();
                    for (Object o : v) {
                        sb.append((String) o);
                    }
                    return sb.toString();
                });
            }
            case "length": {
                DataType t = args.get(0).type().unwrap();
                if (args.get(0).type() instanceof dev.chdedup.stub.types.StringType fs && fs.fixedLength > 0) {
                    return Evaluator.constant(DataTypes.UINT64, (long) fs.fixedLength); // a FixedString's length is its type's
                }
                return Functions.strict(DataTypes.UINT64, args, v -> {
                    if (t instanceof ArrayType) {
                        return (long) ((List<?>) v[0]).size();
                    }
                    if (t instanceof MapType) {
                        return (long) ((Map<?, ?>) v[0]).size();
                    }
                    return (long) ((String) v[0]).length();
                });
            }
            case "lengthUTF8": case "char_length":
                return Functions.strict(DataTypes.UINT64, args, v -> ByteStrings.codePoints((String) v[0]));
            case "empty": case "notEmpty": {
                boolean e = name.equals("empty");
                return Functions.strict(DataTypes.UINT8, args, v -> {
                    boolean isEmpty = v[0] instanceof String ? ((String) v[0]).isEmpty() : v[0] instanceof List ? ((List<?>) v[0]).isEmpty()
                        : v[0] instanceof Map ? ((Map<?, ?>) v[0]).isEmpty() : false;
                    return isEmpty == e ? 1L : 0L;
                });
            }
            case "lower": return Functions.strict(DataTypes.STRING, args, v -> asciiCase((String) v[0], false));
            case "upper": return Functions.strict(DataTypes.STRING, args, v -> asciiCase((String) v[0], true));
            case "reverse": return Functions.strict(DataTypes.STRING, args, v -> new StringBuilder((String) v[0]).reverse().toString());
            case "repeat": return Functions.strict(DataTypes.STRING, args, v -> ((String) v[0]).repeat((int) (long) (Long) v[1]));
            case "substring": return Functions.strict(DataTypes.STRING, args, v -> substring(Functions.bytes(v[0]),
                Values.toLong(Values.toNumber(v[1], args.get(1).type())),
                v.length > 2 ? Values.toLong(Values.toNumber(v[2], args.get(2).type())) : Long.MAX_VALUE));
            case "startsWith": return Functions.strict(DataTypes.UINT8, args, v -> ((String) v[0]).startsWith((String) v[1]) ? 1L : 0L);
            case "endsWith": return Functions.strict(DataTypes.UINT8, args, v -> ((String) v[0]).endsWith((String) v[1]) ? 1L : 0L);
            case "replaceAll": return Functions.strict(DataTypes.STRING, args, v -> ((String) v[1]).isEmpty() ? v[0] : ((String) v[0]).replace((String) v[1], (String) v[2]));
            case "replaceOne": return Functions.strict(DataTypes.STRING, args, v -> {
                String s = (String) v[0];
                int i = ((String) v[1]).isEmpty() ? -1 : s.indexOf((String) v[1]);
                return i < 0 ? s : s.substring(0, i) + v[2] + s.substring(i + ((String) v[1]).length());
            });
            default: throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Function with name `" + name + "` does not exist");
        }
    }

    /**
     * trimLeft, trimRight and trimBoth (the parser's ltrim, rtrim and trim): the bytes of a constant set, a space unless a
     * second argument gives them, cut off the start, the end or both of a String or FixedString. Mirrors ClickHouse's
     * trim.cpp.
     */
    private static Evaluator trim(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 1, 1);
        DataType t = args.get(0).type();
        if (!Functions.isString(t) && !Functions.isNothing(args.get(0))) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "input_string", name, "String or FixedString", t);
        }
        String set = " ";
        if (args.size() == 2 && !Functions.isNothing(args.get(1))) {
            Evaluator c = args.get(1);
            if (!(c.type() instanceof dev.chdedup.stub.types.StringType) || ((dev.chdedup.stub.types.StringType) c.type()).fixedLength != 0) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "trim_character", name, "const String", c.type());
            }
            if (!c.constant()) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, 2, "trim_character", name, "const String", c.type());
            }
            set = (String) c.eval(new Object[0]);
        }
        boolean left = !name.equals("trimRight");
        boolean right = !name.equals("trimLeft");
        String chars = set;
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> trim((String) v[0], chars, left, right));
    }

    /** {@code s} without the bytes of {@code chars} at its start ({@code left}) and its end ({@code right}). */
    static String trim(String s, String chars, boolean left, boolean right) {
        int from = 0;
        int to = s.length();
        while (left && from < to && chars.indexOf(s.charAt(from)) >= 0) {
            from++;
        }
        while (right && to > from && chars.indexOf(s.charAt(to - 1)) >= 0) {
            to--;
        }
        return s.substring(from, to);
    }

    /** ClickHouse's substring: 1-based byte offsets, negative offsets from the end. */
    static String substring(byte[] b, long offset, long length) {
        int[] r = substringBounds(b.length, offset, length);
        return r[1] <= r[0] ? "" : ByteStrings.of(b, r[0], r[1] - r[0]);
    }

    /**
     * The units [start, end) of a string of {@code n} units (bytes or code points) that ClickHouse's substring takes:
     * a 1-based {@code offset}, from the end when negative, nothing when 0; {@code length} units, or when negative all
     * but that many at the end.
     */
    static int[] substringBounds(int n, long offset, long length) {
        if (offset == 0) {
            return new int[] {0, 0};
        }
        long start = offset > 0 ? offset - 1 : n + offset;
        if (start >= n) {
            return new int[] {n, n};
        }
        long end = length < 0 ? n + length : start >= 0 && length > Long.MAX_VALUE - start ? Long.MAX_VALUE : start + length;
        return new int[] {(int) Math.min(Math.max(start, 0), n), (int) Math.min(Math.max(end, 0), n)};
    }

    /** ClickHouse's lower/upper: ASCII letters only, every other byte (UTF-8 ones too) unchanged. */
    static String asciiCase(String s, boolean upper) {
        char[] out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            char d = upper ? (c >= 'a' && c <= 'z' ? (char) (c - 32) : c)
                : (c >= 'A' && c <= 'Z' ? (char) (c + 32) : c);
            if (d != c) {
                if (out == null) {
                    out = s.toCharArray();
                }
                out[i] = d;
            }
        }
        return out == null ? s : new String(out);
    }
}
