package dev.chdedup.stub.dedup;

import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.ColumnString;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.hash.SipHash;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.VariantType;
import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Feeds a run of one column's values into a block's data hash, byte for byte as ClickHouse 26.x's
 * {@code IColumn::updateHashWithValueRange} does (each rule checked against the block ids the real 26.7 engine wrote):
 * <ul>
 *   <li>fixed-width values (numbers, Bool, Decimal, dates and times, UUID, IPv4/IPv6, Enum, FixedString): their raw
 *   little-endian bytes, which is their RowBinary form, one after another;</li>
 *   <li>String: the bytes of all values, then each value's end offset relative to the run's start (UInt64);</li>
 *   <li>Nullable(T): T's run with NULLs as T's default, then the null map (a byte per row, 1 for NULL);</li>
 *   <li>Array(T): T's run over all elements, then each row's relative end offset; Map(K, V) is Array(Tuple(K, V));</li>
 *   <li>Tuple: each element's run, element after element;</li>
 *   <li>Variant: the discriminators (255 for NULL), then each variant's run over the rows that hold it;</li>
 *   <li>LowCardinality(T), which has no run form: each value's row form ({@code IColumn::updateHashWithValue}): a String
 *   as UInt64 length + 1, the bytes and a zero byte; a Nullable value as 1 for NULL, else 0 and the value.</li>
 * </ul>
 * Dynamic: as a Variant of the types its values have and the shared variant, ordered by type name. JSON values feed
 * their RowBinary form: ClickHouse hashes its path columns, which the stub does not keep, so their ids are the stub's
 * own (a duplicate is still recognised as one), as are those of a NaN with its sign bit set (the stub keeps one NaN).
 */
final class ColumnRangeHash {
    private ColumnRangeHash() {
    }

    /** Bytes gathered before they are fed to the hash. */
    private static final int CHUNK = 1 << 16;

    /** Per-thread buffer, reused so hashing allocates nothing in the steady state. */
    private static final ThreadLocal<BinaryOut> BUFFER = ThreadLocal.withInitial(() -> new BinaryOut(CHUNK));

    /** Feeds column {@code c} of {@code rows[from, to)} into {@code hash}. */
    static void update(DataType type, List<Object[]> rows, int c, int from, int to, SipHash hash) {
        if (rows instanceof ColumnRows) {
            update(type, ((ColumnRows) rows).columns()[c], from, to, hash);
            return;
        }
        BinaryOut b = BUFFER.get();
        b.reset();
        int width = BlockIds.fixedWidth(type);
        if (width > 0 && !(type instanceof LowCardinalityType)) {
            for (int r = from; r < to; r++) {
                b.writeLongLE((Long) rows.get(r)[c], width);
                drain(b, hash);
            }
        } else {
            range(type, values(i -> rows.get(from + i)[c], to - from), b, hash);
        }
        hash.update(b.array(), 0, b.size());
        if (b.size() > CHUNK << 4) {
            BUFFER.set(new BinaryOut(CHUNK)); // a run of huge values: do not keep its buffer per thread
        }
        b.reset();
    }

    /** Feeds rows {@code [from, to)} of a column into {@code hash}: straight from its arrays where it keeps them. */
    static void update(DataType type, IColumn column, int from, int to, SipHash hash) {
        BinaryOut b = BUFFER.get();
        b.reset();
        if (column instanceof ColumnVector && ((ColumnVector) column).width() == BlockIds.fixedWidth(type)) {
            ColumnVector v = (ColumnVector) column;
            int width = v.width();
            for (int r = from; r < to; r++) {
                b.writeLongLE(v.getLong(r), width);
                drain(b, hash);
            }
        } else if (column instanceof ColumnString && isString(type)) {
            ColumnString s = (ColumnString) column;
            int base = from < to ? s.start(from) : 0;
            int end = from < to ? s.start(to - 1) + s.length(to - 1) : 0;
            hash.update(s.chars(), base, end - base);
            for (int r = from; r < to; r++) {
                b.writeLongLE(s.start(r) + s.length(r) - base, 8);
                drain(b, hash);
            }
        } else {
            range(type, values(i -> column.get(from + i), to - from), b, hash);
        }
        hash.update(b.array(), 0, b.size());
        if (b.size() > CHUNK << 4) {
            BUFFER.set(new BinaryOut(CHUNK));
        }
        b.reset();
    }

    /** A run of {@code n} values as a list, each made when it is read. */
    private static List<Object> values(java.util.function.IntFunction<Object> value, int n) {
        return new AbstractList<>() {
            @Override
            public Object get(int i) {
                return value.apply(i);
            }

            @Override
            public int size() {
                return n;
            }
        };
    }

    /** The run form of {@code values} of {@code type}. */
    private static void range(DataType type, List<?> values, BinaryOut b, SipHash hash) {
        if (type instanceof LowCardinalityType) {
            DataType inner = ((LowCardinalityType) type).inner;
            for (Object v : values) {
                row(inner, v, b);
                drain(b, hash);
            }
        } else if (isString(type)) {
            long[] ends = new long[values.size()];
            long end = 0;
            for (int i = 0; i < ends.length; i++) {
                end += b.writeStringBytes((String) values.get(i));
                ends[i] = end;
                drain(b, hash);
            }
            offsets(ends, b, hash);
        } else if (type instanceof NullableType) {
            DataType inner = ((NullableType) type).inner;
            Object dflt = inner.defaultValue();
            List<Object> dense = new ArrayList<>(values.size());
            for (Object v : values) {
                dense.add(v == null ? dflt : v);
            }
            range(inner, dense, b, hash);
            for (Object v : values) {
                b.write(v == null ? 1 : 0);
                drain(b, hash);
            }
        } else if (type instanceof ArrayType) {
            List<Object> flat = new ArrayList<>();
            long[] ends = new long[values.size()];
            for (int i = 0; i < ends.length; i++) {
                flat.addAll((List<?>) values.get(i));
                ends[i] = flat.size();
            }
            range(((ArrayType) type).element, flat, b, hash);
            offsets(ends, b, hash);
        } else if (type instanceof MapType) {
            MapType m = (MapType) type;
            List<Object> keys = new ArrayList<>();
            List<Object> vals = new ArrayList<>();
            long[] ends = new long[values.size()];
            for (int i = 0; i < ends.length; i++) {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) values.get(i)).entrySet()) {
                    keys.add(e.getKey());
                    vals.add(e.getValue());
                }
                ends[i] = keys.size();
            }
            range(m.key, keys, b, hash);
            range(m.value, vals, b, hash);
            offsets(ends, b, hash);
        } else if (type instanceof TupleType) {
            List<DataType> elements = ((TupleType) type).elements;
            for (int e = 0; e < elements.size(); e++) {
                int k = e;
                range(elements.get(e), new AbstractList<>() {
                    @Override
                    public Object get(int i) {
                        return ((List<?>) values.get(i)).get(k);
                    }

                    @Override
                    public int size() {
                        return values.size();
                    }
                }, b, hash);
            }
        } else if (type instanceof VariantType) {
            List<DataType> variants = ((VariantType) type).variants;
            List<List<Object>> byVariant = new ArrayList<>(variants.size());
            for (int d = 0; d < variants.size(); d++) {
                byVariant.add(new ArrayList<>());
            }
            for (Object v : values) {
                if (v == null) {
                    b.write(VariantType.NULL_DISCRIMINATOR);
                } else {
                    TypedValue t = (TypedValue) v;
                    int d = variants.indexOf(t.type());
                    b.write(d);
                    byVariant.get(d).add(t.value());
                }
                drain(b, hash);
            }
            for (int d = 0; d < variants.size(); d++) {
                range(variants.get(d), byVariant.get(d), b, hash);
            }
        } else if (type instanceof DynamicType) {
            dynamic(values, b, hash);
        } else {
            for (Object v : values) {
                type.writeBinary(v, b);
                drain(b, hash);
            }
        }
    }

    /** The name ClickHouse sorts a Dynamic column's shared variant by, among the types its values have. */
    private static final String SHARED_VARIANT = "SharedVariant";

    /**
     * A Dynamic run: a Variant of the types its values have, plus the shared variant (empty here), ordered by type name:
     * the discriminators (255 for NULL), then each type's run over the rows that hold it.
     */
    private static void dynamic(List<?> values, BinaryOut b, SipHash hash) {
        java.util.TreeMap<String, DataType> types = new java.util.TreeMap<>();
        for (Object v : values) {
            if (v != null) {
                DataType t = ((TypedValue) v).type();
                types.put(t.name(), t);
            }
        }
        List<String> names = new ArrayList<>(types.keySet());
        names.add(SHARED_VARIANT);
        java.util.Collections.sort(names);
        List<List<Object>> byType = new ArrayList<>(names.size());
        for (int d = 0; d < names.size(); d++) {
            byType.add(new ArrayList<>());
        }
        for (Object v : values) {
            if (v == null) {
                b.write(VariantType.NULL_DISCRIMINATOR);
            } else {
                TypedValue t = (TypedValue) v;
                int d = names.indexOf(t.type().name());
                b.write(d);
                byType.get(d).add(t.value());
            }
            drain(b, hash);
        }
        for (int d = 0; d < names.size(); d++) {
            if (!names.get(d).equals(SHARED_VARIANT)) {
                range(types.get(names.get(d)), byType.get(d), b, hash);
            }
        }
    }

    /** The row form of one value ({@code updateHashWithValue}), as LowCardinality feeds its values. */
    private static void row(DataType type, Object v, BinaryOut b) {
        if (type instanceof NullableType) {
            if (v == null) {
                b.write(1);
                return;
            }
            b.write(0);
            row(((NullableType) type).inner, v, b);
        } else if (isString(type)) {
            int at = b.size();
            b.writeLongLE(0, 8); // the length, patched below once the bytes are written
            long n = b.writeStringBytes((String) v);
            byte[] a = b.array();
            for (int i = 0; i < 8; i++) {
                a[at + i] = (byte) ((n + 1) >>> (8 * i));
            }
            b.write(0);
        } else {
            type.writeBinary(v, b);
        }
    }

    private static void offsets(long[] ends, BinaryOut b, SipHash hash) {
        for (long e : ends) {
            b.writeLongLE(e, 8);
            drain(b, hash);
        }
    }

    /** Feeds the buffer to the hash once it holds a chunk. */
    private static void drain(BinaryOut b, SipHash hash) {
        if (b.size() >= CHUNK) {
            hash.update(b.array(), 0, b.size());
            b.reset();
        }
    }

    /** A String column (not FixedString). */
    static boolean isString(DataType t) {
        return t instanceof StringType && ((StringType) t).fixedLength == 0;
    }
}
