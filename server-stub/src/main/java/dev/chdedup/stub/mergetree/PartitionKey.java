package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.FunctionPartitionId;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.List;

/**
 * A table's partition key: the id of a row's partition, as ClickHouse's {@code MergeTreePartition::getID} computes it
 * ({@link FunctionPartitionId}) from the key's values (a tuple key's elements), {@code all} without a key.
 */
public final class PartitionKey {
    private final Evaluator key;

    /** {@code key} null means no PARTITION BY. */
    public PartitionKey(Evaluator key) {
        this.key = key;
    }

    public boolean isEmpty() {
        return key == null;
    }

    public String partitionId(Object[] row) {
        if (key == null) {
            return "all";
        }
        return idOf(key.eval(row), key.type());
    }

    /**
     * The partition's value as system.parts shows it ({@code MergeTreePartition::serializeText}): {@code tuple()}
     * without a key, a one-value key's value as text, several values as a tuple of quoted values: {@code ('a',-3)}.
     */
    public String partitionText(Object[] row) {
        if (key == null) {
            return "tuple()";
        }
        Object v = key.eval(row);
        DataType t = key.type();
        StringBuilder sb = new StringBuilder();
        if (!(t.unwrap() instanceof TupleType)) {
            if (v == null) {
                sb.append("NULL");
            } else {
                t.formatText(v, sb);
            }
            return sb.toString();
        }
        List<?> values = (List<?>) v;
        List<DataType> types = ((TupleType) t.unwrap()).elements;
        sb.append('(');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            if (values.get(i) == null) {
                sb.append("NULL");
            } else {
                types.get(i).formatQuoted(values.get(i), sb);
            }
        }
        return sb.append(')').toString();
    }

    public static String idOf(Object v, DataType t) {
        List<Object> values = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        if (t.unwrap() instanceof TupleType) {
            TupleType tt = (TupleType) t.unwrap();
            values.addAll((List<?>) v);
            types.addAll(tt.elements);
        } else {
            values.add(v);
            types.add(t);
        }
        return FunctionPartitionId.idOf(values, types);
    }
}
