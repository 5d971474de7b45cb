package dev.chdedup.stub.exec;

import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.JsonType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.SimpleAggregateFunctionType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.VariantType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How ClickHouse stores values, from its "Other" category: blockSerializedSize (the Native bytes of the arguments'
 * columns over the block), dumpColumnStructure (the column classes a value is held in, IColumn::dumpStructure) and
 * getTypeSerializationStreams(type name or value): the substreams a column of the
 * type is written as in MergeTree parts (ISerialization::enumerateStreams), each the path from the column to a leaf:
 * an array's sizes and elements, a Nullable's null map and elements, a tuple's elements by name or position, a Map as
 * the array of tuple(keys, values), a LowCardinality's dictionary keys and indexes, a String's sizes and bytes, a
 * Variant's discriminators, elements and their null maps; any other type one Regular stream.
 */
final class FunctionsTypeIntrospection {
    private static final String CATEGORY = "Other";

    private FunctionsTypeIntrospection() {
    }

    static void register(FunctionFactory f) {
        f.register("getTypeSerializationStreams", CATEGORY, (args, ctx) -> {
            Functions.arity("getTypeSerializationStreams", args, 1);
            Evaluator a = args.get(0);
            if (Functions.isNothing(a)) {
                return Evaluator.constant(a.type(), null);
            }
            DataType t = a.constant() && a.type() instanceof StringType st && st.fixedLength == 0
                ? DataTypes.parse(Functions.constString(a)) : a.type();
            List<String> streams = new ArrayList<>();
            streams(t, "", streams);
            List<Object> out = new ArrayList<>();
            for (String s : streams) {
                out.add(ByteStrings.fromText("{" + s + "}"));
            }
            return Evaluator.constant(DataTypes.array(DataTypes.STRING), out);
        });
        f.register("blockSerializedSize", CATEGORY, (args, ctx) -> blockSerializedSize(args));
        f.register("dumpColumnStructure", CATEGORY, (args, ctx) -> dumpColumnStructure(args));
    }

    /** blockSerializedSize(x, ...): the bytes the arguments' columns take in the Native format, for the whole block. */
    private static Evaluator blockSerializedSize(List<Evaluator> args) {
        return new BlockFunction(DataTypes.UINT64, args) {
            @Override
            Object[] block(Object[][] values, int size) {
                long bytes = 0;
                for (int a = 0; a < values.length; a++) {
                    DataType t = args.get(a).type();
                    for (int i = 0; i < size; i++) {
                        bytes += nativeSize(t, values[a][i]);
                    }
                }
                Object[] out = new Object[size];
                java.util.Arrays.fill(out, bytes);
                return out;
            }
        };
    }

    /**
     * The bytes {@code v} takes in a Native column of {@code t}: a Nullable's null map byte and value (its default when
     * NULL), an array's or map's 8-byte offset and elements, any other value its binary form.
     */
    static long nativeSize(DataType t, Object v) {
        if (t instanceof NullableType n) {
            return 1 + nativeSize(n.inner, v == null ? n.inner.defaultValue() : v);
        }
        if (t instanceof NothingType) {
            return 1;
        }
        if (t instanceof ArrayType a) {
            long bytes = 8;
            for (Object e : (List<?>) v) {
                bytes += nativeSize(a.element, e);
            }
            return bytes;
        }
        if (t instanceof TupleType tt) {
            long bytes = 0;
            List<?> l = (List<?>) v;
            for (int i = 0; i < tt.elements.size(); i++) {
                bytes += nativeSize(tt.elements.get(i), l.get(i));
            }
            return bytes;
        }
        if (t instanceof MapType m) {
            long bytes = 8;
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                bytes += nativeSize(m.key, e.getKey()) + nativeSize(m.value, e.getValue());
            }
            return bytes;
        }
        BinaryOut out = new BinaryOut(16);
        t.writeBinary(v, out);
        return out.size();
    }

    /** dumpColumnStructure(x): the type and the column the block holds x in, as IColumn::dumpStructure writes it. */
    private static Evaluator dumpColumnStructure(List<Evaluator> args) {
        Functions.arity("dumpColumnStructure", args, 1);
        Evaluator a = args.get(0);
        DataType t = a.type();
        boolean constant = a.constant();
        return new BlockFunction(DataTypes.STRING, args) {
            @Override
            Object[] block(Object[][] values, int size) {
                List<Object> column = new ArrayList<>();
                for (int i = 0; i < (constant ? Math.min(1, size) : size); i++) {
                    column.add(values[0][i]);
                }
                String dump = structure(t, column);
                String text = t.name() + ", " + (constant ? "Const(size = " + size + ", " + dump + ")" : dump);
                Object[] out = new Object[size];
                java.util.Arrays.fill(out, ByteStrings.fromText(text));
                return out;
            }
        };
    }

    private static String structure(DataType t, List<Object> column) {
        int n = column.size();
        if (t instanceof NullableType nt) {
            return "Nullable(size = " + n + ", " + structure(nt.inner, column) + ", UInt8(size = " + n + "))";
        }
        if (t instanceof ArrayType at) {
            List<Object> elements = new ArrayList<>();
            for (Object v : column) {
                elements.addAll((List<?>) v);
            }
            return "Array(size = " + n + ", UInt64(size = " + n + "), " + structure(at.element, elements) + ")";
        }
        if (t instanceof TupleType tt) {
            StringBuilder sb = new StringBuilder("Tuple(size = " + n);
            for (int i = 0; i < tt.elements.size(); i++) {
                List<Object> element = new ArrayList<>();
                for (Object v : column) {
                    element.add(((List<?>) v).get(i));
                }
                sb.append(", ").append(structure(tt.elements.get(i), element));
            }
            return sb.append(')').toString();
        }
        if (t instanceof LowCardinalityType lc) {
            java.util.Set<Object> dictionary = new java.util.LinkedHashSet<>();
            if (lc.inner.isNullable()) {
                dictionary.add(null);
            }
            dictionary.add(lc.inner.unwrap().defaultValue());
            dictionary.addAll(column);
            int d = dictionary.size();
            String index = d <= 256 ? "UInt8" : d <= 65536 ? "UInt16" : "UInt32";
            return "LowCardinality(size = " + n + ", " + index + "(size = " + n + "), Unique(size = " + d + ", "
                + structure(lc.inner, new ArrayList<>(dictionary)) + "))";
        }
        if (t instanceof MapType m) {
            List<Object> entries = new ArrayList<>();
            for (Object v : column) {
                List<Object> tuples = new ArrayList<>();
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    tuples.add(java.util.Arrays.asList(e.getKey(), e.getValue()));
                }
                entries.add(tuples);
            }
            DataType pairs = DataTypes.array(DataTypes.parse("Tuple(" + m.key.name() + ", " + m.value.name() + ")"));
            return "Map(size = " + n + ", " + structure(pairs, entries) + ")";
        }
        return columnName(t) + "(size = " + n + ")";
    }

    /** The column class a value of a type without parts is held in (ColumnVector of the type's integer, ColumnDecimal, ...). */
    private static String columnName(DataType t) {
        if (t instanceof SimpleAggregateFunctionType sa) {
            return columnName(sa.inner);
        }
        if (t instanceof DateType d) {
            return d.is32 ? "Int32" : "UInt16";
        }
        if (t instanceof DateTimeType) {
            return "UInt32";
        }
        if (t instanceof BoolType) {
            return "UInt8";
        }
        if (t instanceof EnumType e) {
            return e.bits == 8 ? "Int8" : "Int16";
        }
        if (t instanceof DateTime64Type) {
            return "DateTime64";
        }
        if (t instanceof DecimalType d) {
            return d.precision <= 9 ? "Decimal32" : d.precision <= 18 ? "Decimal64" : d.precision <= 38 ? "Decimal128" : "Decimal256";
        }
        if (t instanceof StringType s) {
            return s.fixedLength == 0 ? "String" : "FixedString";
        }
        return t.name();
    }

    private static String path(String prefix, String step) {
        return prefix.isEmpty() ? step : prefix + ", " + step;
    }

    private static void streams(DataType t, String prefix, List<String> out) {
        if (t instanceof LowCardinalityType) {
            out.add(path(prefix, "DictionaryKeys"));
            out.add(path(prefix, "DictionaryIndexes"));
        } else if (t instanceof NullableType n) {
            out.add(path(prefix, "NullMap"));
            streams(n.inner, path(prefix, "NullableElements"), out);
        } else if (t instanceof ArrayType a) {
            out.add(path(prefix, "ArraySizes"));
            streams(a.element, path(prefix, "ArrayElements"), out);
        } else if (t instanceof MapType m) {
            out.add(path(prefix, "ArraySizes"));
            String elements = path(prefix, "ArrayElements");
            streams(m.key, path(elements, "TupleElement(keys)"), out);
            streams(m.value, path(elements, "TupleElement(values)"), out);
        } else if (t instanceof TupleType tt) {
            for (int i = 0; i < tt.elements.size(); i++) {
                String name = tt.names == null || tt.names.get(i) == null ? String.valueOf(i + 1) : tt.names.get(i);
                streams(tt.elements.get(i), path(prefix, "TupleElement(" + name + ")"), out);
            }
        } else if (t instanceof VariantType v) {
            out.add(path(prefix, "VariantDiscriminators"));
            String elements = path(prefix, "VariantElements");
            for (DataType e : v.variants) {
                streams(e, path(elements, "VariantElement(" + e.name() + ")"), out);
            }
            for (DataType e : v.variants) {
                out.add(path(elements, "VariantElementNullMap(" + e.name() + ".null)"));
            }
        } else if (t instanceof JsonType) {
            out.add(path(prefix, "ObjectStructure"));
        } else if (t instanceof DynamicType) {
            out.add(path(prefix, "DynamicStructure"));
        } else if (t instanceof SimpleAggregateFunctionType sa) {
            streams(sa.inner, prefix, out);
        } else if (t instanceof StringType s && s.fixedLength == 0) {
            out.add(path(prefix, "InlinedStringSizes()"));
            out.add(path(prefix, "Regular"));
        } else {
            out.add(path(prefix, "Regular"));
        }
    }
}
