package dev.chdedup.stub.hash;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * SipHash-2-4 against known values: ClickHouse's {@code sipHash64} of strings (zero keys), the reference
 * implementation's test vectors (key 00..0f, messages 00, 00 01, ...), and the streaming API against one-shot
 * hashing at every split point.
 */
class SipHashTest {
    private static long sip64(String s) {
        return new SipHash().update(s.getBytes(StandardCharsets.UTF_8)).get64();
    }

    private static byte[] counting(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) i;
        }
        return b;
    }

    @Test
    void clickHouseSipHash64OfStrings() {
        // SELECT sipHash64('') in ClickHouse
        assertEquals(2202906307356721367L, sip64(""));
        assertEquals(Long.parseUnsignedLong("10863254463029944905"), sip64("a"));
        assertEquals(4596069200710135518L, sip64("abc"));
        assertEquals(6766637294834280856L, sip64("12345678"));
        assertEquals(6413216055727023117L, sip64("The quick brown fox jumps over the lazy dog"));
    }

    @Test
    void referenceVectorsWithKey() {
        long k0 = 0x0706050403020100L;
        long k1 = 0x0f0e0d0c0b0a0908L;
        long[][] vectors = {
            {0, 0x726fdb47dd0e0e31L}, {1, 0x74f839c593dc67fdL}, {7, 0xab0200f58b01d137L}, {8, 0x93f5f5799a932462L},
            {9, 0x9e0082df0ba9e4b0L}, {15, 0xa129ca6149be45e5L}, {16, 0x3f2acc7f57c29bdbL}, {63, 0x958a324ceb064572L},
        };
        for (long[] v : vectors) {
            assertEquals(v[1], new SipHash(k0, k1).update(counting((int) v[0])).get64(), "message of " + v[0] + " bytes");
        }
    }

    @Test
    void the128BitFormFoldsToThe64BitOne() {
        long[] h = new SipHash().update(new byte[0]).get128();
        assertEquals(Long.parseUnsignedLong("16826475524770608434"), h[0]);
        assertEquals(Long.parseUnsignedLong("17803272260936971749"), h[1]);
        for (int n : new int[] {0, 3, 8, 21, 200}) {
            long[] full = new SipHash().update(counting(n)).get128();
            assertEquals(new SipHash().update(counting(n)).get64(), full[0] ^ full[1], "length " + n);
        }
    }

    @Test
    void streamingEqualsOneShotAtEverySplit() {
        byte[] data = counting(100);
        long[] whole = new SipHash().update(data).get128();
        for (int a = 0; a <= data.length; a++) {
            for (int b = a; b <= data.length; b += 7) {
                long[] parts = new SipHash().update(data, 0, a).update(data, a, b - a).update(data, b, data.length - b).get128();
                assertArrayEquals(whole, parts, "split at " + a + ", " + b);
            }
        }
    }

    @Test
    void updateLongIsItsLittleEndianBytes() {
        long v = 0x0123456789abcdefL;
        byte[] le = new byte[8];
        for (int i = 0; i < 8; i++) {
            le[i] = (byte) (v >>> (8 * i));
        }
        for (int prefix = 0; prefix < 9; prefix++) {
            byte[] head = counting(prefix);
            long[] viaLong = new SipHash().update(head).update(v).get128();
            long[] viaBytes = new SipHash().update(head).update(le).get128();
            assertArrayEquals(viaBytes, viaLong, "after " + prefix + " bytes");
        }
    }
}
