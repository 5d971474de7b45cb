package dev.chdedup.stub.format;

import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.JsonType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.Values;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * Writes one value as ClickHouse's JSON serialization does: 64-bit and wider integers quoted (by default),
 * nan/inf as null, decimals bare, dates, UUIDs, enum names and strings as JSON strings, arrays and unnamed
 * tuples as arrays, maps and named tuples as objects; compact, or spread over lines with tab indentation the
 * way output_format_json_pretty_print lays out nested values in the JSON format.
 */
final class JsonOutput {
    private final ByteSink out;
    private final FormatSettings s;
    private final StringBuilder sb = new StringBuilder();
    /** Each byte of a string value that is not part of valid UTF-8 is written as U+FFFD. */
    private final boolean validUtf8;

    JsonOutput(ByteSink out, FormatSettings s, boolean validUtf8) {
        this.out = out;
        this.s = s;
        this.validUtf8 = validUtf8;
    }

    /** Writes byte string {@code v} as a JSON string. */
    void string(CharSequence v) throws IOException {
        out.writeJsonString(v, s.jsonEscapeForwardSlashes, validUtf8);
    }

    /** Writes {@code v} of type {@code t}; {@code pretty} spreads nested values over lines at {@code indent}. */
    void value(DataType t, Object v, boolean pretty, int indent) throws IOException {
        if (v == null) {
            out.writeUtf8("null");
            return;
        }
        DataType b = t.unwrap();
        if (v instanceof TypedValue) {
            // Dynamic and Variant: the value as its own type writes it
            value(((TypedValue) v).type(), ((TypedValue) v).value(), pretty, indent);
            return;
        }
        if (b instanceof JsonType) {
            sb.setLength(0);
            b.formatText(v, sb);
            out.writeBytes(sb);
            return;
        }
        if (b instanceof StringType && ((StringType) b).fixedLength == 0) {
            string((String) v);
        } else if (b instanceof IntType) {
            boolean q = ((IntType) b).bits == 64 && s.jsonQuote64bitIntegers;
            text(b, v, q);
        } else if (b instanceof BigIntType || b instanceof dev.chdedup.stub.types.DataTypeInterval) {
            // an interval is an Int64 count, quoted as one
            text(b, v, s.jsonQuote64bitIntegers);
        } else if (b instanceof FloatType) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                out.writeUtf8(!s.jsonQuoteDenormals ? "null" : Double.isNaN(d) ? "\"nan\"" : d > 0 ? "\"inf\"" : "\"-inf\"");
            } else {
                text(b, v, ((FloatType) b).is64 && s.jsonQuote64bitFloats);
            }
        } else if (b instanceof BFloat16Type) {
            float f = (Float) v;
            out.writeUtf8(Float.isNaN(f) || Float.isInfinite(f) ? "null" : Values.text(v, b));
        } else if (b instanceof DecimalType) {
            text(b, v, s.jsonQuoteDecimals);
        } else if (b instanceof BoolType) {
            out.writeUtf8((Boolean) v ? "true" : "false");
        } else if (b instanceof NothingType) {
            out.writeUtf8("null");
        } else if (b instanceof ArrayType) {
            sequence(((ArrayType) b).element, null, (List<?>) v, pretty, indent);
        } else if (b instanceof TupleType) {
            TupleType tt = (TupleType) b;
            sequence(null, tt, (List<?>) v, pretty, indent);
        } else if (b instanceof MapType) {
            map((MapType) b, (Map<?, ?>) v, pretty, indent);
        } else {
            sb.setLength(0);
            b.formatText(v, sb);
            string(sb);
        }
    }

    private void text(DataType b, Object v, boolean quote) throws IOException {
        sb.setLength(0);
        b.formatText(v, sb);
        if (quote) {
            out.write('"');
        }
        out.writeUtf8(sb);
        if (quote) {
            out.write('"');
        }
    }

    /** An array (element type {@code el}) or a tuple ({@code tt}), the latter as an object when named. */
    private void sequence(DataType el, TupleType tt, List<?> l, boolean pretty, int indent) throws IOException {
        boolean object = tt != null && tt.names != null && s.jsonNamedTuplesAsObjects;
        char open = object ? '{' : '[';
        char close = object ? '}' : ']';
        out.write(open);
        if (l.isEmpty()) {
            out.write(close);
            return;
        }
        if (pretty) {
            out.write('\n');
        }
        for (int i = 0; i < l.size(); i++) {
            if (i > 0) {
                out.write(',');
                if (pretty) {
                    out.write('\n');
                }
            }
            if (pretty) {
                out.tabs(indent + 1);
            }
            if (object) {
                string(ByteStrings.fromText(tt.names.get(i)));
                out.write(':');
                if (pretty) {
                    out.write(' ');
                }
            }
            value(el != null ? el : tt.elements.get(i), l.get(i), pretty, indent + 1);
        }
        if (pretty) {
            out.write('\n');
            out.tabs(indent);
        }
        out.write(close);
    }

    private void map(MapType m, Map<?, ?> v, boolean pretty, int indent) throws IOException {
        out.write('{');
        if (v.isEmpty()) {
            out.write('}');
            return;
        }
        if (pretty) {
            out.write('\n');
        }
        boolean first = true;
        for (Map.Entry<?, ?> e : v.entrySet()) {
            if (!first) {
                out.write(',');
                if (pretty) {
                    out.write('\n');
                }
            }
            first = false;
            if (pretty) {
                out.tabs(indent + 1);
            }
            sb.setLength(0);
            m.key.formatText(e.getKey(), sb);
            string(sb);
            out.write(':');
            if (pretty) {
                out.write(' ');
            }
            value(m.value, e.getValue(), pretty, indent + 1);
        }
        if (pretty) {
            out.write('\n');
            out.tabs(indent);
        }
        out.write('}');
    }
}
