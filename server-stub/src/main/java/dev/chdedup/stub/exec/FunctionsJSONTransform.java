package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.JSONDocument.JsonObject;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.JsonText;
import dev.chdedup.stub.types.NothingType;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSON functions that write a document anew: prettyPrintJSON (members on their own lines, indented by the second
 * argument's spaces, 4 by default) and JSONMergePatch (objects merged left to right: a member of a later object
 * replaces the earlier one, null included, objects on both sides merged member by member), as ClickHouse's
 * FunctionPrettyPrintJSON and FunctionJSONMergePatch; an invalid document is BAD_ARGUMENTS. toJSONString writes any
 * value as JSON ({@link JsonText#toJsonString}).
 */
final class FunctionsJSONTransform {
    private FunctionsJSONTransform() {
    }

    static void register(FunctionFactory f) {
        f.register("prettyPrintJSON", FunctionsJSON.CATEGORY, (args, ctx) -> prettyPrint(args));
        f.register("JSONMergePatch", FunctionsJSON.CATEGORY, (args, ctx) -> mergePatch(args));
        f.registerAlias("jsonMergePatch", "JSONMergePatch", false);
        f.register("toJSONString", FunctionsJSON.CATEGORY, (args, ctx) -> {
            Functions.arity("toJSONString", args, 1);
            String q = ctx.settings().get("output_format_json_quote_denormals").trim();
            boolean quoteDenormals = q.equals("1") || q.equalsIgnoreCase("true");
            Evaluator a = args.get(0);
            DataType t = a.type();
            if (t.unwrap() instanceof NothingType) {
                return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
            }
            return Evaluator.of(t.isNullable() ? DataTypes.nullable(DataTypes.STRING) : DataTypes.STRING, r -> {
                Object v = a.eval(r);
                return v == null && t.isNullable() ? null : JsonText.toJsonString(t, v, quoteDenormals);
            });
        });
    }

    private static Evaluator prettyPrint(List<Evaluator> args) {
        Functions.argumentCount("prettyPrintJSON", args, 1, 1);
        Evaluator doc = args.get(0);
        if (!Functions.isString(doc.type()) && !(doc.type().unwrap() instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "json", "prettyPrintJSON", "String", doc.type());
        }
        Evaluator indent = args.size() > 1 ? args.get(1) : Evaluator.constant(DataTypes.UINT8, 4L);
        if (!TypeRules.isInteger(indent.type())) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "indent", "prettyPrintJSON", "Integer", indent.type());
        }
        if (doc.type().unwrap() instanceof NothingType) {
            return Evaluator.constant(DataTypes.nullable(DataTypes.NOTHING), null);
        }
        DataType type = doc.type().isNullable() ? DataTypes.nullable(DataTypes.STRING) : DataTypes.STRING;
        return Evaluator.of(type, r -> {
            Object text = doc.eval(r);
            Object n = indent.eval(r);
            if (text == null || n == null) {
                return null;
            }
            Object root = JSONDocument.parse((String) text);
            if (root == null) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Invalid JSON string in function prettyPrintJSON");
            }
            return JSONDocument.pretty(root, (int) Math.max(0, ((Number) n).longValue()));
        });
    }

    private static Evaluator mergePatch(List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function JSONMergePatch requires at least one argument.");
        }
        for (int i = 0; i < args.size(); i++) {
            if (!Functions.isString(args.get(i).type()) && !(args.get(i).type().unwrap() instanceof NothingType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, "json", "JSONMergePatch", "String", args.get(i).type());
            }
        }
        return Functions.strict(DataTypes.STRING, args, vals -> {
            Object merged = null;
            for (Object v : vals) {
                Object doc = JSONDocument.parse((String) v);
                if (doc == null) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Wrong JSON string to merge: Invalid value");
                }
                if (!(doc instanceof JsonObject)) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Wrong JSON string to merge. Expected JSON object");
                }
                merged = merged == null ? doc : merge((JsonObject) merged, (JsonObject) doc);
            }
            return JSONDocument.raw(merged);
        });
    }

    private static JsonObject merge(JsonObject target, JsonObject patch) {
        List<String> keys = new ArrayList<>(target.keys());
        List<Object> values = new ArrayList<>(target.values());
        for (int i = 0; i < patch.keys().size(); i++) {
            String k = patch.keys().get(i);
            Object v = patch.values().get(i);
            int at = keys.indexOf(k);
            if (at < 0) {
                keys.add(k);
                values.add(v);
            } else if (values.get(at) instanceof JsonObject && v instanceof JsonObject) {
                values.set(at, merge((JsonObject) values.get(at), (JsonObject) v));
            } else {
                values.set(at, v);
            }
        }
        return new JsonObject(keys, values);
    }
}
