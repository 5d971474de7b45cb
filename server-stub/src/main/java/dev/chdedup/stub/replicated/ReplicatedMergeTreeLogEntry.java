package dev.chdedup.stub.replicated;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;

/**
 * One entry of a replicated table's shared log ({@code log/log-N}) and of a replica's queue ({@code queue-N}), after
 * ClickHouse's {@code ReplicatedMergeTreeLogEntry}: its text is exactly what a real server stores (format version 4,
 * see clickhouse-observed/02b-log-entries.txt), for instance
 * {@code format version: 4\ncreate_time: 2026-11-30 22:48:07\nsource replica: r1\nblock_id: all_1_2\nget\nall_0_0_0\n},
 * with a final {@code quorum: N} line for a quorum insert; merges are {@code merge\n<parts...>\ninto\n<new>\n} and range
 * drops {@code drop\n<range>\n}, mutations of one part {@code mutate\n<source>\nto\n<new>\n} (the source is
 * {@link #partsToMerge}'s only element). {@link #parse} reads what {@link #toText} writes.
 */
public record ReplicatedMergeTreeLogEntry(Type type, long createTime, String sourceReplica, String blockId, String newPartName,
                                          List<String> partsToMerge, int quorum) {
    public enum Type { GET_PART, MERGE_PARTS, DROP_RANGE, MUTATE_PART }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    /** The name of the log node at {@code index}: {@code log-} and ten digits, as ZooKeeper numbers sequential nodes. */
    static String znodeName(long index) {
        String digits = Long.toString(index);
        return "log-" + "0".repeat(Math.max(0, 10 - digits.length())) + digits;
    }

    public static ReplicatedMergeTreeLogEntry getPart(String source, String blockId, String part, int quorum) {
        return new ReplicatedMergeTreeLogEntry(Type.GET_PART, now(), source, blockId == null ? "" : blockId, part, List.of(), quorum);
    }

    public static ReplicatedMergeTreeLogEntry mergeParts(String source, List<String> parts, String into) {
        return new ReplicatedMergeTreeLogEntry(Type.MERGE_PARTS, now(), source, "", into, List.copyOf(parts), 0);
    }

    public static ReplicatedMergeTreeLogEntry dropRange(String source, String range) {
        return new ReplicatedMergeTreeLogEntry(Type.DROP_RANGE, now(), source, "", range, List.of(), 0);
    }

    public static ReplicatedMergeTreeLogEntry mutatePart(String source, String part, String into) {
        return new ReplicatedMergeTreeLogEntry(Type.MUTATE_PART, now(), source, "", into, List.of(part), 0);
    }

    private static long now() {
        return System.currentTimeMillis() / 1000;
    }

    public String toText() {
        StringBuilder sb = new StringBuilder(160);
        sb.append("format version: 4\n");
        sb.append("create_time: ").append(TIME.format(Instant.ofEpochSecond(createTime))).append('\n');
        sb.append("source replica: ").append(sourceReplica).append('\n');
        sb.append("block_id: ").append(blockId).append('\n');
        switch (type) {
            case GET_PART:
                sb.append("get\n").append(newPartName).append('\n');
                break;
            case MERGE_PARTS:
                sb.append("merge\n");
                for (String p : partsToMerge) {
                    sb.append(p).append('\n');
                }
                sb.append("into\n").append(newPartName).append('\n');
                break;
            case DROP_RANGE:
                sb.append("drop\n").append(newPartName).append('\n');
                break;
            case MUTATE_PART:
                sb.append("mutate\n").append(partsToMerge.get(0)).append("\nto\n").append(newPartName).append('\n');
                break;
            default:
                throw new IllegalStateException(type.name());
        }
        if (quorum > 0) {
            sb.append("quorum: ").append(quorum).append('\n');
        }
        return sb.toString();
    }

    /** Reads an entry's text; an entry this stub does not know is an IllegalArgumentException naming its line. */
    public static ReplicatedMergeTreeLogEntry parse(String text) {
        String[] l = text.split("\n", -1);
        int i = 0;
        expect(l, i++, "format version: ");
        long created = java.time.LocalDateTime.parse(value(l, i++, "create_time: "), TIME).atZone(ZoneId.systemDefault()).toEpochSecond();
        String source = value(l, i++, "source replica: ");
        String blockId = value(l, i++, "block_id: ");
        String kind = line(l, i++);
        Type type;
        String part;
        List<String> sources = new ArrayList<>();
        switch (kind) {
            case "get":
                type = Type.GET_PART;
                part = line(l, i++);
                break;
            case "merge":
                type = Type.MERGE_PARTS;
                while (!line(l, i).equals("into")) {
                    sources.add(line(l, i++));
                }
                i++;
                part = line(l, i++);
                break;
            case "drop":
                type = Type.DROP_RANGE;
                part = line(l, i++);
                break;
            case "mutate":
                type = Type.MUTATE_PART;
                sources.add(line(l, i++));
                if (!line(l, i++).equals("to")) {
                    throw new IllegalArgumentException("Log entry line " + i + " should be 'to'");
                }
                part = line(l, i++);
                break;
            default:
                throw new IllegalArgumentException("Unknown log entry type: " + kind);
        }
        int quorum = 0;
        if (i < l.length && l[i].startsWith("quorum: ")) {
            quorum = Integer.parseInt(l[i].substring("quorum: ".length()));
        }
        return new ReplicatedMergeTreeLogEntry(type, created, source, blockId, part, List.copyOf(sources), quorum);
    }

    private static String line(String[] l, int i) {
        if (i >= l.length) {
            throw new IllegalArgumentException("Log entry ends early at line " + (i + 1));
        }
        return l[i];
    }

    private static void expect(String[] l, int i, String prefix) {
        value(l, i, prefix);
    }

    private static String value(String[] l, int i, String prefix) {
        String s = line(l, i);
        if (!s.startsWith(prefix)) {
            throw new IllegalArgumentException("Log entry line " + (i + 1) + " should start with '" + prefix + "': " + s);
        }
        return s.substring(prefix.length());
    }
}
