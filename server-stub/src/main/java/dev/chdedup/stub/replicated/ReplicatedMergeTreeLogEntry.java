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
 * {@link #partsToMerge}'s only element), an ALTER's {@code alter\nalter_version\nN\nhave_mutation\n0\ncolumns_str_size:\n...}
 * with the new columns and metadata texts. {@link #parse} reads what {@link #toText} writes.
 */
public record ReplicatedMergeTreeLogEntry(Type type, long createTime, String sourceReplica, String blockId, String newPartName,
                                          List<String> partsToMerge, int quorum, AlterMetadata alter) {
    public enum Type { GET_PART, MERGE_PARTS, DROP_RANGE, MUTATE_PART, ALTER_METADATA }

    /**
     * What an ALTER_METADATA entry carries, as ClickHouse writes it: the metadata version it makes (the table's
     * {@code metadata} node version after the ALTER), whether a mutation follows it, and the table's new
     * {@code columns} and {@code metadata} texts, which every replica makes its own.
     */
    public record AlterMetadata(int alterVersion, boolean haveMutation, String columns, String metadata) {
    }

    public ReplicatedMergeTreeLogEntry(Type type, long createTime, String sourceReplica, String blockId, String newPartName,
                                       List<String> partsToMerge, int quorum) {
        this(type, createTime, sourceReplica, blockId, newPartName, partsToMerge, quorum, null);
    }

    /** ALTER_METADATA: makes the replicas' columns and metadata those of the table after an ALTER. */
    public static ReplicatedMergeTreeLogEntry alterMetadata(String source, AlterMetadata alter) {
        return new ReplicatedMergeTreeLogEntry(Type.ALTER_METADATA, now(), source, "", "", List.of(), 0, alter);
    }

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
            case ALTER_METADATA:
                sb.append("alter\nalter_version\n").append(alter.alterVersion()).append("\nhave_mutation\n")
                    .append(alter.haveMutation() ? 1 : 0).append("\ncolumns_str_size:\n").append(utf8Length(alter.columns())).append('\n')
                    .append(alter.columns()).append("\nmetadata_str_size:\n").append(utf8Length(alter.metadata())).append('\n')
                    .append(alter.metadata()).append('\n');
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
            case "alter": {
                type = Type.ALTER_METADATA;
                part = "";
                expectLine(l, i++, "alter_version");
                int version = Integer.parseInt(line(l, i++));
                expectLine(l, i++, "have_mutation");
                boolean mutation = line(l, i++).equals("1");
                expectLine(l, i++, "columns_str_size:");
                int columnsSize = Integer.parseInt(line(l, i++));
                int[] at = {i};
                String columns = sized(l, at, columnsSize);
                i = at[0];
                expectLine(l, i++, "metadata_str_size:");
                int metadataSize = Integer.parseInt(line(l, i++));
                at[0] = i;
                String metadata = sized(l, at, metadataSize);
                return new ReplicatedMergeTreeLogEntry(type, created, source, blockId, part, List.of(), 0,
                    new AlterMetadata(version, mutation, columns, metadata));
            }
            default:
                throw new IllegalArgumentException("Unknown log entry type: " + kind);
        }
        int quorum = 0;
        if (i < l.length && l[i].startsWith("quorum: ")) {
            quorum = Integer.parseInt(l[i].substring("quorum: ".length()));
        }
        return new ReplicatedMergeTreeLogEntry(type, created, source, blockId, part, List.copyOf(sources), quorum, null);
    }

    private static int utf8Length(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    private static void expectLine(String[] l, int i, String expected) {
        if (!line(l, i).equals(expected)) {
            throw new IllegalArgumentException("Log entry line " + (i + 1) + " should be '" + expected + "': " + l[i]);
        }
    }

    /**
     * The text of {@code bytes} UTF-8 bytes starting at line {@code at[0]} (it may span lines); {@code at[0]} moves to
     * the line after it (the text is followed by a line break, which is not part of it).
     */
    private static String sized(String[] l, int[] at, int bytes) {
        StringBuilder sb = new StringBuilder();
        int i = at[0];
        while (utf8Length(sb.toString()) < bytes) {
            if (sb.length() > 0 || i > at[0]) {
                sb.append('\n');
            }
            sb.append(line(l, i++));
        }
        if (utf8Length(sb.toString()) != bytes) {
            throw new IllegalArgumentException("Log entry: a text of " + bytes + " bytes ends within line " + i);
        }
        at[0] = i;
        return sb.toString();
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
