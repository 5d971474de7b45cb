package dev.chdedup.stub.server;

import java.security.SecureRandom;

/**
 * The per-response exception tag of ClickHouse 25.11+: 16 random lowercase letters, sent in {@code
 * X-ClickHouse-Exception-Tag} on every response and repeated around an error written after the body started, so
 * a client can tell the error block from data that merely looks like one.
 */
final class ExceptionTags {
    static final int LENGTH = 16;
    private static final SecureRandom RANDOM = new SecureRandom();

    private ExceptionTags() {
    }

    static String next() {
        char[] c = new char[LENGTH];
        for (int i = 0; i < LENGTH; i++) {
            c[i] = (char) ('a' + RANDOM.nextInt(26));
        }
        return new String(c);
    }
}
