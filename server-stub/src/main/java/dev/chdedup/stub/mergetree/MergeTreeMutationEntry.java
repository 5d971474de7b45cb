package dev.chdedup.stub.mergetree;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * One mutation of a non-replicated MergeTree table, persisted as {@code mutation_<version>.txt} in the table's
 * directory with the text ClickHouse's {@code MergeTreeMutationEntry} writes ({@code format version: 1},
 * {@code create time: ...}, {@code commands: ...}). The version is a block number taken under the parts lock: the
 * mutation applies to every part whose data version is lower, and to no part inserted after it. It is written
 * (temporary file, fsync, rename) before any part is mutated, so a mutation a crash interrupted is found and
 * finished on load; it is done once no active part has a lower data version.
 */
public record MergeTreeMutationEntry(long version, long createTime, String commands) {
    static final String PREFIX = "mutation_";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

    public String fileName() {
        return PREFIX + version + ".txt";
    }

    /** The mutation id ClickHouse shows in system.mutations. */
    public String mutationId() {
        return fileName();
    }

    String text() {
        return "format version: 1\ncreate time: " + TIME.format(Instant.ofEpochSecond(createTime)) + "\ncommands: " + commands.replace("\n", " ")
            + "\n";
    }

    void write(Path dir) throws IOException {
        Path tmp = dir.resolve(DataPartStorageOnDisk.TMP_PREFIX + fileName());
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap(text().getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, dir.resolve(fileName()), StandardCopyOption.ATOMIC_MOVE);
        DataPartStorageOnDisk.fsyncDir(dir);
    }

    /** Reads {@code mutation_N.txt}; null if the name or the text is not a mutation's. */
    static MergeTreeMutationEntry read(Path file) throws IOException {
        String n = file.getFileName().toString();
        if (!n.startsWith(PREFIX) || !n.endsWith(".txt")) {
            return null;
        }
        long version;
        try {
            version = Long.parseLong(n.substring(PREFIX.length(), n.length() - 4));
        } catch (NumberFormatException e) {
            return null;
        }
        long created = Files.getLastModifiedTime(file).toMillis() / 1000;
        String commands = null;
        for (String line : Files.readString(file, StandardCharsets.UTF_8).split("\n")) {
            if (line.startsWith("create time: ")) {
                try {
                    created = java.time.LocalDateTime.parse(line.substring(13).replace(' ', 'T')).atZone(ZoneId.systemDefault()).toEpochSecond();
                } catch (java.time.DateTimeException ignored) {
                    // keep the file's time
                }
            } else if (line.startsWith("commands: ")) {
                commands = line.substring(10);
            }
        }
        return commands == null ? null : new MergeTreeMutationEntry(version, created, commands);
    }
}
