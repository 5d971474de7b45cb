package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * JSON: a semi-structured object held as its paths ({@code a.b} for {@code {"a":{"b":..}}}), sorted, each with a
 * {@link TypedValue} typed as ClickHouse infers it (Int64, UInt64, Float64, Bool, String, Array(Nullable(T)));
 * null values are not stored. Text is the object rebuilt from its paths with 64-bit integers quoted, as ClickHouse
 * shows a JSON column; RowBinary writes the number of paths, then each path and its value as a Dynamic. Arrays of
 * objects are kept as their JSON text (String). Parameters of the type (max_dynamic_paths, typed paths, SKIP) are
 * accepted and not applied. Mirrors ClickHouse's {@code DataTypeObject} for the JSON type.
 */
public final class JsonType extends DataType {
    private static final DynamicType DYNAMIC = new DynamicType("Dynamic");
    private final String name;

    JsonType(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Object defaultValue() {
        return Map.of();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, TypedValue> paths(Object v) {
        return (Map<String, TypedValue>) v;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        Map<String, Object> tree = new TreeMap<>();
        for (Map.Entry<String, TypedValue> e : paths(v).entrySet()) {
            String[] parts = e.getKey().split("\\.", -1);
            Map<String, Object> node = tree;
            for (int i = 0; i < parts.length - 1; i++) {
                Object child = node.get(parts[i]);
                if (!(child instanceof Map)) {
                    child = new TreeMap<String, Object>();
                    node.put(parts[i], child);
                }
                node = castMap(child);
            }
            node.put(parts[parts.length - 1], e.getValue());
        }
        writeObject(tree, sb);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    private static void writeObject(Map<String, Object> node, StringBuilder sb) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<String, Object> e : node.entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            JsonText.string(ByteStrings.fromText(e.getKey()), sb);
            sb.append(':');
            if (e.getValue() instanceof TypedValue) {
                JsonText.value(((TypedValue) e.getValue()).type(), ((TypedValue) e.getValue()).value(), sb);
            } else {
                writeObject(castMap(e.getValue()), sb);
            }
        }
        sb.append('}');
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        StringBuilder json = new StringBuilder();
        formatText(v, json);
        StringType.quote(json.toString(), sb);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        String s = quoted ? r.readQuoted() : r.readRest();
        return parseObject(s);
    }

    /** The paths of JSON object text {@code s} (a byte string). */
    public Map<String, TypedValue> parseObject(String s) {
        JsonText.Parser p = new JsonText.Parser(s);
        Object o = p.value();
        p.end();
        if (!(o instanceof Map)) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "Cannot parse JSON object here: " + ByteStrings.toText(s.length() > 80 ? s.substring(0, 80) : s));
        }
        Map<String, TypedValue> out = new TreeMap<>();
        flatten("", castMap(o), out);
        return Collections.unmodifiableMap(out);
    }

    private static void flatten(String prefix, Map<String, Object> node, Map<String, TypedValue> out) {
        for (Map.Entry<String, Object> e : node.entrySet()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            Object v = e.getValue();
            if (v instanceof Map) {
                flatten(path, castMap(v), out);
            } else if (v != null) {
                out.put(path, (TypedValue) v);
            }
        }
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        Map<String, TypedValue> m = paths(v);
        out.writeVarUInt(m.size());
        for (Map.Entry<String, TypedValue> e : m.entrySet()) {
            out.writeString(ByteStrings.fromText(e.getKey()));
            DYNAMIC.writeBinary(e.getValue(), out);
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long n = in.readVarUInt();
        if (n > BinaryIn.MAX_STRING_BYTES) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Too many JSON paths: " + n);
        }
        Map<String, TypedValue> m = new TreeMap<>();
        for (long i = 0; i < n; i++) {
            String path = ByteStrings.toText(in.readString());
            TypedValue v = (TypedValue) DYNAMIC.readBinary(in);
            if (v != null) {
                m.put(path, v);
            }
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public int compare(Object a, Object b) {
        return Values.text(a, this).compareTo(Values.text(b, this));
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (from.unwrap() instanceof JsonType) {
            return v;
        }
        if (v instanceof String) {
            return parseObject((String) v);
        }
        throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Conversion from " + from.name() + " to JSON is not supported");
    }

    @Override
    public int byteSize(Object v) {
        int n = 8;
        for (Map.Entry<String, TypedValue> e : paths(v).entrySet()) {
            n += e.getKey().length() + 1 + e.getValue().type().byteSize(e.getValue().value());
        }
        return n;
    }
}
