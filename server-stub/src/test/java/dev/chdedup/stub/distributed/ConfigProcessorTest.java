package dev.chdedup.stub.distributed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.conformance.ConformanceClient;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.server.StubServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ClickHouse config file read as ClickHouse reads it: remote_servers (shard and node entries, weights, internal
 * replication, replica users and databases, shard names), macros, zookeeper, config.d merged in, and the engine's
 * errors for a bad cluster. The recorded case: Debian's ClickHouse 18.16.1 started with {@link #REMOTE_SERVERS}
 * answered {@code SELECT cluster, shard_num, shard_weight, replica_num, host_name, host_address, port, user,
 * default_database FROM system.clusters} with {@link #RECORDED} (its ports replaced by P1, P2, P3).
 */
class ConfigProcessorTest {
    @TempDir
    Path dir;

    static final String REMOTE_SERVERS = "<remote_servers><two><shard><weight>2</weight><internal_replication>true</internal_replication>"
        + "<replica><host>localhost</host><port>P1</port></replica><replica><host>127.0.0.1</host><port>P2</port><user>bob</user>"
        + "<default_database>db1</default_database></replica></shard><shard><replica><host>127.0.0.2</host><port>P1</port></replica>"
        + "</shard></two><nodes><node><host>localhost</host><port>P1</port></node><node><host>localhost</host><port>P3</port>"
        + "<weight>3</weight></node></nodes></remote_servers>";
    static final String RECORDED = """
        nodes	1	1	1	localhost	127.0.0.1	P1	default\t
        nodes	2	3	1	localhost	127.0.0.1	P3	default\t
        two	1	2	1	localhost	127.0.0.1	P1	default\t
        two	1	2	2	127.0.0.1	127.0.0.1	P2	bob	db1
        two	2	1	1	127.0.0.2	127.0.0.2	P1	default\t
        """;

    @Test
    void remoteServersAnswerAsTheRealServerListsThem() throws Exception {
        Path config = dir.resolve("config.xml");
        String ports = REMOTE_SERVERS.replace("P1", "18401").replace("P2", "18402").replace("P3", "18403");
        Files.writeString(config, "<?xml version=\"1.0\"?>\n<yandex><listen_host>127.0.0.1</listen_host>" + ports + "</yandex>");
        try (StubServer configured = StubServer.builder().port(0).configFile(config).emulate("18.16").build().start()) {
            String answer = new ConformanceClient(configured.httpUrl()).query("SELECT cluster, shard_num, shard_weight, replica_num,"
                + " host_name, host_address, port, user, default_database FROM system.clusters WHERE cluster IN ('two', 'nodes')");
            assertEquals(RECORDED.replace("P1", "18401").replace("P2", "18402").replace("P3", "18403"), answer);
        }
        ConfigProcessor.ServerConfig c = ConfigProcessor.load(config);
        Cluster two = c.clusters().stream().filter(x -> x.name().equals("two")).findFirst().orElseThrow();
        assertTrue(two.shard(1).internalReplication());
        assertEquals(false, two.shard(2).internalReplication());
        assertEquals(List.of(0, 0, 1), List.of(two.slotToShard(0), two.slotToShard(1), two.slotToShard(2)));
        assertEquals(null, c.zookeeper());
    }

    @Test
    void macrosAndZooKeeperComeFromTheFileAndConfigDMergesIn() throws Exception {
        Path config = dir.resolve("config.xml");
        Files.writeString(config, "<clickhouse><zookeeper><node index=\"1\"><host>zk1</host><port>2181</port></node><node><host>zk2</host>"
            + "</node><session_timeout_ms>5000</session_timeout_ms><root>/ch</root></zookeeper><macros><shard>02</shard><replica>a</replica>"
            + "</macros><remote_servers><c><shard><replica><host>h1</host><port>1</port></replica></shard></c>"
            + "<gone><node><host>h</host><port>2</port></node></gone></remote_servers><unknown_section><x/></unknown_section></clickhouse>");
        Files.createDirectories(dir.resolve("config.d"));
        Files.writeString(dir.resolve("config.d").resolve("50-macros.xml"), "<clickhouse><macros><replica>b</replica><cluster>c</cluster>"
            + "</macros><remote_servers><c replace=\"1\"><shard><name>first</name><replica><host>h2</host><port>3</port><secure>1</secure>"
            + "</replica></shard></c><gone remove=\"1\"/></remote_servers></clickhouse>");
        ConfigProcessor.ServerConfig c = ConfigProcessor.load(config);
        assertEquals("zk1:2181,zk2:2181/ch", c.zookeeper());
        assertEquals(5000, c.zookeeperSessionTimeoutMs());
        assertEquals("02", c.macros().get("shard"));
        assertEquals("b", c.macros().get("replica"));
        assertEquals(1, c.clusters().size());
        Cluster.ShardInfo shard = c.clusters().get(0).shard(1);
        assertEquals("first", shard.name());
        assertEquals(new Cluster.Address("h2", 3, "default", "", "", true, 1, 1), shard.replicas().get(0));
    }

    @Test
    void aBadClusterIsRefusedWithTheEnginesErrors() {
        assertEquals(ErrorCode.UNKNOWN_ELEMENT_IN_CONFIG, error("<c><server><host>h</host><port>1</port></server></c>").code());
        assertEquals(ErrorCode.UNKNOWN_ELEMENT_IN_CONFIG, error("<c><shard><host>h</host></shard></c>").code());
        assertEquals(ErrorCode.SHARD_HAS_NO_CONNECTIONS, error("<c><secret>s</secret></c>").code());
        assertEquals(ErrorCode.INVALID_SHARD_ID, error("<c><shard><name>a</name><replica><host>h</host><port>1</port></replica></shard>"
            + "<shard><replica><host>h</host><port>2</port></replica></shard></c>").code());
        assertEquals(ErrorCode.INVALID_SHARD_ID, error("<c><node><name>a</name><host>h</host><port>1</port></node>"
            + "<node><name>a</name><host>h</host><port>2</port></node></c>").code());
        assertEquals(ErrorCode.BAD_ARGUMENTS, error("<c><node><host>h</host><port>1</port><weight>0</weight></node></c>").code());
        assertEquals(ErrorCode.NO_ELEMENTS_IN_CONFIG, error("<c><node><host>h</host></node></c>").code());
        assertEquals(ErrorCode.CANNOT_LOAD_CONFIG, assertThrows(ChException.class, () -> ConfigProcessor.parse("<clickhouse>")).code());
    }

    private static ChException error(String cluster) {
        return assertThrows(ChException.class, () -> ConfigProcessor.parse("<clickhouse><remote_servers>" + cluster + "</remote_servers></clickhouse>"));
    }
}
