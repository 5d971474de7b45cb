package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * JSON: a semi-structured object held as its paths ({@code a.b} for {@code {"a":{"b":..}}}), sorted, each with a
 * {@link TypedValue}: a typed path of the type's hints ({@code JSON(a UInt32)}) has that type and is always there
 * (its default when the object lacks it); any other path is typed as ClickHouse infers it (Int64, UInt64, Float64,
 * Bool, String, Array(Nullable(T)), an array of objects Array(JSON) with half the types and a quarter of the paths)
 * and null values are not stored. Paths named by {@code SKIP path} (and below it) or matching {@code SKIP REGEXP}
 * are dropped. Text is the object rebuilt from its paths; RowBinary writes the number of paths, then the typed paths
 * (each path and its value in its own type), then the others (each path and its value as a Dynamic), as
 * ClickHouse's {@code SerializationObject} does, or the object's JSON text as a String when the stream says so
 * (output_format_binary_write_json_as_string, input_format_binary_read_json_as_string). Mirrors ClickHouse's {@code DataTypeObject} for the JSON type; the
 * stub does not move paths past max_dynamic_paths into shared data.
 */
public final class JsonType extends DataType {
    public static final int DEFAULT_MAX_DYNAMIC_TYPES = 32;
    public static final int DEFAULT_MAX_DYNAMIC_PATHS = 1024;
    private static final Pattern PLAIN_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");
    public final int maxDynamicTypes;
    public final int maxDynamicPaths;
    /** Typed paths and their types, sorted by path. */
    public final SortedMap<String, DataType> typedPaths;
    public final List<String> skipPaths;
    public final List<String> skipRegexps;
    private final List<Pattern> skipPatterns = new ArrayList<>();
    private final DynamicType dynamic;
    private final String name;

    JsonType(int maxDynamicTypes, int maxDynamicPaths, SortedMap<String, DataType> typedPaths, List<String> skipPaths,
             List<String> skipRegexps) {
        this.maxDynamicTypes = maxDynamicTypes;
        this.maxDynamicPaths = maxDynamicPaths;
        this.typedPaths = Collections.unmodifiableSortedMap(new TreeMap<>(typedPaths));
        this.skipPaths = List.copyOf(skipPaths);
        this.skipRegexps = List.copyOf(skipRegexps);
        for (String r : skipRegexps) {
            skipPatterns.add(Pattern.compile(r));
        }
        this.dynamic = DynamicType.of(maxDynamicTypes);
        this.name = makeName();
    }

    /** The type named {@code JSON} or {@code JSON(hints)}, hints as ClickHouse's type parser takes them. */
    static JsonType parse(String raw) {
        JsonTypeHints h = JsonTypeHints.parse(raw);
        return new JsonType(h.maxDynamicTypes, h.maxDynamicPaths, h.typedPaths, h.skipPaths, h.skipRegexps);
    }

    private String makeName() {
        List<String> args = new ArrayList<>();
        if (maxDynamicTypes != DEFAULT_MAX_DYNAMIC_TYPES) {
            args.add("max_dynamic_types=" + maxDynamicTypes);
        }
        if (maxDynamicPaths != DEFAULT_MAX_DYNAMIC_PATHS) {
            args.add("max_dynamic_paths=" + maxDynamicPaths);
        }
        typedPaths.forEach((p, t) -> args.add(pathName(p) + " " + t.name()));
        skipPaths.forEach(p -> args.add("SKIP " + pathName(p)));
        skipRegexps.forEach(r -> {
            StringBuilder sb = new StringBuilder("SKIP REGEXP ");
            StringType.quote(r, sb);
            args.add(sb.toString());
        });
        return args.isEmpty() ? "JSON" : "JSON(" + String.join(", ", args) + ")";
    }

    private static String pathName(String path) {
        return PLAIN_NAME.matcher(path).matches() ? path : "`" + path.replace("`", "\\`") + "`";
    }

    @Override
    public String name() {
        return name;
    }

    /** The type of the objects in an array at one of this type's paths: half the types, a quarter of the paths. */
    public JsonType nested() {
        return new JsonType(maxDynamicTypes / 2, maxDynamicPaths / 4, new TreeMap<>(), List.of(), List.of());
    }

    /** The type of the sub-object at {@code prefix} ({@code j.^a}): the typed paths below it, the same limits and skips. */
    public JsonType subObject(String prefix) {
        SortedMap<String, DataType> typed = new TreeMap<>();
        typedPaths.forEach((p, t) -> {
            if (p.startsWith(prefix + ".")) {
                typed.put(p.substring(prefix.length() + 1), t);
            }
        });
        return new JsonType(maxDynamicTypes, maxDynamicPaths, typed, skipPaths, skipRegexps);
    }

    /** The type of a path that is not typed: Dynamic with this type's max_dynamic_types. */
    public DynamicType dynamicPathType() {
        return dynamic;
    }

    @Override
    public Object defaultValue() {
        return withTypedDefaults(new TreeMap<>());
    }

    @SuppressWarnings("unchecked")
    static Map<String, TypedValue> paths(Object v) {
        return (Map<String, TypedValue>) v;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        formatJson(v, sb, JsonQuoting.quote64());
    }

    /** The object's JSON text; {@code quote64}: 64-bit and larger integers as strings. */
    public void formatJson(Object v, StringBuilder sb, boolean quote64) {
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
        writeObject(tree, sb, quote64);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> castMap(Object o) {
        return (Map<String, Object>) o;
    }

    private static void writeObject(Map<String, Object> node, StringBuilder sb, boolean quote64) {
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
                JsonText.value(((TypedValue) e.getValue()).type(), ((TypedValue) e.getValue()).value(), sb, quote64);
            } else {
                writeObject(castMap(e.getValue()), sb, quote64);
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
        JsonText.Parser p = new JsonText.Parser(s, this);
        Object o = p.value();
        p.end();
        if (!(o instanceof Map)) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "Cannot parse JSON object here: " + ByteStrings.toText(s.length() > 80 ? s.substring(0, 80) : s));
        }
        return fromTree(castMap(o));
    }

    /** The value of a parsed object (sorted maps with {@link TypedValue} leaves) under this type's hints. */
    Map<String, TypedValue> fromTree(Map<String, Object> tree) {
        Map<String, TypedValue> out = new TreeMap<>();
        flatten("", tree, out);
        return withTypedDefaults(out);
    }

    private void flatten(String prefix, Map<String, Object> node, Map<String, TypedValue> out) {
        for (Map.Entry<String, Object> e : node.entrySet()) {
            String path = prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey();
            Object v = e.getValue();
            if (isSkipped(path)) {
                continue;
            }
            DataType typed = typedPaths.get(path);
            if (typed != null) {
                TypedValue t = v instanceof TypedValue ? (TypedValue) v : null;
                out.put(path, new TypedValue(typed, t == null ? typed.defaultValue() : typed.convert(t.value(), t.type())));
            } else if (v instanceof Map) {
                flatten(path, castMap(v), out);
            } else if (v != null) {
                out.put(path, (TypedValue) v);
            }
        }
    }

    private boolean isSkipped(String path) {
        for (String s : skipPaths) {
            if (path.equals(s) || path.startsWith(s + ".")) {
                return true;
            }
        }
        for (Pattern p : skipPatterns) {
            if (p.matcher(path).find()) {
                return true;
            }
        }
        return false;
    }

    private Map<String, TypedValue> withTypedDefaults(Map<String, TypedValue> m) {
        typedPaths.forEach((p, t) -> m.putIfAbsent(p, new TypedValue(t, t.defaultValue())));
        return Collections.unmodifiableMap(m);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        if (out.jsonAsString()) {
            StringBuilder sb = new StringBuilder();
            formatJson(v, sb, out.jsonQuote64bitIntegers());
            out.writeString(sb.toString());
            return;
        }
        Map<String, TypedValue> m = paths(v);
        out.writeVarUInt(m.size());
        for (Map.Entry<String, DataType> e : typedPaths.entrySet()) {
            out.writeString(ByteStrings.fromText(e.getKey()));
            TypedValue t = m.get(e.getKey());
            e.getValue().writeBinary(t == null ? e.getValue().defaultValue() : t.value(), out);
        }
        for (Map.Entry<String, TypedValue> e : m.entrySet()) {
            if (!typedPaths.containsKey(e.getKey())) {
                out.writeString(ByteStrings.fromText(e.getKey()));
                dynamic.writeBinary(e.getValue(), out);
            }
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        if (in.jsonAsString()) {
            return parseObject(in.readString());
        }
        long n = in.readVarUInt();
        if (n > BinaryIn.MAX_STRING_BYTES) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Too many JSON paths: " + n);
        }
        Map<String, TypedValue> m = new TreeMap<>();
        for (long i = 0; i < n; i++) {
            String path = ByteStrings.toText(in.readString());
            DataType typed = typedPaths.get(path);
            TypedValue v = typed != null ? new TypedValue(typed, typed.readBinary(in)) : (TypedValue) dynamic.readBinary(in);
            if (v != null && !isSkipped(path)) {
                m.put(path, v);
            }
        }
        return withTypedDefaults(m);
    }

    @Override
    public int compare(Object a, Object b) {
        return Values.text(a, this).compareTo(Values.text(b, this));
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (from.unwrap() instanceof JsonType) {
            return ((JsonType) from.unwrap()).equals(this) ? v : fromPaths(paths(v));
        }
        if (v instanceof String) {
            return parseObject((String) v);
        }
        throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Conversion from " + from.name() + " to JSON is not supported");
    }

    /** Paths (another JSON type's value) under this type's hints: typed paths converted, skipped paths dropped. */
    public Map<String, TypedValue> fromPaths(Map<String, TypedValue> m) {
        Map<String, TypedValue> out = new TreeMap<>();
        for (Map.Entry<String, TypedValue> e : m.entrySet()) {
            TypedValue t = e.getValue();
            DataType typed = typedPaths.get(e.getKey());
            if (isSkipped(e.getKey()) || t == null) {
                continue;
            }
            if (typed != null) {
                out.put(e.getKey(), new TypedValue(typed, typed.convert(t.value(), t.type())));
            } else if (t.value() != null) {
                out.put(e.getKey(), t);
            }
        }
        return withTypedDefaults(out);
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
