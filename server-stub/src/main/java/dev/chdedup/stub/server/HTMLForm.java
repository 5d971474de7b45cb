package dev.chdedup.stub.server;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * A {@code multipart/form-data} request body, read as ClickHouse's HTTP handler reads one (its HTMLForm): each part
 * a field of its {@code Content-Disposition} name; a part without a file name is a parameter beside the URL's
 * ({@code query}, {@code param_x}, settings: the official client sends its query this way with
 * {@code client.http.use_form_request_for_query}), a part with one an external table of that name for the query.
 */
final class HTMLForm {
    /** One part: its field name, its file name (null for a plain field) and its bytes. */
    record Part(String name, String filename, byte[] data) {
        String text() {
            return new String(data, StandardCharsets.UTF_8);
        }
    }

    private HTMLForm() {
    }

    /** Whether a request of {@code contentType} carries a form to read so. */
    static boolean isMultipart(String contentType) {
        return contentType != null && contentType.toLowerCase(Locale.ROOT).startsWith("multipart/form-data");
    }

    /** The parts of {@code body}, at most {@code limit} bytes of it; a malformed body is CANNOT_PARSE_INPUT_ASSERTION_FAILED. */
    static List<Part> parse(String contentType, InputStream body, long limit) throws IOException {
        String boundary = boundary(contentType);
        byte[] all = body.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
        if (all.length > limit) {
            throw new ChException(ErrorCode.QUERY_IS_TOO_LARGE, "The multipart/form-data body is larger than " + limit + " bytes");
        }
        byte[] delimiter = ("--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        List<Part> parts = new ArrayList<>();
        int at = indexOf(all, delimiter, 0);
        if (at < 0) {
            throw malformed("no boundary " + boundary);
        }
        while (true) {
            int after = at + delimiter.length;
            if (startsWith(all, after, "--")) {
                return parts; // the closing delimiter; what follows is the epilogue
            }
            if (!startsWith(all, after, "\r\n")) {
                throw malformed("a boundary not followed by a line break");
            }
            int headersStart = after + 2;
            int headersEnd = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1), headersStart);
            if (headersEnd < 0) {
                throw malformed("a part without the end of its headers");
            }
            String headers = new String(all, headersStart, headersEnd - headersStart, StandardCharsets.UTF_8);
            int dataStart = headersEnd + 4;
            byte[] next = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
            int dataEnd = indexOf(all, next, dataStart);
            if (dataEnd < 0) {
                throw malformed("a part without a closing boundary");
            }
            String disposition = header(headers, "Content-Disposition");
            String name = disposition == null ? null : attribute(disposition, "name");
            if (name == null) {
                throw malformed("a part without a Content-Disposition name");
            }
            parts.add(new Part(name, attribute(disposition, "filename"), Arrays.copyOfRange(all, dataStart, dataEnd)));
            at = dataEnd + 2;
        }
    }

    private static String boundary(String contentType) {
        String b = attribute(contentType, "boundary");
        if (b == null || b.isEmpty()) {
            throw malformed("no boundary in the Content-Type");
        }
        return b;
    }

    /** The value of {@code key=value} or {@code key="value"} among the {@code ;}-separated attributes of a header. */
    private static String attribute(String header, String key) {
        for (String piece : header.split(";")) {
            String p = piece.trim();
            int eq = p.indexOf('=');
            if (eq > 0 && p.substring(0, eq).trim().equalsIgnoreCase(key)) {
                String v = p.substring(eq + 1).trim();
                return v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"") ? v.substring(1, v.length() - 1) : v;
            }
        }
        return null;
    }

    private static String header(String headers, String name) {
        for (String line : headers.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                return line.substring(colon + 1).trim();
            }
        }
        return null;
    }

    private static boolean startsWith(byte[] a, int at, String s) {
        if (at + s.length() > a.length) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (a[at + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int indexOf(byte[] a, byte[] needle, int from) {
        outer:
        for (int i = from; i <= a.length - needle.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                if (a[i + k] != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static ChException malformed(String what) {
        return new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot read the multipart/form-data body: " + what);
    }
}
