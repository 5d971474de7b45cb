package dev.chdedup.stub.format;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.AggregateFunctionType;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.SimpleAggregateFunctionType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a column in the Native format's layout ({@link NativeSerialization}), as ClickHouse's
 * {@code ISerialization::deserializeBinaryBulk} does: up to {@code limit} values, stopping quietly where the input
 * ends between values (a fixed-width value cut short is dropped), so the caller compares the count with what it
 * expected and fails as the engine does. A string cut short fails at once. Nothing is allocated for the values a
 * header promises, only for the values that arrive, so a hostile row count or length cannot take the heap.
 */
final class NativeDeserialization {
    /** ClickHouse's limit on an array column's total size in a block ({@code Array sizes are too large}). */
    static final long MAX_ARRAY_SIZE = 1L << 40;
    private static final int CHUNK = 1 << 16;

    private NativeDeserialization() {
    }

    /** A whole column: the LowCardinality keys versions of the type first, then up to {@code limit} values. */
    static List<Object> deserializeBinaryBulk(DataType type, long limit, BinaryIn in) throws IOException {
        deserializePrefix(type, in);
        return deserializeData(type, limit, in);
    }

    private static void deserializePrefix(DataType type, BinaryIn in) throws IOException {
        for (DataType t : NativeSerialization.nested(type)) {
            deserializePrefix(t, in);
        }
        if (type instanceof LowCardinalityType) {
            if (in.atEnd()) {
                throw new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof");
            }
            if (readUInt64(in) != NativeSerialization.LOW_CARDINALITY_KEYS_VERSION) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Invalid version for SerializationLowCardinality key column.");
            }
        }
    }

    private static List<Object> deserializeData(DataType type, long limit, BinaryIn in) throws IOException {
        if (type instanceof LowCardinalityType) {
            return deserializeLowCardinality(((LowCardinalityType) type).inner, limit, in);
        }
        if (type instanceof SimpleAggregateFunctionType) {
            return deserializeData(((SimpleAggregateFunctionType) type).inner, limit, in);
        }
        if (type instanceof NullableType) {
            List<Long> nullMap = readFixed(limit, 1, in);
            List<Object> nested = deserializeData(((NullableType) type).inner, limit, in);
            if (nested.size() != nullMap.size()) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Sizes of nested column and null map of Nullable column are not "
                    + "equal after deserialization (null map size = " + nullMap.size() + ", nested column size = " + nested.size() + ")");
            }
            for (int i = 0; i < nested.size(); i++) {
                if (nullMap.get(i) != 0) {
                    nested.set(i, null);
                }
            }
            return nested;
        }
        if (type instanceof ArrayType && ((ArrayType) type).size() >= 0) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The Native format of type " + type.name() + " is not supported by the stub");
        }
        if (type instanceof ArrayType) {
            List<Long> offsets = readOffsets(limit, in);
            List<Object> flat = readNested(((ArrayType) type).element, offsets, in);
            List<Object> out = new ArrayList<>(offsets.size());
            int from = 0;
            for (long end : offsets) {
                out.add(Collections.unmodifiableList(new ArrayList<>(flat.subList(from, (int) end))));
                from = (int) end;
            }
            return out;
        }
        if (type instanceof TupleType) {
            List<DataType> elements = ((TupleType) type).elements;
            List<List<Object>> columns = new ArrayList<>();
            for (DataType e : elements) {
                columns.add(deserializeData(e, limit, in));
            }
            int rows = columns.isEmpty() ? 0 : columns.get(0).size();
            for (int i = 1; i < columns.size(); i++) {
                if (columns.get(i).size() != rows) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Unexpected size of tuple element " + i + ": "
                        + columns.get(i).size() + ". Expected size: " + rows);
                }
            }
            List<Object> out = new ArrayList<>(rows);
            for (int r = 0; r < rows; r++) {
                List<Object> t = new ArrayList<>(columns.size());
                for (List<Object> c : columns) {
                    t.add(c.get(r));
                }
                out.add(Collections.unmodifiableList(t));
            }
            return out;
        }
        if (type instanceof MapType) {
            MapType m = (MapType) type;
            List<Long> offsets = readOffsets(limit, in);
            List<Object> keys = readNested(m.key, offsets, in);
            List<Object> values = readNested(m.value, offsets, in);
            List<Object> out = new ArrayList<>(offsets.size());
            int from = 0;
            for (long end : offsets) {
                Map<Object, Object> map = new LinkedHashMap<>();
                for (int i = from; i < end; i++) {
                    map.put(keys.get(i), values.get(i));
                }
                out.add(Collections.unmodifiableMap(map));
                from = (int) end;
            }
            return out;
        }
        if (type instanceof NothingType) {
            List<Object> out = new ArrayList<>();
            for (Long ignored : readFixed(limit, 1, in)) {
                out.add(null);
            }
            return out;
        }
        NativeSerialization.checkSupported(type);
        List<Object> out = new ArrayList<>((int) Math.min(limit, CHUNK));
        boolean string = type instanceof StringType && ((StringType) type).fixedLength == 0;
        boolean fixed = !string && !(type instanceof AggregateFunctionType);
        for (long i = 0; i < limit && !in.atEnd(); i++) {
            if (string) {
                out.add(readString(in));
                continue;
            }
            try {
                out.add(type.readBinary(in));
            } catch (EOFException e) {
                if (!fixed) {
                    throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data");
                }
                break; // a value cut short is not read, as a bulk read of fixed-width values leaves it
            }
        }
        return out;
    }

    /** A String value: its varint length, then the bytes, read in chunks so a length the data does not back costs nothing. */
    static String readString(BinaryIn in) throws IOException {
        long n = in.readVarUInt();
        if (n < 0 || n > BinaryIn.MAX_STRING_BYTES) {
            throw BinaryIn.tooLargeString(n);
        }
        if (n <= CHUNK) {
            byte[] b = new byte[(int) n];
            readStrict(in, b, 0, (int) n, 0, n);
            return ByteStrings.of(b);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(CHUNK);
        byte[] chunk = new byte[CHUNK];
        for (long done = 0; done < n; ) {
            int k = (int) Math.min(CHUNK, n - done);
            readStrict(in, chunk, 0, k, done, n);
            bytes.write(chunk, 0, k);
            done += k;
        }
        return ByteStrings.of(bytes.toByteArray());
    }

    private static void readStrict(BinaryIn in, byte[] b, int off, int k, long before, long expected) throws IOException {
        try {
            in.readFully(b, off, k);
        } catch (BinaryIn.ShortRead e) {
            throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data. Bytes read: " + (before + e.read)
                + ". Bytes expected: " + expected + ".");
        }
    }

    /** Up to {@code limit} little-endian unsigned values of {@code width} bytes; a value cut short is dropped. */
    private static List<Long> readFixed(long limit, int width, BinaryIn in) throws IOException {
        List<Long> out = new ArrayList<>((int) Math.min(limit, CHUNK));
        try {
            for (long i = 0; i < limit && !in.atEnd(); i++) {
                out.add(in.readLongLE(width));
            }
        } catch (EOFException e) {
            // as a bulk read: the partial last value is not part of the column
        }
        return out;
    }

    /** An array column's offsets, checked to grow and to stay under {@link #MAX_ARRAY_SIZE}. */
    private static List<Long> readOffsets(long limit, BinaryIn in) throws IOException {
        List<Long> offsets = readFixed(limit, 8, in);
        long prev = 0;
        for (int i = 0; i < offsets.size(); i++) {
            long o = offsets.get(i);
            if (Long.compareUnsigned(o, prev) < 0) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Arrays offsets are not monotonically increasing (starting at "
                    + Math.max(0, i - 1) + ", value " + Long.toUnsignedString(prev) + ")");
            }
            prev = o;
        }
        if (Long.compareUnsigned(prev, MAX_ARRAY_SIZE) > 0) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Array sizes are too large: " + Long.toUnsignedString(prev));
        }
        return offsets;
    }

    /** The elements of an array column: exactly as many as its last offset says. */
    private static List<Object> readNested(DataType element, List<Long> offsets, BinaryIn in) throws IOException {
        long total = offsets.isEmpty() ? 0 : offsets.get(offsets.size() - 1);
        List<Object> flat = deserializeData(element, total, in);
        if (flat.size() != total) {
            throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all array values: read just " + flat.size()
                + " of " + total);
        }
        return flat;
    }

    /**
     * LowCardinality(T) after its prefix (the keys version): granules until {@code limit} rows are read, each an index type with
     * flags, its own dictionary when flagged (a global dictionary, which only parts use, is refused) and the rows'
     * positions in it. Index 0 of a LowCardinality(Nullable(T)) dictionary is NULL.
     */
    private static List<Object> deserializeLowCardinality(DataType inner, long limit, BinaryIn in) throws IOException {
        List<Object> out = new ArrayList<>((int) Math.min(limit, CHUNK));
        boolean nullable = inner instanceof NullableType;
        DataType keyType = nullable ? ((NullableType) inner).inner : inner;
        List<Object> dictionary = List.of();
        while (out.size() < limit && !in.atEnd()) {
            long flags = readUInt64(in);
            int indexType = (int) (flags & 0xFF);
            if (indexType > 3 || (flags & NativeSerialization.NEED_GLOBAL_DICTIONARY) != 0) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Invalid index type or flags of a LowCardinality column: " + flags);
            }
            if ((flags & NativeSerialization.NEED_UPDATE_DICTIONARY) != 0) {
                long keys = readUInt64(in);
                dictionary = deserializeData(keyType, keys, in);
                if (dictionary.size() != keys) {
                    throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data: the LowCardinality dictionary has "
                        + dictionary.size() + " of " + keys + " keys");
                }
            }
            long rows = readUInt64(in);
            if (Long.compareUnsigned(rows, limit - out.size()) > 0) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "A LowCardinality granule has " + Long.toUnsignedString(rows)
                    + " rows, more than the " + (limit - out.size()) + " left in the block");
            }
            int width = 1 << indexType;
            for (Long p : readFixed(rows, width, in)) {
                if (Long.compareUnsigned(p, dictionary.size()) >= 0) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Index " + Long.toUnsignedString(p)
                        + " of a LowCardinality column is out of its dictionary of " + dictionary.size() + " keys");
                }
                out.add(nullable && p == 0 ? null : dictionary.get((int) (long) p));
            }
        }
        return out;
    }

    private static long readUInt64(BinaryIn in) throws IOException {
        try {
            return in.readLongLE(8);
        } catch (EOFException e) {
            throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data. Bytes expected: 8.");
        }
    }
}
