package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.http.TlsClients;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTTPS port (ClickHouse's https_port) beside the HTTP one, behind the same handler: queries, an insert, a gzip
 * response, a session, a wrong password (516), over java.net.http trusting only the certificate the server made in its
 * data directory; that certificate kept across a restart; a certificate given as PEM files or a PKCS12 keystore; a
 * client speaking plain HTTP to the HTTPS port failing alone.
 */
class HttpsTest {
    @TempDir
    static Path dir;
    private static StubServer server;
    private static HttpClient https;

    @BeforeAll
    static void start() throws Exception {
        server = StubServer.builder().port(0).httpsPort(0).dataDir(dir.resolve("data")).user("default", "").user("alice", "pw")
            .build().start();
        https = TlsClients.httpClient(server.httpsCertificate());
    }

    @AfterAll
    static void stop() throws IOException {
        server.close();
    }

    private static HttpResponse<String> post(String url, String query, String body, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + (url.contains("?") ? "&" : "/?") + "query=" + query.replace(" ", "%20")))
            .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return https.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String ok(HttpResponse<String> r) {
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    @Test
    void queriesAndAnInsertOverTls() throws Exception {
        assertEquals("https://127.0.0.1:" + server.httpsPort(), server.httpsUrl());
        assertNotEquals(server.port(), server.httpsPort());
        ok(post(server.httpsUrl(), "CREATE TABLE tls_insert (k UInt64, s String) ENGINE = MergeTree ORDER BY k", ""));
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            rows.append(i).append('\t').append("row ").append(i).append('\n');
        }
        ok(post(server.httpsUrl(), "INSERT INTO tls_insert FORMAT TabSeparated", rows.toString()));
        assertEquals("100000\t4999950000\n", ok(post(server.httpsUrl(), "SELECT count(), sum(k) FROM tls_insert", "")));
        assertEquals("100000\n", ok(post(server.httpUrl(), "SELECT count() FROM tls_insert", "")), "the same server on the HTTP port");
        String all = ok(post(server.httpsUrl(), "SELECT * FROM tls_insert ORDER BY k FORMAT TabSeparated", ""));
        assertEquals(rows.toString(), all, "a result of many TLS records");
    }

    @Test
    void aCompressedResponse() throws Exception {
        HttpResponse<byte[]> r = https.send(HttpRequest.newBuilder(URI.create(server.httpsUrl()
            + "/?enable_http_compression=1&query=SELECT%20number%20FROM%20numbers(50000)")).header("Accept-Encoding", "gzip").build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals("gzip", r.headers().firstValue("Content-Encoding").orElse(""));
        String text = new String(new GZIPInputStream(new ByteArrayInputStream(r.body())).readAllBytes(), StandardCharsets.US_ASCII);
        assertEquals(50_000, text.lines().count());
        assertTrue(text.endsWith("\n49999\n"), text.substring(text.length() - 20));
    }

    @Test
    void aWrongPasswordIs516() throws Exception {
        String wrong = "Basic " + Base64.getEncoder().encodeToString("alice:nope".getBytes(StandardCharsets.UTF_8));
        HttpResponse<String> r = post(server.httpsUrl(), "SELECT 1", "", "Authorization", wrong);
        assertEquals(403, r.statusCode(), r.body());
        assertEquals("516", r.headers().firstValue("X-ClickHouse-Exception-Code").orElse(""), r.body());
        assertTrue(r.body().contains("(AUTHENTICATION_FAILED)"), r.body());
        assertEquals("alice\n", ok(post(server.httpsUrl(), "SELECT currentUser()", "", "X-ClickHouse-User", "alice", "X-ClickHouse-Key", "pw")));
    }

    @Test
    void aSessionSpansRequests() throws Exception {
        ok(post(server.httpsUrl() + "/?session_id=tls1", "CREATE TEMPORARY TABLE tmp (k Int32)", ""));
        ok(post(server.httpsUrl() + "/?session_id=tls1", "INSERT INTO tmp VALUES (7)", ""));
        assertEquals("7\n", ok(post(server.httpsUrl() + "/?session_id=tls1", "SELECT k FROM tmp", "")));
        assertEquals(404, post(server.httpsUrl(), "SELECT k FROM tmp", "").statusCode(), "no table outside the session");
    }

    @Test
    void plainHttpToTheHttpsPortFailsAlone() throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.httpsPort())) {
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write("GET /?query=SELECT%201 HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals(-1, s.getInputStream().read(), "closed without an answer, as ClickHouse's OpenSSL does");
        }
        assertEquals("1\n", ok(post(server.httpsUrl(), "SELECT 1", "")));
    }

    @Test
    void theGeneratedCertificateIsKeptInTheDataDirectory() throws Exception {
        Path ssl = server.dataDir().resolve("ssl");
        assertEquals(ssl.resolve("server.crt"), server.httpsCertificateFile());
        try (Stream<Path> files = Files.list(ssl)) {
            assertEquals(Set.of("server.crt", "server.key"), files.map(p -> p.getFileName().toString()).collect(Collectors.toSet()));
        }
        X509Certificate fromFile = (X509Certificate) CertificateFactory.getInstance("X.509")
            .generateCertificate(Files.newInputStream(server.httpsCertificateFile()));
        assertEquals(server.httpsCertificate(), fromFile);
        Set<String> names = new TreeSet<>();
        for (List<?> n : fromFile.getSubjectAlternativeNames()) {
            names.add(String.valueOf(n.get(1)));
        }
        assertTrue(names.containsAll(Set.of("127.0.0.1", "localhost")), names.toString());
        int port = server.httpsPort();
        server.restart();
        assertEquals(fromFile, server.httpsCertificate(), "the same certificate after a restart");
        assertEquals(port, server.httpsPort(), "on the same port");
        assertEquals("1\n", ok(post(server.httpsUrl(), "SELECT 1", "")), "a client that trusted it still does");
    }

    @Test
    void aCertificateGivenAsPemFilesOrAKeystore() throws Exception {
        Path crt = Files.copy(server.dataDir().resolve("ssl/server.crt"), dir.resolve("given.crt"));
        Path key = Files.copy(server.dataDir().resolve("ssl/server.key"), dir.resolve("given.key"));
        try (StubServer pem = StubServer.builder().port(0).httpsPort(0).httpsCertificate(crt, key).build().start()) {
            assertEquals(server.httpsCertificate(), pem.httpsCertificate());
            assertEquals(crt, pem.httpsCertificateFile());
            assertEquals("1\n", ok(post(pem.httpsUrl(), "SELECT 1", "")));
            assertTrue(Files.notExists(pem.dataDir().resolve("ssl")), "nothing generated");
        }
        Path p12 = dir.resolve("given.p12");
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        ks.setKeyEntry("stub", privateKey(key), "secret".toCharArray(), new Certificate[] {server.httpsCertificate()});
        try (OutputStream out = Files.newOutputStream(p12)) {
            ks.store(out, "secret".toCharArray());
        }
        try (StubServer store = StubServer.builder().port(0).httpsPort(0).httpsKeyStore(p12, "secret").build().start()) {
            assertEquals(server.httpsCertificate(), store.httpsCertificate());
            assertNull(store.httpsCertificateFile());
            assertEquals("1\n", ok(post(store.httpsUrl(), "SELECT 1", "")));
        }
    }

    @Test
    void aKeyOfAnotherCertificateOrNoHttpsPortIsRefused() throws Exception {
        Path otherKey;
        try (StubServer other = StubServer.builder().port(0).httpsPort(0).build().start()) {
            otherKey = Files.copy(other.dataDir().resolve("ssl/server.key"), dir.resolve("other.key"));
        }
        StubServer mismatched = StubServer.builder().port(0).httpsPort(0).httpsCertificate(server.httpsCertificateFile(), otherKey).build();
        IOException e = assertThrows(IOException.class, mismatched::start);
        assertTrue(e.getMessage().contains("does not belong to the certificate"), e.getMessage());
        mismatched.close();
        assertThrows(IllegalStateException.class, () -> StubServer.builder().httpsCertificate(server.httpsCertificateFile(), otherKey).build());
        try (StubServer plain = StubServer.builder().port(0).build().start()) {
            assertEquals(-1, plain.httpsPort());
            assertThrows(IllegalStateException.class, plain::httpsUrl);
        }
    }

    private static PrivateKey privateKey(Path pkcs8Pem) throws Exception {
        String b64 = Files.readString(pkcs8Pem).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(b64)));
    }
}
