package dev.chdedup.it;

import com.clickhouse.client.api.Client;
import dev.chdedup.stub.server.StubServer;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One stub server per test class: register it as a static field with {@code @RegisterExtension}; it starts before
 * the class's first test (port 0, temporary data directory) and is closed after its last one. Gives tests the
 * server, JDBC connections through the official driver, and a raw HTTP client.
 */
public final class StubServerExtension implements BeforeAllCallback, AfterAllCallback {
    private StubServer server;
    private ClickHouseHttp http;

    public static StubServerExtension create() {
        return new StubServerExtension();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        server = StubServer.builder().port(0).build().start();
        http = new ClickHouseHttp(server.httpUrl());
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        if (server != null) {
            server.close();
        }
    }

    public StubServer server() {
        return server;
    }

    /** {@code jdbc:clickhouse://127.0.0.1:PORT/default}. */
    public String jdbcUrl() {
        return server.jdbcUrl();
    }

    /** A client of the official Java client (client-v2) for {@code user}, with uncompressed answers; the caller closes it. */
    public Client newClient(String user, String password) {
        return clientBuilder().setUsername(user).setPassword(password).build();
    }

    /** A client-v2 builder for this server as {@code default}, uncompressed responses, for a test to add its own options. */
    public Client.Builder clientBuilder() {
        return new Client.Builder().addEndpoint(server.httpUrl()).setUsername("default").setPassword("").compressServerResponse(false);
    }

    /** {@link #newClient(String, String)} as {@code default} without a password. */
    public Client newClient() {
        return newClient("default", "");
    }

    public ClickHouseHttp http() {
        return http;
    }

    public Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl());
    }

    /** A connection with driver properties, e.g. {@code compress=false}. */
    public Connection connect(String... keyValues) throws SQLException {
        Properties p = new Properties();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.setProperty(keyValues[i], keyValues[i + 1]);
        }
        return DriverManager.getConnection(jdbcUrl(), p);
    }

    /** One value from a query run over raw HTTP (TabSeparated, trimmed): independent of the JDBC driver. */
    public String scalar(String sql) {
        return http.scalar(sql);
    }

    public long count(String table) {
        return Long.parseLong(scalar("SELECT count() FROM " + table));
    }
}
