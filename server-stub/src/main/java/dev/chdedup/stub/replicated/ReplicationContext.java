package dev.chdedup.stub.replicated;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.test.TestingServer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one server knows about replication, after the server-level part of ClickHouse's {@code Context}: the
 * ZooKeeper session (an ensemble's connect string, or an embedded Curator {@code TestingServer} started on first
 * use, so a server with only plain MergeTree tables never starts one), the macros ({@code {shard}},
 * {@code {replica}}, ...), the default replica path and name, the cluster name, the interserver endpoint
 * ({@link DataPartsExchange}) and the replicated tables it serves parts of. {@link #close} ends the session cleanly;
 * {@link #kill} abandons it, as a crash would, so the replica's ephemeral nodes live on until the session expires.
 */
public final class ReplicationContext implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicationContext.class);
    public static final String DEFAULT_REPLICA_PATH = "/clickhouse/tables/{shard}/{database}/{table}";

    /**
     * Server settings for replication; {@code zookeeper} null means an embedded ZooKeeper; {@code compatibility} is the
     * server profile's (the older release it plays, else empty), whose MergeTree defaults its tables take.
     */
    public record Config(String zookeeper, String replicaName, Map<String, String> macros, String cluster, int sessionTimeoutMs,
                         String host, boolean legacyBlocksDirectory, String compatibility) {
        public Config {
            macros = Map.copyOf(macros);
        }
    }

    private final Config config;
    private final Path dataDir;
    /** Read or made on first use, so a server without replicated tables writes no file for it. */
    private String serverId;
    private java.util.UUID serverUuid;
    private final Map<String, StorageReplicatedMergeTree> tables = new ConcurrentHashMap<>();
    /** The ZooKeeper path of each replicated table by {@code database.name}, kept while a table is opened again. */
    private final Map<String, String> zookeeperPaths = new ConcurrentHashMap<>();
    private TestingServer embedded;
    private volatile ZooKeeperClient zk;
    private DataPartsExchange exchange;
    private volatile boolean closed;
    /** ClickHouse's BackgroundFetchesPool and BackgroundPool (merges, mutations, drops), shared by the server's tables. */
    private java.util.concurrent.ExecutorService fetchPool;
    private java.util.concurrent.ExecutorService mergePool;
    /** ClickHouse's {@code background_fetches_pool_size} and {@code background_pool_size} defaults. */
    static final int BACKGROUND_FETCHES_POOL_SIZE = 16;
    static final int BACKGROUND_POOL_SIZE = 16;
    /** Turns a mutation's command text into its row function for a table (set by the interpreter); null until then. */
    private volatile java.util.function.BiFunction<dev.chdedup.stub.mergetree.StorageMergeTree, String,
        dev.chdedup.stub.mergetree.MergeTreeDataMergerMutator.RowMutation> mutationCompiler;

    public ReplicationContext(Config config, Path dataDir) {
        this.config = config;
        this.dataDir = dataDir;
    }

    /** A random id kept in the data directory: a restarted server knows its own {@code is_active} node by it. */
    private static String loadServerId(Path dataDir) {
        Path f = dataDir.resolve("replica_server_id.txt");
        try {
            Files.createDirectories(dataDir);
            if (Files.exists(f)) {
                return Files.readString(f, StandardCharsets.UTF_8).trim();
            }
            String id = Long.toUnsignedString(new SecureRandom().nextLong());
            Files.writeString(f, id, StandardCharsets.UTF_8);
            return id;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void setMutationCompiler(java.util.function.BiFunction<dev.chdedup.stub.mergetree.StorageMergeTree, String,
        dev.chdedup.stub.mergetree.MergeTreeDataMergerMutator.RowMutation> compiler) {
        this.mutationCompiler = compiler;
        for (StorageReplicatedMergeTree t : tables.values()) {
            t.queue().wakeUp();
        }
    }

    java.util.function.BiFunction<dev.chdedup.stub.mergetree.StorageMergeTree, String,
        dev.chdedup.stub.mergetree.MergeTreeDataMergerMutator.RowMutation> mutationCompiler() {
        return mutationCompiler;
    }

    /**
     * Makes a replicated table's local definition the one an executed ALTER_METADATA entry gives, and opens the table
     * again over its parts (set by the server); null until then.
     */
    private volatile java.util.function.BiConsumer<StorageReplicatedMergeTree, ReplicatedMergeTreeLogEntry.AlterMetadata> metadataApplier;

    public void setMetadataApplier(java.util.function.BiConsumer<StorageReplicatedMergeTree, ReplicatedMergeTreeLogEntry.AlterMetadata> applier) {
        this.metadataApplier = applier;
    }

    /**
     * Applies an ALTER_METADATA entry's definition to {@code table} on a thread of its own: opening the table again
     * stops the old object's queue, whose thread asks for it.
     */
    void applyMetadata(StorageReplicatedMergeTree table, ReplicatedMergeTreeLogEntry.AlterMetadata alter) {
        java.util.function.BiConsumer<StorageReplicatedMergeTree, ReplicatedMergeTreeLogEntry.AlterMetadata> a = metadataApplier;
        if (a == null) {
            LOG.warn("{}: no applier for ALTER_METADATA version {}; the definition changes at the next start", table.replicaPath(),
                alter.alterVersion());
            return;
        }
        Thread t = new Thread(() -> {
            try {
                a.accept(table, alter);
            } catch (RuntimeException e) {
                LOG.warn("{}: applying ALTER_METADATA version {} failed: {}", table.replicaPath(), alter.alterVersion(), e.toString());
            }
        }, "alter-metadata");
        t.setDaemon(true);
        t.start();
    }

    public Config config() {
        return config;
    }

    public String replicaName() {
        return config.replicaName();
    }

    /**
     * The server's UUID, as {@code creator_info} names it: ClickHouse's {@code ServerUUID}, kept in the data
     * directory's {@code uuid} file, made on first use.
     */
    public synchronized java.util.UUID serverUuid() {
        if (serverUuid == null) {
            Path f = dataDir.resolve("uuid");
            try {
                Files.createDirectories(dataDir);
                if (Files.exists(f)) {
                    serverUuid = java.util.UUID.fromString(Files.readString(f, StandardCharsets.UTF_8).trim());
                } else {
                    serverUuid = java.util.UUID.randomUUID();
                    Files.writeString(f, serverUuid.toString(), StandardCharsets.UTF_8);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return serverUuid;
    }

    /** The value of this server's {@code is_active} nodes, as ClickHouse 18.16 writes it. */
    public synchronized String activeNodeIdentifier() {
        if (serverId == null) {
            serverId = loadServerId(dataDir);
        }
        return "pid: " + ProcessHandle.current().pid() + ", random: " + serverId;
    }

    /** The macros, with {@code {replica}} defaulting to the replica name. */
    public Map<String, String> macros() {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("shard", "01");
        m.put("replica", config.replicaName());
        m.putAll(config.macros());
        return m;
    }

    /** Substitutes {@code {database}}, {@code {table}} and the macros in an engine argument. */
    public String substitute(String pattern, String database, String table) {
        Map<String, String> m = macros();
        m.put("database", database);
        m.put("table", table);
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < pattern.length()) {
            int open = pattern.indexOf('{', i);
            if (open < 0) {
                sb.append(pattern, i, pattern.length());
                break;
            }
            int close = pattern.indexOf('}', open);
            if (close < 0) {
                throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.BAD_ARGUMENTS,
                    "Unbalanced { in " + pattern);
            }
            String name = pattern.substring(open + 1, close);
            String v = m.get(name);
            if (v == null) {
                throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.BAD_ARGUMENTS,
                    "No macro '" + name + "' in config while processing substitutions in '" + pattern + "'");
            }
            sb.append(pattern, i, open).append(v);
            i = close + 1;
        }
        return sb.toString();
    }

    /**
     * The session, started on first use (and the embedded ZooKeeper and the interserver endpoint with it). Once started
     * it is handed out without the context's monitor: a shutdown holds that monitor while it waits for the tables'
     * threads, which then fail at once here instead of waiting for it (a killed replica stayed half alive 5-15 s).
     */
    public ZooKeeperClient zookeeper() {
        ZooKeeperClient started = zk;
        if (closed) {
            throw new IllegalStateException("replication context closed");
        }
        return started != null ? started : startZooKeeper();
    }

    private synchronized ZooKeeperClient startZooKeeper() {
        if (closed) {
            throw new IllegalStateException("replication context closed");
        }
        if (zk == null) {
            try {
                String connect = config.zookeeper();
                if (connect == null) {
                    embedded = dev.chdedup.stub.replicated.EmbeddedZooKeeper.start(dataDir.resolve("zookeeper").toFile());
                    connect = embedded.getConnectString();
                    LOG.info("Embedded ZooKeeper serves on {}", connect);
                }
                zk = new ZooKeeperClient(connect, config.sessionTimeoutMs());
                exchange = new DataPartsExchange(config.host(), this).start();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            } catch (Exception e) {
                throw new dev.chdedup.stub.error.ChException(dev.chdedup.stub.error.ErrorCode.UNEXPECTED_ZOOKEEPER_ERROR,
                    "Cannot start the ZooKeeper session: " + e, e);
            }
        }
        return zk;
    }

    /** Whether a session was started (system.zookeeper answers nothing otherwise). */
    public synchronized boolean started() {
        return zk != null;
    }

    /** The embedded ZooKeeper's connect string, or null when none runs. */
    public synchronized String embeddedConnectString() {
        return embedded == null ? null : embedded.getConnectString();
    }

    public int interserverPort() {
        zookeeper();
        return exchange.port();
    }

    /** The pool that runs GET_PART entries of every replicated table of this server. */
    synchronized java.util.concurrent.Executor fetchPool() {
        if (fetchPool == null) {
            fetchPool = pool("BgFetch", BACKGROUND_FETCHES_POOL_SIZE);
        }
        return fetchPool;
    }

    /** The pool that runs the other entries (merges, mutations, drops) of every replicated table of this server. */
    synchronized java.util.concurrent.Executor mergePool() {
        if (mergePool == null) {
            mergePool = pool("BgPool", BACKGROUND_POOL_SIZE);
        }
        return mergePool;
    }

    private java.util.concurrent.ExecutorService pool(String name, int size) {
        if (closed) {
            throw new java.util.concurrent.RejectedExecutionException("replication context closed");
        }
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.ThreadPoolExecutor p = new java.util.concurrent.ThreadPoolExecutor(size, size, 30, java.util.concurrent.TimeUnit.SECONDS,
            new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, name + "-" + config.replicaName() + "-" + n.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        p.allowCoreThreadTimeOut(true);
        return p;
    }

    void register(StorageReplicatedMergeTree t) {
        tables.put(t.replicaPath(), t);
        zookeeperPaths.put(t.database() + "." + t.name(), t.zookeeperPath());
    }

    /** A dropped table: its name no longer names a ZooKeeper path here. */
    void dropped(StorageReplicatedMergeTree t) {
        zookeeperPaths.remove(t.database() + "." + t.name(), t.zookeeperPath());
    }

    /**
     * The ZooKeeper path of this server's replicated table {@code database.name}, or null: known also while an ALTER
     * opens the table again (when {@link #tableByName} finds no object for a moment).
     */
    String zookeeperPathOf(String database, String name) {
        return zookeeperPaths.get(database + "." + name);
    }

    void unregister(StorageReplicatedMergeTree t) {
        tables.remove(t.replicaPath(), t);
    }

    /** The replicated table {@code database.name} of this server, or null. */
    StorageReplicatedMergeTree tableByName(String database, String name) {
        for (StorageReplicatedMergeTree t : tables.values()) {
            if (t.database().equals(database) && t.name().equals(name)) {
                return t;
            }
        }
        return null;
    }

    StorageReplicatedMergeTree tableByReplicaPath(String replicaPath) {
        return tables.get(replicaPath);
    }

    public List<StorageReplicatedMergeTree> tables() {
        return List.copyOf(tables.values());
    }

    @Override
    public synchronized void close() {
        shutdown(false);
    }

    /** Stops as a crash would: no node is removed, the session is left to expire on the ZooKeeper side. */
    public synchronized void kill() {
        shutdown(true);
    }

    private void stopPoolsAndExchange() {
        for (java.util.concurrent.ExecutorService p : new java.util.concurrent.ExecutorService[] {fetchPool, mergePool}) {
            if (p != null) {
                p.shutdownNow();
            }
        }
        if (exchange != null) {
            exchange.close();
        }
    }

    private void shutdown(boolean abrupt) {
        if (closed) {
            return;
        }
        closed = true;
        if (abrupt) {
            // a crash: the session is left to expire and the work in flight fails at once, as a killed process's
            // threads end with it; waiting for them to finish first kept a killed replica half alive for 10-15 s
            if (zk != null) {
                zk.abandon();
            }
            stopPoolsAndExchange();
        }
        for (StorageReplicatedMergeTree t : tables.values()) {
            t.shutdown(abrupt);
        }
        tables.clear();
        if (!abrupt) {
            stopPoolsAndExchange();
            if (zk != null) {
                zk.close();
            }
        }
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                LOG.warn("Embedded ZooKeeper did not stop cleanly: {}", e.toString());
            }
        }
    }
}
