package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.hash.SipHash;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.IntType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Partition ids as ClickHouse's {@code MergeTreePartition::getID} computes them from a partition key's values:
 * {@code all} without a value; when every value is an integer, the values joined by '-', a Date as YYYYMMDD;
 * otherwise the hex of a 128-bit SipHash over the values. The MergeTree engines name their partitions so, and
 * partitionId(x, ...) (ClickHouse's "Other" category) names the partition of its arguments' values.
 */
public final class FunctionPartitionId {
    private FunctionPartitionId() {
    }

    static void register(FunctionFactory f) {
        f.register("partitionId", "Other", (args, ctx) -> {
            if (args.isEmpty()) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function partitionId requires at least one argument");
            }
            List<DataType> types = new ArrayList<>();
            for (Evaluator a : args) {
                types.add(TypeRules.stripNullable(a.type()));
            }
            return Functions.defaultForNulls(DataTypes.STRING, args, v -> ByteStrings.fromText(idOf(List.of(v), types)));
        });
    }

    /** The id of the partition whose key values are {@code values}, of {@code types}. */
    public static String idOf(List<Object> values, List<DataType> types) {
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
        // the hash's 16 bytes as they lie in memory, low half first, each little-endian, as MergeTreePartition::getID writes them
        return String.format("%016x%016x", Long.reverseBytes(r[0]), Long.reverseBytes(r[1]));
    }


    private static void hashField(SipHash h, Object v, DataType u) {
        if (v == null) {
            h.update(new byte[] {0}, 0, 1);
        } else if (v instanceof String) {
            byte[] b = ByteStrings.bytes((String) v);
            h.update(new byte[] {16}, 0, 1);
            h.update(b.length);
            h.update(b, 0, b.length);
        } else if (v instanceof Double || v instanceof Float) {
            h.update(new byte[] {3}, 0, 1);
            h.update(Double.doubleToLongBits(((Number) v).doubleValue()));
        } else if (v instanceof java.util.UUID) {
            // a partition value keeps a UUID as a Field of UInt128 (tag 4), its high half first
            h.update(new byte[] {4}, 0, 1);
            h.update(((java.util.UUID) v).getMostSignificantBits());
            h.update(((java.util.UUID) v).getLeastSignificantBits());
        } else if (v instanceof Boolean) {
            h.update(new byte[] {1}, 0, 1); // a Bool is a Field of UInt64
            h.update((Boolean) v ? 1L : 0L);
        } else if (v instanceof Long || v instanceof Integer) {
            // a Field of UInt64 (tag 1) for unsigned values, dates and times, of Int64 (tag 2) for signed ones and enums
            boolean signed = u instanceof dev.chdedup.stub.types.IntType it ? it.signed
                : u instanceof EnumType || u.name().startsWith("Date32");
            h.update(new byte[] {(byte) (signed ? 2 : 1)}, 0, 1);
            h.update(((Number) v).longValue());
        } else {
            byte[] b = String.valueOf(v).getBytes(StandardCharsets.UTF_8);
            h.update(new byte[] {16}, 0, 1);
            h.update(b.length);
            h.update(b, 0, b.length);
        }
    }
}
