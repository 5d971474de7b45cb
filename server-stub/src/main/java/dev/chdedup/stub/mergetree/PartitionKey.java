package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.hash.SipHash;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.TupleType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Computes partition ids as ClickHouse's {@code MergeTreePartition::getID} does: {@code all} without a key; when
 * every key value is an integer, the values joined by '-', a Date as YYYYMMDD; otherwise the hex of a 128-bit
 * SipHash over the values.
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
        if (values.isEmpty()) {
            return "all";
        }
        boolean integral = true;
        for (int i = 0; i < values.size(); i++) {
            DataType u = types.get(i).unwrap();
            if (values.get(i) == null || !(u instanceof IntType || u instanceof DateType && !((DateType) u).is32 || u instanceof BoolType
                || u instanceof EnumType || u instanceof DateTimeType)) {
                integral = false;
            }
        }
        if (integral) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < values.size(); i++) {
                if (i > 0) {
                    sb.append('-');
                }
                DataType u = types.get(i).unwrap();
                Object x = values.get(i);
                if (u instanceof DateType) {
                    java.time.LocalDate d = java.time.LocalDate.ofEpochDay((Long) x);
                    sb.append(d.getYear() * 10000 + d.getMonthValue() * 100 + d.getDayOfMonth());
                } else if (x instanceof Boolean) {
                    sb.append((Boolean) x ? 1 : 0);
                } else {
                    u.formatText(x instanceof Long && u instanceof EnumType ? x : x, sb);
                    if (u instanceof EnumType) {
                        sb.setLength(sb.length() - ((EnumType) u).nameOf((Long) x).length());
                        sb.append(x);
                    }
                }
            }
            return sb.toString();
        }
        SipHash h = new SipHash();
        for (int i = 0; i < values.size(); i++) {
            hashField(h, values.get(i), types.get(i).unwrap());
        }
        long[] r = h.get128();
        return String.format("%016x%016x", r[1], r[0]);
    }

    private static void hashField(SipHash h, Object v, DataType u) {
        if (v == null) {
            h.update(new byte[] {0}, 0, 1);
        } else if (v instanceof String) {
            byte[] b = dev.chdedup.stub.types.ByteStrings.bytes((String) v);
            h.update(new byte[] {16}, 0, 1);
            h.update(b.length);
            h.update(b, 0, b.length);
        } else if (v instanceof Double || v instanceof Float) {
            h.update(new byte[] {3}, 0, 1);
            h.update(Double.doubleToLongBits(((Number) v).doubleValue()));
        } else if (v instanceof java.util.UUID) {
            h.update(new byte[] {27}, 0, 1);
            h.update(((java.util.UUID) v).getLeastSignificantBits());
            h.update(((java.util.UUID) v).getMostSignificantBits());
        } else {
            byte[] b = String.valueOf(v).getBytes(StandardCharsets.UTF_8);
            h.update(new byte[] {16}, 0, 1);
            h.update(b.length);
            h.update(b, 0, b.length);
        }
    }
}
