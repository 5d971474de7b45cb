package dev.chdedup.stub.compat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One HTTP/1.1 exchange over a plain socket, for tests that check the response framing itself (chunked or not), which
 * {@link java.net.http.HttpClient} hides: the head as sent and the body with its chunked framing undone.
 */
final class RawHttp {
    private RawHttp() {
    }

    record Response(int status, String head, byte[] body) {
        /** The first value of header {@code name} (case-insensitive), or null. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).trim();
                }
            }
            return null;
        }
    }

    static Response post(int port, String target, String body) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            byte[] b = body.getBytes(StandardCharsets.UTF_8);
            OutputStream out = s.getOutputStream();
            out.write(("POST " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: " + b.length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            out.write(b);
            out.flush();
            byte[] all = s.getInputStream().readAllBytes();
            String text = new String(all, StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            String head = text.substring(0, end);
            int status = Integer.parseInt(head.substring(9, 12));
            byte[] raw = java.util.Arrays.copyOfRange(all, end + 4, all.length);
            Response r = new Response(status, head, raw);
            String te = r.header("Transfer-Encoding");
            return te != null && te.toLowerCase(Locale.ROOT).equals("chunked") ? new Response(status, head, dechunk(raw)) : r;
        }
    }

    private static byte[] dechunk(byte[] raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InputStream in = new java.io.ByteArrayInputStream(raw);
        while (true) {
            StringBuilder line = new StringBuilder();
            for (int c; (c = in.read()) != '\n'; ) {
                if (c < 0) {
                    throw new IOException("chunked body ends without its last chunk");
                }
                if (c != '\r') {
                    line.append((char) c);
                }
            }
            int size = Integer.parseInt(line.toString().split(";")[0].trim(), 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(in.readNBytes(size));
            in.readNBytes(2);
        }
    }
}
