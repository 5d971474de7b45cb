package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The certificate made for an HTTPS port none was given for: its names and extensions, its two files alone in the
 * directory it is given (the key its owner's only), taken again at the next start, and made anew when it has expired,
 * does not name the host or cannot be read.
 */
class SelfSignedCertificateTest {
    @TempDir
    Path dir;

    private static Set<String> altNames(X509Certificate c) throws Exception {
        Set<String> names = new TreeSet<>();
        for (List<?> n : c.getSubjectAlternativeNames()) {
            names.add(n.get(0) + ":" + n.get(1));
        }
        return names;
    }

    private Set<String> files() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
    }

    @Test
    void namesTheLoopbackAddressesAndIsItsOwnCa() throws Exception {
        X509Certificate c = SelfSignedCertificate.loadOrCreate(dir, "127.0.0.1").certificate();
        assertEquals(Set.of("2:localhost", "7:127.0.0.1", "7:0:0:0:0:0:0:0:1"), altNames(c));
        assertEquals(c.getSubjectX500Principal(), c.getIssuerX500Principal());
        c.verify(c.getPublicKey());
        assertTrue(c.getBasicConstraints() >= 0, "CA:TRUE, so tools that want a CA file take it");
        assertEquals(List.of("1.3.6.1.5.5.7.3.1"), c.getExtendedKeyUsage(), "serverAuth");
        c.checkValidity(java.util.Date.from(Instant.now().plus(Duration.ofDays(3000))));
        assertEquals(Set.of("server.crt", "server.key"), files(), "nothing else, no temporary file left");
        if (Files.getFileAttributeView(dir, java.nio.file.attribute.PosixFileAttributeView.class) != null) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("server.key"))));
        }
    }

    @Test
    void anotherHostIsNamedToo() throws Exception {
        assertEquals(Set.of("localhost", "127.0.0.1", "::1", "stub.test"), SelfSignedCertificate.names("stub.test"));
        assertEquals(Set.of("localhost", "127.0.0.1", "::1", "10.1.2.3"), SelfSignedCertificate.names("10.1.2.3"));
        assertEquals(Set.of("localhost", "127.0.0.1", "::1"), SelfSignedCertificate.names("0:0:0:0:0:0:0:1"));
        assertEquals(Set.of("localhost", "127.0.0.1", "::1"), SelfSignedCertificate.names("LOCALHOST"));
        assertEquals(Set.of("localhost", "127.0.0.1", "::1"), SelfSignedCertificate.names("0.0.0.0"));
        X509Certificate c = SelfSignedCertificate.loadOrCreate(dir, "stub.test").certificate();
        assertTrue(altNames(c).contains("2:stub.test"), altNames(c).toString());
    }

    @Test
    void keptAcrossStartsAndMadeAnewWhenUnfit() throws Exception {
        X509Certificate first = SelfSignedCertificate.loadOrCreate(dir, "127.0.0.1").certificate();
        assertEquals(first, SelfSignedCertificate.loadOrCreate(dir, "127.0.0.1").certificate(), "kept");
        assertEquals(first, SelfSignedCertificate.loadOrCreate(dir, "localhost").certificate(), "it names localhost already");
        X509Certificate other = SelfSignedCertificate.loadOrCreate(dir, "stub.test").certificate();
        assertNotEquals(first, other, "made anew for a host it does not name");
        assertEquals(other, SelfSignedCertificate.loadOrCreate(dir, "stub.test").certificate());

        KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(new ECGenParameterSpec("secp256r1"));
        KeyPair pair = g.generateKeyPair();
        X509Certificate old = SelfSignedCertificate.create(pair, SelfSignedCertificate.names("127.0.0.1"),
            Instant.now().minus(SelfSignedCertificate.VALIDITY).minus(Duration.ofDays(1)));
        writePem(dir.resolve("server.crt"), old);
        writePem(dir.resolve("server.key"), pair.getPrivate());
        X509Certificate renewed = SelfSignedCertificate.loadOrCreate(dir, "127.0.0.1").certificate();
        assertNotEquals(old, renewed, "an expired one is made anew");
        renewed.checkValidity();

        Files.writeString(dir.resolve("server.crt"), "not a certificate");
        X509Certificate fresh = SelfSignedCertificate.loadOrCreate(dir, "127.0.0.1").certificate();
        assertNotEquals(renewed, fresh, "an unreadable one is made anew");
        assertEquals(Set.of("server.crt", "server.key"), files());
    }

    private static void writePem(Path file, Object o) throws Exception {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            w.writeObject(o);
        }
        Files.writeString(file, s.toString());
    }
}
