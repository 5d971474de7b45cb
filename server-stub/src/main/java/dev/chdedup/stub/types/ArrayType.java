package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Array(T), held as an unmodifiable {@code List}; text {@code [a,b]} with quoted elements. The geo types Ring,
 * LineString, Polygon, MultiLineString and MultiPolygon, and Nested without flattening, are arrays under their own
 * name (ClickHouse's custom type names).
 */
public final class ArrayType extends DataType {
    public final DataType element;
    /** The custom name (Ring, Polygon, Nested(...), QBit(T, N)), or null for a plain Array(T). */
    private final String alias;
    private final int size;

    ArrayType(DataType element) {
        this(element, null);
    }

    ArrayType(DataType element, String alias) {
        this(element, alias, -1);
    }

    /** An array of exactly {@code size} elements named {@code alias} (QBit(T, N)), or of any size when {@code size} is -1. */
    ArrayType(DataType element, String alias, int size) {
        this.element = element;
        this.alias = alias;
        this.size = size;
    }

    /** The number of elements every value has (a QBit's dimension), or -1. */
    public int size() {
        return size;
    }

    private List<Object> sized(List<Object> values) {
        if (size >= 0 && values.size() != size) {
            throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Array arguments must have size " + size + " for QBit conversion, got "
                + values.size());
        }
        return values;
    }

    /** Whether this is a Nested(...) type: an array of named tuples declared with Nested. */
    public boolean isNested() {
        return alias != null && alias.startsWith("Nested(");
    }

    /**
     * The columns a Nested column {@code name} stands for under {@code flatten_nested = 1}: one {@code name.field}
     * Array(T) column per field, as ClickHouse creates them.
     */
    public static <C> List<C> flattenNested(String name, ArrayType nested, java.util.function.BiFunction<String, DataType, C> factory) {
        TupleType tt = (TupleType) nested.element;
        List<C> out = new ArrayList<>();
        for (int i = 0; i < tt.elements.size(); i++) {
            out.add(factory.apply(name + "." + tt.names.get(i), new ArrayType(tt.elements.get(i))));
        }
        return out;
    }

    @Override
    public String name() {
        return alias != null ? alias : "Array(" + element.name() + ")";
    }

    @Override
    public Object defaultValue() {
        if (size > 0) {
            return java.util.Collections.nCopies(size, element.defaultValue());
        }
        return List.of();
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append('[');
        boolean first = true;
        for (Object e : (List<?>) v) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            element.formatQuoted(e, sb);
        }
        sb.append(']');
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.expect('[');
        List<Object> out = new ArrayList<>();
        if (r.tryChar(']')) {
            return Collections.unmodifiableList(out);
        }
        do {
            r.skipSpaces();
            out.add(element.parseText(r, true));
        } while (r.tryChar(','));
        if (!r.tryChar(']')) {
            throw new ChException(ErrorCode.CANNOT_READ_ARRAY_FROM_TEXT,
                "Cannot read array from text, expected comma or end of array, found: '" + r.excerpt() + "'");
        }
        return Collections.unmodifiableList(sized(out));
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        List<?> l = (List<?>) v;
        out.writeVarUInt(l.size());
        for (Object e : l) {
            element.writeBinary(e, out);
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long n = in.readArraySize();
        List<Object> out = new ArrayList<>((int) Math.min(n, 1024));
        for (long i = 0; i < n; i++) {
            out.add(element.readBinary(in));
        }
        return Collections.unmodifiableList(sized(out));
    }

    @Override
    public int compare(Object a, Object b) {
        List<?> x = (List<?>) a;
        List<?> y = (List<?>) b;
        for (int i = 0; i < Math.min(x.size(), y.size()); i++) {
            int c = compareNullable(element, x.get(i), y.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(x.size(), y.size());
    }

    static int compareNullable(DataType t, Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : 1) : -1;
        }
        return t.compare(a, b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parseText((String) v);
        }
        if (!(v instanceof List) || !(from.unwrap() instanceof ArrayType)) {
            throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert " + from.name() + " to " + name());
        }
        DataType fe = ((ArrayType) from.unwrap()).element;
        List<Object> out = new ArrayList<>();
        for (Object e : (List<?>) v) {
            out.add(e == null && element.isNullable() ? null : element.convert(e, fe));
        }
        return Collections.unmodifiableList(sized(out));
    }

    @Override
    public int byteSize(Object v) {
        int s = 8;
        for (Object e : (List<?>) v) {
            s += element.byteSize(e);
        }
        return s;
    }
}
