package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The "Map" functions that take no lambda (registerFunctionsMap), after ClickHouse's map.cpp and
 * FunctionsMapMiscellaneous.cpp: map(k, v, ...) (keys and values of their common types, a Nullable key BAD_ARGUMENTS),
 * mapFromArrays, mapKeys, mapValues, mapContainsKey (mapContains) and mapContainsValue, mapContainsKeyLike and
 * mapContainsValueLike, mapExtractKeyLike and mapExtractValueLike, mapConcat (all pairs of all maps) and mapUpdate (the
 * first map's pairs whose key the second lacks, then the second's). Maps keep repeated keys ({@link MapEntries}); mapAdd,
 * mapSubtract and mapPopulateSeries are FunctionMapOp's, the functions of a lambda MapHigherOrderFunctions'.
 */
final class MapFunctions {
    private MapFunctions() {
    }

    /** The family's functions, as system.functions lists them. */
    static final List<String> FUNCTIONS = List.of("map", "mapFromArrays", "mapKeys", "mapValues", "mapContainsKey", "mapContainsValue",
        "mapContainsKeyLike", "mapContainsValueLike", "mapExtractKeyLike", "mapExtractValueLike", "mapConcat", "mapUpdate", "mapAdd",
        "mapSubtract", "mapPopulateSeries", "mapFilter", "mapApply", "mapExists", "mapAll", "mapSort", "mapReverseSort", "mapPartialSort",
        "mapPartialReverseSort");

    static final List<FunctionsDateTime.Alias> ALIASES = List.of(new FunctionsDateTime.Alias("mapContains", "mapContainsKey", false),
        new FunctionsDateTime.Alias("MAP_FROM_ARRAYS", "mapFromArrays", false));

    static String canonical(String n) {
        return n.equals("mapContains") ? "mapContainsKey" : n.equals("MAP_FROM_ARRAYS") ? "mapFromArrays" : null;
    }

    static boolean handles(String n) {
        switch (n) {
            case "map": case "mapFromArrays": case "mapKeys": case "mapValues": case "mapContainsKey": case "mapContainsValue":
            case "mapContainsKeyLike": case "mapContainsValueLike": case "mapExtractKeyLike": case "mapExtractValueLike": case "mapConcat":
            case "mapUpdate":
                return true;
            default:
                return FunctionMapOp.handles(n) || MapHigherOrderFunctions.handles(n);
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        if (!name.equals("map") && !name.equals("mapContainsKey") && !name.equals("mapContainsValue") && args.stream().anyMatch(Functions::isNothing)) {
            // the engine's default for a NULL argument; mapContainsKey and mapContainsValue go through the array adapter, which has none
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        switch (name) {
            case "map": return map(args);
            case "mapFromArrays": return mapFromArrays(name, args);
            case "mapKeys": case "mapValues": {
                Functions.argumentCount(name, args, 1, 0);
                MapType mt = mapType(name, args.get(0));
                boolean keys = name.equals("mapKeys");
                return Functions.defaultForNulls(DataTypes.array(keys ? mt.key : mt.value), args, v -> {
                    List<Object> out = new ArrayList<>();
                    for (Map.Entry<Object, Object> e : MapEntries.entries(v[0])) {
                        out.add(keys ? e.getKey() : e.getValue());
                    }
                    return Collections.unmodifiableList(out);
                });
            }
            case "mapContainsKey": case "mapContainsValue": {
                Functions.argumentCount(name, args, 2, 0);
                MapType mt = mapType(name, args.get(0));
                boolean keys = name.equals("mapContainsKey");
                DataType et = keys ? mt.key : mt.value;
                Evaluator x = args.get(1);
                if (!(x.type().unwrap() instanceof NothingType)) {
                    TypeRules.common(List.of(et, x.type()));
                }
                return containsRowwise(args, keys, et);
            }
            case "mapContainsKeyLike": case "mapContainsValueLike": case "mapExtractKeyLike": case "mapExtractValueLike": {
                Functions.argumentCount(name, args, 2, 0);
                MapType mt = mapType(name, args.get(0));
                boolean keys = name.contains("Key");
                DataType et = keys ? mt.key : mt.value;
                if (!Functions.isString(et)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + et.name() + " of the " + (keys ? "keys" : "values")
                        + " of the map of function " + name + ", must be String");
                }
                if (!Functions.isString(args.get(1).type())) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(1).type().name()
                        + " of the second argument of function " + name + ", must be String");
                }
                boolean extract = name.startsWith("mapExtract");
                DataType result = extract ? mt : DataTypes.UINT8;
                return Functions.defaultForNulls(result, args, v -> {
                    Pattern p = FunctionsLike.likePattern(ByteStrings.toText((String) v[1]), false);
                    List<Map.Entry<Object, Object>> out = new ArrayList<>();
                    for (Map.Entry<Object, Object> e : MapEntries.entries(v[0])) {
                        Object s = keys ? e.getKey() : e.getValue();
                        if (s != null && p.matcher(ByteStrings.toText((String) s)).matches()) {
                            if (!extract) {
                                return 1L;
                            }
                            out.add(e);
                        }
                    }
                    return extract ? MapEntries.ofEntries(out) : (Object) 0L;
                });
            }
            case "mapConcat": return mapConcat(name, args);
            default:
                if (FunctionMapOp.handles(name)) {
                    return FunctionMapOp.compile(name, args);
                }
                if (MapHigherOrderFunctions.handles(name)) {
                    return MapHigherOrderFunctions.compileWithoutLambda(name, args);
                }
                return mapUpdate(name, args);
        }
    }

    /** The Map type of an argument, or the engine's ILLEGAL_TYPE_OF_ARGUMENT. */
    static MapType mapType(String name, Evaluator e) {
        DataType t = e.type().unwrap();
        if (!(t instanceof MapType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " requires at least one argument of type Map");
        }
        return (MapType) t;
    }

    /** The Map type of keys and values of these types, or BAD_ARGUMENTS for a key type a map cannot have. */
    static DataType mapOf(DataType key, DataType value) {
        DataType k = key instanceof LowCardinalityType ? ((LowCardinalityType) key).inner : key;
        if (k.isNullable() || k instanceof NothingType && key.isNullable()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Map cannot have a key of type " + key.name());
        }
        return DataTypes.map(key, value);
    }

    private static Evaluator containsRowwise(List<Evaluator> args, boolean keys, DataType et) {
        Evaluator m = args.get(0);
        Evaluator x = args.get(1);
        return Evaluator.of(DataTypes.UINT8, r -> {
            Object map = m.eval(r);
            Object needle = x.eval(r);
            return map != null && contains(map, keys, et, needle, x.type()) ? 1L : 0L;
        });
    }

    private static boolean contains(Object map, boolean keys, DataType et, Object needle, DataType nt) {
        for (Map.Entry<Object, Object> e : MapEntries.entries(map)) {
            Object v = keys ? e.getKey() : e.getValue();
            if (v == null || needle == null ? v == needle : TypeRules.compare(v, et, needle, nt) == 0) {
                return true;
            }
        }
        return false;
    }

    private static Evaluator map(List<Evaluator> args) {
        if (args.size() % 2 != 0) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function map requires even number of arguments, but "
                + args.size() + " given");
        }
        List<Evaluator> ks = new ArrayList<>();
        List<Evaluator> vs = new ArrayList<>();
        for (int i = 0; i < args.size(); i += 2) {
            ks.add(args.get(i));
            vs.add(args.get(i + 1));
        }
        DataType kt = ks.isEmpty() ? DataTypes.NOTHING : TypeRules.common(ks.stream().map(Evaluator::type).toList());
        DataType vt = vs.isEmpty() ? DataTypes.NOTHING : TypeRules.common(vs.stream().map(Evaluator::type).toList());
        DataType t = mapOf(kt, vt);
        List<Evaluator> kc = Functions.casts(ks, TypeRules.stripNullable(kt));
        List<Evaluator> vc = Functions.casts(vs, TypeRules.stripNullable(vt));
        return Evaluator.of(t, r -> {
            List<Object> keys = new ArrayList<>(kc.size());
            List<Object> values = new ArrayList<>(kc.size());
            for (int i = 0; i < kc.size(); i++) {
                keys.add(kc.get(i).eval(r));
                values.add(vc.get(i).eval(r));
            }
            return MapEntries.of(keys, values);
        });
    }

    private static Evaluator mapFromArrays(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 2, 0);
        DataType kt = args.get(0).type().unwrap();
        DataType vt = args.get(1).type().unwrap();
        if (kt instanceof NothingType || vt instanceof NothingType) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        if (!(kt instanceof ArrayType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function " + name + " must be an Array, got "
                + kt.name());
        }
        boolean fromMap = vt instanceof MapType;
        if (!(vt instanceof ArrayType) && !fromMap) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument for function " + name + " must be an Array or Map, got "
                + vt.name());
        }
        DataType keyType = TypeRules.stripNullable(((ArrayType) kt).element);
        DataType valueType = fromMap ? DataTypes.tuple(List.of(((MapType) vt).key, ((MapType) vt).value)) : ((ArrayType) vt).element;
        return Functions.strict(DataTypes.map(keyType, valueType), args, v -> {
            List<?> keys = (List<?>) v[0];
            List<Object> values = new ArrayList<>();
            if (fromMap) {
                for (Map.Entry<Object, Object> e : MapEntries.entries(v[1])) {
                    values.add(Collections.unmodifiableList(java.util.Arrays.asList(e.getKey(), e.getValue())));
                }
            } else {
                values.addAll((List<?>) v[1]);
            }
            if (keys.size() != values.size()) {
                throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Two arguments of function " + name + " must have equal sizes");
            }
            if (keys.contains(null)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The nested column of first argument in function " + name + " must not contain NULLs");
            }
            return MapEntries.of(keys, values);
        });
    }

    /** The common Map type of maps (their keys' and values' common types). */
    private static DataType commonMap(String name, List<Evaluator> args) {
        List<DataType> keys = new ArrayList<>();
        List<DataType> values = new ArrayList<>();
        for (Evaluator a : args) {
            DataType t = a.type().unwrap();
            if (!(t instanceof MapType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " requires arguments of type Map, got " + a.type().name());
            }
            keys.add(((MapType) t).key);
            values.add(((MapType) t).value);
        }
        return DataTypes.map(TypeRules.common(keys), TypeRules.common(values));
    }

    /** The pairs of a map converted to the common Map type. */
    private static List<Map.Entry<Object, Object>> converted(Object map, MapType from, MapType to) {
        List<Map.Entry<Object, Object>> out = new ArrayList<>();
        for (Map.Entry<Object, Object> e : MapEntries.entries(map)) {
            Object k = from.key.equals(to.key) ? e.getKey() : to.key.convert(e.getKey(), from.key);
            Object v = e.getValue() == null || from.value.equals(to.value) ? e.getValue() : TypeRules.stripNullable(to.value).convert(e.getValue(), from.value);
            out.add(new java.util.AbstractMap.SimpleImmutableEntry<>(k, v));
        }
        return out;
    }

    private static Evaluator mapConcat(String name, List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " requires at least one argument, passed 0");
        }
        MapType t = (MapType) commonMap(name, args);
        return Functions.defaultForNulls(t, args, v -> {
            List<Map.Entry<Object, Object>> out = new ArrayList<>();
            for (int i = 0; i < v.length; i++) {
                out.addAll(converted(v[i], (MapType) args.get(i).type().unwrap(), t));
            }
            return MapEntries.ofEntries(out);
        });
    }

    private static Evaluator mapUpdate(String name, List<Evaluator> args) {
        Functions.argumentCount(name, args, 2, 0);
        if (!(args.get(0).type().unwrap() instanceof MapType a) || !(args.get(1).type().unwrap() instanceof MapType b)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The two arguments for function " + name + " must be both Map type");
        }
        if (!a.key.equals(b.key) || !a.value.equals(b.value)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The Key And Value type of Map for function " + name + " must be the same");
        }
        MapType t = a;
        return Functions.defaultForNulls(t, args, v -> {
            List<Map.Entry<Object, Object>> first = converted(v[0], a, t);
            List<Map.Entry<Object, Object>> second = converted(v[1], b, t);
            List<Map.Entry<Object, Object>> out = new ArrayList<>();
            for (Map.Entry<Object, Object> e : first) {
                boolean replaced = false;
                for (Map.Entry<Object, Object> f : second) {
                    replaced |= t.key.compare(e.getKey(), f.getKey()) == 0;
                }
                if (!replaced) {
                    out.add(e);
                }
            }
            out.addAll(second);
            return MapEntries.ofEntries(out);
        });
    }
}
