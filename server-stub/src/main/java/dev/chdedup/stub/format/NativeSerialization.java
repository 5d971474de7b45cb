package dev.chdedup.stub.format;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.JsonType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.SimpleAggregateFunctionType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.VariantType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a column's values in the Native format's layout, ClickHouse's {@code ISerialization::serializeBinaryBulk}
 * per type: scalars and strings as their RowBinary values one after another; Nullable(T) as the null map (a byte per
 * row) then T's column, a null row holding T's default; Array(T) as UInt64 cumulative offsets then the elements'
 * column; Tuple as each element's column in turn; Map(K, V) as Array(Tuple(K, V)); Nothing as a {@code '0'} per row;
 * LowCardinality(T) as {@code SerializationLowCardinality} lays out one granule (keys version 1, then index type and
 * flags, the dictionary and the row indexes). The bytes were taken from ClickHouse 26.7's output.
 * {@link NativeDeserialization} reads them back.
 */
final class NativeSerialization {
    /** {@code SerializationLowCardinality}'s KeysSerializationVersion::SharedDictionariesWithAdditionalKeys. */
    static final long LOW_CARDINALITY_KEYS_VERSION = 1;
    /** The flag bits of a LowCardinality granule: its dictionary follows, and it is additional keys (not global). */
    static final long NEED_UPDATE_DICTIONARY = 1L << 10;
    static final long HAS_ADDITIONAL_KEYS = 1L << 9;
    static final long NEED_GLOBAL_DICTIONARY = 1L << 8;

    private NativeSerialization() {
    }

    /**
     * Appends {@code values} (of {@code type}, as it holds them) as one Native column: the state prefixes of every
     * LowCardinality in the type first (its keys version, depth first, as {@code serializeBinaryBulkStatePrefix}
     * writes them before any data), then the data.
     */
    static void serializeBinaryBulk(DataType type, List<?> values, BinaryOut out) {
        serializePrefix(type, out);
        serializeData(type, values, out);
    }

    private static void serializePrefix(DataType type, BinaryOut out) {
        for (DataType t : nested(type)) {
            serializePrefix(t, out);
        }
        if (type instanceof LowCardinalityType) {
            out.writeLongLE(LOW_CARDINALITY_KEYS_VERSION, 8);
        }
    }

    /** The types nested in {@code type} that have columns of their own (a LowCardinality's dictionary has no prefix). */
    static List<DataType> nested(DataType type) {
        if (type instanceof SimpleAggregateFunctionType) {
            return List.of(((SimpleAggregateFunctionType) type).inner);
        }
        if (type instanceof NullableType) {
            return List.of(((NullableType) type).inner);
        }
        if (type instanceof ArrayType) {
            return List.of(((ArrayType) type).element);
        }
        if (type instanceof TupleType) {
            return ((TupleType) type).elements;
        }
        if (type instanceof MapType) {
            return List.of(((MapType) type).key, ((MapType) type).value);
        }
        return List.of();
    }

    private static void serializeData(DataType type, List<?> values, BinaryOut out) {
        if (type instanceof LowCardinalityType) {
            serializeLowCardinality(((LowCardinalityType) type).inner, values, out);
        } else if (type instanceof SimpleAggregateFunctionType) {
            serializeData(((SimpleAggregateFunctionType) type).inner, values, out);
        } else if (type instanceof NullableType) {
            DataType inner = ((NullableType) type).inner;
            List<Object> nested = new ArrayList<>(values.size());
            for (Object v : values) {
                out.write(v == null ? 1 : 0);
                nested.add(v == null ? inner.defaultValue() : v);
            }
            serializeData(inner, nested, out);
        } else if (type instanceof ArrayType && ((ArrayType) type).size() >= 0) {
            // ClickHouse writes a QBit's bit planes, not its values
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The Native format of type " + type.name() + " is not supported by the stub");
        } else if (type instanceof ArrayType) {
            List<Object> flat = new ArrayList<>();
            for (Object v : values) {
                flat.addAll((List<?>) v);
                out.writeLongLE(flat.size(), 8);
            }
            serializeData(((ArrayType) type).element, flat, out);
        } else if (type instanceof TupleType) {
            List<DataType> elements = ((TupleType) type).elements;
            for (int i = 0; i < elements.size(); i++) {
                List<Object> column = new ArrayList<>(values.size());
                for (Object v : values) {
                    column.add(((List<?>) v).get(i));
                }
                serializeData(elements.get(i), column, out);
            }
        } else if (type instanceof MapType) {
            MapType m = (MapType) type;
            List<Object> keys = new ArrayList<>();
            List<Object> vals = new ArrayList<>();
            for (Object v : values) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                    keys.add(e.getKey());
                    vals.add(e.getValue());
                }
                out.writeLongLE(keys.size(), 8);
            }
            serializeData(m.key, keys, out);
            serializeData(m.value, vals, out);
        } else if (type instanceof NothingType) {
            for (int i = 0; i < values.size(); i++) {
                out.write('0');
            }
        } else {
            checkSupported(type);
            for (Object v : values) {
                type.writeBinary(v, out);
            }
        }
    }

    /** Refuses the types whose Native layout this stub does not write or read (their own multi-stream layouts). */
    static void checkSupported(DataType type) {
        if (type instanceof VariantType || type instanceof DynamicType || type instanceof JsonType) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The Native format of type " + type.name()
                + " is not supported by this server");
        }
    }

    /**
     * One granule with its own dictionary: the keys of the rows in order of first use after the default (and, for
     * LowCardinality(Nullable(T)), the NULL slot before it), as ClickHouse's compacted dictionary of a block lists them.
     */
    private static void serializeLowCardinality(DataType inner, List<?> values, BinaryOut out) {
        if (values.isEmpty()) {
            return;
        }
        boolean nullable = inner instanceof NullableType;
        DataType keyType = nullable ? ((NullableType) inner).inner : inner;
        List<Object> keys = new ArrayList<>();
        Map<Object, Integer> index = new HashMap<>();
        Object dflt = keyType.defaultValue();
        if (nullable) {
            keys.add(dflt); // the NULL slot
        }
        index.put(dflt, keys.size());
        keys.add(dflt);
        long[] positions = new long[values.size()];
        for (int i = 0; i < positions.length; i++) {
            Object v = values.get(i);
            if (v == null) {
                positions[i] = 0;
                continue;
            }
            Integer at = index.get(v);
            if (at == null) {
                at = keys.size();
                index.put(v, at);
                keys.add(v);
            }
            positions[i] = at;
        }
        int indexType = indexType(keys.size());
        out.writeLongLE(indexType | NEED_UPDATE_DICTIONARY | HAS_ADDITIONAL_KEYS, 8);
        out.writeLongLE(keys.size(), 8);
        serializeData(keyType, keys, out);
        out.writeLongLE(positions.length, 8);
        int width = 1 << indexType;
        for (long p : positions) {
            out.writeLongLE(p, width);
        }
    }

    /** The index width a dictionary of {@code keys} keys takes: 0 UInt8, 1 UInt16, 2 UInt32, 3 UInt64. */
    static int indexType(long keys) {
        if (keys <= 0xFF) {
            return 0;
        }
        if (keys <= 0xFFFF) {
            return 1;
        }
        return keys <= 0xFFFFFFFFL ? 2 : 3;
    }
}
