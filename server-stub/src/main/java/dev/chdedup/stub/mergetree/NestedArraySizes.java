package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The check an insert makes that the arrays of one Nested structure have one size in each row: Array columns named
 * {@code n.a}, {@code n.b} (split at the first dot) belong to {@code n}, declared with Nested or not, as ClickHouse's
 * {@code Nested::validateArraySizes} (DataTypes/NestedUtils.cpp) groups them. A row where they differ fails the insert
 * with SIZES_OF_ARRAYS_DONT_MATCH; nothing of it is written.
 */
public final class NestedArraySizes {
    /** Per structure with at least two arrays: the indexes of its Array columns in the header, in header order. */
    private final List<int[]> groups = new ArrayList<>();
    private final List<Column> header;

    public NestedArraySizes(List<Column> header) {
        this.header = header;
        Map<String, List<Integer>> byName = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
            String name = header.get(i).name();
            int dot = name.indexOf('.');
            if (header.get(i).type() instanceof ArrayType && dot > 0 && dot < name.length() - 1) {
                byName.computeIfAbsent(name.substring(0, dot), k -> new ArrayList<>()).add(i);
            }
        }
        for (List<Integer> g : byName.values()) {
            if (g.size() > 1) {
                groups.add(g.stream().mapToInt(Integer::intValue).toArray());
            }
        }
    }

    /** Whether the header has a Nested structure to check. */
    public boolean any() {
        return !groups.isEmpty();
    }

    /** Fails on the first row (full rows in the header's order) whose arrays of one structure differ in size. */
    public void validate(List<Object[]> rows) {
        if (groups.isEmpty()) {
            return;
        }
        for (Object[] r : rows) {
            for (int[] g : groups) {
                int first = size(r[g[0]]);
                for (int k = 1; k < g.length; k++) {
                    if (size(r[g[k]]) != first) {
                        String a = header.get(g[0]).name();
                        throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Elements '" + a + "' and '" + header.get(g[k]).name()
                            + "' of Nested data structure '" + a.substring(0, a.indexOf('.')) + "' (Array columns) have different array sizes");
                    }
                }
            }
        }
    }

    private static int size(Object array) {
        return array == null ? 0 : ((List<?>) array).size();
    }
}
