package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * AggregateFunction(f, T1, ..., Tn): a partial aggregation state, what {@code fState(...)} returns and
 * {@code fMerge(...)} finishes. The stub holds a state as the argument rows it has seen (an unmodifiable list of
 * unmodifiable lists), which makes merging two states, for every function, the concatenation of their rows and
 * finishing a state the function run over them. RowBinary and the text forms carry that list (a VarUInt row count,
 * then each row's arguments in RowBinary; text is those bytes), so a state read back from the stub merges
 * correctly, but its bytes are not the ones a ClickHouse server writes for the same state.
 */
public final class AggregateFunctionType extends DataType {
    /** The function name as written, e.g. {@code uniq}. */
    public final String function;
    public final List<DataType> arguments;

    AggregateFunctionType(String function, List<DataType> arguments) {
        this.function = function;
        this.arguments = List.copyOf(arguments);
    }

    /** The state holding {@code a}'s rows, then {@code b}'s. */
    public static List<List<Object>> merge(Object a, Object b) {
        List<List<Object>> out = new ArrayList<>(rows(a));
        out.addAll(rows(b));
        return Collections.unmodifiableList(out);
    }

    @SuppressWarnings("unchecked")
    public static List<List<Object>> rows(Object state) {
        return (List<List<Object>>) state;
    }

    @Override
    public String name() {
        StringBuilder sb = new StringBuilder("AggregateFunction(").append(function);
        for (DataType t : arguments) {
            sb.append(", ").append(t.name());
        }
        return sb.append(')').toString();
    }

    @Override
    public Object defaultValue() {
        return List.of();
    }

    private byte[] serialize(Object v) {
        BinaryOut out = new BinaryOut(64);
        writeBinary(v, out);
        return out.toByteArray();
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append(ByteStrings.of(serialize(v)));
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        StringType.quote(ByteStrings.of(serialize(v)), sb);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        String s = quoted ? r.readQuoted() : r.readRest();
        return parseState(s);
    }

    private Object parseState(String bytes) {
        BinaryIn in = new BinaryIn(ByteStrings.bytes(bytes));
        try {
            Object v = readBinary(in);
            if (!in.atEnd()) {
                throw new IOException("trailing bytes");
            }
            return v;
        } catch (IOException | RuntimeException e) {
            throw new ChException(ErrorCode.CANNOT_PARSE_TEXT,
                "Cannot read state of aggregate function " + function + " from text: the stub reads only states it wrote");
        }
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        List<List<Object>> rows = rows(v);
        out.writeVarUInt(rows.size());
        for (List<Object> row : rows) {
            for (int i = 0; i < arguments.size(); i++) {
                arguments.get(i).writeBinary(row.get(i), out);
            }
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        long n = in.readVarUInt();
        if (n > BinaryIn.MAX_STRING_BYTES) {
            throw new ChException(ErrorCode.TOO_LARGE_ARRAY_SIZE, "Too large aggregate function state: " + n + " rows");
        }
        List<List<Object>> rows = new ArrayList<>();
        for (long k = 0; k < n; k++) {
            List<Object> row = new ArrayList<>(arguments.size());
            for (DataType t : arguments) {
                row.add(t.readBinary(in));
            }
            rows.add(Collections.unmodifiableList(row));
        }
        return Collections.unmodifiableList(rows);
    }

    @Override
    public int compare(Object a, Object b) {
        return Integer.compare(rows(a).size(), rows(b).size());
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (from.unwrap().equals(this)) {
            return v;
        }
        if (v instanceof String) {
            return parseState((String) v);
        }
        throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Conversion from " + from.name() + " to " + name() + " is not supported");
    }

    @Override
    public int byteSize(Object v) {
        return 8 + 8 * rows(v).size() * Math.max(1, arguments.size());
    }
}
