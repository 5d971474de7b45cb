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
 * takes the body to end there: cut on a row boundary its rows land and 200 is answered, cut inside a row it fails to
 * parse and nothing lands. The stub does so under {@code --emulate 18.16} and refuses a cut body otherwise (Code 33). A compressed body ({@code decompress=1}) cut anywhere fails on both and writes nothing. The
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
        // cut inside a row: 18.16 fails to parse it (400) and writes nothing
        byte[] partial = java.util.Arrays.copyOf(full, ("INSERT INTO tr VALUES " + values(0, 20)).length() + 5);
        client().query("TRUNCATE TABLE tr", java.util.Map.of());
        assertTrue(cut(server.port(), "/", partial, full.length) != 200);
        assertEquals("0\t0\t0\n", count());
        // chunked, cut inside the chunk on a row boundary: the 12 land
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(full.length) + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            out.write(twelve);
            s.shutdownOutput();
            assertTrue(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
        }
        assertEquals("12\t0\t11\n", count());
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

    /**
     * 26.x's input_format_connection_handling: a body the client stopped sending is parsed and inserted up to there, as
     * 18.16 always did; without it the stub, as ClickHouse, refuses the cut body.
     */
    @Test
    void connectionHandlingInsertsWhatArrivedBeforeTheConnectionClosed() throws Exception {
        start(null);
        byte[] full = ("INSERT INTO tr VALUES " + values(0, 50)).getBytes(StandardCharsets.UTF_8);
        byte[] twelve = ("INSERT INTO tr VALUES " + values(0, 12)).getBytes(StandardCharsets.UTF_8);
        assertEquals(200, cut(server.port(), "/?input_format_connection_handling=1", twelve, full.length));
        assertEquals("12\t0\t11\n", count());
    }

    /**
     * input_format_max_block_wait_ms: a slow stream lands block by block while the request is still open (rows are
     * looked at as they arrive); it needs input_format_connection_handling, or the insert fails as in the engine.
     */
    @Test
    void maxBlockWaitEmitsBlocksOfASlowStream() throws Exception {
        start(null);
        ConformanceClient.Reply refused = client().send("INSERT INTO tr VALUES (1, 'a')", java.util.Map.of("input_format_max_block_wait_ms", "100"));
        assertTrue(refused.body().startsWith("Code: 36. DB::Exception: Setting 'input_format_max_block_wait_ms' requires"
            + " 'input_format_connection_handling' to be enabled. (BAD_ARGUMENTS)"), refused.body());
        String target = "/?input_format_connection_handling=1&input_format_max_block_wait_ms=100&min_insert_block_size_rows=0"
            + "&min_insert_block_size_bytes=0&query=" + java.net.URLEncoder.encode("INSERT INTO tr FORMAT TabSeparated", StandardCharsets.UTF_8);
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            chunk(out, "0\trow0\n");
            Thread.sleep(300); // a slow stream: the gap is the point of the test
            chunk(out, "1\trow1\n");
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!count().startsWith("2\t") && System.nanoTime() < deadline) {
                Thread.sleep(20); // polling the server while the request stays open, with a deadline
            }
            assertEquals("2\t0\t1\n", count(), "the first block landed before the body ended");
            chunk(out, "2\trow2\n");
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertTrue(new String(s.getInputStream().readNBytes(12), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
        }
        assertEquals("3\t0\t2\n", count());
    }

    private static void chunk(OutputStream out, String data) throws IOException {
        byte[] b = data.getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(b.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(b);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    private int cutWhole(byte[] frame) throws IOException {
        return cut(server.port(), "/?decompress=1", frame, frame.length);
    }
}
