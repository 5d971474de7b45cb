package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.JSONDocument.JsonObject;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NothingType;
import java.util.ArrayList;
import java.util.List;

/**
 * JSON_EXISTS, JSON_QUERY and JSON_VALUE, as ClickHouse's FunctionSQLJSON: a constant JSONPath ({@code $}, then
 * {@code .key}, {@code ."key"}, {@code ["key"]} and {@code [i, j to k, *]} with 0-based indexes and half-open ranges)
 * matched against the document. JSON_EXISTS: whether anything matches; JSON_QUERY: every match's JSON text in
 * {@code [..., ...]}, empty when none; JSON_VALUE: the first match's scalar text (a string unquoted), empty for an
 * object or array unless function_json_value_return_type_allow_complex, NULL for no match under
 * function_json_value_return_type_allow_nullable.
 */
final class FunctionsJSONPath {
    private FunctionsJSONPath() {
    }

    /** One step of a path: a key, or index ranges ({@code from}, {@code to} exclusive; -1 to: to the end). */
    private record Step(String key, long[] ranges) {
    }

    static void register(FunctionFactory f) {
        f.register("JSON_EXISTS", FunctionsJSON.CATEGORY, (args, ctx) -> build("JSON_EXISTS", args, DataTypes.UINT8, matches -> matches.isEmpty() ? 0L : 1L));
        f.register("JSON_QUERY", FunctionsJSON.CATEGORY, (args, ctx) -> build("JSON_QUERY", args, DataTypes.STRING, matches -> {
            if (matches.isEmpty()) {
                return "";
            }
            StringBuilder sb = new StringBuilder("[");
            for (int i = 0; i < matches.size(); i++) {
                sb.append(i > 0 ? ", " : "").append(JSONDocument.raw(matches.get(i)));
            }
            return sb.append(']').toString();
        }));
        f.register("JSON_VALUE", FunctionsJSON.CATEGORY, (args, ctx) -> {
            boolean nullable = setting(ctx, "function_json_value_return_type_allow_nullable");
            boolean complex = setting(ctx, "function_json_value_return_type_allow_complex");
            return build("JSON_VALUE", args, nullable ? DataTypes.nullable(DataTypes.STRING) : DataTypes.STRING, matches -> {
                if (matches.isEmpty()) {
                    return nullable ? null : "";
                }
                Object e = matches.get(0);
                if (e instanceof JsonObject || e instanceof List) {
                    return complex ? JSONDocument.raw(e) : "";
                }
                return JSONDocument.scalarText(e);
            });
        });
    }

    private static boolean setting(QueryContext ctx, String name) {
        String v = ctx.settings().get(name).trim();
        return v.equals("1") || v.equalsIgnoreCase("true");
    }

    private interface Answer {
        Object of(List<Object> matches);
    }

    private static Evaluator build(String name, List<Evaluator> args, DataType result, Answer answer) {
        Functions.argumentCount(name, args, 2, 1);
        Evaluator doc = args.get(0);
        Evaluator path = args.get(1);
        if (!path.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 1 for function " + name + " must be constant");
        }
        if (!Functions.isString(path.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "JSONPath functions require second argument to be a String");
        }
        if (!(doc.type().unwrap() instanceof NothingType) && !Functions.isString(doc.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "JSONPath functions require first argument to be JSON of string");
        }
        List<Step> steps = parse(ByteStrings.toText(Functions.constString(path)));
        if (doc.type().unwrap() instanceof NothingType) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        DataType type = doc.type().isNullable() ? DataTypes.nullable(result) : result;
        Object none = result.defaultValue();
        return Evaluator.of(type, r -> {
            Object text = doc.eval(r);
            if (text == null) {
                return null;
            }
            Object root = JSONDocument.parse((String) text);
            if (root == null) {
                return none;
            }
            List<Object> current = new ArrayList<>(List.of(root));
            for (Step s : steps) {
                List<Object> next = new ArrayList<>();
                for (Object e : current) {
                    step(e, s, next);
                }
                current = next;
            }
            return answer.of(current);
        });
    }

    private static void step(Object e, Step s, List<Object> out) {
        if (s.key() != null) {
            Object v = FunctionsJSON.member(e, s.key(), false, new String[1]);
            if (v != null) {
                out.add(v);
            }
            return;
        }
        if (!(e instanceof List)) {
            return;
        }
        List<?> l = (List<?>) e;
        for (int i = 0; i < s.ranges().length; i += 2) {
            long to = s.ranges()[i + 1] < 0 ? l.size() : Math.min(s.ranges()[i + 1], l.size());
            for (long j = s.ranges()[i]; j < to; j++) {
                out.add(l.get((int) j));
            }
        }
    }

    private static ChException unparsable() {
        return new ChException(ErrorCode.BAD_ARGUMENTS, "Unable to parse JSONPath");
    }

    /** The steps of a JSONPath, or BAD_ARGUMENTS. */
    private static List<Step> parse(String p) {
        int[] pos = {0};
        skip(p, pos);
        if (pos[0] >= p.length() || p.charAt(pos[0]) != '$') {
            throw unparsable();
        }
        pos[0]++;
        List<Step> steps = new ArrayList<>();
        while (true) {
            skip(p, pos);
            if (pos[0] >= p.length()) {
                return steps;
            }
            char c = p.charAt(pos[0]);
            if (c == '.') {
                pos[0]++;
                skip(p, pos);
                if (pos[0] < p.length() && p.charAt(pos[0]) == '"') {
                    steps.add(new Step(ByteStrings.fromText(quoted(p, pos)), null));
                } else {
                    int start = pos[0];
                    while (pos[0] < p.length() && (Character.isLetterOrDigit(p.charAt(pos[0])) || p.charAt(pos[0]) == '_')) {
                        pos[0]++;
                    }
                    if (pos[0] == start) {
                        throw unparsable();
                    }
                    steps.add(new Step(ByteStrings.fromText(p.substring(start, pos[0])), null));
                }
            } else if (c == '[') {
                pos[0]++;
                skip(p, pos);
                if (pos[0] < p.length() && p.charAt(pos[0]) == '"') {
                    steps.add(new Step(ByteStrings.fromText(quoted(p, pos)), null));
                    expect(p, pos, ']');
                } else {
                    steps.add(new Step(null, ranges(p, pos)));
                }
            } else {
                throw unparsable();
            }
        }
    }

    private static long[] ranges(String p, int[] pos) {
        List<Long> rs = new ArrayList<>();
        while (true) {
            skip(p, pos);
            if (pos[0] < p.length() && p.charAt(pos[0]) == '*') {
                pos[0]++;
                rs.add(0L);
                rs.add(-1L);
            } else {
                long from = index(p, pos);
                skip(p, pos);
                if (p.startsWith("to", pos[0])) {
                    pos[0] += 2;
                    long to = index(p, pos);
                    if (from >= to) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Start of range must be greater than end of range, however "
                            + from + " >= " + to);
                    }
                    rs.add(from);
                    rs.add(to);
                } else {
                    rs.add(from);
                    rs.add(from + 1);
                }
            }
            skip(p, pos);
            if (pos[0] >= p.length()) {
                throw unparsable();
            }
            char c = p.charAt(pos[0]++);
            if (c == ']') {
                long[] out = new long[rs.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = rs.get(i);
                }
                return out;
            }
            if (c != ',') {
                throw unparsable();
            }
        }
    }

    private static long index(String p, int[] pos) {
        skip(p, pos);
        int start = pos[0];
        while (pos[0] < p.length() && Character.isDigit(p.charAt(pos[0]))) {
            pos[0]++;
        }
        if (pos[0] == start || pos[0] - start > 18) {
            throw unparsable();
        }
        return Long.parseLong(p.substring(start, pos[0]));
    }

    private static String quoted(String p, int[] pos) {
        int end = p.indexOf('"', pos[0] + 1);
        if (end < 0) {
            throw unparsable();
        }
        String s = p.substring(pos[0] + 1, end);
        pos[0] = end + 1;
        return s;
    }

    private static void expect(String p, int[] pos, char c) {
        skip(p, pos);
        if (pos[0] >= p.length() || p.charAt(pos[0]) != c) {
            throw unparsable();
        }
        pos[0]++;
    }

    private static void skip(String p, int[] pos) {
        while (pos[0] < p.length() && Character.isWhitespace(p.charAt(pos[0]))) {
            pos[0]++;
        }
    }
}
