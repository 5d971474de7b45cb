package dev.chdedup.stub.distributed;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.MemoryTracker;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An INSERT into a Distributed table, as ClickHouse's {@code DistributedSink}: the block is split by the sharding key
 * ({@link StorageDistributed#createSelector}); one shard, or none with a key, takes the whole block. Foreground ({@code
 * distributed_foreground_insert}, 18.16's {@code insert_distributed_sync}): each shard's rows go as one block, with the
 * query's settings (the token among them), to one live replica of a shard with {@code internal_replication} (the next
 * one on a connection failure) or to every replica otherwise, a local shard written through the server's own insert
 * path; the query fails when any shard fails. Background (the default): each shard's rows are written, before the
 * answer, to a file per directory ({@code shardN_all_replicas} with internal replication, else {@code shardN_replicaM}
 * per replica; {@code user@host:port} names under 18.16), atomically and synced, and the directory's queue sends it
 * later; a local shard is written directly all the same, as the engine does under {@code prefer_localhost_replica}.
 */
final class DistributedSink {
    private final StorageDistributed storage;
    private final QueryContext ctx;
    private final Settings settings;

    DistributedSink(StorageDistributed storage, QueryContext ctx) {
        this.storage = storage;
        this.ctx = ctx;
        this.settings = ctx.settings();
    }

    /** A setting by its current name, or by the 18.16 name it had, whichever the query changed. */
    static String setting(Settings s, String name, String legacyName) {
        return !s.isChanged(name) && s.isChanged(legacyName) ? s.get(legacyName) : s.get(name);
    }

    private static boolean bool(String v) {
        return v.trim().equals("1") || v.trim().equalsIgnoreCase("true");
    }

    void write(List<Object[]> rows) {
        Cluster cluster = storage.cluster();
        // insert_shard_id names the one shard that takes every row (and makes the insert foreground);
        // insert_distributed_one_random_shard gives them all to one shard drawn by weight when there is no key
        long shardId = storage.legacy() ? 0 : settings.getLong("insert_shard_id");
        boolean randomShard = !storage.legacy() && settings.getBool("insert_distributed_one_random_shard") && !storage.hasShardingKey();
        if (shardId == 0 && !randomShard && !storage.hasShardingKey() && cluster.shards().size() >= 2) {
            throw new ChException(ErrorCode.STORAGE_REQUIRES_PARAMETER,
                "Method write is not supported by storage Distributed with more than one shard and no sharding key provided");
        }
        if (shardId > cluster.shards().size()) {
            throw new ChException(ErrorCode.INVALID_SHARD_ID, "Shard id should be range from 1 to shard number");
        }
        if (rows.isEmpty()) {
            return;
        }
        List<List<Object[]>> perShard;
        if (shardId > 0 || randomShard) {
            int only = shardId > 0 ? (int) shardId - 1 : cluster.slotToShard(java.util.concurrent.ThreadLocalRandom.current().nextInt(cluster.totalWeight()));
            perShard = new ArrayList<>();
            for (int i = 0; i < cluster.shards().size(); i++) {
                perShard.add(i == only ? rows : new ArrayList<>());
            }
        } else {
            perShard = split(cluster, rows);
        }
        perShard.replaceAll(this::sendable);
        if (shardId > 0 || bool(setting(settings, "distributed_foreground_insert", "insert_distributed_sync"))) {
            writeSync(cluster, perShard);
        } else {
            writeAsync(cluster, perShard);
        }
    }

    /**
     * The rows cut to the columns sent ({@link StorageDistributed#columnsToSend}): MATERIALIZED ones are computed by
     * the shard, unless {@code insert_allow_materialized_columns}.
     */
    private List<Object[]> sendable(List<Object[]> rows) {
        int[] keep = storage.columnsToSendIndexes();
        if (keep.length == storage.tableColumns().size()) {
            return rows;
        }
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Object[] r : rows) {
            Object[] o = new Object[keep.length];
            for (int i = 0; i < keep.length; i++) {
                o[i] = r[keep[i]];
            }
            out.add(o);
        }
        return out;
    }

    /** The rows of each shard (by index from 0), in their order in the block. */
    private List<List<Object[]>> split(Cluster cluster, List<Object[]> rows) {
        List<List<Object[]>> perShard = new ArrayList<>();
        for (int i = 0; i < cluster.shards().size(); i++) {
            perShard.add(new ArrayList<>());
        }
        if (cluster.shards().size() == 1) {
            perShard.get(0).addAll(rows);
            return perShard;
        }
        int[] selector = storage.createSelector(cluster, rows, ctx);
        for (int i = 0; i < rows.size(); i++) {
            perShard.get(selector[i]).add(rows.get(i));
        }
        return perShard;
    }

    private boolean preferLocalhostReplica() {
        return settings.getBool("prefer_localhost_replica");
    }

    // ---- foreground ----

    private void writeSync(Cluster cluster, List<List<Object[]>> perShard) {
        long started = System.nanoTime();
        long timeout = Long.parseLong(setting(settings, "distributed_background_insert_timeout", "insert_distributed_timeout").trim());
        List<String> status = new ArrayList<>();
        try {
            for (int s = 0; s < perShard.size(); s++) {
                List<Object[]> shardRows = perShard.get(s);
                if (shardRows.isEmpty()) {
                    continue; // no INSERT for an empty block
                }
                Cluster.ShardInfo shard = cluster.shards().get(s);
                List<Cluster.Address> local = storage.server().clusters().localReplicas(shard);
                boolean writeLocal = !local.isEmpty() && preferLocalhostReplica();
                if (!shard.internalReplication() || !writeLocal) {
                    List<Cluster.Address> remote = new ArrayList<>();
                    for (Cluster.Address a : shard.replicas()) {
                        if (!local.contains(a) || !preferLocalhostReplica()) {
                            remote.add(a);
                        }
                    }
                    if (shard.internalReplication()) {
                        Cluster.Address a = sendToOneReplica(remote, shardRows);
                        status.add("Wrote 1 blocks and " + shardRows.size() + " rows on shard " + s + " replica " + (a.replicaIndex() - 1) + ", "
                            + a.hostPort());
                    } else {
                        for (Cluster.Address a : remote) {
                            sendToOneReplica(List.of(a), shardRows);
                            status.add("Wrote 1 blocks and " + shardRows.size() + " rows on shard " + s + " replica " + (a.replicaIndex() - 1)
                                + ", " + a.hostPort());
                        }
                    }
                }
                if (writeLocal) {
                    writeToLocal(shardRows, local.size(), ctx);
                    status.add("Wrote 1 blocks and " + shardRows.size() + " rows on shard " + s + " (local)");
                }
            }
        } catch (ChException e) {
            throw new ChException(e.code(), e.getMessage() + ": Insertion status:\n" + String.join("\n", status), e);
        }
        if (timeout > 0 && (System.nanoTime() - started) / 1_000_000_000L > timeout) {
            throw new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Synchronous distributed insert timeout exceeded.");
        }
    }

    /**
     * Sends the rows to the first replica of {@code replicas} that takes a connection (ConnectionPoolWithFailover), as a
     * shard with internal replication is written through one of them; an error the replica answered is the insert's.
     */
    private Cluster.Address sendToOneReplica(List<Cluster.Address> replicas, List<Object[]> rows) {
        return ConnectionPoolWithFailover.tryEach(storage.server().clusters(), replicas, settings, c -> {
            c.insert(remoteName(), storage.columnsToSend(), rows, settings.changed());
            return c.address();
        });
    }

    /** The remote table, qualified and quoted; an empty remote database is the replica's default one. */
    String remoteName() {
        return storage.remoteDatabase().isEmpty() ? Connection.quote(storage.remoteTable())
            : Connection.quote(storage.remoteDatabase()) + "." + Connection.quote(storage.remoteTable());
    }

    /** A local shard's rows through the server's own insert path, once per local replica, in {@code in} (its settings). */
    private void writeToLocal(List<Object[]> rows, int repeats, QueryContext in) {
        String db = storage.remoteDatabase().isEmpty() ? ctx.database() : storage.remoteDatabase();
        for (int i = 0; i < repeats; i++) {
            storage.server().insertLocal(db, storage.remoteTable(), storage.columnsToSend(), rows, in);
        }
    }

    /**
     * The context of a background insert's local write: the query's; under 18.16 the server's own (its
     * DistributedBlockOutputStream wrote a local shard with the storage's context, and its files carried no settings, so
     * a background insert deduplicated on every shard whatever its insert_deduplicate said).
     */
    private QueryContext backgroundContext() {
        return storage.legacy() ? ctx.withSettings(Settings.ofRelease(ctx.compat().settingDefaults())) : ctx;
    }

    // ---- background ----

    private void writeAsync(Cluster cluster, List<List<Object[]>> perShard) {
        for (int s = 0; s < perShard.size(); s++) {
            List<Object[]> shardRows = perShard.get(s);
            if (shardRows.isEmpty()) {
                continue;
            }
            Cluster.ShardInfo shard = cluster.shards().get(s);
            List<Cluster.Address> local = storage.server().clusters().localReplicas(shard);
            boolean writeLocal = !local.isEmpty() && preferLocalhostReplica();
            if (shard.internalReplication()) {
                if (writeLocal) {
                    writeToLocal(shardRows, local.size(), backgroundContext());
                } else {
                    writeToShard(shard, shardRows, List.of(directoryName(shard, null)));
                }
                continue;
            }
            if (writeLocal) {
                writeToLocal(shardRows, local.size(), backgroundContext());
            }
            List<String> dirs = new ArrayList<>();
            for (Cluster.Address a : shard.replicas()) {
                if (!local.contains(a) || !preferLocalhostReplica()) {
                    dirs.add(directoryName(shard, a));
                }
            }
            if (!dirs.isEmpty()) {
                writeToShard(shard, shardRows, dirs);
            }
        }
    }

    /**
     * The directory of a shard's files ({@code replica} null: the whole shard, with internal replication), as the
     * engine names it: {@code shardN_replicaM} / {@code shardN_all_replicas} under {@code
     * use_compact_format_in_distributed_parts_names} (26.7's default), else {@code user[:password]@host:port[#db]} per
     * replica joined by commas (18.16's only form), escaped for a file name.
     */
    private String directoryName(Cluster.ShardInfo shard, Cluster.Address replica) {
        boolean compact = !storage.legacy() && settings.getBool("use_compact_format_in_distributed_parts_names");
        if (compact) {
            return replica == null ? "shard" + shard.shardNum() + "_all_replicas" : "shard" + shard.shardNum() + "_replica" + replica.replicaIndex();
        }
        List<Cluster.Address> of = replica == null ? shard.replicas() : List.of(replica);
        StringBuilder sb = new StringBuilder();
        for (Cluster.Address a : of) {
            sb.append(sb.length() == 0 ? "" : ",").append(DistributedAsyncInsertDirectoryQueue.legacyName(a));
        }
        return sb.toString();
    }

    /**
     * The rows as one file in each of {@code dirs}: written under {@code tmp/}, synced, then moved to its number's name,
     * so a queue never sees a file half written and a crash leaves either the whole file or none.
     */
    private void writeToShard(Cluster.ShardInfo shard, List<Object[]> rows, List<String> dirs) {
        List<Column> columns = storage.columnsToSend();
        long bytes = 0;
        for (Object[] r : rows) {
            bytes += MemoryTracker.rowBytes(columns, r);
        }
        // 18.16's files held the query text and the block; its sender used the server's settings
        Map<String, String> carried = storage.legacy() ? Map.of() : new LinkedHashMap<>(settings.changed());
        DistributedAsyncInsertHeader header = new DistributedAsyncInsertHeader(DistributedAsyncInsertHeader.REVISION, insertQuery(),
            carried, rows.size(), bytes, DistributedAsyncInsertHeader.structure(columns), shard.shardNum(), storage.clusterName(),
            storage.database() + "." + storage.name(), storage.remoteDatabase() + "." + storage.remoteTable());
        byte[] file;
        try {
            file = header.write(Connection.nativeBlock(columns, rows));
            for (String dir : dirs) {
                Path path = storage.dataDir().resolve(dir);
                Path tmp = path.resolve("tmp");
                if (!Files.isDirectory(tmp)) {
                    Files.createDirectories(tmp);
                    syncDirectory(storage.dataDir()); // the new directory's entry survives a crash with the file
                }
                String name = storage.nextFileNumber() + ".bin";
                Path tmpFile = tmp.resolve(name);
                try (FileChannel ch = FileChannel.open(tmpFile, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                    ch.write(java.nio.ByteBuffer.wrap(file));
                    ch.force(true);
                }
                Files.move(tmpFile, path.resolve(name), StandardCopyOption.ATOMIC_MOVE);
                syncDirectory(path);
                storage.directoryQueue(dir).addFileAndSchedule(
                    Long.parseLong(setting(settings, "distributed_background_insert_sleep_time_ms", "distributed_directory_monitor_sleep_time_ms")
                        .trim()));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the file records as its query: the INSERT the shard runs, as the engine writes it. */
    private String insertQuery() {
        StringBuilder q = new StringBuilder("INSERT INTO ").append(remoteName()).append(" (");
        for (int i = 0; i < storage.columnsToSend().size(); i++) {
            q.append(i == 0 ? "" : ", ").append(Connection.quote(storage.columnsToSend().get(i).name()));
        }
        return q.append(") VALUES").toString();
    }

    static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // a file system that cannot sync a directory: the rename is as durable as it allows
        }
    }
}
