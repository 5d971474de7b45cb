package dev.chdedup.driver;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A DataSource over {@link DedupDriver}, for HikariCP's {@code dataSourceClassName}
 * ({@code dataSource.url}, {@code dataSource.user}, {@code dataSource.password}, and any driver or ClickHouse
 * property through {@link #setProperty}) or for direct use.
 */
public class DedupDataSource implements DataSource {
    private final DedupDriver driver = new DedupDriver();
    private String url;
    private final Properties properties = new Properties();
    private PrintWriter logWriter;
    private int loginTimeout;

    public String getUrl() {
        return url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    public void setUser(String user) {
        properties.setProperty("user", user);
    }

    public void setPassword(String password) {
        properties.setProperty("password", password);
    }

    public void setProperty(String key, String value) {
        properties.setProperty(key, value);
    }

    public void setProperties(Properties props) {
        properties.putAll(props);
    }

    @Override
    public Connection getConnection() throws SQLException {
        return connect(properties);
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        Properties p = new Properties();
        p.putAll(properties);
        if (username != null) {
            p.setProperty("user", username);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return connect(p);
    }

    private Connection connect(Properties p) throws SQLException {
        if (url == null || !driver.acceptsURL(url)) {
            throw new SQLException("DedupDataSource needs a url starting with " + DedupDriver.PREFIX + "clickhouse://, got " + url, "08001");
        }
        return driver.connect(url, p);
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        this.loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("The driver logs through SLF4J");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("Not a wrapper for " + iface.getName());
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
