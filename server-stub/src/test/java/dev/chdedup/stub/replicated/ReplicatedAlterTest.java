package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import dev.chdedup.stub.junit.StubClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ALTER of a ReplicatedMergeTree table's schema from one replica reaches every replica, as ClickHouse makes it: the
 * table's columns and metadata nodes and an ALTER_METADATA log entry (alter version, the new columns and metadata
 * texts), each replica's columns, metadata and metadata_version nodes after it executed the entry, the same
 * definition and the same rows everywhere (a new column's default for rows written before, a converted type, a dropped
 * column gone), inserts on any replica after it, and a replica stopped during the ALTER applying it when it is back.
 */
class ReplicatedAlterTest {
    @RegisterExtension
    StubClusterExtension replicas = StubClusterExtension.builder().replicas(2).build();

    private String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    private void create(String table) throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(url(i), "CREATE TABLE " + table + " (k UInt64, v UInt32) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/"
                + table + "', '{replica}') ORDER BY k");
        }
    }

    private String zk(String path) throws Exception {
        return Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '" + path.substring(0, path.lastIndexOf('/'))
            + "' AND name = '" + path.substring(path.lastIndexOf('/') + 1) + "'");
    }

    @Test
    void anAlterOnOneReplicaChangesEveryReplica() throws Exception {
        create("ra");
        Http.query(url(1), "INSERT INTO ra VALUES (1, 10), (2, 20)");
        Http.query(url(2), "SYSTEM SYNC REPLICA ra");
        Http.query(url(1), "ALTER TABLE ra ADD COLUMN s String DEFAULT concat('x', toString(k)) COMMENT 'label' AFTER k");
        Http.query(url(2), "SYSTEM SYNC REPLICA ra");
        String columns = "columns format version: 1\\n3 columns:\\n`k` UInt64\\n`s` String\\tDEFAULT\\tconcat(\\\\\\'x\\\\\\', toString(k))"
            + "\\tCOMMENT \\\\\\'label\\\\\\'\\n`v` UInt32\\n\n";
        assertEquals(columns, zk("/clickhouse/tables/01/ra/columns"), "the table's columns node, escaped as ClickHouse escapes it");
        for (int i = 1; i <= 2; i++) {
            assertEquals(columns, zk("/clickhouse/tables/01/ra/replicas/r" + i + "/columns"), "r" + i);
            assertEquals("1\n", zk("/clickhouse/tables/01/ra/replicas/r" + i + "/metadata_version"), "r" + i);
            assertEquals("1\tx1\t10\n2\tx2\t20\n", Http.query(url(i), "SELECT k, s, v FROM ra ORDER BY k"), "r" + i);
            assertEquals("k\tUInt64\t\t\t\t\t\ns\tString\tDEFAULT\tconcat(\\'x\\', toString(k))\tlabel\t\t\nv\tUInt32\t\t\t\t\t\n",
                Http.query(url(i), "DESCRIBE ra"), "r" + i);
        }
        String log = Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '/clickhouse/tables/01/ra/log' ORDER BY name DESC LIMIT 1");
        assertTrue(log.contains("\\nalter\\nalter_version\\n1\\nhave_mutation\\n0\\ncolumns_str_size:\\n"), log);

        Http.query(url(2), "INSERT INTO ra (k, v) VALUES (3, 30)");
        Http.query(url(2), "ALTER TABLE ra MODIFY COLUMN v UInt64, DROP COLUMN s");
        Http.query(url(1), "SYSTEM SYNC REPLICA ra");
        for (int i = 1; i <= 2; i++) {
            assertEquals("1\t10\tUInt64\n2\t20\tUInt64\n3\t30\tUInt64\n", Http.query(url(i), "SELECT k, v, toTypeName(v) FROM ra ORDER BY k"), "r" + i);
            assertEquals("2\n", zk("/clickhouse/tables/01/ra/replicas/r" + i + "/metadata_version"), "r" + i);
            assertEquals("CREATE TABLE default.ra\n(\n    `k` UInt64,\n    `v` UInt64\n)\nENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/ra',"
                + " '{replica}')\nORDER BY k\nSETTINGS index_granularity = 8192\n", Http.query(url(i), "SHOW CREATE TABLE ra").replace("\\n", "\n")
                .replace("\\'", "'"), "r" + i);
        }
        Http.query(url(1), "INSERT INTO ra VALUES (4, 40)");
        Http.query(url(2), "SYSTEM SYNC REPLICA ra");
        assertEquals("4\t100\n", Http.query(url(2), "SELECT count(), sum(v) FROM ra"));

        Http.query(url(1), "SYSTEM STOP MERGES ra");
        Http.query(url(2), "SYSTEM STOP MERGES ra");
        Http.query(url(1), "ALTER TABLE ra RENAME COLUMN v TO w SETTINGS alter_sync = 0");
        Http.query(url(2), "SYSTEM SYNC REPLICA ra");
        String mutation = Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '/clickhouse/tables/01/ra/mutations'"
            + " ORDER BY name DESC LIMIT 1");
        assertTrue(mutation.endsWith("\\ncommands: RENAME COLUMN `v` TO `w`\\nalter version: 3\n"), mutation);
        for (int i = 1; i <= 2; i++) {
            // the parts still hold v until the mutation rewrites them: they read under the new name meanwhile
            assertEquals("4\t100\n", Http.query(url(i), "SELECT count(), sum(w) FROM ra"), "r" + i + " before the mutation");
        }
        Http.query(url(1), "SYSTEM START MERGES ra");
        Http.query(url(2), "SYSTEM START MERGES ra");
        Http.query(url(1), "INSERT INTO ra VALUES (5, 50)");
        Http.query(url(2), "SYSTEM SYNC REPLICA ra");
        for (int i = 1; i <= 2; i++) {
            assertEquals("1\t10\n2\t20\n3\t30\n4\t40\n5\t50\n", Http.query(url(i), "SELECT k, w FROM ra ORDER BY k"), "r" + i);
            assertEquals("k\tUInt64\t\t\t\t\t\nw\tUInt64\t\t\t\t\t\n", Http.query(url(i), "DESCRIBE ra"), "r" + i);
            assertEquals("3\n", zk("/clickhouse/tables/01/ra/replicas/r" + i + "/metadata_version"), "r" + i);
        }
    }

    /**
     * ALTER ... ON CLUSTER of a replicated table runs on one replica, which replicates it (as ClickHouse's DDLWorker,
     * once per shard): one ALTER_METADATA entry, every replica at metadata version 1; of a MergeTree table on every
     * host. Without the rule the second replica ran the ALTER again and answered DUPLICATE_COLUMN.
     */
    @Test
    void anAlterOnClusterRunsOncePerReplicatedTable() throws Exception {
        Http.query(url(1), "CREATE TABLE rc ON CLUSTER '{cluster}' (k UInt64) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/rc',"
            + " '{replica}') ORDER BY k");
        Http.query(url(1), "CREATE TABLE lc ON CLUSTER '{cluster}' (k UInt64) ENGINE = MergeTree ORDER BY k");
        Http.query(url(2), "ALTER TABLE rc ON CLUSTER '{cluster}' ADD COLUMN s String DEFAULT 'x'");
        Http.query(url(1), "ALTER TABLE lc ON CLUSTER '{cluster}' ADD COLUMN s String DEFAULT 'y'");
        Http.query(url(1), "INSERT INTO rc (k) VALUES (1)");
        Http.query(url(2), "SYSTEM SYNC REPLICA rc");
        for (int i = 1; i <= 2; i++) {
            assertEquals("1\tx\n", Http.query(url(i), "SELECT k, s FROM rc"), "r" + i);
            assertEquals("1\n", zk("/clickhouse/tables/01/rc/replicas/r" + i + "/metadata_version"), "r" + i);
            assertEquals("s\tString\tDEFAULT\t\\'y\\'\t\t\t\n", Http.query(url(i), "DESCRIBE lc").split("\n", 2)[1], "r" + i);
        }
        assertEquals("1\n", Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/rc/log'"
            + " AND value LIKE '%alter_version%'"));
    }

    @Test
    void aReplicaThatWasDownAppliesTheAlterWhenItIsBack() throws Exception {
        create("rb");
        Http.query(url(1), "INSERT INTO rb VALUES (1, 1)");
        Http.query(url(2), "SYSTEM SYNC REPLICA rb");
        replicas.cluster().kill(2);
        Http.query(url(1), "ALTER TABLE rb ADD COLUMN n Nullable(String), MODIFY COLUMN v Int64 DEFAULT -1");
        Http.query(url(1), "INSERT INTO rb (k) VALUES (2)");
        replicas.cluster().restart(2);
        Http.query(url(2), "SYSTEM SYNC REPLICA rb");
        for (int i = 1; i <= 2; i++) {
            assertEquals("1\t1\t\\N\n2\t-1\t\\N\n", Http.query(url(i), "SELECT k, v, n FROM rb ORDER BY k"), "r" + i);
            assertEquals(List.of("k", "v", "n"), List.of(Http.query(url(i), "SELECT name FROM system.columns WHERE table = 'rb' ORDER BY position")
                .strip().split("\n")), "r" + i);
        }
    }
}
