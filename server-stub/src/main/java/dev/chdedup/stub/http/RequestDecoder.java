package dev.chdedup.stub.http;

import java.io.IOException;
import java.util.List;

/**
 * Decodes the head of an HTTP/1.x request (request line and header fields) from a connection's buffer and
 * chooses the body framing it declares (Content-Length, chunked, or none). Every read is bounded by the
 * constants of {@link HttpLimits}; violations surface as {@link HttpException}s with the status to answer
 * (400, 414, 431, 501 or 505), after which the connection must be closed because its framing is unknown.
 */
final class RequestDecoder {

    private RequestDecoder() {
    }

    /**
     * Reads one request head.
     *
     * @return the head, or {@code null} if the stream ended cleanly before a request started
     */
    static RequestHead readHead(ConnectionInput in) throws IOException {
        String line = in.readLine(HttpLimits.MAX_REQUEST_LINE, 414, "Request line");
        for (int empty = 0; line != null && line.isEmpty(); empty++) {
            if (empty >= HttpLimits.MAX_LEADING_EMPTY_LINES) {
                throw new HttpException(400, "Too many empty lines before the request line");
            }
            line = in.readLine(HttpLimits.MAX_REQUEST_LINE, 414, "Request line");
        }
        if (line == null) {
            return null;
        }
        int sp1 = line.indexOf(' ');
        int sp2 = line.lastIndexOf(' ');
        if (sp1 <= 0 || sp2 == sp1 || sp2 == line.length() - 1) {
            throw new HttpException(400, "Malformed request line");
        }
        String method = line.substring(0, sp1);
        String target = line.substring(sp1 + 1, sp2);
        String version = line.substring(sp2 + 1);
        if (!isToken(method) || target.isEmpty() || target.indexOf(' ') >= 0 || hasControlChars(target)) {
            throw new HttpException(400, "Malformed request line");
        }
        boolean http11;
        if (version.equals("HTTP/1.1")) {
            http11 = true;
        } else if (version.equals("HTTP/1.0")) {
            http11 = false;
        } else if (version.startsWith("HTTP/") && version.length() == 8 && version.charAt(6) == '.') {
            throw new HttpException(505, "HTTP version not supported");
        } else {
            throw new HttpException(400, "Malformed request line");
        }
        String pathAndQuery = originForm(target);
        int hash = pathAndQuery.indexOf('#');
        if (hash >= 0) {
            pathAndQuery = pathAndQuery.substring(0, hash);
        }
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String rawQuery = q < 0 ? null : pathAndQuery.substring(q + 1);
        HttpHeaders headers = new HttpHeaders();
        readFields(in, headers, "Header");
        return new RequestHead(method, target, path, rawQuery, http11, headers);
    }

    /** Reduces absolute-form targets to path and query; origin-form and {@code *} pass unchanged. */
    private static String originForm(String target) throws HttpException {
        if (target.charAt(0) == '/' || target.equals("*")) {
            return target;
        }
        int scheme = target.indexOf("://");
        if (scheme > 0 && (target.regionMatches(true, 0, "http", 0, scheme))) {
            int slash = target.indexOf('/', scheme + 3);
            int query = target.indexOf('?', scheme + 3);
            if (slash < 0 || (query >= 0 && query < slash)) {
                return query < 0 ? "/" : "/" + target.substring(query);
            }
            return target.substring(slash);
        }
        throw new HttpException(400, "Malformed request target");
    }

    /**
     * Reads header fields (or chunked trailer fields) up to and including the empty line that ends them,
     * enforcing the per-line, per-count and per-block limits.
     */
    static void readFields(ConnectionInput in, HttpHeaders into, String what) throws IOException {
        long total = 0;
        while (true) {
            String line = in.readLine(HttpLimits.MAX_HEADER_LINE, 431, what + " line");
            if (line == null) {
                throw new java.io.EOFException("end of stream inside the " + what.toLowerCase() + " block");
            }
            if (line.isEmpty()) {
                return;
            }
            total += line.length() + 2;
            if (total > HttpLimits.MAX_HEADER_BLOCK) {
                throw new HttpException(431, what + " fields are too large");
            }
            if (into.size() >= HttpLimits.MAX_HEADERS) {
                throw new HttpException(431, "Too many " + what.toLowerCase() + " fields");
            }
            char first = line.charAt(0);
            if (first == ' ' || first == '\t') {
                throw new HttpException(400, "Obsolete header line folding is not supported");
            }
            int colon = line.indexOf(':');
            if (colon <= 0 || !isToken(line.substring(0, colon))) {
                throw new HttpException(400, "Malformed " + what.toLowerCase() + " field");
            }
            String value = line.substring(colon + 1).strip();
            // request header values have their RFC 2047 encoded words decoded, as ClickHouse's readHeaders does
            into.add(line.substring(0, colon), what.equals("Header") ? MessageHeader.decodeWord(value) : value);
        }
    }

    /**
     * Opens the body stream the head declares. Transfer-Encoding wins over nothing but is rejected together with
     * Content-Length (request smuggling shape); only the {@code chunked} transfer coding is implemented.
     */
    static BodyInputStream openBody(RequestHead head, ConnectionInput in) throws HttpException {
        List<String> te = head.headers.getAll("Transfer-Encoding");
        List<String> cl = head.headers.getAll("Content-Length");
        if (!te.isEmpty()) {
            if (!cl.isEmpty()) {
                throw new HttpException(400, "Both Transfer-Encoding and Content-Length are present");
            }
            if (te.size() != 1 || !te.get(0).trim().equalsIgnoreCase("chunked")) {
                throw new HttpException(501, "Unsupported Transfer-Encoding: " + String.join(", ", te));
            }
            return new ChunkedInputStream(in);
        }
        if (cl.isEmpty()) {
            return new FixedLengthInputStream(in, 0);
        }
        long length = -1;
        for (String value : cl) {
            for (String part : value.split(",", -1)) {
                long v = parseContentLength(part.trim());
                if (length >= 0 && v != length) {
                    throw new HttpException(400, "Conflicting Content-Length values");
                }
                length = v;
            }
        }
        return new FixedLengthInputStream(in, length);
    }

    private static long parseContentLength(String s) throws HttpException {
        if (s.isEmpty() || s.length() > 18) {
            throw new HttpException(400, "Bad Content-Length");
        }
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new HttpException(400, "Bad Content-Length");
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasControlChars(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x21 || c == 0x7f) {
                return true;
            }
        }
        return false;
    }
}
