package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Metadata reads through a server that drops the first answers: a lost answer is asked again (a SELECT is harmless to
 * repeat), a server's error is not, and ServerQuery gives up after its attempts.
 */
class ServerQueryTest {
    /** A one-purpose HTTP server: the first {@code drop} requests get no answer (the connection closes), the rest {@code reply}. */
    private static final class Flaky implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        final AtomicInteger requests = new AtomicInteger();
        private final Thread thread;

        Flaky(int drop, int status, String reply) throws IOException {
            this(drop, status, "", reply);
        }

        /** {@code headers}: extra header lines, each ending with CRLF. */
        Flaky(int drop, int status, String headers, String reply) throws IOException {
            thread = new Thread(() -> {
                while (!socket.isClosed()) {
                    try (Socket s = socket.accept()) {
                        readRequest(s.getInputStream());
                        if (requests.incrementAndGet() <= drop) {
                            continue;
                        }
                        byte[] body = reply.getBytes(StandardCharsets.UTF_8);
                        s.getOutputStream().write(("HTTP/1.1 " + status + " X\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
                            + "\r\nConnection: close\r\n" + headers + "\r\n").getBytes(StandardCharsets.US_ASCII));
                        s.getOutputStream().write(body);
                        s.getOutputStream().flush();
                    } catch (IOException e) {
                        // closed
                    }
                }
            }, "flaky-server");
            thread.setDaemon(true);
            thread.start();
        }

        /** Reads one request up to the end of its SQL body (ServerQuery's always ends with the format clause). */
        private static void readRequest(InputStream in) throws IOException {
            ByteArrayOutputStream seen = new ByteArrayOutputStream();
            byte[] buf = new byte[4096];
            for (int n; (n = in.read(buf)) > 0; ) {
                seen.write(buf, 0, n);
                if (seen.toString(StandardCharsets.ISO_8859_1).contains("FORMAT TabSeparated")) {
                    return;
                }
            }
        }

        /** The official driver with its own retries off, as DedupDriver opens it. */
        Connection connect() throws SQLException {
            return DriverManager.getConnection("jdbc:clickhouse://127.0.0.1:" + socket.getLocalPort() + "/default?socket_timeout=2000&client_retry_on_failures=None");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void aLostAnswerIsAskedAgain() throws Exception {
        try (Flaky f = new Flaky(2, 200, "a\tb\\tc\n"); Connection c = f.connect()) {
            List<String[]> rows = ServerQuery.rows(c, "SELECT 1");
            assertEquals(1, rows.size());
            assertArrayEquals(new String[] {"a", "b\tc"}, rows.get(0));
            assertEquals(3, f.requests.get(), "two lost answers, then the rows");
        }
    }

    @Test
    void aServerErrorIsNotRepeatedAndLostAnswersEndAfterTheAttempts() throws Exception {
        try (Flaky f = new Flaky(0, 404, "Code: 60, e.displayText() = DB::Exception: Table default.x doesn't exist., e.what() = DB::Exception\n");
             Connection c = f.connect()) {
            assertThrows(SQLException.class, () -> ServerQuery.rows(c, "SELECT 1"));
            assertEquals(1, f.requests.get(), "the server answered: no second request");
        }
        try (Flaky f = new Flaky(100, 200, ""); Connection c = f.connect()) {
            assertThrows(SQLException.class, () -> ServerQuery.rows(c, "SELECT 1"));
            assertEquals(ServerQuery.ATTEMPTS, f.requests.get());
        }
    }

    /**
     * A 200 that carries X-ClickHouse-Exception-Code (ClickHouse answers so when its receive timeout fires while it reads
     * the body, or when an error comes after the answer started) is a failure, never rows to trust: the table facts the
     * driver reads this way would otherwise be taken from a half answer.
     */
    @Test
    void a200WithAnExceptionCodeHeaderIsAFailure() throws Exception {
        try (Flaky f = new Flaky(0, 200, "X-ClickHouse-Exception-Code: 209\r\n", "ReplicatedMergeTree\t100\n"); Connection c = f.connect()) {
            assertThrows(SQLException.class, () -> ServerQuery.rows(c, "SELECT engine FROM system.tables"));
        }
    }
}
