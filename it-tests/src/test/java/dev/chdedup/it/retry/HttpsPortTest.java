package dev.chdedup.it.retry;

import static dev.chdedup.it.retry.RetryFixtures.assertExactlyOnce;
import static dev.chdedup.it.retry.RetryFixtures.createTable;
import static dev.chdedup.it.retry.RetryFixtures.firedOn;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.clickhouse.client.api.Client;
import com.clickhouse.client.api.query.GenericRecord;
import dev.chdedup.stub.exec.ServerInfo;
import dev.chdedup.stub.fault.FaultKind;
import dev.chdedup.stub.fault.FaultRule;
import dev.chdedup.stub.junit.StubServerExtension;
import dev.chdedup.stub.server.StubServer;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The stub's HTTPS port (ClickHouse's https_port) through the official clients, trusting the certificate the stub made
 * in its data directory: the JDBC driver 0.10.0 with {@code ssl=true}, {@code ssl_mode=STRICT} and the certificate as
 * its {@code sslrootcert} (client-v2's documented trust settings, which the driver passes on), client-v2 with
 * {@code setRootCertificate} (and the driver with a PKCS12 trust store instead), and our driver over the same URL, whose insert the stub drops after commit and which
 * it retries to exactly one copy over TLS. A driver that trusts another certificate is refused in the handshake.
 */
class HttpsPortTest {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.builder().https().build();

    private static StubServer stub() {
        return STUB.server();
    }

    @AfterEach
    void disarm() {
        stub().faults().clear();
    }

    /** {@code jdbc:<prefix>clickhouse:https://127.0.0.1:PORT/default?ssl=true&ssl_mode=STRICT&sslrootcert=<pem>}. */
    static String url(String prefix, Path rootCertificate, String... params) {
        StringBuilder u = new StringBuilder("jdbc:" + prefix + "clickhouse:" + stub().httpsUrl() + "/default?ssl=true&ssl_mode=STRICT&sslrootcert=")
            .append(rootCertificate);
        for (String p : params) {
            u.append('&').append(p);
        }
        return u.toString();
    }

    private static Path certificate() {
        return stub().httpsCertificateFile();
    }

    @Test
    void theOfficialDriverQueriesAndInsertsOverTls() throws SQLException {
        String t = createTable(stub(), "tls_raw", false);
        try (Connection c = DriverManager.getConnection(url("", certificate()))) {
            assertTrue(c.isValid(5));
            assertEquals(ServerInfo.VERSION, c.getMetaData().getDatabaseProductVersion());
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + t + " (id, s) VALUES (?, ?)")) {
                for (int i = 0; i < 1000; i++) {
                    ps.setLong(1, i);
                    ps.setString(2, "row " + i);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT count(), sum(id), max(s) FROM " + t)) {
                assertTrue(rs.next());
                assertEquals(1000, rs.getLong(1));
                assertEquals(499_500, rs.getLong(2));
                assertEquals("row 999", rs.getString(3));
            }
        }
        assertExactlyOnce(stub(), t, 1000);
    }

    @Test
    void theOfficialDriverWithATrustStore(@TempDir Path dir) throws Exception {
        Path store = dir.resolve("truststore.p12");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setCertificateEntry("stub", stub().httpsCertificate());
        try (OutputStream out = Files.newOutputStream(store)) {
            ks.store(out, "changeit".toCharArray());
        }
        String url = "jdbc:clickhouse:" + stub().httpsUrl() + "/default?ssl=true&ssl_mode=STRICT&trust_store=" + store
            + "&key_store_password=changeit&key_store_type=PKCS12";
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT sum(number) FROM numbers(1000)")) {
            assertTrue(rs.next());
            assertEquals(499_500, rs.getLong(1));
        }
    }

    @Test
    void clientV2QueriesOverTls() throws Exception {
        try (Client client = new Client.Builder().addEndpoint(stub().httpsUrl()).setUsername("default").setPassword("")
            .setRootCertificate(certificate().toString()).build()) {
            List<GenericRecord> rows = client.queryAll("SELECT number, toString(number) AS s FROM numbers(100000)");
            assertEquals(100_000, rows.size());
            assertEquals("99999", rows.get(99_999).getString("s"));
        }
    }

    @Test
    void aDriverThatTrustsAnotherCertificateIsRefused() throws Exception {
        try (StubServer other = StubServer.builder().port(0).httpsPort(0).build().start()) {
            SQLException e = assertThrows(SQLException.class, () -> {
                try (Connection c = DriverManager.getConnection(url("", other.httpsCertificateFile()));
                     Statement st = c.createStatement()) {
                    st.executeQuery("SELECT 1").close();
                }
            });
            assertTrue(causedBy(e, SSLHandshakeException.class), () -> "expected a refused handshake, got " + e);
        }
        try (Connection c = DriverManager.getConnection(url("", certificate())); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("SELECT 1")) {
            assertTrue(rs.next(), "the server serves on");
        }
    }

    @Test
    void ourDriverQueriesOverTls() throws SQLException {
        try (Connection c = DriverManager.getConnection(url("dedup:", certificate(), RetryFixtures.FAST_RETRY));
             Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT version()")) {
            assertTrue(rs.next());
            assertEquals(ServerInfo.VERSION, rs.getString(1));
        }
    }

    /** The insert lands, then the connection is reset before the answer: ours retries over a new TLS connection, once. */
    @ParameterizedTest
    @EnumSource(InsertForm.class)
    void ourDriverRetriesAnInsertDroppedAfterCommit(InsertForm form) throws SQLException {
        String t = createTable(stub(), "tls_ours", true);
        stub().faults().add(FaultRule.of(FaultKind.DROP_AFTER_COMMIT).onTable(t).times(1));
        RetryFixtures.Sent sent;
        try (Connection c = DriverManager.getConnection(url("dedup:", certificate(), RetryFixtures.FAST_RETRY))) {
            sent = form.insert(c, t, 1_000_000);
        }
        assertEquals(1, firedOn(stub(), t), "the fault fired once");
        assertEquals(2, sent.attempts(), "one retry after the fault");
        assertNotNull(sent.token());
        assertExactlyOnce(stub(), t, form.rows);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
