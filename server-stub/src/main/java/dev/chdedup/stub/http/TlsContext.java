package dev.chdedup.stub.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.openssl.PEMEncryptedKeyPair;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.pkcs.PKCS8EncryptedPrivateKeyInfo;

/**
 * The key and certificate chain an HTTPS port presents, and the {@link SSLContext} over them. They come from a PKCS12
 * keystore, from PEM files as ClickHouse's {@code openSSL.server.certificateFile} and {@code privateKeyFile} name them
 * (the certificate file may hold the rest of the chain after the certificate; the key unencrypted, as PKCS#8, PKCS#1
 * or SEC1), or from {@link SelfSignedCertificate} when none is given. A key that does not belong to the certificate is
 * refused here, at start, as OpenSSL's {@code SSL_CTX_check_private_key} refuses it in ClickHouse.
 */
public final class TlsContext {
    /** Where a server's key and certificate come from; loaded at each start. */
    @FunctionalInterface
    public interface Source {
        /**
         * Loads them; {@code generatedDir} is where a generated certificate is kept (a directory of the server's own),
         * {@code host} the address the server binds, which a generated certificate names.
         */
        TlsContext load(Path generatedDir, String host) throws IOException;
    }

    /** The password of the in-memory keystore behind the SSLContext; it never leaves this class. */
    private static final char[] MEMORY_PASSWORD = "server-stub".toCharArray();
    /** A signature each key algorithm makes, to check that a key belongs to a certificate. */
    private static final Map<String, String> PROOF_SIGNATURES = Map.of("RSA", "SHA256withRSA", "EC", "SHA256withECDSA",
        "Ed25519", "Ed25519", "EdDSA", "Ed25519", "Ed448", "Ed448", "DSA", "SHA256withDSA");

    private final SSLContext sslContext;
    private final List<X509Certificate> chain;
    private final Path certificateFile;

    private TlsContext(PrivateKey key, List<X509Certificate> chain, Path certificateFile) throws GeneralSecurityException, IOException {
        checkKeyBelongs(key, chain.get(0));
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("server", key, MEMORY_PASSWORD, chain.toArray(new Certificate[0]));
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, MEMORY_PASSWORD);
        this.sslContext = SSLContext.getInstance("TLS");
        sslContext.init(keys.getKeyManagers(), null, null);
        this.chain = List.copyOf(chain);
        this.certificateFile = certificateFile;
    }

    /** The first key entry of a PKCS12 (or JKS) keystore, its password also the key's. */
    public static Source pkcs12(Path keyStore, String password) {
        return (dir, host) -> fromPkcs12(keyStore, password.toCharArray());
    }

    /** ClickHouse's {@code certificateFile} and {@code privateKeyFile}, in PEM. */
    public static Source pem(Path certificateFile, Path privateKeyFile) {
        return (dir, host) -> fromPem(certificateFile, privateKeyFile);
    }

    /** A self-signed certificate kept in the server's directory, made there when missing, expired or for another host. */
    public static Source selfSigned() {
        return SelfSignedCertificate::loadOrCreate;
    }

    public static TlsContext fromPkcs12(Path keyStore, char[] password) throws IOException {
        try (InputStream in = Files.newInputStream(keyStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password);
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    List<X509Certificate> chain = new ArrayList<>();
                    for (Certificate c : store.getCertificateChain(alias)) {
                        chain.add((X509Certificate) c);
                    }
                    return new TlsContext((PrivateKey) store.getKey(alias, password), chain, null);
                }
            }
            throw new IOException("No private key entry in the keystore " + keyStore);
        } catch (GeneralSecurityException e) {
            throw new IOException("Cannot read the keystore " + keyStore + ": " + e.getMessage(), e);
        }
    }

    public static TlsContext fromPem(Path certificateFile, Path privateKeyFile) throws IOException {
        List<X509Certificate> chain = new ArrayList<>();
        try {
            JcaX509CertificateConverter certificates = new JcaX509CertificateConverter();
            for (Object o : readPem(certificateFile)) {
                if (o instanceof X509CertificateHolder h) {
                    chain.add(certificates.getCertificate(h));
                }
            }
            if (chain.isEmpty()) {
                throw new IOException("No certificate in " + certificateFile);
            }
            return new TlsContext(privateKey(privateKeyFile), chain, certificateFile);
        } catch (GeneralSecurityException e) {
            throw new IOException("Cannot use the certificate " + certificateFile + " with the key " + privateKeyFile + ": "
                + e.getMessage(), e);
        }
    }

    private static PrivateKey privateKey(Path file) throws IOException {
        JcaPEMKeyConverter keys = new JcaPEMKeyConverter();
        for (Object o : readPem(file)) {
            if (o instanceof PrivateKeyInfo info) {
                return keys.getPrivateKey(info);
            }
            if (o instanceof PEMKeyPair pair) { // PKCS#1 or SEC1, whose public key may be left out
                return keys.getPrivateKey(pair.getPrivateKeyInfo());
            }
            if (o instanceof PEMEncryptedKeyPair || o instanceof PKCS8EncryptedPrivateKeyInfo) {
                throw new IOException("The private key in " + file + " is encrypted; give it unencrypted"
                    + " (openssl pkey -in KEY -out PLAIN_KEY)");
            }
        }
        throw new IOException("No private key in " + file);
    }

    private static List<Object> readPem(Path file) throws IOException {
        List<Object> objects = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.US_ASCII); PEMParser pem = new PEMParser(r)) {
            for (Object o = pem.readObject(); o != null; o = pem.readObject()) {
                objects.add(o);
            }
        }
        return objects;
    }

    /** Signs with the key and verifies with the certificate; a key of another algorithm than those known is taken on trust. */
    private static void checkKeyBelongs(PrivateKey key, X509Certificate certificate) throws GeneralSecurityException {
        String algorithm = PROOF_SIGNATURES.get(key.getAlgorithm());
        if (algorithm == null) {
            return;
        }
        byte[] probe = "server-stub".getBytes(StandardCharsets.US_ASCII);
        Signature sign = Signature.getInstance(algorithm);
        sign.initSign(key);
        sign.update(probe);
        byte[] signature = sign.sign();
        Signature verify = Signature.getInstance(algorithm);
        verify.initVerify(certificate.getPublicKey());
        verify.update(probe);
        if (!verify.verify(signature)) {
            throw new GeneralSecurityException("the private key does not belong to the certificate");
        }
    }

    public SSLContext sslContext() {
        return sslContext;
    }

    /** The server's certificate, the first of its chain: what a client trusts to reach it. */
    public X509Certificate certificate() {
        return chain.get(0);
    }

    public List<X509Certificate> chain() {
        return chain;
    }

    /** The PEM file the certificate was read from (a generated one's too), or null when it came from a keystore. */
    public Path certificateFile() {
        return certificateFile;
    }
}
