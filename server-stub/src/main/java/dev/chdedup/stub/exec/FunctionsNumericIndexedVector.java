package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.AggregateFunctionType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NumericIndexedVectorBSI;
import dev.chdedup.stub.types.NumericIndexedVectorBSI.Arithmetic;
import dev.chdedup.stub.types.NumericIndexedVectorBSI.Comparison;
import java.util.List;
import java.util.Map;

/**
 * ClickHouse's FunctionsNumericIndexedVector (category NumericIndexedVector): numericIndexedVectorBuild makes a
 * groupNumericIndexedVector state ({@link NumericIndexedVectorBSI}) of a Map from an index to a value;
 * numericIndexedVectorToMap, Cardinality, AllValueSum, GetValue and ShortDebugString read one; the Pointwise
 * functions combine a vector with another of the same types (over the union of their indexes, a missing value 0)
 * or with a scalar cast to the value type (over the vector's indexes). A NULL argument makes the result NULL.
 */
final class FunctionsNumericIndexedVector {
    private static final String CATEGORY = "NumericIndexedVector";
    static final String AGGREGATE = "groupNumericIndexedVector";

    private FunctionsNumericIndexedVector() {
    }

    static void register(FunctionFactory f) {
        f.register("numericIndexedVectorBuild", CATEGORY, (args, ctx) -> build(args));
        f.register("numericIndexedVectorToMap", CATEGORY, (args, ctx) -> reader("numericIndexedVectorToMap", args));
        f.register("numericIndexedVectorCardinality", CATEGORY, (args, ctx) -> reader("numericIndexedVectorCardinality", args));
        f.register("numericIndexedVectorAllValueSum", CATEGORY, (args, ctx) -> reader("numericIndexedVectorAllValueSum", args));
        f.register("numericIndexedVectorShortDebugString", CATEGORY, (args, ctx) -> reader("numericIndexedVectorShortDebugString", args));
        f.register("numericIndexedVectorGetValue", CATEGORY, (args, ctx) -> getValue(args));
        for (Arithmetic op : Arithmetic.values()) {
            String name = "numericIndexedVectorPointwise" + camel(op.name());
            f.register(name, CATEGORY, (args, ctx) -> pointwise(name, args, (a, b) -> NumericIndexedVectorBSI.arithmetic(a, b, op)));
        }
        for (Comparison op : Comparison.values()) {
            String name = "numericIndexedVectorPointwise" + camel(op.name());
            f.register(name, CATEGORY, (args, ctx) -> pointwise(name, args, (a, b) -> NumericIndexedVectorBSI.compare(a, b, op)));
        }
    }

    private static String camel(String constant) {
        StringBuilder sb = new StringBuilder();
        for (String part : constant.split("_")) {
            sb.append(part.charAt(0)).append(part.substring(1).toLowerCase());
        }
        return sb.toString();
    }

    /** Whether {@code t} is a type numericIndexedVectorBuild takes as an index: an integer of up to 32 bits. */
    static boolean indexType(DataType t) {
        return t instanceof IntType it && it.bits <= 32 && !it.name().equals("Bool");
    }

    /** Whether {@code t} is a type numericIndexedVectorBuild takes as a value: an integer of up to 64 bits or a float. */
    static boolean valueType(DataType t) {
        return t instanceof IntType it && it.bits <= 64 && !it.name().equals("Bool") || t instanceof FloatType;
    }

    static ChException badIndex(String suffix) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The first argument type must be one of Int8, Int16, Int32, UInt8, UInt16, UInt32 in BSI"
            + suffix);
    }

    static ChException badValue(String suffix) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT,
            "The second argument type must be one of Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64, Float32, Float64" + suffix);
    }

    private static Evaluator build(List<Evaluator> args) {
        Functions.arity("numericIndexedVectorBuild", args, 1);
        Evaluator a = args.get(0);
        if (Functions.isNothing(a)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        if (!(a.type() instanceof MapType m)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The argument for function numericIndexedVectorBuild must be Map type");
        }
        if (!valueType(m.value)) {
            if (m.value.isNullable()) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Unexpected value type " + m.value.name());
            }
            throw badValue("");
        }
        if (!indexType(m.key)) {
            throw badIndex("");
        }
        DataType state = DataTypes.parse("AggregateFunction(" + AGGREGATE + ", " + m.key.name() + ", " + m.value.name() + ")");
        IntType index = (IntType) m.key;
        DataType value = m.value;
        return Evaluator.of(state, r -> {
            Map<?, ?> map = (Map<?, ?>) a.eval(r);
            NumericIndexedVectorBSI v = new NumericIndexedVectorBSI(index, value);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                v.addValue((Long) e.getKey(), e.getValue());
            }
            return v;
        });
    }

    /** The vector type of {@code name}'s first argument, or ILLEGAL_TYPE_OF_ARGUMENT. */
    private static AggregateFunctionType vectorType(String name, Evaluator e, String which) {
        if (e.type() instanceof AggregateFunctionType t && t.function.equals(AGGREGATE) && t.arguments.size() == 2) {
            return t;
        }
        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, which + " argument for function " + name
            + " must be a NumericIndexedVector but it has type " + e.type().name());
    }

    private static Evaluator reader(String name, List<Evaluator> args) {
        Functions.arity(name, args, 1);
        if (Functions.isNothing(args.get(0))) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        AggregateFunctionType t = vectorType(name, args.get(0), "First");
        switch (name) {
            case "numericIndexedVectorToMap":
                return Functions.strict(DataTypes.map(t.arguments.get(0), t.arguments.get(1)), args, v -> vector(v[0]).toMap());
            case "numericIndexedVectorCardinality":
                return Functions.strict(DataTypes.UINT64, args, v -> vector(v[0]).cardinality());
            case "numericIndexedVectorAllValueSum":
                return Functions.strict(DataTypes.FLOAT64, args, v -> vector(v[0]).allValueSum());
            default:
                return Functions.strict(DataTypes.STRING, args, v -> ByteStrings.fromText(debugString(vector(v[0]))));
        }
    }

    private static NumericIndexedVectorBSI vector(Object state) {
        return (NumericIndexedVectorBSI) state;
    }

    private static Evaluator getValue(List<Evaluator> args) {
        String name = "numericIndexedVectorGetValue";
        Functions.arity(name, args, 2);
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        AggregateFunctionType t = vectorType(name, args.get(0), "First");
        IntType index = (IntType) t.arguments.get(0);
        Evaluator at = Functions.casts(List.of(args.get(1)), DataTypes.UINT64).get(0);
        return Functions.strict(t.arguments.get(1), List.of(args.get(0), at), v -> {
            long i = (Long) v[1];
            long narrowed = index.signed ? i << (64 - index.bits) >> (64 - index.bits) : i & ((1L << index.bits) - 1);
            return vector(v[0]).valueAt(narrowed);
        });
    }

    private static Evaluator pointwise(String name, List<Evaluator> args,
                                       java.util.function.BinaryOperator<NumericIndexedVectorBSI> op) {
        Functions.arity(name, args, 2);
        if (args.stream().anyMatch(Functions::isNothing)) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        AggregateFunctionType t = vectorType(name, args.get(0), "First");
        Evaluator second = args.get(1);
        if (second.type() instanceof AggregateFunctionType u && u.function.equals(AGGREGATE)) {
            if (!u.arguments.equals(t.arguments)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The nested types in NumericIndexedVector must be the same, but one is ("
                    + t.arguments.get(0).name() + ", " + t.arguments.get(1).name() + "), and the other is (" + u.arguments.get(0).name() + ", "
                    + u.arguments.get(1).name() + ")");
            }
            return Functions.strict(t, args, v -> op.apply(vector(v[0]), vector(v[1])));
        }
        DataType value = t.arguments.get(1);
        if (!(second.type().unwrap() instanceof IntType) && !(second.type().unwrap() instanceof FloatType)
            && !Functions.isString(second.type()) && !(second.type().unwrap() instanceof dev.chdedup.stub.types.DecimalType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + second.type().name() + " of argument of function to"
                + value.name());
        }
        Evaluator scalar = Functions.casts(List.of(second), value).get(0);
        return Functions.strict(t, List.of(args.get(0), scalar), v -> {
            NumericIndexedVectorBSI a = vector(v[0]);
            return op.apply(a, a.filledWith(v[1]));
        });
    }

    /** ClickHouse's shortDebugString: the layout, the zero indexes' count and each bit slice's, as compact JSON. */
    static String debugString(NumericIndexedVectorBSI v) {
        StringBuilder sum = new StringBuilder();
        DataTypes.FLOAT64.formatText(v.allValueSum(), sum);
        StringBuilder sb = new StringBuilder("{\"vector_type\":\"BSI\",\"index_type\":\"").append(cppName(v.indexType))
            .append("\",\"value_type\":\"").append(cppName(v.valueType)).append("\",\"integer_bit_num\":").append(v.integerBits())
            .append(",\"fraction_bit_num\":").append(v.fractionBits()).append(",\"zero_indexes_info\":{\"cardinality\":").append(v.zeroCardinality())
            .append("},\"non_zero_indexes_info\":{\"total_cardinality\":").append(v.cardinality()).append(",\"all_value_sum\":").append(sum)
            .append(",\"number_of_bitmaps\":").append(v.integerBits() + v.fractionBits()).append(",\"bitmap_info\":{\"cardinality\":{");
        long[] c = v.bitCardinalities();
        for (int i = 0; i < c.length; i++) {
            sb.append(i > 0 ? "," : "").append('"').append(i).append("\":").append(c[i]);
        }
        return sb.append("}}}}").toString();
    }

    /** The C++ name of a type as ClickHouse's demangle shows it. */
    private static String cppName(DataType t) {
        switch (t.name()) {
            case "UInt8": return "char8_t";
            case "UInt16": return "unsigned short";
            case "UInt32": return "unsigned int";
            case "UInt64": return "unsigned long";
            case "Int8": return "_BitInt(8)";
            case "Int16": return "short";
            case "Int32": return "int";
            case "Int64": return "long";
            case "Float32": return "float";
            default: return "double";
        }
    }
}
