package dev.chdedup.driver;

import dev.chdedup.driver.journal.DedupJournal;
import dev.chdedup.driver.journal.JournalSettings;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The JDBC driver: accepts {@code jdbc:dedup:clickhouse://...} and {@code jdbc:dedup:ch://...}, takes its own
 * properties (URL query or Properties; see {@link DedupProperty}) out, validates them, and hands the rest to
 * the official ClickHouse driver (found through DriverManager) as {@code jdbc:clickhouse://...} with the
 * official client's own retries switched off, so that one policy decides. Registered through ServiceLoader.
 */
public final class DedupDriver implements Driver {
    public static final String PREFIX = "jdbc:dedup:";
    private static final String[] ACCEPTED = {"jdbc:dedup:clickhouse:", "jdbc:dedup:ch:"};
    /** Settings pinned on every insert unless the connection configures its own value, with ClickHouse's defaults. */
    static final Map<String, String> PINNED_DEFAULTS = Map.of(
        "max_insert_block_size", "1048576",
        "min_insert_block_size_rows", "1048576",
        "min_insert_block_size_bytes", "268435456",
        "max_block_size", "65409");
    private static final DedupDriver INSTANCE = new DedupDriver();

    static {
        register();
    }

    public static synchronized void register() {
        try {
            for (java.util.Enumeration<Driver> e = DriverManager.getDrivers(); e.hasMoreElements(); ) {
                if (e.nextElement() instanceof DedupDriver) {
                    return;
                }
            }
            DriverManager.registerDriver(INSTANCE);
            DedupMetrics.register();
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public static synchronized void deregister() throws SQLException {
        DriverManager.deregisterDriver(INSTANCE);
    }

    @Override
    public boolean acceptsURL(String url) {
        if (url == null) {
            return false;
        }
        for (String p : ACCEPTED) {
            if (url.startsWith(p)) {
                return true;
            }
        }
        return false;
    }

    /** The official driver's URL and the merged properties, with ours split off. */
    record Target(String url, Properties delegateProps, Properties ours) {
    }

    static Target split(String url, Properties info) {
        String rest = url.substring(PREFIX.length());
        int q = rest.indexOf('?');
        String base = q < 0 ? rest : rest.substring(0, q);
        Properties ours = new Properties();
        List<String> kept = new ArrayList<>();
        if (q >= 0) {
            for (String kv : rest.substring(q + 1).split("&")) {
                if (kv.isEmpty()) {
                    continue;
                }
                int eq = kv.indexOf('=');
                String k = URLDecoder.decode(eq < 0 ? kv : kv.substring(0, eq), StandardCharsets.UTF_8);
                String v = eq < 0 ? "" : URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
                if (DedupProperty.byKey(k) != null) {
                    ours.setProperty(k, v);
                } else {
                    kept.add(kv);
                }
            }
        }
        Properties delegate = new Properties();
        if (info != null) {
            for (String k : info.stringPropertyNames()) {
                if (DedupProperty.byKey(k) != null) {
                    ours.setProperty(k, info.getProperty(k));
                } else {
                    delegate.setProperty(k, info.getProperty(k));
                }
            }
        }
        String target = "jdbc:" + base + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
        return new Target(target, delegate, ours);
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!acceptsURL(url)) {
            return null;
        }
        Target t = split(url, info);
        DedupConfig config = DedupConfig.from(t.ours());
        Properties props = t.delegateProps();
        if (config.enabled() && !props.containsKey("client_retry_on_failures") && !t.url().contains("client_retry_on_failures=")) {
            props.setProperty("client_retry_on_failures", "None");
        }
        DedupJournal journal = config.enabled() && config.journal().enabled() ? DedupJournal.open(config.journal().dir()) : null;
        Endpoints endpoints = Endpoints.of(t.url(), DedupProperty.ENDPOINT_ORDER.choice(t.ours(), "inOrder", "random").equals("random"),
            DedupProperty.ENDPOINT_QUARANTINE_MS.longValue(t.ours()));
        Connection c = open(t, endpoints, props, config, journal);
        if (journal != null && config.journal().replay() == JournalSettings.Replay.BLOCKING) {
            try {
                journal.replayAtStartup(c, config.journal().stale());
            } catch (SQLException e) {
                c.close();
                throw e;
            }
        } else if (journal != null && config.journal().replay() == JournalSettings.Replay.AUTO) {
            // the connection is handed out at once; the pending entries go in the background, through connections
            // of their own, until each lands or proves stale
            journal.replayInBackground(() -> open(t, endpoints, props, config, journal), config.journal().stale(), config.policy());
        }
        return c;
    }

    /**
     * A connection of this driver to one of {@code endpoints}: the official driver's, wrapped around the insert executor.
     * With one endpoint it is opened as the official driver opens it (lazily, without a request); with several, each is
     * tried in {@link Endpoints#candidates()} order until one answers a ping, and the others fail over its inserts.
     */
    private static Connection open(Target t, Endpoints endpoints, Properties props, DedupConfig config, DedupJournal journal)
        throws SQLException {
        if (endpoints.size() == 1) {
            return open(t.url(), null, props, config, journal);
        }
        SQLException failed = new SQLException("None of the " + endpoints.size() + " endpoints of the URL answered", "08001");
        for (String url : endpoints.candidates()) {
            Connection c = null;
            try {
                c = open(url, new Failover(endpoints, url, props, config.tableInfoTtlMillis()), props, config, journal);
                if (c.isValid(ENDPOINT_PING_SECONDS)) {
                    endpoints.release(url);
                    return c;
                }
                failed.addSuppressed(new SQLException(Endpoints.endpoint(url) + " did not answer a ping within " + ENDPOINT_PING_SECONDS
                    + " s", "08001"));
            } catch (SQLException e) {
                failed.addSuppressed(e);
            }
            endpoints.quarantine(url);
            if (c != null) {
                c.close();
            }
        }
        throw failed;
    }

    /** How long a new connection waits for an endpoint's ping where the URL names several. */
    static final int ENDPOINT_PING_SECONDS = 5;

    private static Connection open(String url, Failover failover, Properties props, DedupConfig config, DedupJournal journal)
        throws SQLException {
        Driver official = DriverManager.getDriver(url);
        Connection delegate = official.connect(url, props);
        if (delegate == null) {
            throw new SQLException("The official ClickHouse driver did not accept " + url, "08001");
        }
        Map<String, String> pinned = pinnedSettings(url, props);
        return ConnectionHandler.wrap(delegate, new InsertExecutor(delegate, config, Endpoints.endpoint(url), pinned, journal, failover));
    }

    /** The block settings every insert pins (the connection's own values where it sets them) and the dedup switches. */
    static Map<String, String> pinnedSettings(String url, Properties props) {
        Map<String, String> configured = new LinkedHashMap<>();
        int q = url.indexOf('?');
        if (q >= 0) {
            for (String kv : url.substring(q + 1).split("&")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    configured.put(URLDecoder.decode(kv.substring(0, eq), StandardCharsets.UTF_8),
                        URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        for (String k : props.stringPropertyNames()) {
            configured.put(k, props.getProperty(k));
        }
        Map<String, String> pinned = new LinkedHashMap<>();
        for (Map.Entry<String, String> e : PINNED_DEFAULTS.entrySet()) {
            String own = configured.get("clickhouse_setting_" + e.getKey());
            pinned.put(e.getKey(), own != null ? own : e.getValue());
        }
        pinned.put("insert_deduplicate", "1");
        pinned.put("deduplicate_insert", "enable");
        // an insert may be queued without the connection asking (async_insert is 1 by default since 26.2, or a profile's):
        // only an answer given after the flush says whether it landed, so every insert waits for it
        pinned.put("wait_for_async_insert", "1");
        return pinned;
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) throws SQLException {
        List<DriverPropertyInfo> out = new ArrayList<>();
        Properties ours = acceptsURL(url) ? split(url, info).ours() : new Properties();
        for (DedupProperty p : DedupProperty.values()) {
            out.add(p.info(ours));
        }
        if (acceptsURL(url)) {
            Target t = split(url, info);
            Driver official = DriverManager.getDriver(t.url());
            for (DriverPropertyInfo i : official.getPropertyInfo(t.url(), t.delegateProps())) {
                out.add(i);
            }
        }
        return out.toArray(new DriverPropertyInfo[0]);
    }

    @Override
    public int getMajorVersion() {
        return 0;
    }

    @Override
    public int getMinorVersion() {
        return 1;
    }

    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("The driver logs through SLF4J");
    }
}
