package dev.chdedup.stub.cluster;

import dev.chdedup.stub.mergetree.DataPartStorageOnDisk;
import dev.chdedup.stub.server.StubServer;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster of stub servers in one JVM sharing one ZooKeeper, shaped like Curator's {@code TestingCluster}: S shards
 * ({@link Builder#shards}, default 1) of R replicas each ({@link Builder#replicas}), servers r1..rR per shard with the
 * macros {@code {shard}} = 01..S and {@code {replica}} = r1..rR, each with its own HTTP port (0: a free one) and data
 * directory (DIR/r1.. for one shard, DIR/s01/r1.. for several), on an embedded ZooKeeper ({@code TestingServer}), an
 * embedded ensemble of several ({@code TestingCluster}, {@link Builder#zookeeperEnsemble}) or an external one. The
 * servers register in the cluster named by {@link Builder#cluster}, so each one's {@code clusters()} knows the whole
 * cluster and ON CLUSTER reaches every shard and replica. Servers are numbered 1..S*R shard by shard
 * ({@link #replica(int)}, the fault handle's numbering) or by shard and replica ({@link #replica(int, int)}).
 * {@link #kill} stops a server as a crash would (its session is left to expire), {@link #restart} brings it back on
 * the same data directory; {@link #restartZooKeeper} restarts the embedded ZooKeeper. {@link #faults} is the handle
 * the chaos tests drive: every fault the cluster can suffer, logged as it fires.
 */
public final class StubCluster implements Closeable {
    private final Builder config;
    private final Path root;
    private final boolean tempRoot;
    private EmbeddedEnsemble zookeeper;
    private final ClusterFaults faults = new ClusterFaults(this);
    private final List<StubServer> replicas = new ArrayList<>();

    private StubCluster(Builder b) throws IOException {
        this.config = b;
        this.tempRoot = b.dataDir == null;
        this.root = b.dataDir != null ? b.dataDir : Files.createTempDirectory("chdedup-cluster-");
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts ZooKeeper (when embedded) and every replica, in order. */
    public StubCluster start() throws Exception {
        String connect = config.zookeeper;
        if (connect == null) {
            zookeeper = EmbeddedEnsemble.start(root.resolve("zookeeper").toFile(), config.zookeeperNodes);
            connect = zookeeper.connectString();
        }
        List<StubServer> built = new ArrayList<>();
        int shards = config.shards;
        for (int shard = 1; shard <= shards; shard++) {
            String shardName = shards == 1 ? config.shard : shardName(shard);
            for (int i = 1; i <= config.replicas; i++) {
                String name = "r" + i;
                int index = (shard - 1) * config.replicas + i - 1;
                int port = config.basePort == 0 ? 0 : config.basePort + index;
                int httpsPort = config.httpsBasePort <= 0 ? config.httpsBasePort : config.httpsBasePort + index;
                Path dir = shards == 1 ? root.resolve(name) : root.resolve("s" + shardName).resolve(name);
                Files.createDirectories(dir);
                StubServer.Builder b = StubServer.builder().host(config.host).port(port).dataDir(dir).zookeeper(connect)
                    .replicaName(name).macro("shard", shardName).cluster(config.cluster).zookeeperSessionTimeout(config.sessionTimeout);
                if (httpsPort >= 0) {
                    b.httpsPort(httpsPort);
                }
                config.replicaOptions.accept(b); // every mode one server takes reaches every replica
                built.add(b.build());
            }
        }
        // the replicas start in parallel, as separate servers would
        List<java.util.concurrent.CompletableFuture<StubServer>> starting = new ArrayList<>();
        for (StubServer s : built) {
            starting.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return s.start();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }));
        }
        try {
            for (java.util.concurrent.CompletableFuture<StubServer> f : starting) {
                replicas.add(f.join());
            }
        } catch (RuntimeException e) {
            for (StubServer s : built) {
                s.close();
            }
            replicas.clear();
            throw e;
        }
        return this;
    }

    /** The {@code {shard}} macro of shard {@code n} (from 1) of a cluster of several shards: 01, 02, ... */
    static String shardName(int n) {
        return String.format("%02d", n);
    }

    /** How many servers the cluster has: shards times replicas. */
    public int size() {
        return replicas.size();
    }

    /** How many shards. */
    public int shards() {
        return config.shards;
    }

    /** How many replicas each shard has. */
    public int replicasPerShard() {
        return config.replicas;
    }

    /** The cluster's name: the one its servers register under and ON CLUSTER names. */
    public String name() {
        return config.cluster;
    }

    /** Server {@code i}, counting from 1 shard by shard (with one shard: replica r{@code i}). */
    public StubServer replica(int i) {
        return replicas.get(i - 1);
    }

    /** Replica r{@code i} of shard {@code shard}, both counting from 1. */
    public StubServer replica(int shard, int i) {
        if (shard < 1 || shard > config.shards || i < 1 || i > config.replicas) {
            throw new IndexOutOfBoundsException("no replica " + i + " of shard " + shard + " in " + config.shards + " shards of "
                + config.replicas + " replicas");
        }
        return replicas.get((shard - 1) * config.replicas + i - 1);
    }

    /** The servers of shard {@code shard} (from 1), r1 first. */
    public List<StubServer> shard(int shard) {
        List<StubServer> out = new ArrayList<>();
        for (int i = 1; i <= config.replicas; i++) {
            out.add(replica(shard, i));
        }
        return out;
    }

    public List<StubServer> replicas() {
        return List.copyOf(replicas);
    }

    public List<String> httpUrls() {
        return replicas.stream().map(StubServer::httpUrl).toList();
    }

    public List<String> jdbcUrls() {
        return replicas.stream().map(StubServer::jdbcUrl).toList();
    }

    /** The ZooKeeper connect string the replicas use. */
    public String zookeeperConnectString() {
        return zookeeper != null ? zookeeper.connectString() : config.zookeeper;
    }

    /** The fault handle: kill and restart replicas and ZooKeeper nodes, expire sessions, arm failpoints. */
    public ClusterFaults faults() {
        return faults;
    }

    boolean hasEmbeddedZooKeeper() {
        return zookeeper != null;
    }

    /** The ZooKeeper the cluster started itself; an IllegalStateException when it uses an external one. */
    EmbeddedEnsemble embeddedZooKeeper() {
        if (zookeeper == null) {
            throw new IllegalStateException("the cluster uses an external ZooKeeper");
        }
        return zookeeper;
    }

    /** Stops replica {@code i} abruptly: no cleanup, its ZooKeeper session expires on its own. */
    public void kill(int i) {
        replica(i).kill();
    }

    /** Starts replica {@code i} again on the same data directory and port. */
    public StubServer restart(int i) throws IOException {
        return replica(i).start();
    }

    /** Stops the embedded ZooKeeper (its data stays); {@link #restartZooKeeper} brings it back on the same port. */
    public void stopZooKeeper() throws IOException {
        embeddedZooKeeper().stop();
    }

    /** Restarts the embedded ZooKeeper on the same port and data (sessions survive when it is back in time). */
    public void restartZooKeeper() throws Exception {
        embeddedZooKeeper().restart();
    }

    @Override
    public void close() throws IOException {
        for (StubServer s : replicas) {
            s.close();
        }
        if (zookeeper != null) {
            zookeeper.close();
        }
        if (tempRoot) {
            DataPartStorageOnDisk.deleteRecursively(root);
        }
    }

    public static final class Builder {
        private int replicas = 2;
        private int shards = 1;
        private String zookeeper;
        private String host = "127.0.0.1";
        private int basePort;
        private int httpsBasePort = -1;
        private Path dataDir;
        private String shard = "01";
        private String cluster = "default";
        private Duration sessionTimeout = Duration.ofSeconds(4);
        private int zookeeperNodes = 1;
        /** What every replica's server builder gets besides the cluster's own settings. */
        private java.util.function.Consumer<StubServer.Builder> replicaOptions = b -> { };

        public Builder replicas(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("replicas must be at least 1: " + n);
            }
            this.replicas = n;
            return this;
        }

        /** Shards of {@link #replicas} replicas each (default 1), their {@code {shard}} macros 01, 02, ... */
        public Builder shards(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("shards must be at least 1: " + n);
            }
            this.shards = n;
            return this;
        }

        /** An external ensemble ({@code host:port[,...]}); without one an embedded ZooKeeper starts with the cluster. */
        public Builder zookeeper(String connectString) {
            this.zookeeper = connectString;
            return this;
        }

        /** An embedded ensemble of {@code nodes} ZooKeeper servers (Curator's TestingCluster) instead of one. */
        public Builder zookeeperEnsemble(int nodes) {
            if (nodes < 1) {
                throw new IllegalArgumentException("an ensemble needs at least 1 node: " + nodes);
            }
            this.zookeeperNodes = nodes;
            return this;
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        /** HTTP port of the first server; the next server (shard by shard) gets the next one, and so on. 0 (the default): each picks a free port. */
        public Builder basePort(int port) {
            this.basePort = port;
            return this;
        }

        /** Also serves HTTPS, from this port of r1 on as {@link #basePort} (each replica's certificate: StubServer.Builder.httpsPort). */
        public Builder httpsBasePort(int port) {
            this.httpsBasePort = port;
            return this;
        }

        /**
         * A root directory kept after close (server data in r1/, r2/, ... with one shard; s01/r1/, ..., s02/r1/, ... with
         * several); without one a temporary one is removed.
         */
        public Builder dataDir(Path dir) {
            this.dataDir = dir;
            return this;
        }

        /** The {@code {shard}} macro of a cluster of one shard (default 01); several shards are 01, 02, ... */
        public Builder shard(String shard) {
            this.shard = shard;
            return this;
        }

        public Builder cluster(String name) {
            this.cluster = name;
            return this;
        }

        /** The replicas' ZooKeeper session timeout (default 4 s, so a killed replica's session expires soon). */
        public Builder sessionTimeout(Duration d) {
            this.sessionTimeout = d;
            return this;
        }

        /** Every replica plays this ClickHouse release ({@code 18.16}, {@code 22.1}), as {@link StubServer.Builder#emulate} does. */
        public Builder emulate(String version) {
            dev.chdedup.stub.compat.CompatibilityProfile.named(version); // refuse an unknown release now, naming the known ones
            return replicaOption(b -> b.emulate(version));
        }

        /** A user every replica knows, as {@link StubServer.Builder#user} adds it. */
        public Builder user(String name, String password) {
            return replicaOption(b -> b.user(name, password));
        }

        /** Settings every replica answers Code 115 for, as {@link StubServer.Builder#unknownSettings} makes them. */
        public Builder unknownSettings(String... names) {
            String[] copy = names.clone();
            return replicaOption(b -> b.unknownSettings(copy));
        }

        public Builder httpReceiveTimeout(Duration d) {
            return replicaOption(b -> b.httpReceiveTimeout(d));
        }

        public Builder httpSendTimeout(Duration d) {
            return replicaOption(b -> b.httpSendTimeout(d));
        }

        /** Any other option of {@link StubServer.Builder}, applied to every replica's builder. */
        public Builder replicaOption(java.util.function.Consumer<StubServer.Builder> option) {
            this.replicaOptions = this.replicaOptions.andThen(option);
            return this;
        }

        public StubCluster build() throws IOException {
            return new StubCluster(this);
        }
    }
}
