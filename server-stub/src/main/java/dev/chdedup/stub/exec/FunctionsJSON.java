package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.JSONDocument.JsonObject;
import dev.chdedup.stub.exec.JSONDocument.JsonUInt64;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * The JSON functions that take a document and a path into it, as ClickHouse's FunctionsJSON: JSONHas, JSONLength,
 * JSONKey, JSONType, JSONExtractInt/UInt/Float/Bool/String/Raw/ArrayRaw/Keys/KeysAndValuesRaw, JSONExtract and
 * JSONExtractKeysAndValues with a type (converted by {@link JSONExtractTree}), the CaseInsensitive forms, isValidJSON and
 * JSONArrayLength. A path argument is a key (String) or an index (an integer: 1-based, negative from the end, into an
 * array or an object's members; 0 is no element). An invalid document or a path to no element gives the result type's
 * default; a Nullable document a Nullable result.
 */
final class FunctionsJSON {
    static final String CATEGORY = "JSON";
    private static final DataType JSON_TYPE_ENUM = DataTypes.parse("Enum8('Null' = 0, 'String' = 34, 'Array' = 91, "
        + "'Bool' = 98, 'Double' = 100, 'Int64' = 105, 'UInt64' = 117, 'Object' = 123)");

    private FunctionsJSON() {
    }

    /** What a function makes of the element its path reaches (null: no element) and the key it was reached by. */
    private interface Extractor {
        /** The result, or null when there is none (the result type's default then). */
        Object extract(Object element, String key);
    }

    static void register(FunctionFactory f) {
        f.register("isValidJSON", CATEGORY, (args, ctx) -> {
            Functions.arity("isValidJSON", args, 1);
            return path("isValidJSON", args, 0, DataTypes.UINT8, false, (e, k) -> 1L, true);
        });
        f.register("JSONHas", CATEGORY, (args, ctx) -> path("JSONHas", args, 0, DataTypes.UINT8, false, (e, k) -> e == null ? 0L : 1L, true));
        f.register("JSONLength", CATEGORY, (args, ctx) -> path("JSONLength", args, 0, DataTypes.UINT64, false, (e, k) ->
            e instanceof List ? (Object) (long) ((List<?>) e).size() : e instanceof JsonObject ? (Object) (long) ((JsonObject) e).keys().size() : null, false));
        f.register("JSONKey", CATEGORY, (args, ctx) -> path("JSONKey", args, 0, DataTypes.STRING, false, (e, k) -> e == null ? null : k, false));
        f.register("JSONType", CATEGORY, (args, ctx) -> path("JSONType", args, 0, JSON_TYPE_ENUM, false, (e, k) -> e == null ? null : typeCode(e), false));
        f.register("JSONArrayLength", CATEGORY, (args, ctx) -> {
            Functions.arity("JSONArrayLength", args, 1);
            return path("JSONArrayLength", args, 0, DataTypes.nullable(DataTypes.UINT64), false, (e, k) ->
                e instanceof List ? (Object) (long) ((List<?>) e).size() : null, false);
        });
        f.registerAlias("JSON_ARRAY_LENGTH", "JSONArrayLength", true);
        for (boolean ci : new boolean[] {false, true}) {
            String suffix = ci ? "CaseInsensitive" : "";
            registerExtract(f, "JSONExtractInt" + suffix, DataTypes.INT64, ci);
            registerExtract(f, "JSONExtractUInt" + suffix, DataTypes.UINT64, ci);
            registerExtract(f, "JSONExtractFloat" + suffix, DataTypes.FLOAT64, ci);
            f.register("JSONExtractBool" + suffix, CATEGORY, (args, ctx) -> path("JSONExtractBool" + suffix, args, 0, DataTypes.UINT8, ci,
                (e, k) -> {
                    Object n = e instanceof Boolean ? (Object) ((Boolean) e ? 1L : 0L) : e instanceof String ? null : JSONExtractTree.number(e, DataTypes.UINT8, false);
                    return n == null ? null : (Object) ((Long) n != 0 ? 1L : 0L);
                }, false));
            f.register("JSONExtractString" + suffix, CATEGORY, (args, ctx) -> path("JSONExtractString" + suffix, args, 0, DataTypes.STRING, ci,
                (e, k) -> e == null || e == JSONDocument.NULL ? null : e instanceof String ? e : JSONDocument.raw(e), false));
            f.register("JSONExtractRaw" + suffix, CATEGORY, (args, ctx) -> path("JSONExtractRaw" + suffix, args, 0, DataTypes.STRING, ci,
                (e, k) -> e == null ? null : JSONDocument.raw(e), false));
            f.register("JSONExtractArrayRaw" + suffix, CATEGORY, (args, ctx) -> path("JSONExtractArrayRaw" + suffix, args, 0,
                DataTypes.array(DataTypes.STRING), ci, (e, k) -> {
                    if (!(e instanceof List)) {
                        return null;
                    }
                    List<Object> out = new ArrayList<>();
                    for (Object x : (List<?>) e) {
                        out.add(JSONDocument.raw(x));
                    }
                    return Collections.unmodifiableList(out);
                }, false));
            f.register("JSONExtractKeys" + suffix, CATEGORY, (args, ctx) -> path("JSONExtractKeys" + suffix, args, 0,
                DataTypes.array(DataTypes.STRING), ci, (e, k) -> e instanceof JsonObject ? List.copyOf(((JsonObject) e).keys()) : null, false));
            f.register("JSONExtractKeysAndValuesRaw" + suffix, CATEGORY, (args, ctx) -> path("JSONExtractKeysAndValuesRaw" + suffix, args, 0,
                DataTypes.array(DataTypes.tuple(List.of(DataTypes.STRING, DataTypes.STRING))), ci, (e, k) -> {
                    if (!(e instanceof JsonObject)) {
                        return null;
                    }
                    JsonObject o = (JsonObject) e;
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < o.keys().size(); i++) {
                        out.add(List.of(o.keys().get(i), JSONDocument.raw(o.values().get(i))));
                    }
                    return Collections.unmodifiableList(out);
                }, false));
            f.register("JSONExtract" + suffix, CATEGORY, (args, ctx) -> extract("JSONExtract" + suffix, args, ci));
            f.register("JSONExtractKeysAndValues" + suffix, CATEGORY, (args, ctx) -> keysAndValues("JSONExtractKeysAndValues" + suffix, args, ci));
        }
    }

    private static void registerExtract(FunctionFactory f, String name, DataType type, boolean ci) {
        f.register(name, CATEGORY, (args, ctx) -> path(name, args, 0, type, ci, (e, k) -> JSONExtractTree.number(e, type, false), false));
    }

    private static long typeCode(Object e) {
        if (e instanceof JsonObject) {
            return 123;
        }
        if (e instanceof List) {
            return 91;
        }
        if (e instanceof String) {
            return 34;
        }
        if (e instanceof Boolean) {
            return 98;
        }
        if (e instanceof Double) {
            return 100;
        }
        if (e instanceof Long) {
            return 105;
        }
        return e instanceof JsonUInt64 ? 117 : 0;
    }

    /** The type named by the last argument of JSONExtract and JSONExtractKeysAndValues (a constant String). */
    private static DataType returnType(String name, List<Evaluator> args) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " requires at least two arguments");
        }
        Evaluator last = args.get(args.size() - 1);
        if (!last.constant() || !Functions.isString(last.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The last argument of function " + name
                + " should be a constant string specifying the return data type, illegal value: " + last.type().name());
        }
        return DataTypes.parse(ByteStrings.toText(Functions.constString(last)));
    }

    private static Evaluator extract(String name, List<Evaluator> args, boolean ci) {
        DataType t = returnType(name, args);
        return path(name, args, 1, t, ci, (e, k) -> {
            Object v = e == null ? JSONExtractTree.FAIL : JSONExtractTree.convert(e, t, ci);
            return v == JSONExtractTree.FAIL ? null : v;
        }, false);
    }

    private static Evaluator keysAndValues(String name, List<Evaluator> args, boolean ci) {
        DataType t = returnType(name, args);
        DataType result = DataTypes.array(DataTypes.tuple(List.of(DataTypes.STRING, t)));
        return path(name, args, 1, result, ci, (e, k) -> {
            if (!(e instanceof JsonObject)) {
                return null;
            }
            JsonObject o = (JsonObject) e;
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < o.keys().size(); i++) {
                Object v = JSONExtractTree.convert(o.values().get(i), t, ci);
                if (v != JSONExtractTree.FAIL) {
                    out.add(Collections.unmodifiableList(java.util.Arrays.asList(o.keys().get(i), v)));
                }
            }
            return Collections.unmodifiableList(out);
        }, false);
    }

    /**
     * A function of the element at the path of arguments 1 .. n - 1 - {@code trailing} in the document of argument 0.
     * {@code invalidIsZero}: an invalid document gives 0 rather than the extractor's answer for no element (JSONHas,
     * isValidJSON).
     */
    private static Evaluator path(String name, List<Evaluator> args, int trailing, DataType result, boolean ci, Extractor fn,
                                  boolean invalidIsZero) {
        if (args.size() < 1 + trailing) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " requires at least one argument");
        }
        Evaluator doc = args.get(0);
        DataType dt = doc.type();
        if (!(dt.unwrap() instanceof NothingType) && !(dt.unwrap() instanceof StringType && ((StringType) dt.unwrap()).fixedLength == 0)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The first argument of function " + name
                + " should be a string containing JSON or a JSON object, illegal type: " + dt.name());
        }
        List<Evaluator> keys = args.subList(1, args.size() - trailing);
        for (int i = 0; i < keys.size(); i++) {
            DataType kt = keys.get(i).type().unwrap();
            if (!Functions.isString(kt) && !(kt instanceof IntType) && !(kt instanceof BigIntType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The argument " + (i + 2) + " of function " + name
                    + " should be a string specifying key or an integer specifying index, illegal type: " + keys.get(i).type().name());
            }
        }
        if (dt.unwrap() instanceof NothingType) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        boolean nullable = dt.isNullable() && !result.isNullable();
        if (nullable && (result instanceof ArrayType || result instanceof MapType || result instanceof TupleType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Nested type " + result.name() + " cannot be inside Nullable type");
        }
        DataType type = nullable ? DataTypes.nullable(result) : result;
        Object fallback = result.defaultValue();
        return Evaluator.of(type, r -> {
            Object text = doc.eval(r);
            if (text == null) {
                return null;
            }
            Object root = JSONDocument.parse((String) text);
            if (root == null) {
                return invalidIsZero ? (Object) 0L : fallback;
            }
            Object e = root;
            String key = "";
            for (Evaluator k : keys) {
                Object kv = k.eval(r);
                if (kv instanceof String) {
                    String[] found = new String[1];
                    e = member(e, (String) kv, ci, found);
                    key = found[0];
                } else {
                    DataType kt = k.type().unwrap();
                    boolean huge = kv instanceof Long && (Long) kv < 0 && kt instanceof IntType && !((IntType) kt).signed
                        || kv instanceof java.math.BigInteger && ((java.math.BigInteger) kv).bitLength() > 62;
                    long index = huge ? Long.MAX_VALUE : ((Number) kv).longValue();
                    String[] found = new String[1];
                    e = element(e, index, found);
                    key = found[0];
                }
                if (e == null) {
                    break;
                }
            }
            Object v = fn.extract(e, key);
            return v == null ? fallback : v;
        });
    }

    /** The member {@code key} of an object (case-insensitive: the first whose key equals it ignoring ASCII case). */
    static Object member(Object e, String key, boolean ci, String[] found) {
        if (!(e instanceof JsonObject)) {
            return null;
        }
        JsonObject o = (JsonObject) e;
        for (int i = 0; i < o.keys().size(); i++) {
            String k = o.keys().get(i);
            if (ci ? k.length() == key.length() && k.toLowerCase(Locale.ROOT).equals(key.toLowerCase(Locale.ROOT)) : k.equals(key)) {
                found[0] = k;
                return o.values().get(i);
            }
        }
        return null;
    }

    /** The element at a 1-based {@code index} of an array or an object's members, negative from the end. */
    static Object element(Object e, long index, String[] found) {
        int size = e instanceof List ? ((List<?>) e).size() : e instanceof JsonObject ? ((JsonObject) e).keys().size() : -1;
        if (size < 0 || index == 0 || Math.abs(index) > size) {
            return null;
        }
        int i = (int) (index > 0 ? index - 1 : size + index);
        if (e instanceof List) {
            found[0] = "";
            return ((List<?>) e).get(i);
        }
        found[0] = ((JsonObject) e).keys().get(i);
        return ((JsonObject) e).values().get(i);
    }
}
