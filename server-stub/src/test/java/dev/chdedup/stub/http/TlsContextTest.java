package dev.chdedup.stub.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.SubjectPublicKeyInfo;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.openssl.jcajce.JceOpenSSLPKCS8EncryptorBuilder;
import org.bouncycastle.openssl.jcajce.JcePEMEncryptorBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The key and certificate files an HTTPS port takes, as ClickHouse's openSSL.server.certificateFile and privateKeyFile
 * come: keys as PKCS#1 (BEGIN RSA PRIVATE KEY), SEC1 (BEGIN EC PRIVATE KEY) and PKCS#8; a certificate file holding the
 * chain, which the server presents whole (a client that trusts only the CA connects); an encrypted key, a key of
 * another certificate and a file without a certificate refused with a message.
 */
class TlsContextTest {
    @TempDir
    Path dir;

    private static KeyPair pair(String algorithm) throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance(algorithm);
        if (algorithm.equals("EC")) {
            g.initialize(new ECGenParameterSpec("secp256r1"));
        } else {
            g.initialize(2048);
        }
        return g.generateKeyPair();
    }

    private Path write(String name, Object... objects) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            for (Object o : objects) {
                w.writeObject(o);
            }
        }
        return Files.writeString(dir.resolve(name), s.toString());
    }

    /**
     * The key as OpenSSL writes it: PKCS#1 for RSA; SEC1 with the curve and the public key for EC (openssl ecparam
     * -genkey), which BouncyCastle's writer leaves out of a JDK key.
     */
    private static Object traditional(KeyPair pair) throws Exception {
        if (!pair.getPrivate().getAlgorithm().equals("EC")) {
            return pair.getPrivate();
        }
        PrivateKeyInfo info = PrivateKeyInfo.getInstance(pair.getPrivate().getEncoded());
        ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
        return new PemObject("EC PRIVATE KEY", new ECPrivateKey(256, inner.getKey(),
            SubjectPublicKeyInfo.getInstance(pair.getPublic().getEncoded()).getPublicKeyData(),
            info.getPrivateKeyAlgorithm().getParameters()).getEncoded());
    }

    private static X509Certificate selfSigned(KeyPair pair) throws Exception {
        return SelfSignedCertificate.create(pair, SelfSignedCertificate.names("127.0.0.1"), Instant.now());
    }

    /** Answers a request over the context with a client that trusts only {@code anchor}. */
    private static String served(TlsContext tls, X509Certificate anchor) throws Exception {
        HttpHandler ok = (req, resp) -> resp.contentLength(2).body().write("ok".getBytes(StandardCharsets.US_ASCII));
        try (HttpServer server = HttpServer.builder().handler(ok).tls(tls.sslContext()).build().start()) {
            HttpClient client = HttpClient.newBuilder().sslContext(TlsClients.trusting(anchor)).build();
            return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/")).timeout(Duration.ofSeconds(10))
                .build(), HttpResponse.BodyHandlers.ofString()).body();
        }
    }

    @Test
    void keysInTheirTraditionalAndPkcs8Forms() throws Exception {
        for (String algorithm : new String[] {"RSA", "EC"}) {
            KeyPair pair = pair(algorithm);
            X509Certificate cert = selfSigned(pair);
            Path crt = write(algorithm + ".crt", cert);
            Path traditional = write(algorithm + ".key", traditional(pair));
            assertTrue(Files.readString(traditional).startsWith("-----BEGIN " + algorithm + " PRIVATE KEY-----"), Files.readString(traditional));
            Path pkcs8 = write(algorithm + ".pk8", new JcaPKCS8Generator(pair.getPrivate(), null));
            assertTrue(Files.readString(pkcs8).startsWith("-----BEGIN PRIVATE KEY-----"));
            for (Path key : new Path[] {traditional, pkcs8}) {
                TlsContext tls = TlsContext.fromPem(crt, key);
                assertEquals(cert, tls.certificate());
                assertEquals(crt, tls.certificateFile());
                assertEquals("ok", served(tls, cert), algorithm + " " + key.getFileName());
            }
        }
    }

    @Test
    void aCertificateFileWithItsChain() throws Exception {
        KeyPair caPair = pair("EC");
        X509Certificate ca = selfSigned(caPair);
        KeyPair leafPair = pair("EC");
        Instant now = Instant.now();
        JcaX509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(X500Name.getInstance(ca.getSubjectX500Principal().getEncoded()), BigInteger.TWO,
            Date.from(now.minusSeconds(3600)), Date.from(now.plus(Duration.ofDays(30))), new X500Name("CN=leaf"), leafPair.getPublic());
        b.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
        X509Certificate leaf = new JcaX509CertificateConverter().getCertificate(
            b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(caPair.getPrivate())));
        TlsContext tls = TlsContext.fromPem(write("chain.crt", leaf, ca), write("leaf.key", traditional(leafPair)));
        assertEquals(leaf, tls.certificate());
        assertEquals(2, tls.chain().size());
        assertEquals("ok", served(tls, ca), "the server presents the chain: a client that trusts only the CA connects");
    }

    @Test
    void refusedWithAMessage() throws Exception {
        KeyPair pair = pair("EC");
        X509Certificate cert = selfSigned(pair);
        Path crt = write("c.crt", cert);
        Path encrypted = write("enc.key", new JcaPKCS8Generator(pair.getPrivate(), new JceOpenSSLPKCS8EncryptorBuilder(
            JcaPKCS8Generator.AES_256_CBC).setProvider(new BouncyCastleProvider()).setPassword("pw".toCharArray()).build()));
        assertTrue(Files.readString(encrypted).startsWith("-----BEGIN ENCRYPTED PRIVATE KEY-----"));
        assertTrue(assertThrows(IOException.class, () -> TlsContext.fromPem(crt, encrypted)).getMessage().contains("is encrypted"));
        StringWriter traditional = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(traditional)) {
            w.writeObject(pair.getPrivate(), new JcePEMEncryptorBuilder("AES-128-CBC").setProvider(new BouncyCastleProvider()).build("pw".toCharArray()));
        }
        assertTrue(traditional.toString().contains("Proc-Type: 4,ENCRYPTED"), traditional.toString());
        Path encryptedTraditional = Files.writeString(dir.resolve("enc2.key"), traditional.toString());
        assertTrue(assertThrows(IOException.class, () -> TlsContext.fromPem(crt, encryptedTraditional)).getMessage().contains("is encrypted"));
        Path other = write("other.key", traditional(pair("EC")));
        assertTrue(assertThrows(IOException.class, () -> TlsContext.fromPem(crt, other)).getMessage()
            .contains("the private key does not belong to the certificate"));
        Path rsa = write("rsa.key", pair("RSA").getPrivate());
        assertThrows(IOException.class, () -> TlsContext.fromPem(crt, rsa), "a key of another algorithm");
        assertTrue(assertThrows(IOException.class, () -> TlsContext.fromPem(other, other)).getMessage().startsWith("No certificate in"));
        assertTrue(assertThrows(IOException.class, () -> TlsContext.fromPem(crt, crt)).getMessage().startsWith("No private key in"));
    }
}
