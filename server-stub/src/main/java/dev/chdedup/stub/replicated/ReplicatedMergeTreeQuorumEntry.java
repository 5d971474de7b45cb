package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Collections;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The value of a quorum insert's node ({@code quorum/status}, or {@code quorum/parallel/<part>} for a parallel one),
 * after ClickHouse's {@code ReplicatedMergeTreeQuorumEntry}: the part, how many replicas must have it and which have it
 * already. {@link #toText} writes what a real server stores (clickhouse-observed/02d-quorum-frozen.txt):
 * {@code version: 1\npart_name: all_4_4_0\nrequired_number_of_replicas: 2\nactual_number_of_replicas: 1\nreplicas:\nr1\n};
 * {@link #parse} reads it back. Immutable: {@link #withReplica} gives the entry with one more replica.
 */
public record ReplicatedMergeTreeQuorumEntry(String partName, int required, SortedSet<String> replicas) {
    public ReplicatedMergeTreeQuorumEntry {
        replicas = Collections.unmodifiableSortedSet(new TreeSet<>(replicas));
    }

    /** The entry the inserting replica writes: it has the part itself. */
    public static ReplicatedMergeTreeQuorumEntry of(String partName, int required, String writer) {
        return new ReplicatedMergeTreeQuorumEntry(partName, required, new TreeSet<>(java.util.List.of(writer)));
    }

    public ReplicatedMergeTreeQuorumEntry withReplica(String replica) {
        TreeSet<String> r = new TreeSet<>(replicas);
        r.add(replica);
        return new ReplicatedMergeTreeQuorumEntry(partName, required, r);
    }

    /** Whether enough replicas have the part. */
    public boolean satisfied() {
        return replicas.size() >= required;
    }

    public String toText() {
        StringBuilder sb = new StringBuilder("version: 1\npart_name: ").append(partName).append("\nrequired_number_of_replicas: ")
            .append(required).append("\nactual_number_of_replicas: ").append(replicas.size()).append("\nreplicas:\n");
        for (String r : replicas) {
            sb.append(r).append('\n');
        }
        return sb.toString();
    }

    public static ReplicatedMergeTreeQuorumEntry parse(String text) {
        String[] l = text.split("\n", -1);
        if (l.length < 5 || !l[0].equals("version: 1") || !l[4].equals("replicas:")) {
            throw bad(text);
        }
        String part = field(l[1], "part_name: ", text);
        int required = Integer.parseInt(field(l[2], "required_number_of_replicas: ", text));
        int actual = Integer.parseInt(field(l[3], "actual_number_of_replicas: ", text));
        TreeSet<String> replicas = new TreeSet<>();
        for (int i = 5; i < l.length && replicas.size() < actual; i++) {
            replicas.add(l[i]);
        }
        if (replicas.size() != actual) {
            throw bad(text);
        }
        return new ReplicatedMergeTreeQuorumEntry(part, required, replicas);
    }

    private static String field(String line, String prefix, String text) {
        if (!line.startsWith(prefix)) {
            throw bad(text);
        }
        return line.substring(prefix.length());
    }

    private static ChException bad(String text) {
        return new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse quorum entry: " + text);
    }
}
