package dev.chdedup.stub.http;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * Formats the value of the {@code Date} response header (IMF-fixdate, e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT})
 * and caches it per second, so a response costs one clock read instead of a formatter run.
 */
final class HttpDates {

    private static final DateTimeFormatter IMF_FIXDATE =
            DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

    private static final class Cached {
        final long second;
        final String text;

        Cached(long second, String text) {
            this.second = second;
            this.text = text;
        }
    }

    private static volatile Cached cached = new Cached(Long.MIN_VALUE, "");

    private HttpDates() {
    }

    /** The current time as an HTTP date. */
    static String now() {
        long second = System.currentTimeMillis() / 1000;
        Cached c = cached;
        if (c.second != second) {
            c = new Cached(second, format(second));
            cached = c;
        }
        return c.text;
    }

    static String format(long epochSecond) {
        return IMF_FIXDATE.format(Instant.ofEpochSecond(epochSecond));
    }
}
