package dev.chdedup.stub.junit;

import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Runs a stub server for JUnit 5 tests. Registered on a static field with {@code @RegisterExtension}, one server
 * serves the whole class; on an instance field, each test gets its own. Test methods (and constructors and
 * lifecycle methods) can take the running {@link StubServer} as a parameter. {@link Builder#https()} adds an HTTPS
 * port with a self-signed certificate ({@link #httpsUrl()}, {@link StubServer#httpsCertificate()}).
 *
 * <pre>{@code
 * @RegisterExtension
 * static StubServerExtension stub = StubServerExtension.builder().build();
 *
 * @Test
 * void inserts() throws Exception {
 *     try (Connection c = DriverManager.getConnection(stub.jdbcUrl())) { ... }
 * }
 * }</pre>
 */
public final class StubServerExtension extends ScopedExtension implements ParameterResolver {
    private final Path dataDir;
    private final List<String> unknownSettings;
    private final boolean https;
    private StubServer server;

    private StubServerExtension(Builder b) {
        this.dataDir = b.dataDir;
        this.unknownSettings = List.copyOf(b.unknownSettings);
        this.https = b.https;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The running server (started before the first test that uses it). */
    public StubServer server() {
        if (server == null) {
            throw new IllegalStateException("the stub server runs only while a test runs");
        }
        return server;
    }

    /** A URL for the official ClickHouse JDBC driver. */
    public String jdbcUrl() {
        return server().jdbcUrl();
    }

    public String httpUrl() {
        return server().httpUrl();
    }

    public int port() {
        return server().port();
    }

    /** {@code https://127.0.0.1:PORT}, with {@link Builder#https()}. */
    public String httpsUrl() {
        return server().httpsUrl();
    }

    @Override
    void start() throws Exception {
        StubServer.Builder b = StubServer.builder().port(0).unknownSettings(unknownSettings.toArray(new String[0]));
        if (dataDir != null) {
            b.dataDir(dataDir);
        }
        if (https) {
            b.httpsPort(0);
        }
        server = b.build().start();
    }

    @Override
    void stop() throws Exception {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == StubServer.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return server();
    }

    /** Options of the servers the extension starts. */
    public static final class Builder {
        private Path dataDir;
        private final List<String> unknownSettings = new ArrayList<>();
        private boolean https;

        /** A data directory that outlives the server (default: a temporary one per server, removed at the end). */
        public Builder dataDir(Path dir) {
            this.dataDir = dir;
            return this;
        }

        /** Settings the server answers with Code 115, as an older ClickHouse does. */
        public Builder unknownSettings(String... names) {
            unknownSettings.addAll(List.of(names));
            return this;
        }

        /** Also serves HTTPS on a free port, with a self-signed certificate made in the data directory. */
        public Builder https() {
            this.https = true;
            return this;
        }

        public StubServerExtension build() {
            return new StubServerExtension(this);
        }
    }
}
