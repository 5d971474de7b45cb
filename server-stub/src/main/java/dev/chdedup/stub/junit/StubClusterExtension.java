package dev.chdedup.stub.junit;

import dev.chdedup.stub.cluster.StubCluster;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Runs a {@link StubCluster} of shards of replicas for JUnit 5 tests, as {@link StubServerExtension} runs one server:
 * on a static {@code @RegisterExtension} field one cluster serves the class, on an instance field each test gets its
 * own. Tests reach the servers' JDBC and HTTP URLs (shard by shard, r1 first), one server by shard and replica
 * ({@link #replica}), the cluster's fault handle ({@link #faults}), and can take the running cluster as a parameter.
 * {@link WithStubCluster} is the annotation for the simple case.
 *
 * <pre>{@code
 * @RegisterExtension
 * static StubClusterExtension cluster = StubClusterExtension.builder().replicas(3).build();
 *
 * @Test
 * void retriesLandOnce() throws Exception {
 *     try (Connection c = DriverManager.getConnection(cluster.jdbcUrls().get(0))) { ... }
 * }
 * }</pre>
 */
public final class StubClusterExtension extends ScopedExtension implements ParameterResolver {
    private final StubCluster.Builder config;
    private StubCluster cluster;

    private StubClusterExtension(StubCluster.Builder config) {
        this.config = config;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The running cluster (started before the first test that uses it). */
    public StubCluster cluster() {
        if (cluster == null) {
            throw new IllegalStateException("the stub cluster runs only while a test runs");
        }
        return cluster;
    }

    /** The running cluster's fault handle (kill and restart replicas, expire sessions, stop ZooKeeper, failpoints). */
    public dev.chdedup.stub.cluster.ClusterFaults faults() {
        return cluster().faults();
    }

    /** Replica r{@code i} of shard {@code shard}, both from 1. */
    public dev.chdedup.stub.server.StubServer replica(int shard, int i) {
        return cluster().replica(shard, i);
    }

    public List<String> jdbcUrls() {
        return cluster().jdbcUrls();
    }

    public List<String> httpUrls() {
        return cluster().httpUrls();
    }

    @Override
    void start() throws Exception {
        cluster = config.build().start();
    }

    @Override
    void stop() throws Exception {
        if (cluster != null) {
            cluster.close();
            cluster = null;
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == StubCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return cluster();
    }

    /** Options of the clusters the extension starts. */
    public static final class Builder {
        private final StubCluster.Builder cluster = StubCluster.builder();

        /** Replicas per shard (default 2). */
        public Builder replicas(int n) {
            cluster.replicas(n);
            return this;
        }

        /** Shards of {@link #replicas} replicas each (default 1), their {@code {shard}} macros 01, 02, ... */
        public Builder shards(int n) {
            cluster.shards(n);
            return this;
        }

        /** An external ZooKeeper ensemble; without one each cluster starts an embedded ZooKeeper. */
        public Builder zookeeper(String connectString) {
            cluster.zookeeper(connectString);
            return this;
        }

        /** An embedded ensemble of {@code nodes} ZooKeeper servers, so a test can kill one of them. */
        public Builder zookeeperEnsemble(int nodes) {
            cluster.zookeeperEnsemble(nodes);
            return this;
        }

        public Builder sessionTimeout(Duration d) {
            cluster.sessionTimeout(d);
            return this;
        }

        /** The cluster name the replicas register under for ON CLUSTER (the {@code {cluster}} macro); "default" unless set. */
        public Builder cluster(String name) {
            cluster.cluster(name);
            return this;
        }

        /** Every replica plays this ClickHouse release ({@code 18.16}, {@code 22.1}). */
        public Builder emulate(String version) {
            cluster.emulate(version);
            return this;
        }

        /** Settings every replica answers Code 115 for, as an older ClickHouse does. */
        public Builder unknownSettings(String... names) {
            cluster.unknownSettings(names);
            return this;
        }

        public StubClusterExtension build() {
            return new StubClusterExtension(cluster);
        }
    }
}
