package dev.chdedup.stub.format;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.JsonType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.VariantType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A streaming JSON reader that turns JSON values straight into values of a target type, with ClickHouse's
 * leniencies: numbers may come as strings and strings as numbers, booleans read as 1/0 for numeric columns,
 * any JSON value reads as its raw text into a String column, tuples come as arrays or (named) objects, and
 * null in a non-Nullable place means the default (input_format_null_as_default).
 */
final class JsonInput extends JsonLexer {
    private final FormatSettings s;

    JsonInput(ByteInput in, FormatSettings s) {
        super(in);
        this.s = s;
    }

    /** Reads a JSON value as type {@code t}; at the top level a null for a non-Nullable column is DEFAULT. */
    Object read(DataType t, boolean top) {
        in.skipWhitespace();
        int c = in.peek();
        if (c == 'n') {
            word("null");
            if (t.isNullable()) {
                return null;
            }
            if (!s.nullAsDefault) {
                throw new ChException(ErrorCode.CANNOT_PARSE_TEXT,
                    "Cannot parse null as " + t.name() + ": the type is not Nullable");
            }
            return top ? RowReader.DEFAULT : t.defaultValue();
        }
        DataType b = t.unwrap();
        if (b instanceof JsonType || b instanceof DynamicType || b instanceof VariantType) {
            return semiStructured(b, c);
        }
        if (b instanceof StringType) {
            String v = c == '"' ? string() : raw();
            return ((StringType) b).fixedLength == 0 ? v : b.parseText(v);
        }
        if (b instanceof ArrayType) {
            expect('[');
            List<Object> l = new ArrayList<>();
            if (!end(']')) {
                do {
                    l.add(read(((ArrayType) b).element, false));
                } while (next(']'));
            }
            return Collections.unmodifiableList(l);
        }
        if (b instanceof TupleType) {
            return tuple((TupleType) b, c);
        }
        if (b instanceof MapType) {
            MapType m = (MapType) b;
            expect('{');
            Map<Object, Object> out = new LinkedHashMap<>();
            if (!end('}')) {
                do {
                    in.skipWhitespace();
                    Object k = TextFields.parse(m.key, string(), s);
                    expect(':');
                    out.put(k, read(m.value, false));
                } while (next('}'));
            }
            return Collections.unmodifiableMap(out);
        }
        if (b instanceof NothingType) {
            raw();
            return null;
        }
        if (c == '"') {
            return TextFields.parse(b, string(), s);
        }
        if (c == 't' || c == 'f') {
            boolean v = c == 't';
            word(v ? "true" : "false");
            return b instanceof BoolType ? (Object) v : b.convert(v, DataTypes.BOOL);
        }
        if (c == '-' || c == '+' || c >= '0' && c <= '9' || c == '.') {
            return TextFields.parse(b, token(), s);
        }
        throw in.expected("a value of type " + b.name());
    }

    /** A JSON, Dynamic or Variant value: its raw JSON text read as that type reads JSON. */
    private Object semiStructured(DataType b, int c) {
        if (b instanceof JsonType) {
            if (c != '{') {
                throw in.expected("a JSON object for a value of type " + b.name());
            }
            return ((JsonType) b).parseObject(raw());
        }
        if (b instanceof DynamicType) {
            return DynamicType.fromJson(raw());
        }
        String text = c == '"' ? string() : raw();
        return c == '"' ? ((VariantType) b).fromJsonString(text) : b.parseText(text);
    }

    private Object tuple(TupleType tt, int c) {
        List<Object> out = new ArrayList<>(tt.elements.size());
        if (c == '{' && tt.names != null) {
            in.pos++;
            Object[] vals = new Object[tt.elements.size()];
            boolean[] set = new boolean[vals.length];
            if (!end('}')) {
                do {
                    in.skipWhitespace();
                    int k = tt.names.indexOf(ByteStrings.toText(string()));
                    expect(':');
                    if (k < 0) {
                        raw();
                    } else {
                        vals[k] = read(tt.elements.get(k), false);
                        set[k] = true;
                    }
                } while (next('}'));
            }
            for (int i = 0; i < vals.length; i++) {
                out.add(set[i] ? vals[i] : tt.elements.get(i).defaultValue());
            }
            return Collections.unmodifiableList(out);
        }
        expect('[');
        for (int i = 0; i < tt.elements.size(); i++) {
            if (i > 0) {
                expect(',');
            }
            out.add(read(tt.elements.get(i), false));
        }
        expect(']');
        return Collections.unmodifiableList(out);
    }
}
