package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Tuple(T1, ..., Tn), optionally with element names, held as an unmodifiable {@code List}. Point is a
 * Tuple(Float64, Float64) under its own name.
 */
public final class TupleType extends DataType {
    public final List<DataType> elements;
    /** Element names, or null for an unnamed tuple. */
    public final List<String> names;
    /** The custom name (Point), or null. */
    private final String alias;

    TupleType(List<DataType> elements, List<String> names) {
        this(elements, names, null);
    }

    TupleType(List<DataType> elements, List<String> names, String alias) {
        this.elements = List.copyOf(elements);
        this.names = names == null ? null : List.copyOf(names);
        this.alias = alias;
    }

    @Override
    public String name() {
        if (alias != null) {
            return alias;
        }
        StringBuilder sb = new StringBuilder("Tuple(");
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            if (names != null) {
                sb.append(names.get(i)).append(' ');
            }
            sb.append(elements.get(i).name());
        }
        return sb.append(')').toString();
    }

    @Override
    public Object defaultValue() {
        List<Object> l = new ArrayList<>();
        for (DataType t : elements) {
            l.add(t.defaultValue());
        }
        return Collections.unmodifiableList(l);
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        List<?> l = (List<?>) v;
        sb.append('(');
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            elements.get(i).formatQuoted(l.get(i), sb);
        }
        sb.append(')');
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.expect('(');
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < elements.size(); i++) {
            if (i > 0) {
                r.expect(',');
            }
            r.skipSpaces();
            out.add(elements.get(i).parseText(r, true));
        }
        r.expect(')');
        return Collections.unmodifiableList(out);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        List<?> l = (List<?>) v;
        for (int i = 0; i < elements.size(); i++) {
            elements.get(i).writeBinary(l.get(i), out);
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        List<Object> out = new ArrayList<>(elements.size());
        for (DataType t : elements) {
            out.add(t.readBinary(in));
        }
        return Collections.unmodifiableList(out);
    }

    @Override
    public int compare(Object a, Object b) {
        List<?> x = (List<?>) a;
        List<?> y = (List<?>) b;
        for (int i = 0; i < elements.size(); i++) {
            int c = ArrayType.compareNullable(elements.get(i), x.get(i), y.get(i));
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parseText((String) v);
        }
        if (!(v instanceof List) || !(from.unwrap() instanceof TupleType)
            || ((TupleType) from.unwrap()).elements.size() != elements.size()) {
            throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert " + from.name() + " to " + name());
        }
        List<DataType> fe = ((TupleType) from.unwrap()).elements;
        List<Object> out = new ArrayList<>();
        List<?> l = (List<?>) v;
        for (int i = 0; i < elements.size(); i++) {
            Object e = l.get(i);
            out.add(e == null ? null : elements.get(i).convert(e, fe.get(i)));
        }
        return Collections.unmodifiableList(out);
    }
}
