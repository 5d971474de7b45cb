package dev.chdedup.stub.distributed;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Settings;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A shard's replicas as ClickHouse's {@code ConnectionPoolWithFailover} uses them: a request goes to the first replica
 * that accepts a connection, in the order the shard lists them (the engine's {@code in_order} balancing), for up to
 * {@code connections_with_failover_max_tries} rounds; a replica that refuses, does not resolve or times out connecting
 * is passed over, and when every try fails the shard is unavailable: ALL_CONNECTION_TRIES_FAILED with the log of the
 * tries, as the engine words it. An error after the connection was made (the remote query failed) is not retried: it is
 * the request's answer.
 */
public final class ConnectionPoolWithFailover {
    private ConnectionPoolWithFailover() {
    }

    /**
     * {@code request} run on the first of {@code replicas} that {@code from} (the asking server's clusters, whose cut
     * links refuse a connection) can reach, with connections timed as {@code settings} say
     * ({@code connect_timeout_with_failover_ms}, {@code receive_timeout}).
     */
    public static <T> T tryEach(Clusters from, List<Cluster.Address> replicas, Settings settings, Function<Connection, T> request) {
        long tries = Math.max(1, settings.getLong("connections_with_failover_max_tries"));
        Duration connect = Duration.ofMillis(Math.max(1, settings.getLong("connect_timeout_with_failover_ms")));
        Duration receive = Duration.ofSeconds(Math.max(1, settings.getLong("receive_timeout")));
        StringBuilder log = new StringBuilder();
        for (long t = 0; t < tries; t++) {
            for (Cluster.Address a : replicas) {
                try {
                    if (from.linkCut(a)) {
                        throw new ChException(ErrorCode.NETWORK_ERROR, "Connection refused (" + a.hostPort() + ")",
                            new java.net.ConnectException("the link to " + a.hostPort() + " is cut"));
                    }
                    return request.apply(new Connection(a, connect, receive));
                } catch (ChException e) {
                    if (!Connection.connectFailed(e)) {
                        throw e;
                    }
                    log.append(netExceptionText(e)).append('\n');
                }
            }
        }
        throw new ChException(ErrorCode.ALL_CONNECTION_TRIES_FAILED, "All connection tries failed. Log: \n\n" + log + "\n");
    }

    /** A network error as the engine writes it into a log of failures ({@code Code: N. DB::NetException: ... (NAME)}). */
    public static String netExceptionText(ChException e) {
        String m = e.getMessage();
        return "Code: " + e.code().code + ". DB::NetException: " + m + (m.endsWith(".") ? " " : ". ") + "(" + e.code().name() + ")";
    }

    /** Whether {@code e} says a shard could not be reached at all (as {@link #tryEach} ends), which skip_unavailable_shards skips. */
    public static boolean unavailable(ChException e) {
        return e.code() == ErrorCode.ALL_CONNECTION_TRIES_FAILED;
    }
}
