package dev.chdedup.stub.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.compress.CompressedBlockOutputStream;
import dev.chdedup.stub.conformance.ConformanceClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A request body the client stopped sending, as a lossy link cuts it. ClickHouse 18.16 (measured on Debian's 18.16.1)
 * commits the complete rows it read and answers 200: the stub does so under {@code --emulate 18.16} and refuses the body
 * otherwise (Code 33). A compressed body ({@code decompress=1}) cut anywhere fails on both and writes nothing. The
 * failpoints {@code stub_insert_commit_cut_body} and {@code stub_insert_commit_cut_body_200} play the cut in every mode.
 */
class CutBodyTest {
    private StubServer server;

    @AfterEach
    void stop() throws IOException {
        if (server != null) {
            server.close();
        }
    }

    private ConformanceClient client() {
        return new ConformanceClient(server.httpUrl());
    }

    private StubServer start(String emulate) throws IOException {
        StubServer.Builder b = StubServer.builder().port(0);
        if (emulate != null) {
            b.emulate(emulate);
        }
        server = b.build().start();
        client().query("CREATE TABLE tr (k UInt64, v String) ENGINE = MergeTree ORDER BY k", java.util.Map.of());
        return server;
    }

    static String values(int from, int to) {
        StringBuilder sb = new StringBuilder();
        for (int i = from; i < to; i++) {
            sb.append(i == from ? "" : ",").append('(').append(i).append(",'row").append(i).append("')");
        }
        return sb.toString();
    }

    /** Sends the head announcing {@code announced} bytes, then {@code sent}, then closes the sending side; the answer's status or -1. */
    static int cut(int port, String target, byte[] sent, int announced) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: " + announced + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            out.write(sent);
            out.flush();
            s.shutdownOutput();
            byte[] answer = s.getInputStream().readAllBytes();
            String text = new String(answer, StandardCharsets.ISO_8859_1);
            return text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : -1;
        } catch (java.net.SocketException reset) {
            return -1;
        }
    }

    static byte[] compressed(String text) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (CompressedBlockOutputStream out = new CompressedBlockOutputStream(b)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        }
        return b.toByteArray();
    }

    private String count() throws Exception {
        return client().query("SELECT count(), min(k), max(k) FROM tr", java.util.Map.of());
    }

    @Test
    void under1816TheCompleteRowsOfACutBodyLandAnd200IsAnswered() throws Exception {
        start("18.16");
        byte[] full = ("INSERT INTO tr VALUES " + values(0, 50)).getBytes(StandardCharsets.UTF_8);
        byte[] twelve = ("INSERT INTO tr VALUES " + values(0, 12)).getBytes(StandardCharsets.UTF_8);
        assertEquals(200, cut(server.port(), "/", twelve, full.length));
        assertEquals("12\t0\t11\n", count(), "announced as 50 rows, cut after 12: 18.16 keeps the 12");
        // cut inside a row: the partial row is dropped, the complete ones land
        byte[] partial = java.util.Arrays.copyOf(full, ("INSERT INTO tr VALUES " + values(0, 20)).length() + 5);
        client().query("TRUNCATE TABLE tr", java.util.Map.of());
        assertEquals(200, cut(server.port(), "/", partial, full.length));
        assertEquals("20\t0\t19\n", count());
    }

    @Test
    void aCutCompressedBodyFailsAndWritesNothingEvenUnder1816() throws Exception {
        start("18.16");
        byte[] frame = compressed("INSERT INTO tr VALUES " + values(0, 50));
        for (int at : new int[] {1, 16, 25, frame.length / 2, frame.length - 1}) {
            int status = cut(server.port(), "/?decompress=1", java.util.Arrays.copyOf(frame, at), frame.length);
            assertTrue(status != 200, "cut at " + at + " of " + frame.length + ": " + status);
            assertEquals("0\t0\t0\n", count(), "cut at " + at);
        }
        assertEquals(200, cut(server.port(), "/?decompress=1", frame, frame.length), "the whole frame lands");
        assertEquals("50\t0\t49\n", count());
    }

    @Test
    void aCurrentServerRefusesACutBody() throws Exception {
        start(null);
        byte[] full = ("INSERT INTO tr VALUES " + values(0, 50)).getBytes(StandardCharsets.UTF_8);
        byte[] twelve = ("INSERT INTO tr VALUES " + values(0, 12)).getBytes(StandardCharsets.UTF_8);
        assertTrue(cut(server.port(), "/", twelve, full.length) != 200);
        assertEquals("0\t0\t0\n", count());
    }

    @Test
    void theCutBodyFailpointCommitsTheCompleteRowsOfHalfTheBodyThenResets() throws Exception {
        start(null);
        client().query("SYSTEM ENABLE FAILPOINT stub_insert_commit_cut_body FOR 1 INSERTS", java.util.Map.of());
        String sql = "INSERT INTO tr VALUES " + values(0, 50);
        ConformanceClient.Reply r = null;
        try {
            r = client().send(sql);
        } catch (java.io.UncheckedIOException reset) {
            // the connection was reset after the commit, as the failpoint says
        }
        assertEquals(null, r, "no answer");
        String[] got = count().strip().split("\t");
        int rows = Integer.parseInt(got[0]);
        assertTrue(rows > 0 && rows < 50, "a prefix of complete rows landed: " + rows);
        assertEquals(rows - 1, Integer.parseInt(got[2]), "the first rows, in order");
        // compressed, the same cut lands nothing
        client().query("TRUNCATE TABLE tr", java.util.Map.of());
        client().query("SYSTEM ENABLE FAILPOINT stub_insert_commit_cut_body FOR 1 INSERTS", java.util.Map.of());
        assertEquals(-1, cutWhole(compressed(sql)), "reset");
        assertEquals("0\t0\t0\n", count());
        assertEquals(200, client().send(sql).status(), "the failpoint fired once");
    }

    @Test
    void theCutBody200FailpointAnswers200WithExceptionCode209AndAnEmptyBody() throws Exception {
        start(null);
        client().query("SYSTEM ENABLE FAILPOINT stub_insert_commit_cut_body_200 FOR 1 INSERTS", java.util.Map.of());
        ConformanceClient.Reply r = client().send("INSERT INTO tr VALUES " + values(0, 50));
        assertEquals(200, r.status());
        assertEquals("209", r.header("X-ClickHouse-Exception-Code"));
        assertEquals("", r.body());
        int rows = Integer.parseInt(count().split("\t")[0]);
        assertTrue(rows > 0 && rows < 50, "a prefix landed: " + rows);
    }

    private int cutWhole(byte[] frame) throws IOException {
        return cut(server.port(), "/?decompress=1", frame, frame.length);
    }
}
