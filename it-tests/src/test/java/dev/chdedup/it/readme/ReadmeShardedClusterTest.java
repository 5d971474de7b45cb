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

/**
 * The README's sharded cluster example ("A sharded cluster in a JUnit 5 test"), as it is printed there: a retried
 * insert through a Distributed table lands once on every shard.
 */
class ReadmeShardedClusterTest {
    @RegisterExtension
    static StubClusterExtension cluster = StubClusterExtension.builder().shards(2).replicas(2).build();

    @Test
    void aRetriedInsertThroughADistributedTableLandsOnceOnEveryShard() throws Exception {
        try (Connection c = DriverManager.getConnection(cluster.replica(1, 1).jdbcUrl()); Statement st = c.createStatement()) {
            // one statement makes each table on all four servers, each with its own {shard} and {replica} macros
            st.execute("CREATE TABLE events_local ON CLUSTER default (id UInt64, s String)"
                    + " ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/events', '{replica}') ORDER BY id");
            st.execute("CREATE TABLE events ON CLUSTER default AS events_local"
                    + " ENGINE = Distributed(default, default, events_local, id)");       // rows split by id over the shards
        }
        StubServer entry = cluster.replica(1, 1);
        // the server commits the insert on every shard, then resets the connection: the driver retries with the same token
        entry.faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable("default.events").times(1));
        try (Connection c = DriverManager.getConnection(entry.jdbcUrl().replace("jdbc:", "jdbc:dedup:") + "?retry.maxAttempts=5");
             Statement st = c.createStatement()) {
            st.executeUpdate("INSERT INTO events SETTINGS distributed_foreground_insert = 1"    // sent to the shards before the answer
                    + " VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
        }
        for (int shard = 1; shard <= 2; shard++) {
            try (Connection c = DriverManager.getConnection(cluster.replica(shard, 2).jdbcUrl()); Statement st = c.createStatement()) {
                st.execute("SYSTEM SYNC REPLICA events_local");
                try (ResultSet rs = st.executeQuery("SELECT count() FROM events_local")) {
                    rs.next();
                    assertEquals(2, rs.getLong(1));          // each shard's half, once, on its other replica too
                }
            }
        }
        try (Connection c = DriverManager.getConnection(entry.jdbcUrl()); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT count(), uniqExact(id) FROM events")) {
            rs.next();
            assertEquals(4, rs.getLong(1));                  // the Distributed table reads one replica of every shard
            assertEquals(4, rs.getLong(2));
        }
        assertEquals(1, entry.faults().fired(FaultKind.DROP_AFTER_COMMIT));
    }
}
