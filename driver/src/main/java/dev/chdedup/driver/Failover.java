package dev.chdedup.driver;

import dev.chdedup.retry.ErrorClass;
import dev.chdedup.retry.ErrorClassifier;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the retries of an INSERT to another endpoint of the URL when the connection's own endpoint stops answering, but
 * only to one that holds the same deduplication log: the same replicated table (the same ZooKeeper path) or a Distributed
 * table over the same cluster and local tables with the same key. There the retry, with its token and blocks unchanged,
 * is dropped if an earlier attempt landed, as on the first endpoint. A table whose log is its own server's (a plain
 * MergeTree) is retried on its own endpoint only. Connections to other endpoints are opened when first needed, kept for
 * the connection's later inserts while its own endpoint is quarantined, and closed with it.
 */
final class Failover implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Failover.class);

    private final Endpoints endpoints;
    private final String ownUrl;
    private final Properties props;
    private final long tableInfoTtlMillis;
    /** Connections of the official driver to other endpoints, by URL, opened when an insert first moved there. */
    private final Map<String, Connection> others = new LinkedHashMap<>();

    Failover(Endpoints endpoints, String ownUrl, Properties props, long tableInfoTtlMillis) {
        this.endpoints = endpoints;
        this.ownUrl = ownUrl;
        this.props = props;
        this.tableInfoTtlMillis = tableInfoTtlMillis;
    }

    /** Whether {@code e} says the endpoint itself did not answer (no ClickHouse error code, a transport failure). */
    static boolean endpointFailed(Throwable e) {
        return ErrorClassifier.codeOf(e) == 0 && ErrorClassifier.classify(e) != ErrorClass.NEVER;
    }

    /** The attempts of one INSERT execution into {@code info}'s table, first on {@code own}, its connection's statement. */
    Session session(Statement own, TableInfo info) {
        return new Session(own, info);
    }

    /** Where the attempts of one execution go. */
    final class Session implements AutoCloseable {
        private final Statement own;
        private final TableInfo info;
        private String current = ownUrl;
        private Statement statement;
        /** The current endpoint's connection when it is another endpoint's, else null (the own connection). */
        private Connection connection;
        private boolean move;
        /** Whether an attempt of this execution found its endpoint gone (else it starts elsewhere after an earlier insert did). */
        private boolean failedHere;

        private Session(Statement own, TableInfo info) {
            this.own = own;
            this.info = info;
            this.statement = own;
            // the own endpoint failed for an earlier insert: start where that one went, if it shares the log
            move = endpoints.quarantined(ownUrl);
        }

        /**
         * The statement of the next attempt (null for the own endpoint of an insert sent without one, a RowBinary body):
         * the current endpoint's, or another's after the current one failed.
         */
        Statement statement() {
            if (move) {
                move = false;
                for (String url : endpoints.others(current)) {
                    if (moveTo(url)) {
                        break;
                    }
                }
            }
            return statement;
        }

        /** The connection of the next attempt's endpoint: {@code own} (the connection's own), or another endpoint's. */
        Connection connection(Connection own) {
            return connection == null ? own : connection;
        }

        /** Moves the next attempts to {@code url} when it holds the same log as the own endpoint's table. */
        private boolean moveTo(String url) {
            Statement s;
            Connection c = null;
            if (url.equals(ownUrl)) {
                s = own;
            } else {
                try {
                    c = Failover.this.connection(url);
                    TableInfo there = TableInfo.Cache.get(Endpoints.endpoint(url), c, info.database(), info.table(), tableInfoTtlMillis);
                    if (!info.sharesLogWith(there)) {
                        LOG.info("INSERT into {}: endpoint {} does not hold the same deduplication log, so retries stay on {}",
                            info.describe(), Endpoints.endpoint(url), Endpoints.endpoint(current));
                        return false;
                    }
                    s = c.createStatement();
                } catch (SQLException | RuntimeException e) {
                    endpoints.quarantine(url);
                    forget(url);
                    return false;
                }
            }
            closeStatement();
            if (failedHere) {
                LOG.warn("INSERT into {}: endpoint {} did not answer; the next attempt goes to {}, which holds the same"
                    + " deduplication log", info.describe(), Endpoints.endpoint(current), Endpoints.endpoint(url));
            } else {
                LOG.debug("INSERT into {}: endpoint {} is quarantined; it goes to {}, which holds the same deduplication log",
                    info.describe(), Endpoints.endpoint(current), Endpoints.endpoint(url));
            }
            current = url;
            statement = s;
            connection = c;
            return true;
        }

        /** Records an attempt's failure: an endpoint that did not answer is quarantined and the next attempt moves. */
        void failed(Throwable e) {
            if (endpoints.size() > 1 && endpointFailed(e)) {
                endpoints.quarantine(current);
                move = true;
                failedHere = true;
            }
        }

        /** Records an attempt's success: its endpoint answers. */
        void succeeded() {
            endpoints.release(current);
        }

        private void closeStatement() {
            if (statement != own && statement != null) {
                try {
                    statement.close();
                } catch (SQLException e) {
                    // a statement of a connection kept open: nothing to release beyond it
                }
            }
        }

        @Override
        public void close() {
            closeStatement();
        }
    }

    private synchronized Connection connection(String url) throws SQLException {
        Connection c = others.get(url);
        if (c == null || c.isClosed()) {
            Driver official = DriverManager.getDriver(url);
            c = official.connect(url, props);
            if (c == null) {
                throw new SQLException("The official ClickHouse driver did not accept " + url, "08001");
            }
            others.put(url, c);
        }
        return c;
    }

    private synchronized void forget(String url) {
        Connection c = others.remove(url);
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // a connection to an endpoint that failed
            }
        }
    }

    @Override
    public synchronized void close() {
        for (String url : new java.util.ArrayList<>(others.keySet())) {
            forget(url);
        }
    }
}
