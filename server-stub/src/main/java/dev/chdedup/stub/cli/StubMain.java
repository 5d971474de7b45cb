package dev.chdedup.stub.cli;

import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The command line of the stub server: {@code java -jar server-stub.jar [--host H] [--http-port P]
 * [--data-dir DIR]}. Prints {@code Ready: http://HOST:PORT} once it serves and shuts down cleanly on SIGTERM. A
 * query that runs out of memory fails alone (MEMORY_LIMIT_EXCEEDED) and the server keeps serving; an Error
 * (OutOfMemoryError) that kills any other thread (acceptor, head waiter, background work) halts the JVM with a
 * message and exit code 3: a server that lost a thread it needs ends rather than linger as a zombie.
 * {@code --replicas N} runs replicas r1..rN in this process on one ZooKeeper (data in DIR/r1, DIR/r2, ...; ports P,
 * P+1, ..., or free ones with port 0) and prints one Ready line per replica, in order; {@code --shards S} makes that S
 * shards of N replicas each (macros {@code {shard}} 01..S, data in DIR/s01/r1, ...; Ready lines shard by shard), all of
 * them in cluster {@code --cluster} (default "default"), which each server knows; {@code --zookeeper} names an
 * ensemble ({@code embedded}, the default, starts one); {@code --replica-name} names the one replica of this process,
 * so replicas can run in separate processes sharing an ensemble. {@code --https-port} also serves HTTPS (ports P, P+1,
 * ... for replicas), with the certificate given or a self-signed one made in the data directory; the Ready line then
 * names both URLs: {@code Ready: http://HOST:PORT https://HOST:HTTPS_PORT}. {@code --config-file} reads a ClickHouse
 * server config (and its config.d): {@code remote_servers} (the clusters this server knows; a port there is the HTTP
 * port of that stub), {@code macros} and {@code zookeeper}, so separate processes on other hosts make one cluster as
 * ClickHouse servers do; an option given on the command line wins over the file.
 */
@Command(name = "server-stub", mixinStandardHelpOptions = true, version = "chdedup server-stub 0.1.0",
    description = "A ClickHouse-compatible HTTP server for integration tests.")
public final class StubMain implements Callable<Integer> {
    @Option(names = "--host", description = "Address to bind (default: ${DEFAULT-VALUE}).", defaultValue = "127.0.0.1")
    String host;

    @Option(names = "--http-port", description = "HTTP port; 0 picks a free one (default: ${DEFAULT-VALUE}).", defaultValue = "8123")
    int port;

    @Option(names = "--https-port", description = "Also serve HTTPS on this port, as ClickHouse's https_port; 0 picks a free one"
        + " (default: no HTTPS).")
    Integer httpsPort;

    @Option(names = "--https-certificate", description = "The HTTPS certificate (chain) in PEM, as ClickHouse's"
        + " openSSL.server.certificateFile; with --https-private-key (default: a self-signed one in the data directory).")
    Path certificateFile;

    @Option(names = "--https-private-key", description = "The HTTPS private key in PEM, unencrypted, as ClickHouse's"
        + " openSSL.server.privateKeyFile.")
    Path privateKeyFile;

    @Option(names = "--https-keystore", description = "The HTTPS key and certificate chain in a PKCS12 keystore, instead of PEM files.")
    Path keyStore;

    @Option(names = "--https-keystore-password", description = "The keystore's password, also its key's (default: empty).",
        defaultValue = "")
    String keyStorePassword;

    @Option(names = "--data-dir", description = "Data directory, kept across restarts (default: a temporary directory removed on exit).")
    Path dataDir;

    @Option(names = "--user-files-path", description = "The directory the table function file() reads, as ClickHouse's"
        + " user_files_path (default: user_files in the data directory).")
    Path userFilesPath;

    @Option(names = "--user", description = "A user as name:password (repeatable); once any is given, the password-less"
        + " default user exists only if given too.")
    java.util.List<String> users = new java.util.ArrayList<>();

    @Option(names = "--unknown-setting", description = "A setting to answer with Code 115, as an older ClickHouse does (repeatable).")
    java.util.List<String> unknownSettings = new java.util.ArrayList<>();

    @Option(names = "--emulate", description = "Play an older ClickHouse: 18.16 or 22.1 (default: the current one).")
    String emulate;

    @Option(names = "--http-receive-timeout", description = "ClickHouse's http_receive_timeout in seconds, also the deadline"
        + " for a whole request head (default: ${DEFAULT-VALUE}).", defaultValue = "30")
    double receiveTimeout;

    @Option(names = "--http-send-timeout", description = "ClickHouse's http_send_timeout in seconds: a client that stops"
        + " reading is dropped after it (default: ${DEFAULT-VALUE}).", defaultValue = "30")
    double sendTimeout;

    @Option(names = "--replicas", description = "Run N replicas (r1..rN) in this process on one ZooKeeper (default: ${DEFAULT-VALUE}).",
        defaultValue = "1")
    int replicas;

    @Option(names = "--shards", description = "Run S shards of --replicas replicas each in this process, macros {shard} = 01..S"
        + " (default: ${DEFAULT-VALUE}).", defaultValue = "1")
    int shards;

    @Option(names = "--zookeeper", description = "embedded, or an ensemble host:port[,host:port...] (default: the config file's"
        + " zookeeper, else embedded).")
    String zookeeper;

    @Option(names = "--config-file", description = "A ClickHouse server config (config.xml, with config.d/): its remote_servers,"
        + " macros and zookeeper; options given here win over it.")
    Path configFile;

    @Option(names = "--replica-name", description = "This server's replica name, the {replica} macro (default: r1).")
    String replicaName;

    @Option(names = "--cluster", description = "The cluster this server registers in, the {cluster} macro (default: the config"
        + " file's {cluster} macro, else default).")
    String cluster;

    /** Ends the JVM at once: no shutdown hooks, which could wait on the threads that died. */
    static void halt(Throwable e) {
        try {
            System.err.println("Fatal error, the stub server exits: " + e);
            System.err.flush();
        } finally {
            Runtime.getRuntime().halt(3);
        }
    }

    @Override
    public Integer call() throws Exception {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            if (e instanceof VirtualMachineError) {
                halt(e);
            }
            System.err.println("Uncaught exception on " + t.getName() + ": " + e);
        });
        dev.chdedup.stub.distributed.ConfigProcessor.ServerConfig file;
        try {
            file = configFile == null ? null : dev.chdedup.stub.distributed.ConfigProcessor.load(configFile);
        } catch (RuntimeException e) {
            System.err.println(e.getMessage());
            return 2;
        }
        String ensemble = zookeeper == null ? (file == null ? null : file.zookeeper()) : "embedded".equals(zookeeper) ? null : zookeeper;
        if (replicas < 1 || shards < 1) {
            System.err.println(replicas < 1 ? "--replicas must be at least 1" : "--shards must be at least 1");
            return 2;
        }
        String httpsProblem = httpsProblem();
        if (httpsProblem != null) {
            System.err.println(httpsProblem);
            return 2;
        }
        if (replicas > 1 || shards > 1) {
            if (replicaName != null) {
                System.err.println("--replica-name names the one replica of a process: it cannot go with --replicas " + replicas
                    + " --shards " + shards);
                return 2;
            }
            return runCluster(ensemble, file);
        }
        StubServer.Builder b = StubServer.builder().host(host).port(port).dataDir(dataDir).zookeeper(ensemble)
            .replicaName(replicaName)
            .configFile(configFile)
            .unknownSettings(unknownSettings.toArray(new String[0]))
            .httpReceiveTimeout(java.time.Duration.ofMillis(Math.round(receiveTimeout * 1000)))
            .httpSendTimeout(java.time.Duration.ofMillis(Math.round(sendTimeout * 1000)))
            .fatalHandler(StubMain::halt);
        if (cluster != null) {
            b.cluster(cluster);
        }
        if (userFilesPath != null) {
            b.userFilesPath(userFilesPath);
        }
        if (httpsPort != null) {
            b.httpsPort(httpsPort);
            https(b);
        }
        if (emulate != null) {
            b.emulate(emulate);
        }
        for (String u : users) {
            int c = u.indexOf(':');
            b.user(c < 0 ? u : u.substring(0, c), c < 0 ? "" : u.substring(c + 1));
        }
        StubServer server = b.build();
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("Error while shutting down: " + e);
            }
            done.countDown();
        }, "stub-shutdown"));
        server.start();
        System.out.println(ready(server));
        System.out.flush();
        done.await();
        return 0;
    }

    private int runCluster(String ensemble, dev.chdedup.stub.distributed.ConfigProcessor.ServerConfig file) throws Exception {
        dev.chdedup.stub.cluster.StubCluster.Builder b = dev.chdedup.stub.cluster.StubCluster.builder().shards(shards).replicas(replicas).host(host)
            .basePort(port).dataDir(dataDir).zookeeper(ensemble).cluster(cluster != null ? cluster
                : file != null ? file.macros().getOrDefault("cluster", "default") : "default")
            .unknownSettings(unknownSettings.toArray(new String[0]))
            .httpReceiveTimeout(java.time.Duration.ofMillis(Math.round(receiveTimeout * 1000)))
            .httpSendTimeout(java.time.Duration.ofMillis(Math.round(sendTimeout * 1000)))
            .replicaOption(s -> s.fatalHandler(StubMain::halt).configFile(configFile));
        if (userFilesPath != null) {
            b.replicaOption(s -> s.userFilesPath(userFilesPath));
        }
        if (httpsPort != null) {
            b.httpsBasePort(httpsPort).replicaOption(this::https);
        }
        if (emulate != null) {
            b.emulate(emulate);
        }
        for (String u : users) {
            int c = u.indexOf(':');
            b.user(c < 0 ? u : u.substring(0, c), c < 0 ? "" : u.substring(c + 1));
        }
        dev.chdedup.stub.cluster.StubCluster cluster = b.build();
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                cluster.close();
            } catch (Exception e) {
                System.err.println("Error while shutting down: " + e);
            }
            done.countDown();
        }, "stub-shutdown"));
        cluster.start();
        for (StubServer replica : cluster.replicas()) {
            System.out.println(ready(replica));
        }
        System.out.flush();
        done.await();
        return 0;
    }

    /** Why the HTTPS options cannot be served, or null. */
    private String httpsProblem() {
        if ((certificateFile == null) != (privateKeyFile == null)) {
            return "--https-certificate and --https-private-key go together";
        }
        if (keyStore != null && certificateFile != null) {
            return "--https-keystore or --https-certificate: one of them";
        }
        if (httpsPort == null && (keyStore != null || certificateFile != null)) {
            return "an HTTPS certificate needs --https-port";
        }
        return null;
    }

    /** The given certificate, if any; else the server makes its own. */
    private void https(StubServer.Builder b) {
        if (keyStore != null) {
            b.httpsKeyStore(keyStore, keyStorePassword);
        } else if (certificateFile != null) {
            b.httpsCertificate(certificateFile, privateKeyFile);
        }
    }

    /** {@code Ready: http://HOST:PORT}, and the HTTPS URL after it when the server has one. */
    static String ready(StubServer server) {
        return "Ready: " + server.httpUrl() + (server.httpsPort() < 0 ? "" : " " + server.httpsUrl());
    }

    public static void main(String[] args) {
        int rc = new CommandLine(new StubMain()).execute(args);
        if (rc != 0) {
            System.exit(rc);
        }
    }
}
