package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.JsonType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.VariantType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;

/**
 * The path subcolumns of a JSON column, as ClickHouse reads them: {@code j.a.b} is the path's value, of its type
 * when the path is typed and Dynamic otherwise (NULL when the object has no value there, an object included);
 * {@code j.^a.b} the sub-object at the path (JSON, its typed paths below it); {@code j.a.:T} the path's value when
 * it is of type T (dynamicElement: Nullable(T), NULL otherwise; not for typed paths); {@code j.a[].b} (that is
 * {@code j.a.:`Array(JSON)`.b}) the path b of each object in the array at a. Mirrors ClickHouse's subcolumns of
 * {@code DataTypeObject}; {@code v.T} of a Variant or Dynamic column is its variantElement / dynamicElement.
 */
final class JsonSubcolumns {
    private JsonSubcolumns() {
    }

    /** The subcolumn {@code id} names of a JSON column of {@code input}, or null when it names none. */
    static Evaluator resolve(List<Column> input, Expr.Ident id) {
        List<String> parts = id.parts();
        for (int start = 0; start <= 1; start++) {
            for (int k = parts.size() - 1; k > start; k--) {
                String name = plain(parts.subList(start, k));
                for (int i = 0; name != null && i < input.size(); i++) {
                    Column c = input.get(i);
                    if (c.name().equals(name) && c.type() instanceof JsonType) {
                        return of(Evaluator.column(c.type(), i), parts.subList(k, parts.size()));
                    }
                    if (c.name().equals(name) && (c.type() instanceof VariantType || c.type() instanceof DynamicType) && k == parts.size() - 1) {
                        return element(Evaluator.column(c.type(), i), parts.get(k));
                    }
                }
            }
        }
        return null;
    }

    /** {@code v.T} of a Variant or Dynamic column: variantElement(v, 'T'), or null when T names no type. */
    private static Evaluator element(Evaluator v, String typeName) {
        DataType want;
        try {
            want = DataTypes.parse(typeName);
        } catch (ChException e) {
            return null;
        }
        if (v.type() instanceof VariantType && !((VariantType) v.type()).variants.contains(want)) {
            return null;
        }
        DataType result = DynamicFunctions.elementType(want);
        return Evaluator.of(result, row -> DynamicFunctions.element((TypedValue) v.eval(row), want, result));
    }

    private static String plain(List<String> parts) {
        for (String p : parts) {
            if (special(p)) {
                return null;
            }
        }
        return String.join(".", parts);
    }

    private static boolean special(String part) {
        return part.startsWith(Expr.Ident.SUB_OBJECT) || part.startsWith(Expr.Ident.TYPED);
    }

    /** The subcolumn {@code rest} of JSON values {@code base}, or null when it is none. */
    static Evaluator of(Evaluator base, List<String> rest) {
        Path p = path((JsonType) base.type(), rest);
        if (p == null) {
            return null;
        }
        return Evaluator.of(p.type, row -> p.fn.apply(base.eval(row)));
    }

    /** A subcolumn: its type and how to read it from a JSON value. */
    private record Path(DataType type, UnaryOperator<Object> fn) {
    }

    @SuppressWarnings("unchecked")
    private static Map<String, TypedValue> paths(Object v) {
        return (Map<String, TypedValue>) v;
    }

    private static Path path(JsonType json, List<String> rest) {
        if (rest.isEmpty()) {
            return null;
        }
        if (rest.get(0).startsWith(Expr.Ident.SUB_OBJECT)) {
            List<String> names = new ArrayList<>(rest);
            names.set(0, rest.get(0).substring(Expr.Ident.SUB_OBJECT.length()));
            String prefix = plain(names);
            if (prefix == null) {
                return null;
            }
            JsonType sub = json.subObject(prefix);
            return new Path(sub, v -> subObject(sub, paths(v), prefix));
        }
        int typedAt = 0;
        while (typedAt < rest.size() && !special(rest.get(typedAt))) {
            typedAt++;
        }
        if (typedAt == 0 || typedAt < rest.size() && rest.get(typedAt).startsWith(Expr.Ident.SUB_OBJECT)) {
            return null;
        }
        String path = String.join(".", rest.subList(0, typedAt));
        DataType typed = json.typedPaths.get(path);
        if (typedAt == rest.size()) {
            if (typed != null) {
                return new Path(typed, v -> {
                    TypedValue t = paths(v).get(path);
                    return t == null ? typed.defaultValue() : t.value();
                });
            }
            return new Path(json.dynamicPathType(), v -> paths(v).get(path));
        }
        if (typed != null) {
            return null;
        }
        DataType want;
        try {
            want = DataTypes.parse(rest.get(typedAt).substring(Expr.Ident.TYPED.length()));
        } catch (ChException e) {
            return null;
        }
        if (want instanceof ArrayType && ((ArrayType) want).element instanceof JsonType) {
            // j.a[]: the objects of the array at a, under the nested JSON type of this one
            JsonType element = json.nested();
            ArrayType arrays = (ArrayType) DataTypes.array(element);
            List<String> more = rest.subList(typedAt + 1, rest.size());
            Path inner = more.isEmpty() ? null : path(element, more);
            if (!more.isEmpty() && inner == null) {
                return null;
            }
            UnaryOperator<Object> objects = v -> {
                TypedValue t = paths(v).get(path);
                return t != null && t.type() instanceof ArrayType && ((ArrayType) t.type()).element instanceof JsonType ? t.value() : List.of();
            };
            if (inner == null) {
                return new Path(arrays, objects);
            }
            return new Path(DataTypes.array(inner.type), v -> {
                List<Object> out = new ArrayList<>();
                for (Object o : (List<?>) objects.apply(v)) {
                    out.add(inner.fn.apply(o));
                }
                return Collections.unmodifiableList(out);
            });
        }
        if (typedAt + 1 != rest.size()) {
            return null;
        }
        DataType result = DynamicFunctions.elementType(want);
        return new Path(result, v -> DynamicFunctions.element(paths(v).get(path), want, result));
    }

    private static Map<String, TypedValue> subObject(JsonType sub, Map<String, TypedValue> m, String prefix) {
        Map<String, TypedValue> out = new TreeMap<>();
        for (Map.Entry<String, TypedValue> e : m.entrySet()) {
            if (e.getKey().startsWith(prefix + ".")) {
                out.put(e.getKey().substring(prefix.length() + 1), e.getValue());
            }
        }
        return sub.fromPaths(out);
    }
}
