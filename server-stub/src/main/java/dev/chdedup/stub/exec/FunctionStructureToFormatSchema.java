package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IPv4Type;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.util.List;

/**
 * structureToProtobufSchema(structure[, message name]), of ClickHouse's "Other" category (structureToFormatSchema.cpp):
 * the proto3 schema of a table structure, one field a column numbered from 1: integers as (u)int32 or (u)int64,
 * floats as float and double, dates as uint32 (DateTime64 uint64), strings, decimals, UUIDs and wide integers as
 * bytes, Nullable and LowCardinality as their type, an Enum as a nested enum and a Tuple as a nested message (both
 * named after the field, capitalized), an Array as a repeated field (an array of arrays through a nested message), a
 * Map as a map with its key a string or integer.
 */
final class FunctionStructureToFormatSchema {
    private static final String INDENT = "    ";

    private FunctionStructureToFormatSchema() {
    }

    static void register(FunctionFactory f) {
        f.register("structureToProtobufSchema", "Other", (args, ctx) -> {
            if (args.isEmpty() || args.size() > 2) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function"
                    + " structureToProtobufSchema doesn't match: passed " + args.size() + ", expected 1 or 2");
            }
            String[] ordinal = {"first", "second"};
            for (int i = 0; i < args.size(); i++) {
                Evaluator a = args.get(i);
                if (!(a.type() instanceof StringType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name() + " of the "
                        + ordinal[i] + " argument of function structureToProtobufSchema, expected constant string");
                }
                if (!a.constant()) {
                    throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index " + i + " for function"
                        + " structureToProtobufSchema must be constant");
                }
            }
            List<Column> columns = TableFunctions.structure(Functions.constString(args.get(0)));
            String message = args.size() > 1 ? Functions.constString(args.get(1)) : "Message";
            StringBuilder sb = new StringBuilder("syntax = \"proto3\";\n\n");
            message(sb, message, columns.stream().map(Column::name).toList(), columns.stream().map(Column::type).toList(), "");
            return Evaluator.constant(DataTypes.STRING, ByteStrings.fromText(sb.toString()));
        });
    }

    private static void message(StringBuilder sb, String name, List<String> fields, List<DataType> types, String indent) {
        sb.append(indent).append("message ").append(name).append('\n').append(indent).append("{\n");
        for (int i = 0; i < fields.size(); i++) {
            field(sb, fields.get(i), types.get(i), i + 1, indent + INDENT);
        }
        sb.append(indent).append("}\n");
    }

    private static String capitalized(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    private static void field(StringBuilder sb, String name, DataType t, int number, String indent) {
        String repeated = "";
        if (t instanceof ArrayType a) {
            repeated = "repeated ";
            t = a.element;
            if (t instanceof ArrayType) {
                message(sb, capitalized(name), List.of(name), List.of(t), indent);
                sb.append(indent).append(repeated).append(capitalized(name)).append(' ').append(name).append(" = ").append(number)
                    .append(";\n");
                return;
            }
        }
        t = plain(t);
        String type;
        if (t instanceof EnumType e) {
            type = capitalized(name);
            sb.append(indent).append("enum ").append(type).append('\n').append(indent).append("{\n");
            int i = 0;
            for (String value : e.elements().keySet()) {
                sb.append(indent).append(INDENT).append(value).append(" = ").append(i++).append(";\n");
            }
            sb.append(indent).append("}\n");
        } else if (t instanceof TupleType tt) {
            type = capitalized(name);
            List<String> names = new java.util.ArrayList<>();
            for (int i = 0; i < tt.elements.size(); i++) {
                names.add(tt.names == null || tt.names.get(i) == null ? "e" + (i + 1) : tt.names.get(i));
            }
            message(sb, type, names, tt.elements, indent);
        } else if (t instanceof MapType m) {
            DataType k = plain(m.key);
            type = "map<" + (k instanceof StringType ? "string" : scalar(k)) + ", " + scalar(plain(m.value)) + ">";
        } else {
            type = scalar(t);
        }
        sb.append(indent).append(repeated).append(type).append(' ').append(name).append(" = ").append(number).append(";\n");
    }

    /** The type a Nullable or LowCardinality type is written as. */
    private static DataType plain(DataType t) {
        while (t instanceof NullableType || t instanceof LowCardinalityType) {
            t = t instanceof NullableType n ? n.inner : ((LowCardinalityType) t).inner;
        }
        return t;
    }

    private static String scalar(DataType t) {
        if (t instanceof IntType i) {
            return (i.signed ? "int" : "uint") + (i.bits == 64 ? "64" : "32");
        }
        if (t instanceof FloatType f) {
            return f.is64 ? "double" : "float";
        }
        if (t instanceof BoolType) {
            return "bool";
        }
        if (t instanceof DateType d) {
            return d.is32 ? "int32" : "uint32";
        }
        if (t instanceof DateTimeType || t instanceof IPv4Type) {
            return "uint32";
        }
        if (t instanceof DateTime64Type) {
            return "uint64";
        }
        return "bytes"; // strings, decimals, UUIDs, wide integers
    }
}
