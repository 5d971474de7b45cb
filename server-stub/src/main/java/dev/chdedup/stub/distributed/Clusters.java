package dev.chdedup.stub.distributed;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The clusters one server knows, as ClickHouse's {@code Clusters}: those defined for it (a {@code remote_servers}
 * configuration, or {@link #define} at run time as a configuration reload would) and those a source finds (servers
 * that registered themselves, {@link #discoverWith}), by name; a defined cluster wins over a found one of the same
 * name. {@link #isLocal} tells whether an address is this server itself, which a Distributed table writes to
 * directly rather than over the network, as ClickHouse's {@code Cluster::Address::is_local}.
 */
public final class Clusters {
    private final Map<String, Cluster> defined = Collections.synchronizedMap(new LinkedHashMap<>());
    private volatile Supplier<List<Cluster>> discovered = List::of;
    private final java.util.Set<String> cutLinks = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private volatile String localHost = "127.0.0.1";
    private volatile int localPort = -1;
    private volatile int localSecurePort = -1;

    /**
     * Cuts the link from this server to {@code host:port}, as a network partition would: every connection this server
     * opens to it is refused (a fault for tests; the other servers still reach it). {@link #restoreLinks} heals.
     */
    public void cutLinkTo(String host, int port) {
        cutLinks.add(new Cluster.Address(host, port, null, null, null, false, 0, 0).hostPort());
    }

    /** Heals every link {@link #cutLinkTo} cut. */
    public void restoreLinks() {
        cutLinks.clear();
    }

    /** Whether this server's link to {@code a} is cut. */
    public boolean linkCut(Cluster.Address a) {
        return !cutLinks.isEmpty() && cutLinks.contains(a.hostPort());
    }

    /** Defines (or redefines) a cluster by its name. */
    public void define(Cluster cluster) {
        defined.put(cluster.name(), cluster);
    }

    /** Forgets a defined cluster; true if there was one. */
    public boolean remove(String name) {
        return defined.remove(name) != null;
    }

    /** Where clusters not defined come from, asked at each lookup (so a server that registers later is found). */
    public void discoverWith(Supplier<List<Cluster>> source) {
        this.discovered = source;
    }

    /** This server's own address, for {@link #isLocal}; a secure port of -1 when it serves no HTTPS. */
    public void servesOn(String host, int port, int securePort) {
        this.localHost = host;
        this.localPort = port;
        this.localSecurePort = securePort;
    }

    /** The cluster named {@code name}: CLUSTER_DOESNT_EXIST when there is none, with the engine's message. */
    public Cluster get(String name) {
        Cluster c = find(name);
        if (c == null) {
            throw new ChException(ErrorCode.CLUSTER_DOESNT_EXIST, "Requested cluster '" + name + "' not found");
        }
        return c;
    }

    /** The cluster named {@code name}, or null. */
    public Cluster find(String name) {
        Cluster c = defined.get(name);
        if (c != null) {
            return c;
        }
        for (Cluster d : discovered.get()) {
            if (d.name().equals(name)) {
                return d;
            }
        }
        return null;
    }

    /** Every cluster by name, defined ones first, in the order they came. */
    public Map<String, Cluster> all() {
        Map<String, Cluster> out = new LinkedHashMap<>();
        synchronized (defined) {
            out.putAll(defined);
        }
        for (Cluster d : discovered.get()) {
            out.putIfAbsent(d.name(), d);
        }
        return out;
    }

    /**
     * Whether {@code a} is this server: its port (the HTTPS one for a secure address) on localhost (127.0.0.1, ::1),
     * this server's host or the machine's name; another loopback address (127.0.0.2) is not, as for ClickHouse, whose
     * server listening on 127.0.0.1 it does not reach.
     */
    public boolean isLocal(Cluster.Address a) {
        int port = a.secure() ? localSecurePort : localPort;
        if (port < 0 || a.port() != port) {
            return false;
        }
        String h = a.host();
        return h.equalsIgnoreCase(localHost) || h.equalsIgnoreCase("localhost") || h.equals("127.0.0.1") || h.equals("::1")
            || h.equals("[::1]") || h.equalsIgnoreCase(dev.chdedup.stub.exec.ServerInfo.hostName());
    }

    /** The addresses of {@code shard} that are this server. */
    public List<Cluster.Address> localReplicas(Cluster.ShardInfo shard) {
        List<Cluster.Address> out = new ArrayList<>();
        for (Cluster.Address a : shard.replicas()) {
            if (isLocal(a)) {
                out.add(a);
            }
        }
        return out;
    }
}
