package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/** Map(K, V), held as an unmodifiable insertion-ordered {@code Map}; text {@code {k:v,...}}. */
public final class MapType extends DataType {
    public final DataType key;
    public final DataType value;

    MapType(DataType key, DataType value) {
        this.key = key;
        this.value = value;
    }

    @Override
    public String name() {
        return "Map(" + key.name() + ", " + value.name() + ")";
    }

    @Override
    public Object defaultValue() {
        return Map.of();
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append('{');
        boolean first = true;
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            key.formatQuoted(e.getKey(), sb);
            sb.append(':');
            value.formatQuoted(e.getValue(), sb);
        }
        sb.append('}');
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.expect('{');
        Map<Object, Object> m = new LinkedHashMap<>();
        if (r.tryChar('}')) {
            return Collections.unmodifiableMap(m);
        }
        do {
            r.skipSpaces();
            Object k = key.parseText(r, true);
            r.expect(':');
            r.skipSpaces();
            m.put(k, value.parseText(r, true));
        } while (r.tryChar(','));
        r.expect('}');
        return Collections.unmodifiableMap(m);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        Map<?, ?> m = (Map<?, ?>) v;
        out.writeVarUInt(m.size());
        for (Map.Entry<?, ?> e : m.entrySet()) {
            key.writeBinary(e.getKey(), out);
            value.writeBinary(e.getValue(), out);
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long n = in.readArraySize();
        Map<Object, Object> m = new LinkedHashMap<>();
        for (long i = 0; i < n; i++) {
            Object k = key.readBinary(in);
            m.put(k, value.readBinary(in));
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public int compare(Object a, Object b) {
        Iterator<? extends Map.Entry<?, ?>> x = ((Map<?, ?>) a).entrySet().iterator();
        Iterator<? extends Map.Entry<?, ?>> y = ((Map<?, ?>) b).entrySet().iterator();
        while (x.hasNext() && y.hasNext()) {
            Map.Entry<?, ?> ex = x.next();
            Map.Entry<?, ?> ey = y.next();
            int c = ArrayType.compareNullable(key, ex.getKey(), ey.getKey());
            if (c == 0) {
                c = ArrayType.compareNullable(value, ex.getValue(), ey.getValue());
            }
            if (c != 0) {
                return c;
            }
        }
        return Boolean.compare(x.hasNext(), y.hasNext());
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parseText((String) v);
        }
        if (!(v instanceof Map) || !(from.unwrap() instanceof MapType)) {
            throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert " + from.name() + " to " + name());
        }
        MapType f = (MapType) from.unwrap();
        Map<Object, Object> m = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
            m.put(key.convert(e.getKey(), f.key), e.getValue() == null ? null : value.convert(e.getValue(), f.value));
        }
        return Collections.unmodifiableMap(m);
    }
}
