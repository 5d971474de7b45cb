package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IPv4Type;
import dev.chdedup.stub.types.IPv6Type;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.UuidType;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The reinterpretAs functions ({@code reinterpretAsUInt8} ... {@code reinterpretAsInt256}, {@code reinterpretAsFloat32/64},
 * {@code reinterpretAsDate}, {@code reinterpretAsDateTime}, {@code reinterpretAsUUID}, {@code reinterpretAsString},
 * {@code reinterpretAsFixedString}) and {@code reinterpret(x, 'Type')}: a value's bytes as ClickHouse holds it in memory
 * (little-endian, which is also its RowBinary form for these fixed-size types) read as another type. A number takes
 * the first bytes of its argument, zero-padded; reinterpretAsString drops trailing zero bytes except of a String or an
 * array, reinterpretAsFixedString keeps them all. Mirrors ClickHouse's reinterpretAs.cpp.
 */
final class ReinterpretFunctions {
    private ReinterpretFunctions() {
    }

    static boolean handles(String n) {
        return n.equals("reinterpret") || n.startsWith("reinterpretAs") && target(n.substring("reinterpretAs".length())) != null;
    }

    /** The type a reinterpretAsX function returns; FixedString's size follows its argument. */
    private static DataType target(String x) {
        switch (x) {
            case "UInt8": case "UInt16": case "UInt32": case "UInt64": case "UInt128": case "UInt256":
            case "Int8": case "Int16": case "Int32": case "Int64": case "Int128": case "Int256":
            case "Float32": case "Float64": case "Date": case "DateTime": case "UUID": case "String":
                return DataTypes.parse(x);
            case "FixedString":
                return DataTypes.parse("FixedString(1)");
            default:
                return null;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        DataType to;
        if (name.equals("reinterpret")) {
            Functions.arity(name, args, 2);
            to = DataTypes.parse(Functions.constString(args.get(1)));
            args = args.subList(0, 1);
        } else {
            Functions.arity(name, args, 1);
            to = target(name.substring("reinterpretAs".length()));
        }
        Evaluator a = args.get(0);
        if (Functions.isNothing(a)) {
            return Functions.defaultForNulls(to, args, v -> null);
        }
        DataType from = TypeRules.stripNullable(a.type());
        if (to instanceof StringType && ((StringType) to).fixedLength == 0) {
            return toString(a, from);
        }
        if (to instanceof ArrayType) {
            return toArray(a, from, (ArrayType) to);
        }
        if (to instanceof StringType) {
            int size = fixedSize(from);
            if (size <= 0 || from instanceof ArrayType) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret " + a.type().name()
                    + " as FixedString because it is not fixed size and contiguous in memory");
            }
            DataType fixed = DataTypes.parse("FixedString(" + size + ")");
            return Functions.strict(fixed, args, v -> ByteStrings.of(bytes(v[0], from)));
        }
        if (!(from instanceof StringType) && !reinterpretableAsNumber(from)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret " + a.type().name() + " as " + to.name()
                + " because only Numeric, String or FixedString can be reinterpreted in Numeric");
        }
        int size = fixedSize(to);
        DataType target = to;
        return Functions.strict(to, args, v -> read(target, Arrays.copyOf(bytes(v[0], from), size)));
    }

    /** reinterpretAsString: the bytes without trailing zeros; a String as it is, an array's elements' bytes as they are. */
    private static Evaluator toString(Evaluator a, DataType from) {
        DataType el = from instanceof ArrayType ? TypeRules.stripNullable(((ArrayType) from).element) : null;
        if (from instanceof ArrayType ? ((ArrayType) from).element.isNullable() || fixedSize(el) <= 0 || el instanceof StringType
            : fixedSize(from) <= 0 && !(from instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret " + a.type().name()
                + " as String because it is not contiguous in memory");
        }
        return Functions.strict(DataTypes.STRING, List.of(a), v -> {
            if (el != null) {
                BinaryOut out = new BinaryOut(16);
                for (Object o : (List<?>) v[0]) {
                    el.writeBinary(o, out);
                }
                return ByteStrings.of(out.toByteArray());
            }
            if (from instanceof StringType && ((StringType) from).fixedLength == 0) {
                return v[0];
            }
            byte[] b = bytes(v[0], from);
            int n = b.length;
            while (n > 0 && b[n - 1] == 0) {
                n--;
            }
            return ByteStrings.of(b, 0, n);
        });
    }

    /**
     * A String's or FixedString's bytes as an array of a fixed-size type's values, one per that many bytes
     * (BAD_ARGUMENTS when the length is not a multiple of it).
     */
    private static Evaluator toArray(Evaluator a, DataType from, ArrayType to) {
        if (!(from instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret " + a.type().name() + " as " + to.name()
                + " because only String or FixedString can be reinterpreted as array");
        }
        int size = fixedSize(to.element);
        if (size <= 0 || to.element instanceof StringType) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Cannot reinterpret " + a.type().name() + " as " + to.name()
                + " because the array element type is not fixed length");
        }
        return Functions.strict(to, List.of(a), v -> {
            byte[] b = bytes(v[0], from);
            if (b.length % size != 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Incorrect length argument for method ColumnArray::insertData");
            }
            List<Object> out = new java.util.ArrayList<>();
            for (int i = 0; i < b.length; i += size) {
                out.add(read(to.element, Arrays.copyOfRange(b, i, i + size)));
            }
            return java.util.Collections.unmodifiableList(out);
        });
    }

    /** The types a number, a date or a UUID may be read from besides strings (Date32, enums and addresses may not). */
    private static boolean reinterpretableAsNumber(DataType t) {
        return t instanceof IntType || t instanceof BoolType || t instanceof BigIntType || t instanceof FloatType
            || t instanceof BFloat16Type || t instanceof DecimalType || t instanceof DateType && !((DateType) t).is32
            || t instanceof DateTimeType || t instanceof DateTime64Type || t instanceof UuidType;
    }

    /** Whether the values of {@code t} all take the same number of bytes in memory. */
    static boolean fixedWidth(DataType t) {
        return fixedSize(t) > 0;
    }

    /** The bytes a value of {@code t} takes in memory, or 0 for a type whose values are not of one size. */
    private static int fixedSize(DataType t) {
        if (t instanceof StringType) {
            return ((StringType) t).fixedLength;
        }
        if (reinterpretableAsNumber(t) || t instanceof EnumType || t instanceof IPv4Type || t instanceof IPv6Type
            || t instanceof DateType) {
            BinaryOut out = new BinaryOut(32);
            t.writeBinary(t.defaultValue(), out);
            return out.size();
        }
        return 0;
    }

    /** A value's bytes in memory: a string's own bytes, else its little-endian (RowBinary) form. */
    static byte[] bytes(Object v, DataType t) {
        if (t instanceof StringType) {
            return ByteStrings.bytes((String) v);
        }
        BinaryOut out = new BinaryOut(32);
        t.writeBinary(v, out);
        return out.toByteArray();
    }

    private static Object read(DataType t, byte[] b) {
        try {
            return t.readBinary(new BinaryIn(b));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
