package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * AggregateFunction(f, T1, ..., Tn): a partial aggregation state, what {@code fState(...)} returns and
 * {@code fMerge(...)} finishes. For count, sum, avg, min, max, groupArray and uniqExact over plain numbers, dates
 * and strings the state is ClickHouse's, in memory and in its bytes ({@link AggregateFunctionStates}: {@link #ops}
 * is set). For the other functions the stub holds a state as the argument rows it has seen (an unmodifiable list of
 * unmodifiable lists), which makes merging two states the concatenation of their rows and finishing a state the
 * function run over them; RowBinary and the text forms carry that list (a VarUInt row count, then each row's
 * arguments in RowBinary; text is those bytes), so such a state read back from the stub merges correctly, but its
 * bytes are not the ones a ClickHouse server writes.
 */
public final class AggregateFunctionType extends DataType {
    /** The function name as written, e.g. {@code uniq}. */
    public final String function;
    public final List<DataType> arguments;
    /** ClickHouse's states for this function and arguments, or null: the stub's argument rows. */
    public final AggregateFunctionStates.Ops ops;

    AggregateFunctionType(String function, List<DataType> arguments) {
        this.function = function;
        this.arguments = List.copyOf(arguments);
        this.ops = AggregateFunctionStates.of(function, this.arguments);
    }

    /** The merge of states {@code a} and {@code b} (neither changes). */
    public Object mergeStates(Object a, Object b) {
        if (ops != null) {
            Object acc = ops.create();
            ops.mergeInto(acc, a);
            ops.mergeInto(acc, b);
            return acc;
        }
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
        return ops != null ? ops.create() : List.of();
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
                "Cannot read state of aggregate function " + function + " from text" + (ops != null ? ""
                    : ": the stub reads only states it wrote for this function"));
        }
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        if (ops != null) {
            ops.write(v, out);
            return;
        }
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
        if (ops != null) {
            return ops.read(in);
        }
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
        if (ops != null) {
            return java.util.Arrays.compare(serialize(a), serialize(b));
        }
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
        if (ops != null) {
            return serialize(v).length;
        }
        return 8 + 8 * rows(v).size() * Math.max(1, arguments.size());
    }
}
