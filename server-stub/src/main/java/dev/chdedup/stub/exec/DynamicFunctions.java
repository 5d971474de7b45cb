package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.JsonType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.VariantType;
import java.util.List;

/**
 * The functions of the Dynamic and Variant types: {@code dynamicType(d)} (the value's type name, 'None' for NULL),
 * {@code dynamicElement(d, 'T')} and {@code variantElement(v, 'T')} (the value when it is of type T, else NULL),
 * {@code variantType(v)} (an Enum8 of the variants' names, 'None' = -1). Mirrors ClickHouse's
 * {@code FunctionDynamicType}, {@code FunctionDynamicElement}, {@code FunctionVariantType} and
 * {@code FunctionVariantElement}.
 */
final class DynamicFunctions {
    private DynamicFunctions() {
    }

    static boolean handles(String name) {
        switch (name) {
            case "dynamicType": case "dynamicElement": case "variantType": case "variantElement":
                return true;
            default:
                return false;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args, QueryContext ctx) {
        switch (name) {
            case "dynamicType": {
                Functions.arity(name, args, 1);
                Evaluator d = args.get(0);
                if (!(d.type() instanceof DynamicType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as 1st argument 'dynamic'"
                        + " to function 'dynamicType'. Expected: Dynamic, got: " + d.type().name());
                }
                return Evaluator.of(DataTypes.STRING, r -> {
                    TypedValue t = (TypedValue) d.eval(r);
                    return ByteStrings.fromText(t == null ? "None" : t.type().name());
                });
            }
            case "variantType": {
                Functions.arity(name, args, 1);
                Evaluator v = args.get(0);
                if (!(v.type() instanceof VariantType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function variantType must be Variant, got "
                        + v.type().name() + " instead");
                }
                List<DataType> variants = ((VariantType) v.type()).variants;
                StringBuilder e = new StringBuilder("Enum8('None' = -1");
                for (int i = 0; i < variants.size(); i++) {
                    e.append(", ");
                    StringType.quote(variants.get(i).name(), e);
                    e.append(" = ").append(i);
                }
                DataType enumType = DataTypes.parse(e.append(')').toString());
                return Evaluator.of(enumType, r -> {
                    TypedValue t = (TypedValue) v.eval(r);
                    return t == null ? -1L : (long) variants.indexOf(t.type());
                });
            }
            default: {
                boolean dynamic = name.equals("dynamicElement");
                Functions.arity(name, args, 2);
                Evaluator v = args.get(0);
                if (!(dynamic ? v.type() instanceof DynamicType : v.type() instanceof VariantType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function " + name + " must be Variant or Array of Variant. Actual "
                        + v.type().name());
                }
                Evaluator t = args.get(1);
                if (!t.constant() || !(t.type() instanceof StringType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument of " + name + " must be a constant String");
                }
                String typeName = ByteStrings.toText((String) t.eval(new Object[0]));
                DataType want;
                try {
                    want = DataTypes.parse(typeName);
                } catch (ChException e) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Second argument of " + name + " must be a valid type name. Got: " + typeName);
                }
                DataType result = elementType(want);
                return Evaluator.of(result, r -> element((TypedValue) v.eval(r), want, result));
            }
        }
    }

    /** The type of dynamicElement(d, 'T'): Nullable(T), or T when T cannot be inside Nullable. */
    static DataType elementType(DataType t) {
        if (t instanceof ArrayType || t instanceof MapType || t instanceof TupleType || t instanceof JsonType || t.isNullable()) {
            return t;
        }
        return DataTypes.nullable(t);
    }

    /** The value of {@code v} when it is of type {@code want}, else NULL (or the default of a non-Nullable result). */
    static Object element(TypedValue v, DataType want, DataType result) {
        if (v != null && (v.type().equals(want) || want instanceof ArrayType && v.type() instanceof ArrayType
            && ((ArrayType) want).element instanceof JsonType && ((ArrayType) v.type()).element instanceof JsonType)) {
            return v.value();
        }
        return result.isNullable() ? null : result.defaultValue();
    }
}
