package dev.chdedup.it.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubClusterExtension;
import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's sharded cluster example ("A sharded cluster in a JUnit 5 test"), as it is printed there. */
class ReadmeShardedClusterTest {
    @RegisterExtension
    static StubClusterExtension cluster = StubClusterExtension.builder().shards(2).replicas(2).build();

    @Test
    void eachShardKeepsItsRowsOnceOnBothReplicas() throws Exception {
        try (Connection c = DriverManager.getConnection(cluster.replica(1, 1).jdbcUrl()); Statement st = c.createStatement()) {
            // one statement makes the table on all four servers, each with its own {shard} and {replica} macros
            st.execute("CREATE TABLE events ON CLUSTER default (id UInt64, s String)"
                    + " ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/events', '{replica}') ORDER BY id");
        }
        for (int shard = 1; shard <= 2; shard++) {
            StubServer r1 = cluster.replica(shard, 1);
            // r1 commits the insert, then resets the connection: the driver retries with the same token
            r1.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable("default.events").times(1));
            try (Connection c = DriverManager.getConnection(r1.jdbcUrl().replace("jdbc:", "jdbc:dedup:") + "?retry.maxAttempts=5");
                 Statement st = c.createStatement()) {
                st.executeUpdate("INSERT INTO events VALUES (" + shard + ", 'a'), (" + (shard + 10) + ", 'b')");
            }
        }
        for (int shard = 1; shard <= 2; shard++) {
            try (Connection c = DriverManager.getConnection(cluster.replica(shard, 2).jdbcUrl()); Statement st = c.createStatement()) {
                st.execute("SYSTEM SYNC REPLICA events");
                try (ResultSet rs = st.executeQuery("SELECT count(), min(id) FROM events")) {
                    rs.next();
                    assertEquals(2, rs.getLong(1));          // once on each shard's other replica, not twice
                    assertEquals(shard, rs.getLong(2));      // and only its own shard's rows
                }
                try (ResultSet rs = st.executeQuery("SELECT count() FROM system.clusters WHERE cluster = 'default'")) {
                    rs.next();
                    assertEquals(4, rs.getLong(1));          // every server knows the whole cluster
                }
            }
        }
    }
}
