package dev.chdedup.stub.cluster;

import java.io.Closeable;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;

/**
 * The ZooKeeper a {@link StubCluster} starts for itself: one embedded server (Curator's {@code TestingServer}) or an
 * ensemble of several (Curator's {@code TestingCluster}), all on 127.0.0.1 with free ports and their data under the
 * cluster's directory, a 500 ms tick (so sessions of 1 s and more are allowed). Whole-service stop and restart keep
 * the data and the ports; an ensemble can also lose and regain one node (1-based, in the order of the connect string).
 */
final class EmbeddedEnsemble implements Closeable {
    private static final int TICK_MS = 500;
    private final TestingServer single;
    private final TestingCluster ensemble;
    private final List<InstanceSpec> specs;
    /** Nodes (1-based) stopped by this class and not started again. */
    private final java.util.Set<Integer> stopped = new java.util.TreeSet<>();

    private EmbeddedEnsemble(TestingServer single, TestingCluster ensemble, List<InstanceSpec> specs) {
        this.single = single;
        this.ensemble = ensemble;
        this.specs = specs;
    }

    static EmbeddedEnsemble start(File dir, int nodes) throws Exception {
        if (System.getProperty("zookeeper.forceSync") == null) {
            System.setProperty("zookeeper.forceSync", "no");
        }
        if (nodes == 1) {
            return new EmbeddedEnsemble(dev.chdedup.stub.replicated.EmbeddedZooKeeper.start(dir), null, List.of());
        }
        List<InstanceSpec> specs = new ArrayList<>();
        // every node's three ports distinct from each other and from the other nodes'
        int[] ports = dev.chdedup.stub.replicated.EmbeddedZooKeeper.freePorts(3 * nodes);
        for (int i = 1; i <= nodes; i++) {
            File data = new File(dir, "node" + i);
            java.nio.file.Files.createDirectories(data.toPath());
            int p = 3 * (i - 1);
            specs.add(new InstanceSpec(data, ports[p], ports[p + 1], ports[p + 2], false, i, TICK_MS, -1, null, "127.0.0.1"));
        }
        TestingCluster c = new TestingCluster(specs);
        c.start();
        return new EmbeddedEnsemble(null, c, List.copyOf(specs));
    }

    String connectString() {
        return single != null ? single.getConnectString() : ensemble.getConnectString();
    }

    int nodes() {
        return single != null ? 1 : specs.size();
    }

    /** Stops every node; their data stays. */
    synchronized void stop() throws IOException {
        if (single != null) {
            single.stop();
            stopped.add(1);
            return;
        }
        for (InstanceSpec s : specs) {
            try {
                if (stopped.add(s.getServerId())) {
                    ensemble.killServer(s);
                }
            } catch (Exception e) {
                throw new IOException("Cannot stop ZooKeeper node " + s.getServerId(), e);
            }
        }
    }

    /** Starts every node again on its port and data. */
    synchronized void restart() throws Exception {
        if (single != null) {
            single.restart();
            stopped.clear();
            return;
        }
        for (InstanceSpec s : specs) {
            ensemble.restartServer(s);
        }
        stopped.clear();
    }

    /** Starts again only the nodes that are stopped. */
    synchronized void restartStopped() throws Exception {
        if (single != null) {
            if (!stopped.isEmpty()) {
                restart();
            }
            return;
        }
        for (Integer i : List.copyOf(stopped)) {
            restartNode(i);
        }
    }

    /** Stops node {@code i} of the ensemble (1-based) as a crash would; the others keep a quorum if enough remain. */
    synchronized void killNode(int i) throws Exception {
        ensemble().killServer(spec(i));
        stopped.add(i);
    }

    synchronized void restartNode(int i) throws Exception {
        ensemble().restartServer(spec(i));
        stopped.remove(i);
    }

    private TestingCluster ensemble() {
        if (ensemble == null) {
            throw new IllegalStateException("the cluster runs one ZooKeeper node: build it with zookeeperEnsemble(3) to kill one");
        }
        return ensemble;
    }

    private InstanceSpec spec(int i) {
        if (i < 1 || i > specs.size()) {
            throw new IllegalArgumentException("no ZooKeeper node " + i + " (the ensemble has " + specs.size() + ")");
        }
        return specs.get(i - 1);
    }

    @Override
    public void close() throws IOException {
        if (single != null) {
            single.close();
        } else {
            ensemble.close();
        }
    }
}
