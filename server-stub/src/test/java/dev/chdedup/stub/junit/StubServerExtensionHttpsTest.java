package dev.chdedup.stub.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.chdedup.stub.http.TlsClients;
import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code StubServerExtension.builder().https()}: the server also serves HTTPS, with the certificate it made. */
class StubServerExtensionHttpsTest {
    @RegisterExtension
    static StubServerExtension stub = StubServerExtension.builder().https().build();

    @RegisterExtension
    StubServerExtension plain = StubServerExtension.builder().build();

    @Test
    void httpsUrlAnswersAClientThatTrustsTheCertificate() throws Exception {
        StubServer server = stub.server();
        assertEquals("https://127.0.0.1:" + server.httpsPort(), stub.httpsUrl());
        HttpResponse<String> r = TlsClients.httpClient(server.httpsCertificate()).send(
            HttpRequest.newBuilder(URI.create(stub.httpsUrl() + "/ping")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("Ok.\n", r.body());
        assertThrows(IllegalStateException.class, plain::httpsUrl, "without https() there is no HTTPS port");
    }
}
