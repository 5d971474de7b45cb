package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.BlockStreams;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.types.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code SELECT ... FROM t FINAL}: the rows a table of the MergeTree family would hold once every part of each
 * partition were merged. Reads all parts, orders each partition's rows by the sorting key (rows of one key in part
 * order) and applies the engine's {@link MergingModes merging mode}; a plain MergeTree table reads as it is.
 */
public final class FinalReader {
    private FinalReader() {
    }

    public static Iterator<Block> read(StorageMergeTree table, int maxBlockSize, boolean withVirtuals) {
        if (!MergingModes.ENGINES.contains(table.definition().engine()) || table.definition().sortingKey() == null) {
            return table.read(maxBlockSize, withVirtuals);
        }
        int width = table.columns().size();
        int partitionAt = width + 1; // _part, _partition_id follow the stored columns
        Map<Object, List<Object[]>> byPartition = new LinkedHashMap<>();
        for (Iterator<Block> it = table.read(maxBlockSize, true); it.hasNext(); ) {
            for (Object[] r : it.next().rows()) {
                byPartition.computeIfAbsent(r[partitionAt], k -> new ArrayList<>()).add(r);
            }
        }
        Evaluator key = table.definition().sortingKey();
        DataType keyType = key.type();
        MergeTreeDataMergerMutator.KeyOrder order = new MergeTreeDataMergerMutator.KeyOrder() {
            @Override
            public boolean sorted() {
                return true;
            }

            @Override
            public Object key(Object[] row) {
                return key.eval(row);
            }

            @Override
            public int compare(Object a, Object b) {
                if (a == null || b == null) {
                    return a == b ? 0 : a == null ? 1 : -1;
                }
                return keyType.compare(a, b);
            }
        };
        MergeTreeDataMergerMutator.MergingMode mode = MergingModes.of(table.definition());
        List<Column> header = new ArrayList<>(table.columns());
        if (withVirtuals) {
            header.addAll(table.virtualColumns());
        }
        List<Object[]> out = new ArrayList<>();
        for (List<Object[]> rows : byPartition.values()) {
            List<Object[]> sorted = new ArrayList<>(rows);
            sorted.sort(Comparator.comparing(order::key, order::compare)); // stable: one key's rows keep part order
            for (Iterator<Object[]> it = mode.merge(sorted.iterator(), order); it.hasNext(); ) {
                Object[] r = it.next();
                out.add(withVirtuals ? r : Arrays.copyOf(r, width));
            }
        }
        return BlockStreams.chunk(header, out, maxBlockSize);
    }
}
