package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * ON CLUSTER DDL through {@code /clickhouse/task_queue/ddl}: one CREATE makes a replicated table on every replica,
 * a replica that was down runs the task when it is back, the initiator answers ClickHouse's per-host table (or 159
 * on timeout), and an unknown cluster is refused with nothing enqueued.
 */
class DDLWorkerTest {
    @RegisterExtension
    StubClusterExtension replicas = StubClusterExtension.builder().replicas(3).cluster("c").build();

    private String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    private int port(int i) {
        return replicas.cluster().replica(i).port();
    }

    private static final String CREATE = "CREATE TABLE %s ON CLUSTER %s (k UInt64) ENGINE = ReplicatedMergeTree("
        + "'/clickhouse/tables/{shard}/{database}/{table}', '{replica}') ORDER BY k";

    private String tasks() throws Exception {
        return Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/task_queue/ddl'");
    }

    @Test
    void theParserKeepsTheClauseForTheQueueAndDropsItForTheHosts() {
        Statement.OnCluster oc = (Statement.OnCluster) Parser.parse("CREATE TABLE t ON CLUSTER '{cluster}' (k UInt64) ENGINE = Memory");
        assertEquals("{cluster}", oc.cluster());
        assertEquals("CREATE TABLE `db`.t ON CLUSTER '{cluster}' (k UInt64) ENGINE = Memory", oc.entryQuery("db"));
        assertEquals("CREATE TABLE t  (k UInt64) ENGINE = Memory", oc.localQuery());
        assertTrue(Parser.parse("DROP TABLE IF EXISTS d.t ON CLUSTER c SYNC") instanceof Statement.OnCluster);
        assertTrue(Parser.parse("CREATE DATABASE d ON CLUSTER c") instanceof Statement.OnCluster);
        DDLLogEntry e = new DDLLogEntry("CREATE TABLE `default`.t ON CLUSTER c (s String DEFAULT 'a\tb')", List.of("127%2E0%2E0%2E1:9000",
            "127%2E0%2E0%2E1:9001"), "127%2E0%2E0%2E1:9000");
        // written as ClickHouse's writeEscapedString writes it: the quotes and the tab escaped
        assertEquals("version: 1\nquery: CREATE TABLE `default`.t ON CLUSTER c (s String DEFAULT \\'a\\tb\\')\n"
            + "hosts: ['127%2E0%2E0%2E1:9000','127%2E0%2E0%2E1:9001']\ninitiator: 127%2E0%2E0%2E1:9000\n", e.toText());
        assertEquals(e, DDLLogEntry.parse(e.toText()));
    }

    @Test
    void oneCreateOnClusterMakesTheTableOnEveryReplicaAndTheyReplicate() throws Exception {
        String answer = Http.query(url(1), String.format(CREATE, "t", "c"));
        String expected = "";
        for (int i = 1; i <= 3; i++) {
            assertEquals("1\n", Http.query(url(i), "EXISTS TABLE t"), "r" + i);
        }
        for (String line : answer.split("\n")) {
            assertTrue(line.matches("127\\.0\\.0\\.1\t\\d+\t0\t\t[0-2]\t\\d"), line);
            expected += line.split("\t")[1] + "\n";
        }
        assertEquals(List.of(port(1), port(2), port(3)).stream().map(p -> p + "\n").sorted().reduce("", String::concat),
            java.util.Arrays.stream(expected.split("\n")).map(p -> p + "\n").sorted().reduce("", String::concat));
        Http.query(url(1), "INSERT INTO t VALUES (7)");
        Http.query(url(3), "SYSTEM SYNC REPLICA t");
        assertEquals("7\n", Http.query(url(3), "SELECT k FROM t"));
        assertEquals("/clickhouse/tables/01/default/t\t3\n", Http.query(url(2),
            "SELECT zookeeper_path, total_replicas FROM system.replicas WHERE table = 't'"));
        String entry = Http.query(url(1), "SELECT value FROM system.zookeeper WHERE path = '/clickhouse/task_queue/ddl' AND name = 'query-0000000000'");
        assertTrue(entry.startsWith("version: 1\\nquery: CREATE TABLE `default`.t ON CLUSTER c (k UInt64)"), entry);
        // TabSeparated shows the quotes escaped
        assertTrue(entry.contains("\\nhosts: [\\'127%2E0%2E0%2E1:" + port(1) + "\\',\\'127%2E0%2E0%2E1:" + port(2) + "\\',\\'127%2E0%2E0%2E1:"
            + port(3) + "\\']\\ninitiator: 127%2E0%2E0%2E1:" + port(1) + "\\n"), entry);
        assertEquals("finished\t3\nactive\t0\n", Http.query(url(1), "SELECT name, numChildren FROM system.zookeeper WHERE path = "
            + "'/clickhouse/task_queue/ddl/query-0000000000' ORDER BY name DESC"));
        assertEquals("0\\n\n", Http.query(url(1), "SELECT DISTINCT value FROM system.zookeeper WHERE path = "
            + "'/clickhouse/task_queue/ddl/query-0000000000/finished'"));
        Http.query(url(2), "DROP TABLE t ON CLUSTER '{cluster}'");
        for (int i = 1; i <= 3; i++) {
            assertEquals("0\n", Http.query(url(i), "EXISTS TABLE t"), "r" + i);
        }
        assertEquals("0\n", Http.query(url(1), "SELECT count() FROM system.zookeeper WHERE path = '/clickhouse/tables/01/default'"));
    }

    @Test
    void aReplicaDownDuringTheDdlRunsItWhenItComesBack() throws Exception {
        replicas.cluster().kill(3);
        HttpResponse<String> r = Http.send(url(1), String.format(CREATE, "late", "c"), "distributed_ddl_task_timeout=1");
        assertEquals(159, Integer.parseInt(r.headers().firstValue("X-ClickHouse-Exception-Code").orElse("0")), r.body());
        assertTrue(r.body().contains("is executing longer than distributed_ddl_task_timeout (=1) seconds. There are 1 unfinished hosts"
            + " (0 of them are currently executing the task)"), r.body());
        assertEquals("1\n", Http.query(url(2), "EXISTS TABLE late"));
        HttpResponse<String> n = Http.send(url(2), "CREATE DATABASE d2 ON CLUSTER c", "distributed_ddl_task_timeout=1"
            + "&distributed_ddl_output_mode=null_status_on_timeout");
        assertEquals(200, n.statusCode(), n.body());
        assertTrue(n.body().contains("127.0.0.1\t" + port(3) + "\t\\N\t\\N\t1\t0\n"), n.body());
        Http.query(url(1), "INSERT INTO late VALUES (1), (2)");
        replicas.cluster().restart(3);
        ReplicaRecoveryTest.waitFor("r3 to run the tasks it missed", () -> Http.query(url(3), "EXISTS TABLE late").equals("1\n")
            && Http.query(url(3), "EXISTS DATABASE d2").equals("1\n"));
        Http.query(url(3), "SYSTEM SYNC REPLICA late");
        assertEquals("1\n2\n", Http.query(url(3), "SELECT k FROM late ORDER BY k"));
        Http.query(url(3), "DROP DATABASE d2 ON CLUSTER c");
        for (int i = 1; i <= 3; i++) {
            assertEquals("0\n", Http.query(url(i), "EXISTS DATABASE d2"), "r" + i);
        }
    }

    @Test
    void aHostsErrorIsTheAnswerAndAnUnknownClusterEnqueuesNothing() throws Exception {
        Http.query(url(2), "CREATE TABLE clash (k UInt64) ENGINE = Memory");
        HttpResponse<String> r = Http.send(url(1), "CREATE TABLE clash ON CLUSTER c (k UInt64) ENGINE = Memory", "");
        assertTrue(r.body().startsWith("Code: 57. DB::Exception: There was an error on [127.0.0.1:" + port(2) + "]: Code: 57. DB::Exception: "
            + "Table default.clash already exists"), r.body());
        HttpResponse<String> quiet = Http.send(url(1), "DROP TABLE clash ON CLUSTER c", "distributed_ddl_output_mode=none");
        assertEquals(200, quiet.statusCode(), quiet.body());
        assertEquals("", quiet.body());
        String before = tasks();
        HttpResponse<String> u = Http.send(url(1), "CREATE TABLE nope ON CLUSTER missing (k UInt64) ENGINE = Memory", "");
        assertTrue(u.body().startsWith("Code: 701. DB::Exception: Requested cluster 'missing' not found"), u.body());
        assertEquals(before, tasks());
        assertEquals("0\n", Http.query(url(1), "EXISTS TABLE nope"));
    }
}
