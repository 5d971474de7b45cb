package dev.chdedup.stub.server;

import dev.chdedup.stub.async.AsyncInsertSink;
import dev.chdedup.stub.async.AsynchronousInsertQueue;
import dev.chdedup.stub.common.Events;
import dev.chdedup.stub.dedup.DeduplicationService;
import dev.chdedup.stub.exec.ProcessList;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.fault.FaultInjector;
import dev.chdedup.stub.http.HttpServer;
import dev.chdedup.stub.http.TlsContext;
import dev.chdedup.stub.mergetree.DataPartStorageOnDisk;
import dev.chdedup.stub.mv.ViewRegistry;
import dev.chdedup.stub.system.SystemTables;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The embeddable ClickHouse-compatible server, shaped like Curator's {@code TestingServer}: built with a
 * {@link Builder}, then {@link #start()}, {@link #stop()}, {@link #restart()} (same data directory, same port) and
 * {@link #close()}. Port 0 picks a free port; without a data directory a temporary one is used and removed on
 * close. State: LATENT, STARTED, STOPPED, CLOSED, and FAILED after an Error (OutOfMemoryError) on one of its
 * HTTP threads: the server then closes its socket at once (clients see connection refused, never a zombie that
 * accepts and never answers) and calls the builder's fatal handler; the command line halts the JVM there. With an
 * {@link Builder#httpsPort HTTPS port} the same handler also serves HTTPS, as ClickHouse's {@code https_port}.
 */
public final class StubServer implements Closeable {
    static {
        dev.chdedup.stub.exec.FunctionFormatRow.install(new dev.chdedup.stub.format.FormatRow());
    }

    public enum State { LATENT, STARTED, STOPPED, CLOSED, FAILED }

    private final String host;
    private int port;
    /** As {@code port}, for HTTPS (ClickHouse's https_port); -1: none. */
    private int httpsPort;
    private final TlsContext.Source tlsSource;
    private final Path dataDir;
    private final boolean tempDir;
    private final Map<String, String> users;
    private final String clusterUser;
    private final Duration keepAlive;
    private final Duration receiveTimeout;
    private final Duration sendTimeout;
    private final java.util.function.Consumer<Throwable> fatalHandler;
    private final java.util.Set<String> unknownSettings;
    /** The directory file() reads (ClickHouse's user_files_path): the builder's, else user_files in the data directory. */
    private final Path userFiles;
    private final dev.chdedup.stub.compat.CompatibilityProfile compat;
    private volatile State state = State.LATENT;
    private HttpServer http;
    private HttpServer https;
    /** The HTTPS port's key and certificate, loaded at start. */
    private TlsContext tls;
    private DatabaseCatalog catalog;
    private Events events;
    private Components components;
    private DeduplicationService dedup;
    private AsynchronousInsertQueue asyncInserts;
    /** The distributed DDL worker: started with the server when it names a ZooKeeper, else by the first ON CLUSTER query. */
    private dev.chdedup.stub.replicated.DDLWorker ddlWorker;
    private dev.chdedup.stub.replicated.ReplicationContext replication;
    private final dev.chdedup.stub.replicated.ReplicationContext.Config replicationConfig;
    /** Survives restarts, so a test can arm a fault and then restart the server. */
    private final FaultInjector faults = new FaultInjector();
    /** The clusters this server knows (its remote_servers); survives restarts as a configuration would. */
    private final dev.chdedup.stub.distributed.Clusters clusters = new dev.chdedup.stub.distributed.Clusters();
    /** The ClickHouse configuration file given, whose remote_servers are read again at each start; null when none. */
    private final Path configFile;
    /** The clusters the configuration file defined at the last (re)load. */
    private final java.util.Set<String> configuredClusters = new java.util.HashSet<>();

    /** What a running server is made of; features and tests reach the engine through it. */
    public record Components(DatabaseCatalog catalog, Interpreter interpreter, Events events, SystemTables system,
                             DeduplicationService dedup, ViewRegistry views) {
    }

    private StubServer(Builder b) throws IOException {
        this.host = b.host;
        this.port = b.port;
        this.httpsPort = b.httpsPort;
        this.tlsSource = b.tlsSource != null ? b.tlsSource : TlsContext.selfSigned();
        this.tempDir = b.dataDir == null;
        this.dataDir = b.dataDir != null ? b.dataDir : Files.createTempDirectory("chdedup-stub-");
        // configuring any user closes the password-less default user unless it is configured too
        this.users = b.users.isEmpty() ? Map.of("default", "") : Map.copyOf(b.users);
        // the user the servers of a discovered cluster reach each other as: default if it exists, else the first one given
        this.clusterUser = users.containsKey("default") ? "default" : b.users.keySet().iterator().next();
        this.keepAlive = b.keepAlive;
        this.receiveTimeout = b.receiveTimeout;
        this.sendTimeout = b.sendTimeout;
        this.fatalHandler = b.fatalHandler;
        this.unknownSettings = java.util.Set.copyOf(b.unknownSettings);
        this.userFiles = b.userFiles != null ? b.userFiles : dataDir.resolve("user_files");
        this.compat = b.compat;
        this.configFile = b.configFile;
        dev.chdedup.stub.distributed.ConfigProcessor.ServerConfig file = b.configFile == null ? null
            : dev.chdedup.stub.distributed.ConfigProcessor.load(b.configFile);
        // what the builder was told explicitly wins over the file, as command-line options over config.xml
        Map<String, String> macros = new LinkedHashMap<>(file == null ? Map.of() : file.macros());
        macros.putAll(b.macros);
        String replicaName = b.replicaName != null ? b.replicaName : macros.getOrDefault("replica", "r1");
        String cluster = b.cluster != null ? b.cluster : macros.getOrDefault("cluster", "default");
        String zookeeper = b.zookeeperSet || file == null ? b.zookeeper : file.zookeeper();
        int sessionTimeout = b.zookeeperSessionTimeoutMs != null ? b.zookeeperSessionTimeoutMs
            : file != null && file.zookeeperSessionTimeoutMs() != null ? file.zookeeperSessionTimeoutMs() : 30_000;
        this.replicationConfig = new dev.chdedup.stub.replicated.ReplicationContext.Config(zookeeper, replicaName, macros, cluster,
            sessionTimeout, b.host, "18.16".equals(b.emulated), b.compat.version() == null ? "" : b.compat.version());
        if (file != null) {
            defineConfigured(file);
        }
    }

    /** Defines the configuration's clusters, forgetting those an earlier reading defined that it no longer has. */
    private synchronized void defineConfigured(dev.chdedup.stub.distributed.ConfigProcessor.ServerConfig file) {
        java.util.Set<String> now = new java.util.HashSet<>();
        for (dev.chdedup.stub.distributed.Cluster c : file.clusters()) {
            clusters.define(c);
            now.add(c.name());
        }
        for (String gone : configuredClusters) {
            if (!now.contains(gone)) {
                clusters.remove(gone);
            }
        }
        configuredClusters.clear();
        configuredClusters.addAll(now);
    }

    /**
     * Reads the configuration file's {@code remote_servers} again, as ClickHouse reloads its configuration (SYSTEM
     * RELOAD CONFIG); macros and ZooKeeper take effect at the next start. Does nothing without a file.
     */
    public void reloadConfig() {
        if (configFile != null) {
            defineConfigured(dev.chdedup.stub.distributed.ConfigProcessor.load(configFile));
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public synchronized StubServer start() throws IOException {
        if (state == State.STARTED) {
            return this;
        }
        if (state == State.CLOSED) {
            throw new IllegalStateException("closed");
        }
        if (state == State.FAILED) {
            stop();
        }
        if (httpsPort >= 0) {
            tls = tlsSource.load(dataDir.resolve(HTTPS_DIR), host); // a certificate that cannot be used fails the start at once
        }
        if (state != State.LATENT) {
            reloadConfig(); // a restarted server reads its remote_servers again
        }
        replication = new dev.chdedup.stub.replicated.ReplicationContext(replicationConfig, dataDir);
        DistributedServer distributed = new DistributedServer(clusters, compat);
        catalog = new DatabaseCatalog(dataDir, dev.chdedup.stub.replicated.ReplicatedStorages.factory(replication), java.util.Map.of("Distributed",
            (db, ct, dir, sql, attach) -> dev.chdedup.stub.distributed.StorageDistributed.create(distributed, db, ct, dir, attach)));
        events = new Events();
        SystemTables system = new SystemTables(catalog, events);
        catalog.attachSystem(system);
        catalog.attachRemoteTables(new dev.chdedup.stub.distributed.RemoteTableFunctions(clusters, catalog, () -> port));
        distributed.readWith(catalog);
        catalog.attachUserFiles(userFiles);
        SelectExecutor selects = new SelectExecutor(catalog);
        dev.chdedup.stub.exec.AggregateFunctionGroupFormat.attachWriter(new GroupFormatWriter());
        catalog.attachViewReader((view, ctx) -> {
            SelectExecutor.Stream result = selects.execute(view.select(), ctx);
            return new dev.chdedup.stub.exec.TableSource() {
                @Override
                public java.util.List<dev.chdedup.stub.data.Column> columns() {
                    return result.columns();
                }

                @Override
                public java.util.Iterator<dev.chdedup.stub.data.Block> read(int maxBlockSize, boolean withVirtuals) {
                    return result.blocks();
                }
            };
        });
        dedup = new DeduplicationService();
        ViewRegistry views = new ViewRegistry(catalog, dedup, events);
        asyncInserts = new AsynchronousInsertQueue(new AsyncInsertSink(catalog, dedup, views, events)).start();
        InsertInterpreter inserts = new InsertInterpreter(catalog, selects,
            dev.chdedup.stub.replicated.ReplicatedStorages.sinks(views::sink, events, views), asyncInserts);
        inserts.pushStorageInsertsWith(views::pushFromStorage);
        distributed.insertWith(inserts);
        SystemCommands commands = new SystemCommands(catalog, dedup, views, faults);
        system.attachExtra(new dev.chdedup.stub.system.ReplicationSystemTables(catalog, replication));
        system.attachExtra(new dev.chdedup.stub.system.StorageSystemClusters(clusters));
        system.attachExtra(new dev.chdedup.stub.system.DistributionQueueTable(catalog));
        commands.onFlushAsyncInserts(asyncInserts::flushAll);
        commands.onReloadConfig(this::reloadConfig);
        commands.loadViews(catalog.takePendingViews());
        system.attach(dedup.partLog());
        ProcessList processes = new ProcessList();
        system.attach(processes);
        Interpreter interpreter = new Interpreter(catalog, selects, inserts, commands, processes);
        replication.setMutationCompiler(interpreter::compileMutationText);
        replication.setMetadataApplier(interpreter::applyReplicatedAlter);
        interpreter.resumeMutations();
        components = new Components(catalog, interpreter, events, system, dedup, views);
        HttpInterface handler = new HttpInterface(interpreter, new Sessions(), users, events, faults, unknownSettings, processes)
            .emulate(compat);
        handler.access().persistIn(dataDir);
        system.attachExtra(new dev.chdedup.stub.access.AccessSystemTables(handler.access()));
        http = listener(port, handler).build().start();
        port = http.port();
        handler.servesOn(port);
        if (httpsPort >= 0) {
            try {
                https = listener(httpsPort, handler).tls(tls.sslContext()).build().start();
            } catch (IOException e) {
                http.close(); // the HTTPS port is taken: the server does not half start
                throw e;
            }
            httpsPort = https.port();
        }
        clusters.servesOn(host, port, httpsPort);
        Interpreter runDdl = interpreter;
        ddlWorker = new dev.chdedup.stub.replicated.DDLWorker(replication, host, port, (sql, queryId) -> runDdl.execute(
            dev.chdedup.stub.sql.Parser.parse(sql), sql, null, "Values", new dev.chdedup.stub.exec.QueryContext(DatabaseCatalog.DEFAULT, "default",
                queryId, dev.chdedup.stub.exec.Settings.DEFAULTS)));
        clusters.discoverWith(new dev.chdedup.stub.distributed.ClusterDiscovery(replication, host, port, clusterUser, users.get(clusterUser)));
        ddlWorker.clusterHostsFrom(name -> clusters.get(name).addresses().stream()
            .map(a -> dev.chdedup.stub.replicated.DDLWorker.hostId(a.host(), a.port())).toList());
        ddlWorker.matchLocalHostsWith(id -> {
            dev.chdedup.stub.distributed.Cluster.Address a = dev.chdedup.stub.distributed.ClusterDiscovery.address(id);
            return a != null && (clusters.isLocal(a) || clusters.isLocal(a.secure(true)));
        });
        if (replicationConfig.zookeeper() != null) {
            ddlWorker.start();
        }
        interpreter.onCluster((oc, ctx) -> dev.chdedup.stub.replicated.DistributedDDL.execute(startedDdlWorker(), oc, ctx));
        state = State.STARTED;
        return this;
    }

    private HttpServer.Builder listener(int p, HttpInterface handler) {
        return HttpServer.builder().host(host).port(p).handler(handler).idleTimeout(keepAlive).readTimeout(receiveTimeout)
            .sendTimeout(sendTimeout).fatalHandler(this::failed);
    }

    private synchronized dev.chdedup.stub.replicated.DDLWorker startedDdlWorker() {
        if (!ddlWorker.started()) {
            ddlWorker.start();
        }
        return ddlWorker;
    }

    /** An Error on an HTTP thread: the HTTP server is closing itself; mark this server failed and tell the owner. */
    private void failed(Throwable e) {
        state = State.FAILED;
        fatalHandler.accept(e);
    }

    /** Stops serving and releases the data directory; {@link #start()} or {@link #restart()} brings it back. */
    public synchronized void stop() {
        if (state != State.STARTED && state != State.FAILED) {
            return;
        }
        if (ddlWorker != null) {
            ddlWorker.close();
        }
        replication.close();
        http.close();
        closeHttps();
        asyncInserts.close();
        dedup.closeAll();
        catalog.close();
        state = State.STOPPED;
    }

    /**
     * Stops as a crashed process would: the replicated tables' ZooKeeper session is abandoned, not closed, so this
     * replica's ephemeral nodes stay until the session expires; nothing is flushed or cleaned up first.
     * {@link #start()} brings the server back on the same data directory and port.
     */
    public synchronized void kill() {
        if (state != State.STARTED) {
            return;
        }
        // connections drop first, as a crashed process's do: a request in flight gets no answer at all, never an
        // error from a half-stopped server ("replication context closed") that a client would take as a known failure
        http.close();
        closeHttps();
        replication.kill();
        stop();
    }

    private void closeHttps() {
        if (https != null) {
            https.close();
            https = null;
        }
    }

    /** The replication context (ZooKeeper session, macros, replica name) of the running server. */
    public dev.chdedup.stub.replicated.ReplicationContext replication() {
        return replication;
    }

    public synchronized StubServer restart() throws IOException {
        stop();
        return start();
    }

    @Override
    public synchronized void close() throws IOException {
        stop();
        state = State.CLOSED;
        if (tempDir) {
            DataPartStorageOnDisk.deleteRecursively(dataDir);
        }
    }

    public State state() {
        return state;
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public String httpUrl() {
        return "http://" + host + ":" + port;
    }

    /** The HTTPS port (once started, the bound one), or -1 when the server serves no HTTPS. */
    public int httpsPort() {
        return httpsPort;
    }

    /** {@code https://host:httpsPort}. */
    public String httpsUrl() {
        if (httpsPort < 0) {
            throw new IllegalStateException("no HTTPS port: see StubServer.Builder.httpsPort");
        }
        return "https://" + host + ":" + httpsPort;
    }

    /** The certificate the HTTPS port presents: the one a client trusts to reach it (a generated one is self-signed). */
    public X509Certificate httpsCertificate() {
        if (tls == null) {
            throw new IllegalStateException("no HTTPS port started");
        }
        return tls.certificate();
    }

    /**
     * That certificate as a PEM file, for clients that take a file (the official driver's {@code sslrootcert}, curl's
     * {@code --cacert}): a generated one is {@code ssl/server.crt} in the data directory; null for a keystore's.
     */
    public Path httpsCertificateFile() {
        httpsCertificate();
        return tls.certificateFile();
    }

    /** A URL for the official driver ({@code jdbc:clickhouse://host:port/default}). */
    public String jdbcUrl() {
        return jdbcUrl("default");
    }

    public String jdbcUrl(String database) {
        return "jdbc:clickhouse://" + host + ":" + port + "/" + database;
    }

    /** The fault injector: arm faults for the next inserts and read the journal of what fired. */
    public FaultInjector faults() {
        return faults;
    }

    /** The clusters this server knows: define one here as a {@code remote_servers} entry would. */
    public dev.chdedup.stub.distributed.Clusters clusters() {
        return clusters;
    }

    public Components components() {
        return components;
    }

    /** Where in the data directory a generated HTTPS certificate is kept. */
    static final String HTTPS_DIR = "ssl";

    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private int httpsPort = -1;
        private TlsContext.Source tlsSource;
        private Path dataDir;
        private Path userFiles;
        private final Map<String, String> users = new LinkedHashMap<>();
        private Duration keepAlive = Duration.ofSeconds(10);
        private Duration receiveTimeout = Duration.ofSeconds(30);
        private Duration sendTimeout = Duration.ofSeconds(30);
        private java.util.function.Consumer<Throwable> fatalHandler = e -> { };
        private final java.util.Set<String> unknownSettings = new java.util.LinkedHashSet<>();
        private dev.chdedup.stub.compat.CompatibilityProfile compat = dev.chdedup.stub.compat.CompatibilityProfile.CURRENT;
        private String emulated;
        private String zookeeper;
        /** Whether {@link #zookeeper} was called (null then means embedded, whatever a configuration file says). */
        private boolean zookeeperSet;
        /** Unset ones (null) come from the configuration file, else default to r1, "default" and 30 s. */
        private String replicaName;
        private final Map<String, String> macros = new LinkedHashMap<>();
        private String cluster;
        private Integer zookeeperSessionTimeoutMs;
        private Path configFile;

        /**
         * A ClickHouse server configuration (config.xml, with its config.d): its {@code remote_servers} become this
         * server's clusters (read again at each start and by {@link StubServer#reloadConfig}), its {@code macros} and
         * {@code zookeeper} this server's unless given to this builder too (see ConfigProcessor). A file that cannot be
         * read or describes a bad cluster fails {@link #build} with ClickHouse's error.
         */
        public Builder configFile(Path file) {
            this.configFile = file;
            return this;
        }

        /**
         * The ZooKeeper ensemble replicated tables use ({@code host:port[,host:port...]}); without one an embedded
         * ZooKeeper is started the first time a replicated table needs it.
         */
        public Builder zookeeper(String connectString) {
            this.zookeeper = connectString;
            this.zookeeperSet = true;
            return this;
        }

        /** This server's replica name: the {@code {replica}} macro (default r1). */
        public Builder replicaName(String name) {
            this.replicaName = name;
            return this;
        }

        /** A macro for ReplicatedMergeTree paths ({@code {shard}} defaults to 01, {@code {replica}} to the replica name). */
        public Builder macro(String name, String value) {
            macros.put(name, value);
            return this;
        }

        /** The cluster name this server registers in (the {@code {cluster}} macro; default "default"). */
        public Builder cluster(String name) {
            this.cluster = name;
            macros.put("cluster", name);
            return this;
        }

        /** The ZooKeeper session timeout (default 30000 ms, as ClickHouse's zookeeper session_timeout_ms). */
        public Builder zookeeperSessionTimeout(Duration d) {
            this.zookeeperSessionTimeoutMs = (int) d.toMillis();
            return this;
        }

        public Builder host(String host) {
            this.host = host;
            return this;
        }

        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /**
         * Also serves HTTPS on this port, ClickHouse's {@code https_port} (0 picks a free one): every endpoint, session
         * and user as on the HTTP port. The certificate is the one given by {@link #httpsKeyStore} or
         * {@link #httpsCertificate}, or else a self-signed one for 127.0.0.1 and localhost made at the first start and
         * kept in the data directory ({@code ssl/server.crt}, {@link StubServer#httpsCertificate()}).
         */
        public Builder httpsPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("Bad HTTPS port: " + port);
            }
            this.httpsPort = port;
            return this;
        }

        /** The HTTPS port's key and certificate chain from a PKCS12 keystore, whose password is also the key's. */
        public Builder httpsKeyStore(Path keyStore, String password) {
            this.tlsSource = TlsContext.pkcs12(keyStore, password);
            return this;
        }

        /** The HTTPS port's certificate and key from PEM files, as ClickHouse's openSSL.server.certificateFile and privateKeyFile. */
        public Builder httpsCertificate(Path certificateFile, Path privateKeyFile) {
            this.tlsSource = TlsContext.pem(certificateFile, privateKeyFile);
            return this;
        }

        /** A data directory that outlives the server; without one a temporary directory is removed on close. */
        public Builder dataDir(Path dir) {
            this.dataDir = dir;
            return this;
        }

        /**
         * The directory the table function file() reads, as ClickHouse's {@code user_files_path} (created at start if
         * missing); by default {@code user_files} in the data directory. file() reads nothing outside it.
         */
        public Builder userFilesPath(Path dir) {
            this.userFiles = dir;
            return this;
        }

        /**
         * Adds a user. Without any, the user {@code default} has an empty password; once a user is added,
         * {@code default} exists only if it is added too (as a ClickHouse whose users.xml lists other users).
         */
        public Builder user(String name, String password) {
            users.put(name, password);
            return this;
        }

        /**
         * Settings the server answers with Code 115 (UNKNOWN_SETTING), as a ClickHouse older than them does: for
         * instance {@code insert_deduplication_token} (added in 22.2) or {@code deduplicate_insert} (26.2).
         */
        public Builder unknownSettings(String... names) {
            unknownSettings.addAll(java.util.List.of(names));
            return this;
        }

        /**
         * Plays an older ClickHouse on the HTTP interface: {@code "18.16"} (error text, headers, settings and formats
         * of 18.16.1) or {@code "22.1"} (modern errors, no insert_deduplication_token); see CompatibilityProfile.
         */
        public Builder emulate(String version) {
            this.compat = dev.chdedup.stub.compat.CompatibilityProfile.named(version);
            this.emulated = version;
            return this;
        }

        public Builder keepAliveTimeout(Duration d) {
            this.keepAlive = d;
            return this;
        }

        /** ClickHouse's {@code http_receive_timeout} (default 30 s): also the deadline for a whole request head. */
        public Builder httpReceiveTimeout(Duration d) {
            this.receiveTimeout = d;
            return this;
        }

        /** ClickHouse's {@code http_send_timeout} (default 30 s): a client that stops reading is dropped after it. */
        public Builder httpSendTimeout(Duration d) {
            this.sendTimeout = d;
            return this;
        }

        /** Called once an Error (OutOfMemoryError) ended the HTTP server; the server is FAILED by then. */
        public Builder fatalHandler(java.util.function.Consumer<Throwable> handler) {
            this.fatalHandler = handler;
            return this;
        }

        public StubServer build() throws IOException {
            if (tlsSource != null && httpsPort < 0) {
                throw new IllegalStateException("an HTTPS certificate is given but no httpsPort");
            }
            return new StubServer(this);
        }
    }
}
