package dev.chdedup.stub.types;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Byte strings: one char per byte, the conversions to and from text, and the UTF-8 sequence checks. */
class ByteStringsTest {
    private static String b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return ByteStrings.of(out);
    }

    @Test
    void everyByteArrayRoundTrips() {
        Random rnd = new Random(42);
        for (int i = 0; i < 200; i++) {
            byte[] v = new byte[rnd.nextInt(300)];
            rnd.nextBytes(v);
            String s = ByteStrings.of(v);
            assertEquals(v.length, s.length());
            assertArrayEquals(v, ByteStrings.bytes(s));
        }
    }

    @Test
    void textConvertsThroughUtf8() {
        assertSame("plain", ByteStrings.fromText("plain"));
        assertEquals(b(0xC3, 0xBC, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80), ByteStrings.fromText("\u00fc\u20ac\ud83d\ude00"));
        assertEquals("\u00fc\u20ac\ud83d\ude00", ByteStrings.toText(ByteStrings.fromText("\u00fc\u20ac\ud83d\ude00")));
        assertEquals("a\ufffd", ByteStrings.toText(b('a', 0xFF)));
        // a string with a char above 255 is text: its bytes are its UTF-8
        assertArrayEquals("\u20ac".getBytes(StandardCharsets.UTF_8), ByteStrings.bytes("\u20ac"));
    }

    @Test
    void utf8SequencesAreCheckedAsClickHouseValidatesThem() {
        assertEquals(1, ByteStrings.utf8SequenceLength("a", 0));
        assertEquals(2, ByteStrings.utf8SequenceLength(b(0xC3, 0xBC), 0));
        assertEquals(3, ByteStrings.utf8SequenceLength(b(0xE2, 0x80, 0xA8), 0));
        assertEquals(4, ByteStrings.utf8SequenceLength(b(0xF4, 0x8F, 0xBF, 0xBF), 0));
        int[][] invalid = {{0x80}, {0xBF}, {0xC0, 0x80}, {0xC1, 0xBF}, {0xE0, 0x80, 0x80}, {0xED, 0xA0, 0x80},
            {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xFF}, {0xC3}, {0xE2, 0x80}, {0xC3, 0x41}};
        for (int[] v : invalid) {
            assertEquals(0, ByteStrings.utf8SequenceLength(b(v), 0), java.util.Arrays.toString(v));
        }
    }

    @Test
    void sqlTextKeepsInvalidBytesAsEscapes() {
        assertSame("f('a')", ByteStrings.toSqlText("f('a')"));
        assertEquals("f('\\xFF\u00fc\\x80')", ByteStrings.toSqlText(b('f', '(', '\'', 0xFF, 0xC3, 0xBC, 0x80, '\'', ')')));
    }

    @Test
    void codePointsCountTheBytesThatStartOne() {
        assertEquals(0, ByteStrings.codePoints(""));
        assertEquals(3, ByteStrings.codePoints(ByteStrings.fromText("a\u00fc\ud83d\ude00")));
        assertEquals(2, ByteStrings.codePoints(b(0xFF, 0xFE)));
        assertTrue(ByteStrings.isAscii("abc") && !ByteStrings.isAscii(b(0x80)));
    }
}
