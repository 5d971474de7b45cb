package dev.chdedup.stub.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes a raw query string by the {@code application/x-www-form-urlencoded} rules: pairs separated by
 * {@code &}, name and value by the first {@code =}, {@code +} meaning space, {@code %XX} escapes, and the
 * resulting bytes read as UTF-8. Raw non-ASCII bytes (an ISO-8859-1 view of UTF-8 sent unescaped) survive too.
 * A malformed escape is a 400 {@link HttpException}, as ClickHouse rejects it.
 */
public final class QueryString {

    private QueryString() {
    }

    /**
     * Decodes {@code raw} into name/value pairs in their order of appearance. Empty segments are skipped, a
     * segment without {@code =} has the value {@code ""}.
     *
     * @return pairs as two-element arrays {@code {name, value}}; empty for {@code null} or empty input
     */
    public static List<String[]> decode(String raw) throws HttpException {
        List<String[]> out = new ArrayList<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        int start = 0;
        int len = raw.length();
        while (start <= len) {
            int amp = raw.indexOf('&', start);
            int end = amp < 0 ? len : amp;
            if (end > start) {
                int eq = raw.indexOf('=', start);
                if (eq < 0 || eq > end) {
                    out.add(new String[] {decodeComponent(raw, start, end), ""});
                } else {
                    out.add(new String[] {decodeComponent(raw, start, eq), decodeComponent(raw, eq + 1, end)});
                }
            }
            start = end + 1;
        }
        return out;
    }

    /** Decodes {@code s[from, to)} as one form-urlencoded component. */
    static String decodeComponent(String s, int from, int to) throws HttpException {
        boolean plain = true;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '%' || c == '+' || c > 0x7f) {
                plain = false;
                break;
            }
        }
        if (plain) {
            return s.substring(from, to);
        }
        byte[] bytes = new byte[to - from];
        int n = 0;
        for (int i = from; i < to; i++) {
            char c = s.charAt(i);
            if (c == '+') {
                bytes[n++] = ' ';
            } else if (c == '%') {
                int hi = i + 2 < to ? ChunkedInputStream.hexDigit(s.charAt(i + 1)) : -1;
                int lo = hi >= 0 ? ChunkedInputStream.hexDigit(s.charAt(i + 2)) : -1;
                if (lo < 0) {
                    throw new HttpException(400, "Malformed percent-encoding in the query string");
                }
                bytes[n++] = (byte) ((hi << 4) | lo);
                i += 2;
            } else {
                bytes[n++] = (byte) c; // request line is ISO-8859-1, so c < 256
            }
        }
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }
}
