package dev.chdedup.stub.http;

import java.io.IOException;
import java.io.StringWriter;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.DEROctetString;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The certificate of an HTTPS port none was given for: an EC P-256 key and a self-signed X.509 v3 certificate whose
 * subjectAltName names localhost, 127.0.0.1 and ::1 (and the host the server binds, when another), valid for ten years.
 * It is kept as {@value #CERTIFICATE_FILE} and {@value #PRIVATE_KEY_FILE} (PEM; the key readable by its owner only) in
 * the directory it is given, and taken again while it is valid and names the host, so a client that trusts it keeps
 * trusting it across restarts. Like the one {@code openssl req -x509} makes, it is its own CA (basicConstraints
 * CA:TRUE), so a tool that wants a CA file (curl's --cacert, the official client's sslrootcert) takes it as one.
 */
final class SelfSignedCertificate {
    static final String CERTIFICATE_FILE = "server.crt";
    static final String PRIVATE_KEY_FILE = "server.key";
    static final Duration VALIDITY = Duration.ofDays(3650);
    /** Names every generated certificate holds: the loopback addresses the stub is reached at. */
    static final List<String> LOOPBACK_NAMES = List.of("localhost", "127.0.0.1", "::1");

    private static final Logger LOG = LoggerFactory.getLogger(SelfSignedCertificate.class);
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|.*:.*");

    private SelfSignedCertificate() {
    }

    /** The certificate kept in {@code dir}, or a new one written there when it is missing, expired or not for {@code host}. */
    static TlsContext loadOrCreate(Path dir, String host) throws IOException {
        Path certificate = dir.resolve(CERTIFICATE_FILE);
        Path key = dir.resolve(PRIVATE_KEY_FILE);
        if (Files.exists(certificate) && Files.exists(key)) {
            try {
                TlsContext kept = TlsContext.fromPem(certificate, key);
                if (usable(kept.certificate(), host)) {
                    return kept;
                }
            } catch (IOException e) {
                LOG.warn("The generated certificate in {} cannot be read ({}); making a new one", dir, e.getMessage());
            }
        }
        Files.createDirectories(dir);
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair pair = generator.generateKeyPair();
            X509Certificate cert = create(pair, names(host), Instant.now());
            write(key, pem("PRIVATE KEY", pair.getPrivate().getEncoded()), true);
            write(certificate, pem("CERTIFICATE", cert.getEncoded()), false);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("Cannot make a self-signed certificate: " + e.getMessage(), e);
        }
        LOG.info("Made a self-signed certificate for the HTTPS port: {}", certificate);
        return TlsContext.fromPem(certificate, key);
    }

    /** A certificate of {@code pair} (EC or RSA) signed by itself, naming {@code names}, valid from an hour before {@code now}. */
    static X509Certificate create(KeyPair pair, Set<String> names, Instant now) throws GeneralSecurityException, OperatorCreationException,
        IOException {
        X500Name subject = new X500Name("CN=localhost, O=chdedup server-stub");
        BigInteger serial = new BigInteger(63, new SecureRandom()).add(BigInteger.ONE);
        X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(subject, serial, Date.from(now.minus(Duration.ofHours(1))),
            Date.from(now.plus(VALIDITY)), subject, pair.getPublic());
        JcaX509ExtensionUtils ext = new JcaX509ExtensionUtils();
        List<GeneralName> altNames = new ArrayList<>();
        for (String n : names) {
            altNames.add(IP_LITERAL.matcher(n).matches()
                ? new GeneralName(GeneralName.iPAddress, new DEROctetString(InetAddress.getByName(n).getAddress())) // a literal: no lookup
                : new GeneralName(GeneralName.dNSName, n));
        }
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
            .addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyCertSign))
            .addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
            .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(altNames.toArray(new GeneralName[0])))
            .addExtension(Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(pair.getPublic()));
        String signature = pair.getPrivate().getAlgorithm().equals("RSA") ? "SHA256withRSA" : "SHA256withECDSA";
        return new JcaX509CertificateConverter().getCertificate(b.build(new JcaContentSignerBuilder(signature).build(pair.getPrivate())));
    }

    /** The loopback names, and {@code host} unless it is one of them or a wildcard address. */
    static Set<String> names(String host) {
        Set<String> names = new LinkedHashSet<>(LOOPBACK_NAMES);
        if (!covers(names, host) && !"0.0.0.0".equals(host) && !"::".equals(host)) {
            names.add(host);
        }
        return names;
    }

    /** Whether a kept certificate is still valid tomorrow and names what a new one would. */
    private static boolean usable(X509Certificate cert, String host) {
        try {
            cert.checkValidity(Date.from(Instant.now().plus(Duration.ofDays(1))));
            Collection<List<?>> alt = cert.getSubjectAlternativeNames();
            Set<String> names = new LinkedHashSet<>();
            if (alt != null) {
                for (List<?> n : alt) {
                    names.add(String.valueOf(n.get(1)));
                }
            }
            for (String n : names(host)) {
                if (!covers(names, n)) {
                    return false;
                }
            }
            return true;
        } catch (GeneralSecurityException e) {
            return false; // expired, or about to
        }
    }

    /** Whether {@code names} hold {@code host}: a DNS name in any case, an address in any notation. */
    private static boolean covers(Set<String> names, String host) {
        for (String n : names) {
            if (n.equalsIgnoreCase(host) || IP_LITERAL.matcher(n).matches() && IP_LITERAL.matcher(host).matches() && sameAddress(n, host)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameAddress(String a, String b) {
        try {
            return InetAddress.getByName(a).equals(InetAddress.getByName(b)); // literals: no lookup
        } catch (IOException e) {
            return false;
        }
    }

    private static String pem(String type, byte[] der) throws IOException {
        StringWriter s = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(s)) {
            w.writeObject(new PemObject(type, der));
        }
        return s.toString();
    }

    /** Writes the file whole or not at all (a temporary file moved over it), the key readable by its owner only. */
    private static void write(Path file, String text, boolean secret) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        if (secret && file.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        Files.writeString(tmp, text, StandardCharsets.US_ASCII);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
