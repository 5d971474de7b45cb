package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The znodes a replicated table's CREATE writes, against the engine's: for the current release the tree ClickHouse
 * 26.7 wrote for the same two CREATEs (oracle/replicated_create_layout_26_7.tsv: every node, its value, and which
 * nodes one multi created, in creation order); under {@code --emulate 18.16} the tree a real 18.16 pair wrote
 * (clickhouse-observed/02b-zk-layout.txt, 02a-create.txt); and a table an older stub build made, without the nodes
 * added since, gets them and keeps replicating.
 */
class ReplicatedZooKeeperLayoutTest {
    @RegisterExtension
    static StubClusterExtension current = StubClusterExtension.builder().replicas(2).build();
    @RegisterExtension
    static StubClusterExtension legacy = StubClusterExtension.builder().replicas(2).emulate("18.16").build();

    /** One node: the zxid that created it, its value (TabSeparated-escaped), its data version, whether ephemeral. */
    record Node(long czxid, String value, int version, boolean ephemeral) {
    }

    /** Every node under {@code root}, by path relative to it. */
    static Map<String, Node> tree(ZooKeeperClient zk, String root) throws Exception {
        Map<String, Node> out = new TreeMap<>();
        Deque<String> todo = new ArrayDeque<>(List.of(root));
        while (!todo.isEmpty()) {
            String p = todo.poll();
            for (String c : zk.children(p)) {
                String q = p + "/" + c;
                Stat st = new Stat();
                byte[] v = zk.get(q, st);
                out.put(q.substring(root.length() + 1), new Node(st.getCzxid(), escape(new String(v, StandardCharsets.UTF_8)),
                    st.getVersion(), st.getEphemeralOwner() != 0));
                todo.add(q);
            }
        }
        return out;
    }

    static String escape(String s) {
        return s.replace("\\", "\\\\").replace("\n", "\\n");
    }

    /** The engine's recording: path to {czxid, value}, in the recorded (creation) order. */
    static Map<String, String[]> engineTree() throws Exception {
        Map<String, String[]> out = new LinkedHashMap<>();
        try (InputStream in = ReplicatedZooKeeperLayoutTest.class.getResourceAsStream("/oracle/replicated_create_layout_26_7.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("#")) {
                    String[] f = line.split("\t", -1);
                    out.put(f[1], new String[] {f[0], f[2]});
                }
            }
        }
        return out;
    }

    /** The paths of each multi (or single create), in creation order. */
    static List<TreeSet<String>> creationGroups(Map<String, Long> czxids) {
        Map<Long, TreeSet<String>> groups = new TreeMap<>();
        czxids.forEach((path, zxid) -> groups.computeIfAbsent(zxid, z -> new TreeSet<>()).add(path));
        return new ArrayList<>(groups.values());
    }

    @Test
    void createWritesTheNodesValuesAndOrderOf26_7() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(current.cluster().replica(i).httpUrl(),
                "CREATE TABLE t (k UInt64, v String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/t', '{replica}') ORDER BY k");
        }
        Map<String, Node> stub = new TreeMap<>(tree(current.cluster().replica(1).replication().zookeeper(), "/clickhouse/tables/t"));
        // is_active and the leader-election nodes come with activation, which chDB never does
        stub.values().removeIf(Node::ephemeral);
        Map<String, String[]> engine = engineTree();
        // the engine's persistent guard against pre-21.1 elections; the stub still elects a leader among its replicas
        engine.remove("leader_election/leader_election-0");

        assertEquals(String.join("\n", engine.keySet().stream().sorted().toList()), String.join("\n", stub.keySet()));
        for (Map.Entry<String, String[]> e : engine.entrySet()) {
            String path = e.getKey();
            String value = stub.get(path).value();
            if (path.endsWith("/host")) {
                assertEquals(1, stub.get(path).version(), path + " is created empty and written on activation: " + value);
            } else if (path.endsWith("/creator_info")) {
                assertTrue(value.matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\\|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}"
                    + "-[0-9a-f]{4}-[0-9a-f]{12}"), path + ": " + value);
            } else if (path.equals("table_shared_id")) {
                assertEquals(stub.get("replicas/r1/creator_info").value().split("\\|")[0], value, "the creating replica's table UUID");
            } else if (path.equals("replicas/r2/is_lost")) {
                // created lost ("1") as the engine's, then cleared: the whole log is there for it to replay
                assertEquals("0", value);
                assertEquals(1, stub.get(path).version(), path);
            } else {
                assertEquals(e.getValue()[1], value, path);
            }
        }
        assertEquals(0, stub.get("replicas/r1/is_lost").version(), "the first replica is never lost");
        assertTrue(!stub.get("replicas/r1/creator_info").value().equals(stub.get("replicas/r2/creator_info").value()));

        Map<String, Long> engineZxids = new LinkedHashMap<>();
        engine.forEach((path, f) -> engineZxids.put(path, Long.parseLong(f[0], 16)));
        Map<String, Long> stubZxids = new LinkedHashMap<>();
        stub.forEach((path, n) -> stubZxids.put(path, n.czxid()));
        assertEquals(creationGroups(engineZxids).toString().replace("], [", "],\n["),
            creationGroups(stubZxids).toString().replace("], [", "],\n["));
    }

    /**
     * The metadata and columns texts of CREATEs with keys, a TTL, skip indices and granularity settings, against the
     * engine's (oracle/replicated_metadata_26_7.tsv): 26.7's lines after the keys, {@code granularity bytes} the
     * table's setting and absent when it is 0.
     */
    @Test
    void metadataAndColumnsTextsAreTheEngines() throws Exception {
        Map<String, Map<String, String>> recorded = new TreeMap<>();
        try (InputStream in = ReplicatedZooKeeperLayoutTest.class.getResourceAsStream("/oracle/replicated_metadata_26_7.tsv")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.startsWith("#")) {
                    String[] f = line.split("\t", -1);
                    recorded.computeIfAbsent(f[0], k -> new TreeMap<>()).put(f[1], f[2]);
                }
            }
        }
        ZooKeeperClient zk = current.cluster().replica(1).replication().zookeeper();
        for (Map.Entry<String, Map<String, String>> t : recorded.entrySet()) {
            Http.query(current.cluster().replica(1).httpUrl(), t.getValue().get("create"));
            for (String node : List.of("metadata", "columns")) {
                String path = "/clickhouse/tables/" + t.getKey() + "/" + node;
                assertEquals(t.getValue().get(node), escape(zk.get(path)), path);
                assertEquals(t.getValue().get(node), escape(zk.get("/clickhouse/tables/" + t.getKey() + "/replicas/r1/" + node)), path);
            }
        }
    }

    @Test
    void underTheEmulationOf18_16CreateWritesThatReleasesNodes() throws Exception {
        for (int i = 1; i <= 2; i++) {
            Http.query(legacy.cluster().replica(i).httpUrl(),
                "CREATE TABLE t (id UInt64, s String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/t', '{replica}') ORDER BY id");
        }
        Map<String, Node> stub = tree(legacy.cluster().replica(1).replication().zookeeper(), "/clickhouse/tables/01/t");
        stub.keySet().removeIf(p -> p.startsWith("leader_election/"));
        // clickhouse-observed/02b-zk-layout.txt: the tree right after both CREATEs
        List<String> expected = new ArrayList<>(List.of("block_numbers", "blocks", "columns", "leader_election", "log", "metadata",
            "mutations", "nonincrement_block_numbers", "quorum", "quorum/failed_parts", "quorum/last_part", "replicas", "temp"));
        for (String r : List.of("r1", "r2")) {
            expected.add("replicas/" + r);
            for (String n : List.of("columns", "flags", "host", "is_active", "is_lost", "log_pointer", "max_processed_insert_time",
                "metadata", "min_unprocessed_insert_time", "mutation_pointer", "parts", "queue")) {
                expected.add("replicas/" + r + "/" + n);
            }
        }
        assertEquals(String.join("\n", new TreeSet<>(expected)), String.join("\n", stub.keySet()));
        String metadata = escape("metadata format version: 1\ndate column: \nsampling expression: \nindex granularity: 8192\nmode: 0\n"
            + "sign column: \nprimary key: id\ndata format version: 1\npartition key: \n");
        assertEquals(metadata, stub.get("metadata").value());
        assertEquals(metadata, stub.get("replicas/r2/metadata").value());
        assertEquals(escape("columns format version: 1\n2 columns:\n`id` UInt64\n`s` String\n"), stub.get("columns").value());
        assertEquals("0", stub.get("replicas/r2/is_lost").value());
        assertEquals("last added replica: r2", stub.get("replicas").value());
    }

    @Test
    void aTableAnOlderStubMadeGetsTheNewNodesAndKeepsReplicating() throws Exception {
        ZooKeeperClient zk = current.cluster().replica(1).replication().zookeeper();
        String base = "/clickhouse/tables/01/old";
        // what a stub build before the 26.7 layout wrote: 18.16's nodes plus deduplication_hashes and quorum/parallel
        zk.curator().create().creatingParentsIfNeeded().forPath(base);
        String columns = "columns format version: 1\n2 columns:\n`id` UInt64\n`s` String\n";
        String metadata = "metadata format version: 1\ndate column: \nsampling expression: \nindex granularity: 8192\nmode: 0\n"
            + "sign column: \nprimary key: id\ndata format version: 1\npartition key: \n";
        for (String n : List.of("block_numbers", "blocks", "columns", "leader_election", "log", "metadata", "mutations",
            "nonincrement_block_numbers", "quorum", "quorum/failed_parts", "quorum/last_part", "replicas", "temp", "deduplication_hashes",
            "quorum/parallel")) {
            zk.tryCreate(base + "/" + n, n.equals("columns") ? columns : n.equals("metadata") ? metadata
                : n.equals("replicas") ? "last added replica: r1" : "");
        }
        zk.tryCreate(base + "/replicas/r1", "");
        for (String n : List.of("columns", "flags", "host", "is_lost", "log_pointer", "max_processed_insert_time", "metadata",
            "min_unprocessed_insert_time", "mutation_pointer", "parts", "queue")) {
            zk.tryCreate(base + "/replicas/r1/" + n, switch (n) {
                case "columns" -> columns;
                case "metadata" -> metadata;
                case "host" -> "host: 127.0.0.1\nport: 1\ntcp_port: 0\ndatabase: default\ntable: old\nscheme: http\n";
                case "is_lost", "log_pointer", "min_unprocessed_insert_time", "max_processed_insert_time" -> "0";
                default -> "";
            });
        }
        for (int i = 1; i <= 2; i++) {
            Http.query(current.cluster().replica(i).httpUrl(),
                "CREATE TABLE old (id UInt64, s String) ENGINE = ReplicatedMergeTree('/clickhouse/tables/{shard}/old', '{replica}') ORDER BY id");
        }
        Http.query(current.cluster().replica(1).httpUrl(), "INSERT INTO old VALUES (1,'a'),(2,'b')");
        Http.query(current.cluster().replica(2).httpUrl(), "INSERT INTO old VALUES (3,'c')");
        for (int i = 1; i <= 2; i++) {
            Http.query(current.cluster().replica(i).httpUrl(), "SYSTEM SYNC REPLICA old");
            assertEquals("3\n", Http.query(current.cluster().replica(i).httpUrl(), "SELECT count() FROM old"), "r" + i);
        }
        Map<String, Node> stub = tree(zk, base);
        for (String n : List.of("alter_partition_version", "async_blocks", "lightweight_updates/in_progress", "lost_part_count",
            "part_moves_shard", "pinned_part_uuids", "table_shared_id", "temp/abandonable_lock-insert", "temp/abandonable_lock-other")) {
            assertTrue(stub.containsKey(n), n + " in " + stub.keySet());
        }
        assertEquals("{\"part_uuids\":\"[]\"}", stub.get("pinned_part_uuids").value(), "the engine's value");
        assertTrue(stub.containsKey("replicas/r2/creator_info"), "the new replica has 26.7's nodes");
    }
}
