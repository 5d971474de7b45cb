package dev.chdedup.stub.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.http.TlsClients;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code --https-port}: the Ready line names the HTTP and the HTTPS URL (one line per replica with {@code --replicas}),
 * the HTTPS port answers a client that trusts the certificate made in the data directory; HTTPS options that do not
 * go together end the command with exit code 2 before anything starts.
 */
class StubMainHttpsTest {
    private static final Pattern READY = Pattern.compile("(http://127\\.0\\.0\\.1:\\d+) (https://127\\.0\\.0\\.1:(\\d+))");

    @TempDir
    Path dir;

    private static String select(HttpClient client, String url, String sql) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(url + "/")).timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private static X509Certificate certificate(Path pem) throws Exception {
        try (InputStream in = Files.newInputStream(pem)) {
            return (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
    }

    @Test
    void theReadyLineNamesBothPorts() throws Exception {
        StubMainReplicasTest.Child c = StubMainReplicasTest.start(1, "--https-port", "0", "--data-dir", dir.resolve("data").toString());
        try {
            Matcher m = READY.matcher(c.urls().get(0));
            assertTrue(m.matches(), c.urls().get(0));
            HttpClient https = TlsClients.httpClient(certificate(dir.resolve("data/ssl/server.crt")));
            assertEquals("1\n", select(https, m.group(2), "SELECT 1"));
            assertEquals("1\n", select(HttpClient.newHttpClient(), m.group(1), "SELECT 1"));
        } finally {
            c.stop();
        }
    }

    @Test
    void everyReplicaHasItsHttpsPort() throws Exception {
        StubMainReplicasTest.Child c = StubMainReplicasTest.start(2, "--replicas", "2", "--https-port", "0", "--data-dir", dir.toString());
        try {
            String[] ports = new String[2];
            for (int i = 0; i < 2; i++) {
                Matcher m = READY.matcher(c.urls().get(i));
                assertTrue(m.matches(), c.urls().get(i));
                HttpClient https = TlsClients.httpClient(certificate(dir.resolve("r" + (i + 1) + "/ssl/server.crt")));
                assertEquals("1\n", select(https, m.group(2), "SELECT 1"), "r" + (i + 1) + " with the certificate in its directory");
                ports[i] = m.group(3);
            }
            assertNotEquals(ports[0], ports[1]);
        } finally {
            c.stop();
        }
    }

    @Test
    void httpsOptionsThatDoNotGoTogether() {
        Path crt = dir.resolve("a.crt");
        assertEquals(2, new CommandLine(new StubMain()).execute("--https-certificate", crt.toString(), "--https-private-key", "k"));
        assertEquals(2, new CommandLine(new StubMain()).execute("--https-port", "0", "--https-certificate", crt.toString()));
        assertEquals(2, new CommandLine(new StubMain()).execute("--https-port", "0", "--https-keystore", "s.p12", "--https-certificate",
            crt.toString(), "--https-private-key", "k"));
    }
}
