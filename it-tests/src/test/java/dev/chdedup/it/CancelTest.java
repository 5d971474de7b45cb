package dev.chdedup.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Statement.cancel() of the official driver (which sends KILL QUERY) stops a running query on the stub. */
class CancelTest {
    private static StubServer stub;

    @BeforeAll
    static void start() throws Exception {
        stub = StubServer.builder().port(0).build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        stub.close();
    }

    private static long running(Statement probe) throws SQLException {
        try (ResultSet rs = probe.executeQuery("SELECT count() FROM system.processes WHERE query LIKE '%system.numbers%' AND query NOT LIKE '%processes%'")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void cancelStopsAnEndlessQuery() throws Exception {
        try (Connection c = DriverManager.getConnection(stub.jdbcUrl()); Statement st = c.createStatement();
             Connection probeConn = DriverManager.getConnection(stub.jdbcUrl()); Statement probe = probeConn.createStatement()) {
            CompletableFuture<SQLException> failure = CompletableFuture.supplyAsync(() ->
                assertThrows(SQLException.class, () -> st.executeQuery("SELECT count() FROM system.numbers")));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (running(probe) == 0) {
                assertTrue(System.nanoTime() < deadline, "the query never started");
                Thread.onSpinWait();
            }
            st.cancel();
            SQLException e = failure.get(10, TimeUnit.SECONDS);
            assertEquals(394, e.getErrorCode(), e.getMessage());
            assertEquals(0, running(probe));
        }
    }
}
