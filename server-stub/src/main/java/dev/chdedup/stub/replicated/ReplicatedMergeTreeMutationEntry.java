package dev.chdedup.stub.replicated;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.TreeMap;

/**
 * One replicated mutation, the node {@code mutations/NNNNNNNNNN} of a table, after ClickHouse's
 * {@code ReplicatedMergeTreeMutationEntry}: who made it and when, the block number it took in every partition (it
 * applies to the parts of that partition whose data version is below it, and to nothing inserted later) and its
 * commands in one escaped line, and the version of the ALTER it belongs to (-1 for an ALTER DELETE/UPDATE; a
 * RENAME COLUMN or type change made with an ALTER_METADATA entry carries the entry's version, and no replica mutates a
 * part for it before it has applied that ALTER). The text is what a real server writes:
 * {@code format version: 1\ncreate time: 2026-12-01 10:00:00\nsource replica: r1\nblock numbers count: 1\nall\t5\n}
 * then {@code commands: UPDATE s = \'x\' WHERE id = 1\nalter version: -1} (18.16: {@code mutation commands:\n} and the
 * commands, no alter version); {@link #parse} reads both.
 */
public record ReplicatedMergeTreeMutationEntry(String znodeName, long createTime, String sourceReplica, Map<String, Long> blockNumbers,
                                               String commands, int alterVersion) {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    public ReplicatedMergeTreeMutationEntry {
        blockNumbers = java.util.Collections.unmodifiableMap(new TreeMap<>(blockNumbers));
    }

    /** A mutation of no ALTER (alter version -1). */
    public ReplicatedMergeTreeMutationEntry(String znodeName, long createTime, String sourceReplica, Map<String, Long> blockNumbers,
                                            String commands) {
        this(znodeName, createTime, sourceReplica, blockNumbers, commands, -1);
    }

    /** The mutation's block number in {@code partitionId}; null when the mutation does not touch that partition. */
    public Long blockNumber(String partitionId) {
        return blockNumbers.get(partitionId);
    }

    /** Whether the mutation still has to rewrite a part of {@code partitionId} at {@code dataVersion}. */
    public boolean appliesTo(String partitionId, long dataVersion) {
        Long n = blockNumbers.get(partitionId);
        return n != null && dataVersion < n;
    }

    /** The text a current server writes. */
    public String toText() {
        return toText(false);
    }

    /** The text a current server writes, or with {@code legacy} what 18.16 wrote. */
    public String toText(boolean legacy) {
        StringBuilder sb = new StringBuilder(128);
        sb.append("format version: 1\n");
        sb.append("create time: ").append(TIME.format(Instant.ofEpochSecond(createTime))).append('\n');
        sb.append("source replica: ").append(sourceReplica).append('\n');
        sb.append("block numbers count: ").append(blockNumbers.size()).append('\n');
        for (Map.Entry<String, Long> e : blockNumbers.entrySet()) {
            sb.append(e.getKey()).append('\t').append(e.getValue()).append('\n');
        }
        if (legacy) {
            sb.append("mutation commands:\n").append(escape(commands));
        } else {
            sb.append("commands: ").append(escape(commands)).append("\nalter version: ").append(alterVersion);
        }
        return sb.toString();
    }

    /** Reads a mutation node's text; a text that is not a mutation's is an IllegalArgumentException naming the line. */
    public static ReplicatedMergeTreeMutationEntry parse(String znodeName, String text) {
        String[] l = text.split("\n", -1);
        if (l.length < 6 || !l[0].equals("format version: 1")) {
            throw new IllegalArgumentException("Mutation " + znodeName + ": unknown format: " + (l.length == 0 ? "" : l[0]));
        }
        long created = LocalDateTime.parse(value(l, 1, "create time: "), TIME).atZone(ZoneId.systemDefault()).toEpochSecond();
        String source = value(l, 2, "source replica: ");
        int count = Integer.parseInt(value(l, 3, "block numbers count: "));
        Map<String, Long> numbers = new TreeMap<>();
        int i = 4;
        for (int k = 0; k < count; k++, i++) {
            if (i >= l.length) {
                throw new IllegalArgumentException("Mutation " + znodeName + " ends early at line " + (i + 1));
            }
            int tab = l[i].indexOf('\t');
            if (tab <= 0) {
                throw new IllegalArgumentException("Mutation " + znodeName + " line " + (i + 1) + " is not '<partition>\\t<number>'");
            }
            numbers.put(l[i].substring(0, tab), Long.parseLong(l[i].substring(tab + 1)));
        }
        if (i < l.length && l[i].startsWith("commands: ")) {
            String commands = unescape(l[i].substring("commands: ".length()));
            int alterVersion = i + 1 < l.length && l[i + 1].startsWith("alter version: ")
                ? Integer.parseInt(l[i + 1].substring("alter version: ".length()).strip()) : -1;
            return new ReplicatedMergeTreeMutationEntry(znodeName, created, source, numbers, commands, alterVersion);
        }
        if (i + 1 >= l.length || !l[i].equals("mutation commands:")) {
            throw new IllegalArgumentException("Mutation " + znodeName + " line " + (i + 1) + " should be 'commands: ...' or 'mutation commands:'");
        }
        return new ReplicatedMergeTreeMutationEntry(znodeName, created, source, numbers, unescape(l[i + 1]));
    }

    private static String value(String[] l, int i, String prefix) {
        if (!l[i].startsWith(prefix)) {
            throw new IllegalArgumentException("Mutation line " + (i + 1) + " should start with '" + prefix + "': " + l[i]);
        }
        return l[i].substring(prefix.length());
    }

    /** ClickHouse's {@code writeEscapedString} for the one-line commands: backslash, quote and control characters. */
    static String escape(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\'' -> sb.append("\\'");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\r' -> sb.append("\\r");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                case '\0' -> sb.append("\\0");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }

    static String unescape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                sb.append(switch (n) {
                    case 'n' -> '\n';
                    case 't' -> '\t';
                    case 'r' -> '\r';
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case '0' -> '\0';
                    default -> n;
                });
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
