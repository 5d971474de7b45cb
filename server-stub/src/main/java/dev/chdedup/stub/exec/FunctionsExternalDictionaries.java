package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The dictionary functions, as ClickHouse's FunctionsExternalDictionaries.h has them: dictGet, dictGetOrDefault,
 * dictGetOrNull and dictHas (one attribute or a tuple of them; a simple key converted to UInt64, a complex key as a
 * tuple of the key's types, a range dictionary's point after the key), dictGet&lt;Type&gt;[OrDefault] (the attribute
 * must be of that type), and over a HIERARCHICAL attribute dictGetHierarchy, dictIsIn, dictGetChildren and
 * dictGetDescendants. The dictionary is found and loaded when the call compiles, as the engine does, so a missing or
 * failing dictionary fails the query whatever its rows; the calls are never folded (the dictionary may change).
 */
final class FunctionsExternalDictionaries {
    private FunctionsExternalDictionaries() {
    }

    private static final Set<String> TYPES = Set.of("UInt8", "UInt16", "UInt32", "UInt64", "Int8", "Int16", "Int32", "Int64",
        "Float32", "Float64", "Date", "DateTime", "UUID", "IPv4", "IPv6", "String");

    static boolean handles(String name) {
        if (!name.startsWith("dict")) {
            return false;
        }
        switch (name) {
            case "dictGet": case "dictGetOrDefault": case "dictGetOrNull": case "dictHas": case "dictGetHierarchy": case "dictIsIn":
            case "dictGetChildren": case "dictGetDescendants": case "dictGetRoot": case "dictGetKeys":
                return true;
            default:
                return typed(name) != null;
        }
    }

    /** The type of dictGet&lt;Type&gt;[OrDefault], or null for another name. */
    private static String typed(String name) {
        if (!name.startsWith("dictGet")) {
            return null;
        }
        String t = name.substring("dictGet".length());
        t = t.endsWith("OrDefault") ? t.substring(0, t.length() - "OrDefault".length()) : t;
        return TYPES.contains(t) ? t : null;
    }

    static Evaluator compile(String name, List<Evaluator> args, Catalog catalog, QueryContext ctx) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Wrong argument count for function " + name);
        }
        Evaluator first = args.get(0);
        if (!first.constant() || !(first.type().unwrap() instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + first.type().name() + " of first argument of"
                + " function " + name + ", expected a const string");
        }
        String dictName = Functions.constString(first);
        if (catalog == null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Dictionary (`" + dictName + "`) not found");
        }
        IDictionary dict = catalog.dictionary(dictName, ctx);
        dict.load();
        switch (name) {
            case "dictHas": return has(dict, args);
            case "dictGetHierarchy": case "dictIsIn": case "dictGetChildren": case "dictGetDescendants": case "dictGetRoot":
                return DictionaryHierarchy.compile(name, dict, args, DictionaryKeys::simpleKey);
            case "dictGetKeys": return keys(dict, args);
            default: return get(name, dict, args);
        }
    }

    private static Evaluator has(IDictionary dict, List<Evaluator> args) {
        int expected = dict.rangeType() != null ? 3 : 2;
        if (args.size() != expected) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Wrong argument count for function dictHas"
                + (dict.rangeType() != null ? " when dictionary has key type range" : ""));
        }
        DictionaryKeys.Lookup lookup = DictionaryKeys.lookup("dictHas", dict, args.get(1), dict.rangeType() != null ? args.get(2) : null, "Second");
        return Evaluator.of(lookup.nullable() ? DataTypes.nullable(DataTypes.UINT8) : DataTypes.UINT8, r -> {
            Object[] key = lookup.key().apply(r);
            if (key == null) {
                return null;
            }
            boolean found = dict.getEntry(key, lookup.point(r)) != null;
            dict.addQuery(found);
            return found ? 1L : 0L;
        });
    }

    private static Evaluator get(String name, IDictionary dict, List<Evaluator> args) {
        String type = typed(name);
        boolean orDefault = name.endsWith("OrDefault");
        boolean orNull = name.equals("dictGetOrNull");
        int expected = 3 + (orDefault ? 1 : 0) + (dict.rangeType() != null ? 1 : 0);
        if (args.size() < 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Wrong argument count for function " + name);
        }
        if (args.size() != expected) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + " should be " + expected);
        }
        List<String> names = attributeNames(name, args.get(1));
        int[] attrs = new int[names.size()];
        List<DataType> types = new ArrayList<>();
        for (int i = 0; i < attrs.length; i++) {
            attrs[i] = attribute(dict, names.get(i));
            DataType t = dict.attributes().get(attrs[i]).type();
            if (type != null && !t.name().equals(type)) {
                throw new ChException(ErrorCode.TYPE_MISMATCH, "Function " + name + " dictionary attribute has different type "
                    + t.name() + " expected " + type);
            }
            types.add(orNull ? makeNullable(t) : t);
        }
        boolean tuple = args.get(1).type().unwrap() instanceof TupleType;
        DictionaryKeys.Lookup lookup = DictionaryKeys.lookup(name, dict, args.get(2), dict.rangeType() != null ? args.get(3) : null, "Third");
        Function<Object[], Object[]> defaults = orDefault ? defaults(args.get(args.size() - 1), dict, attrs, tuple) : null;
        DataType result = tuple ? DataTypes.parse(namedTuple(names, types)) : types.get(0);
        return Evaluator.of(lookup.nullable() && !tuple ? makeNullable(result) : result, r -> {
            Object[] key = lookup.key().apply(r);
            if (key == null) {
                return null;
            }
            Object[] entry = dict.getEntry(key, lookup.point(r));
            dict.addQuery(entry != null);
            if (orNull) {
                dict.addQuery(entry != null); // the engine asks whether the key is there first
            }
            Object[] fallback = entry == null && defaults != null ? defaults.apply(r) : null;
            Object[] out = new Object[attrs.length];
            for (int i = 0; i < attrs.length; i++) {
                out[i] = entry != null ? entry[attrs[i]] : fallback != null ? fallback[i] : orNull ? null : dict.nullValue(attrs[i]);
            }
            return tuple ? Collections.unmodifiableList(Arrays.asList(out)) : out[0];
        });
    }

    private static String namedTuple(List<String> names, List<DataType> types) {
        StringBuilder sb = new StringBuilder("Tuple(");
        for (int i = 0; i < names.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(names.get(i)).append(' ').append(types.get(i).name());
        }
        return sb.append(')').toString();
    }

    private static List<String> attributeNames(String function, Evaluator e) {
        List<String> names = new ArrayList<>();
        if (e.constant() && e.type().unwrap() instanceof StringType) {
            names.add(Functions.constString(e));
            return names;
        }
        if (e.constant() && e.type().unwrap() instanceof TupleType t && t.elements.stream().allMatch(x -> x.unwrap() instanceof StringType)) {
            for (Object v : (List<?>) e.eval(new Object[0])) {
                names.add(ByteStrings.toText((String) v));
            }
            return names;
        }
        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + e.type().name() + " of second argument of function "
            + function + ", expected a const string or const tuple of const strings");
    }

    /**
     * dictGetKeys(dict, 'attribute', value): the keys of the entries whose attribute equals the value (converted to the
     * attribute's type exactly, else CANNOT_CONVERT_TYPE), in the order the dictionary reads them; a simple key as
     * UInt64, a complex key as a tuple.
     */
    private static Evaluator keys(IDictionary dict, List<Evaluator> args) {
        Functions.arity("dictGetKeys", args, 3);
        Evaluator attr = args.get(1);
        if (!attr.constant() || !Functions.isString(attr.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + attr.type().name() + " of second argument of"
                + " function dictGetKeys, expected a const string");
        }
        String attrName = ByteStrings.toText(Functions.constString(attr));
        List<Column> attrs = dict.attributes();
        int a = -1;
        for (int i = 0; i < attrs.size(); i++) {
            if (attrs.get(i).name().equals(attrName)) {
                a = i;
            }
        }
        if (a < 0) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Dictionary has no attribute '" + attrName + "'");
        }
        DataType attrType = attrs.get(a).type();
        int keyCount = dict.keyColumns().size();
        List<DataType> keyTypes = new ArrayList<>();
        for (Column k : dict.keyColumns()) {
            keyTypes.add(k.type());
        }
        DataType keyType = dict.isComplexKey() ? DataTypes.tuple(keyTypes) : DataTypes.UINT64;
        Evaluator value = args.get(2);
        int at = a;
        return Evaluator.of(DataTypes.array(keyType), r -> {
            Object v = value.eval(r);
            Object wanted = v == null ? null : AccurateConversion.convert(v, value.type(), attrType);
            if (wanted == null) {
                throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, v == null ? "Cannot convert NULL to a non-nullable type"
                    : "Value in column " + value.type().name() + " cannot be safely converted into type " + attrType.name());
            }
            List<Object> out = new ArrayList<>();
            java.util.Iterator<dev.chdedup.stub.data.Block> blocks = dict.read(65536, false);
            while (blocks.hasNext()) {
                for (Object[] row : blocks.next().rows()) {
                    if (java.util.Objects.equals(row[keyCount + at], wanted)) {
                        out.add(dict.isComplexKey() ? Collections.unmodifiableList(Arrays.asList(Arrays.copyOf(row, keyCount))) : row[0]);
                    }
                }
            }
            return Collections.unmodifiableList(out);
        });
    }

    private static int attribute(IDictionary dict, String name) {
        List<Column> attrs = dict.attributes();
        for (int i = 0; i < attrs.size(); i++) {
            if (attrs.get(i).name().equals(name)) {
                return i;
            }
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "No such attribute '" + name + "'");
    }

    /** The default argument of an OrDefault form, converted to each attribute's type as CAST does. */
    private static Function<Object[], Object[]> defaults(Evaluator d, IDictionary dict, int[] attrs, boolean tuple) {
        List<Evaluator> parts = new ArrayList<>();
        if (tuple) {
            if (!(d.type().unwrap() instanceof TupleType t) || t.elements.size() != attrs.length) {
                throw new ChException(d.type().unwrap() instanceof StringType ? ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED
                    : ErrorCode.TYPE_MISMATCH, "Cannot convert the default value of type " + d.type().name() + " to a tuple of "
                    + attrs.length + " attributes");
            }
            for (int i = 0; i < attrs.length; i++) {
                int k = i;
                parts.add(Evaluator.of(t.elements.get(i), r -> {
                    Object v = d.eval(r);
                    return v == null ? null : ((List<?>) v).get(k);
                }));
            }
        } else {
            parts.add(d);
        }
        List<Evaluator> cast = new ArrayList<>();
        for (int i = 0; i < attrs.length; i++) {
            DataType to = dict.attributes().get(attrs[i]).type();
            Evaluator p = parts.get(i);
            if (p.type().unwrap() instanceof NothingType && !to.isNullable()) {
                throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert NULL to a non-nullable type");
            }
            Evaluator c = ConversionFunctions.cast(p, to);
            cast.add(p.constant() ? Evaluator.constant(to, c.eval(new Object[0])) : c);
        }
        return r -> {
            Object[] out = new Object[cast.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = cast.get(i).eval(r);
            }
            return out;
        };
    }

    /** {@code t} as Nullable where a Nullable can hold it (not an Array, Map or Tuple, nor a Nullable already). */
    static DataType makeNullable(DataType t) {
        DataType u = t.unwrap();
        if (t.isNullable() || u instanceof dev.chdedup.stub.types.ArrayType || u instanceof dev.chdedup.stub.types.MapType
            || u instanceof TupleType) {
            return t;
        }
        return DataTypes.nullable(t);
    }
}
