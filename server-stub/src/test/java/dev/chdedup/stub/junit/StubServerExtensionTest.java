package dev.chdedup.stub.junit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

class StubServerExtensionTest {
    static String ping(StubServer s) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/ping")).build(),
            HttpResponse.BodyHandlers.ofString()).body();
    }

    static String query(StubServer s, String sql) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(s.httpUrl() + "/"))
            .POST(HttpRequest.BodyPublishers.ofString(sql)).build(), HttpResponse.BodyHandlers.ofString()).body().trim();
    }

    @Nested
    @TestMethodOrder(MethodOrderer.OrderAnnotation.class)
    class PerClass {
        @RegisterExtension
        static StubServerExtension stub = StubServerExtension.builder().unknownSettings("insert_deduplication_token").build();

        @Test
        @Order(1)
        void serverRunsAndIsInjected(StubServer injected) throws Exception {
            assertSame(stub.server(), injected);
            assertEquals("Ok.\n", ping(injected));
            query(injected, "CREATE TABLE kept (k UInt8) ENGINE = MergeTree ORDER BY k");
        }

        @Test
        @Order(2)
        void theSameServerServesTheWholeClass() throws Exception {
            assertEquals("1", query(stub.server(), "EXISTS TABLE kept"));
            assertEquals(true, query(stub.server(), "SELECT 1 SETTINGS insert_deduplication_token = 'x'").contains("(UNKNOWN_SETTING)"));
        }
    }

    @Nested
    class PerTest {
        @RegisterExtension
        StubServerExtension stub = StubServerExtension.builder().build();

        @Test
        void eachTestHasAFreshServer() throws Exception {
            assertEquals("0", query(stub.server(), "EXISTS TABLE kept"));
            query(stub.server(), "CREATE TABLE kept (k UInt8) ENGINE = MergeTree ORDER BY k");
        }

        @Test
        void andAnother() throws Exception {
            assertEquals("0", query(stub.server(), "EXISTS TABLE kept"));
            query(stub.server(), "CREATE TABLE kept (k UInt8) ENGINE = MergeTree ORDER BY k");
        }
    }

    @Nested
    @WithStubServer
    class Annotated {
        @Test
        void getsAServerParameter(StubServer server) throws Exception {
            assertEquals("Ok.\n", ping(server));
        }
    }
}
