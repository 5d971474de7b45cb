package dev.chdedup.stub.replicated;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
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
        int[] ports = freePorts(3);
        return new TestingServer(new InstanceSpec(dataDir, ports[0], ports[1], ports[2], false, -1, TICK_MS, -1,
            Map.of("clientPortAddress", LOOPBACK), LOOPBACK), true);
    }

    /**
     * {@code n} distinct free ports on the loopback address. Curator picks each port of an {@code InstanceSpec} on its
     * own (a socket on port 0, closed at once), so the client, election and quorum ports of one node, or two nodes'
     * ports, can come out equal and ZooKeeper refuses to start ("Client and election port must be different"); here
     * every socket stays open until all the ports are chosen.
     */
    public static int[] freePorts(int n) throws IOException {
        List<ServerSocket> held = new ArrayList<>(n);
        try {
            int[] ports = new int[n];
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK));
                held.add(s);
                ports[i] = s.getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket s : held) {
                s.close();
            }
        }
    }
}
