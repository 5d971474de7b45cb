package dev.chdedup.stub.replicated;

import java.io.File;
import java.util.Map;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * Starts the embedded ZooKeeper (Curator's {@code TestingServer}) the stub uses when no ensemble is named: on a free
 * port, with its data in the given directory (kept across restarts), a 500 ms tick (so sessions may be as short as
 * 1 s and a killed replica's expires soon), and without an fsync per transaction ({@code zookeeper.forceSync=no},
 * unless the JVM sets it): the transaction log still reaches the OS before a write is answered, so a killed process
 * loses nothing; a power loss may. It listens on 127.0.0.1 only.
 */
public final class EmbeddedZooKeeper {
    static final int TICK_MS = 500;
    static final String LOOPBACK = "127.0.0.1";

    private EmbeddedZooKeeper() {
    }

    public static TestingServer start(File dataDir) throws Exception {
        if (System.getProperty("zookeeper.forceSync") == null) {
            System.setProperty("zookeeper.forceSync", "no");
        }
        // clientPortAddress: the client port on the loopback address only, as every server the stub starts
        return new TestingServer(new InstanceSpec(dataDir, -1, -1, -1, false, -1, TICK_MS, -1, Map.of("clientPortAddress", LOOPBACK), LOOPBACK),
            true);
    }
}
