package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.IntType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * What VersionedCollapsingMergeTree(sign, version) does to the rows of one sorting key when parts merge (and when a
 * SELECT reads with FINAL): the version is the last column of the sorting key, so the key's rows are ordered by
 * version (rows of one version keep their part order), and within one version a row whose sign is opposite to the
 * rows pending cancels the latest of them; the rows left over are kept, whatever order they were inserted in.
 * Mirrors ClickHouse's VersionedCollapsingAlgorithm.
 */
final class VersionedCollapsingAlgorithm {
    private VersionedCollapsingAlgorithm() {
    }

    static MergeTreeDataMergerMutator.MergingMode mode(TableDefinition def) {
        if (def.engineArgs().size() != 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "With extended storage definition syntax storage "
                + "VersionedCollapsingMergeTree requires 2 parameters: name of column with sign, name of column with version");
        }
        int sign = MergingModes.column(def, def.engineArgs().get(0), "sign");
        int version = MergingModes.column(def, def.engineArgs().get(1), "version");
        DataType signType = def.columns().get(sign).type();
        if (!signType.name().equals("Int8")) {
            throw new ChException(ErrorCode.BAD_TYPE_OF_FIELD, "Sign column (" + def.columns().get(sign).name()
                + ") for storage VersionedCollapsingMergeTree must have type Int8. Provided column of type " + signType.name() + ".");
        }
        DataType versionType = def.columns().get(version).type();
        boolean integer = versionType.unwrap() instanceof IntType && !versionType.isNullable() && !versionType.name().equals("Bool");
        if (!integer && !versionType.name().startsWith("Date")) {
            throw new ChException(ErrorCode.BAD_TYPE_OF_FIELD, "The column " + def.columns().get(version).name()
                + " cannot be used as a version column for storage VersionedCollapsingMergeTree because it is of type "
                + versionType.name() + " (must be of an integer type or of type Date/DateTime/DateTime64)");
        }
        Comparator<Object[]> byVersion = (a, b) -> versionType.compare(a[version], b[version]);
        return (rows, order) -> MergingModes.groups(rows, order, g -> collapse(g, sign, version, versionType, byVersion));
    }

    private static List<Object[]> collapse(List<Object[]> g, int sign, int version, DataType versionType, Comparator<Object[]> byVersion) {
        List<Object[]> sorted = new ArrayList<>(g);
        sorted.sort(byVersion); // stable
        List<Object[]> out = new ArrayList<>();
        Deque<Object[]> pending = new ArrayDeque<>();
        Object pendingVersion = null;
        for (Object[] r : sorted) {
            if (!pending.isEmpty() && versionType.compare(pendingVersion, r[version]) != 0) {
                out.addAll(pending);
                pending.clear();
            }
            pendingVersion = r[version];
            if (!pending.isEmpty() && signOf(pending.peekLast(), sign) != signOf(r, sign)) {
                pending.pollLast();
            } else {
                pending.addLast(r);
            }
        }
        out.addAll(pending);
        return out;
    }

    private static long signOf(Object[] row, int sign) {
        return row[sign] == null ? 0 : ((Number) row[sign]).longValue();
    }
}
