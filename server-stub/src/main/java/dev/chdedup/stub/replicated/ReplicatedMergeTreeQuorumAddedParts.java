package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The value of {@code quorum/last_part}, after ClickHouse's {@code ReplicatedMergeTreeQuorumAddedParts}: for each
 * partition, the last part that reached its quorum (non-parallel quorum inserts only), sorted by partition id.
 * {@link #toText} writes {@code version: 2\nparts count: 1\nall\tall_2_2_0\n} as a real server does
 * (clickhouse-observed/02d-quorum.txt); {@link #parse} also reads the empty value of a new table and the bare part
 * name that old releases stored (format version 1).
 */
public record ReplicatedMergeTreeQuorumAddedParts(SortedMap<String, String> parts) {
    public ReplicatedMergeTreeQuorumAddedParts {
        parts = Collections.unmodifiableSortedMap(new TreeMap<>(parts));
    }

    /** The value with {@code part} as its partition's last quorum part. */
    public ReplicatedMergeTreeQuorumAddedParts with(String partitionId, String part) {
        TreeMap<String, String> m = new TreeMap<>(parts);
        m.put(partitionId, part);
        return new ReplicatedMergeTreeQuorumAddedParts(m);
    }

    public String toText() {
        StringBuilder sb = new StringBuilder("version: 2\nparts count: ").append(parts.size()).append('\n');
        parts.forEach((p, part) -> sb.append(p).append('\t').append(part).append('\n'));
        return sb.toString();
    }

    public static ReplicatedMergeTreeQuorumAddedParts parse(String text) {
        TreeMap<String, String> m = new TreeMap<>();
        if (text == null || text.isEmpty()) {
            return new ReplicatedMergeTreeQuorumAddedParts(m);
        }
        String[] l = text.split("\n");
        if (!l[0].equals("version: 2")) {
            // format version 1: the value is just the part name
            dev.chdedup.stub.mergetree.MergeTreePartInfo info = dev.chdedup.stub.mergetree.MergeTreePartInfo.tryParse(text.strip());
            if (info == null) {
                throw bad(text);
            }
            m.put(info.partitionId(), info.name());
            return new ReplicatedMergeTreeQuorumAddedParts(m);
        }
        if (l.length < 2 || !l[1].startsWith("parts count: ")) {
            throw bad(text);
        }
        int n = Integer.parseInt(l[1].substring("parts count: ".length()));
        if (l.length < 2 + n) {
            throw bad(text);
        }
        for (int i = 0; i < n; i++) {
            int tab = l[2 + i].indexOf('\t');
            if (tab < 0) {
                throw bad(text);
            }
            m.put(l[2 + i].substring(0, tab), l[2 + i].substring(tab + 1));
        }
        return new ReplicatedMergeTreeQuorumAddedParts(m);
    }

    private static ChException bad(String text) {
        return new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse quorum/last_part: " + text);
    }
}
