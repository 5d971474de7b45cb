package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Enum8 and Enum16, held as the {@code Long} code; text shows the element name. Element names are bytes, as
 * String values are ({@link ByteStrings}): they are matched against and written as values; the type's name
 * shows them as the text they were declared with.
 */
public final class EnumType extends DataType {
    public final int bits;
    private final Map<String, Long> byName;
    private final Map<Long, String> byCode = new LinkedHashMap<>();
    private final String name;

    EnumType(int bits, Map<String, Long> elements) {
        this.bits = bits;
        // ClickHouse keeps an enum's elements ordered by value: that is how it names the type, and the smallest
        // value is the implicit default
        Map<String, Long> sorted = new LinkedHashMap<>();
        elements.entrySet().stream().sorted(Map.Entry.comparingByValue()).forEach(e -> sorted.put(e.getKey(), e.getValue()));
        this.byName = new LinkedHashMap<>();
        StringBuilder sb = new StringBuilder("Enum").append(bits).append('(');
        boolean first = true;
        for (Map.Entry<String, Long> e : sorted.entrySet()) {
            String element = ByteStrings.fromText(e.getKey());
            byName.put(element, e.getValue());
            byCode.put(e.getValue(), element);
            if (!first) {
                sb.append(", ");
            }
            first = false;
            StringType.quote(e.getKey(), sb);
            sb.append(" = ").append(e.getValue());
        }
        this.name = sb.append(')').toString();
    }

    /** The elements, name to code, in the type's order. */
    public Map<String, Long> elements() {
        return java.util.Collections.unmodifiableMap(byName);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Object defaultValue() {
        return byName.values().iterator().next();
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append(nameOf((Long) v));
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        StringType.quote(nameOf((Long) v), sb);
    }

    public String nameOf(long code) {
        String n = byCode.get(code);
        if (n == null) {
            throw new ChException(ErrorCode.UNKNOWN_ELEMENT_OF_ENUM, "Unexpected value " + code + " in enum");
        }
        return n;
    }

    public Long codeOf(String n) {
        Long c = byName.get(n);
        if (c == null) {
            throw new ChException(ErrorCode.UNKNOWN_ELEMENT_OF_ENUM,
                "Unknown element '" + ByteStrings.toText(n) + "' for enum " + name);
        }
        return c;
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.skipSpaces();
        if (quoted && (r.peek() == '\'' || r.peek() == '"')) {
            return codeOf(r.readQuoted());
        }
        String tok = quoted ? r.readBare() : r.readRest();
        Long c = byName.get(tok);
        if (c != null) {
            return c;
        }
        try {
            long code = Long.parseLong(tok.trim());
            nameOf(code);
            return code;
        } catch (NumberFormatException e) {
            return codeOf(tok);
        }
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE((Long) v, bits / 8);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long x = in.readLongLE(bits / 8);
        // binary input keeps any code, as ClickHouse's SerializationNumber does: only showing it as text fails
        return bits == 8 ? (long) (byte) x : (long) (short) x;
    }

    @Override
    public int compare(Object a, Object b) {
        return Long.compare((Long) a, (Long) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return codeOf((String) v);
        }
        long code = Values.toLong(Values.toNumber(v, from));
        nameOf(code);
        return code;
    }

    @Override
    public int byteSize(Object v) {
        return bits / 8;
    }
}
