package dev.chdedup.stub.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which ClickHouse's open-addressing HashSet / HashMap of numbers gives back its keys: the zero key first
 * (kept outside the table), then the table's cells in order, a key placed at {@code intHash64(key) & mask} (MurmurHash3's finalizer) or the next
 * free cell; the table starts with {@code 2^initialDegree} cells and grows fourfold (twofold from 2^23) when more than
 * half full, its keys placed again in cell order. What groupUniqArray and groupArrayIntersect return follows it.
 */
final class ClickHouseHashOrder {
    private ClickHouseHashOrder() {
    }

    /** The key of a number as the table hashes it: its 64 bits (a float's bit pattern). */
    static long keyBits(Object v) {
        if (v instanceof Double d) {
            return d == 0 ? 0 : Double.doubleToLongBits(d);
        }
        if (v instanceof Float f) {
            return f == 0 ? 0 : Float.floatToIntBits(f) & 0xFFFFFFFFL;
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return ((Number) v).longValue();
    }

    /** Whether the values of a column can be ordered so (numbers of up to 64 bits and dates). */
    static boolean applies(Object sample) {
        return sample instanceof Long || sample instanceof Double || sample instanceof Float || sample instanceof Integer
            || sample instanceof Boolean;
    }

    /** {@code distinct} (distinct keys, in insertion order) in the table's order. */
    static <T> List<T> order(List<T> distinct, int initialDegree) {
        if (distinct.isEmpty() || !applies(distinct.get(0))) {
            return distinct;
        }
        int degree = initialDegree;
        List<T> out = new ArrayList<>();
        List<T> nonZero = new ArrayList<>();
        for (T v : distinct) {
            if (keyBits(v) == 0) {
                out.add(v);
            } else {
                nonZero.add(v);
            }
        }
        Object[] table = new Object[1 << degree];
        int size = out.size(); // the zero key counts towards the fill
        for (T v : nonZero) {
            place(table, v);
            size++;
            if (size > (1 << (degree - 1))) {
                degree += degree >= 23 ? 1 : 2;
                Object[] bigger = new Object[1 << degree];
                for (Object o : table) {
                    if (o != null) {
                        place(bigger, o);
                    }
                }
                table = bigger;
            }
        }
        for (Object o : table) {
            if (o != null) {
                @SuppressWarnings("unchecked")
                T t = (T) o;
                out.add(t);
            }
        }
        return out;
    }

    private static void place(Object[] table, Object v) {
        int mask = table.length - 1;
        int i = (int) (dev.chdedup.stub.hash.MurmurHash.fmix64(keyBits(v)) & mask);
        while (table[i] != null) {
            i = (i + 1) & mask;
        }
        table[i] = v;
    }
}
