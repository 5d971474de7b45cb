package dev.chdedup.stub.compress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.clickhouse.data.ClickHouseCityHash;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Checks {@link CityHash128} against the CityHash128 v1.0.2 implementation shipped in
 * clickhouse-data (test-scope oracle) and against a checksum captured from a real server.
 */
class CityHash128Test {

    @Test
    void matchesOracleForAllShortLengthsWithRandomOffsets() {
        Random random = new Random(0xC17L);
        int checked = 0;
        for (int len = 0; len <= 300; len++) {
            for (int rep = 0; rep < 3; rep++) {
                int off = random.nextInt(9);
                byte[] buf = new byte[off + len + random.nextInt(9)];
                random.nextBytes(buf);
                assertMatchesOracle(buf, off, len);
                checked++;
            }
        }
        assertEquals(903, checked);
    }

    @Test
    void matchesOracleForLargerAndBoundaryLengths() {
        Random random = new Random(42);
        int[] lengths = {
            1000, 5000, 70000, 1 << 20,
            // around the 16/128-byte thresholds after the 16-byte seed is taken off
            143, 144, 145, 271, 272, 273, 399, 400, 401, 527, 528, 529
        };
        for (int len : lengths) {
            byte[] buf = new byte[len + 3];
            random.nextBytes(buf);
            assertMatchesOracle(buf, 3, len);
            assertMatchesOracle(buf, 0, len);
        }
    }

    @Test
    void matchesOracleOnUniformBytes() {
        for (byte fill : new byte[] {0, (byte) 0xff, (byte) 0x80, 0x7f}) {
            for (int len : new int[] {0, 1, 2, 3, 4, 7, 8, 9, 15, 16, 17, 33, 64, 127, 128, 129, 300, 4096}) {
                byte[] buf = new byte[len];
                Arrays.fill(buf, fill);
                assertMatchesOracle(buf, 0, len);
            }
        }
    }

    @Test
    void matchesChecksumCapturedFromServer() {
        // Block for the body "1\n": checksum de79cf087fb635049db816df195b016b, then these bytes.
        byte[] hashed = HexFormat.of().parseHex("820c0000000200000020310a");
        long[] hash = CityHash128.hash128(hashed, 0, hashed.length);
        assertEquals(0x0435b67f08cf79deL, hash[0], "low 64 bits");
        assertEquals(0x6b015b19df16b89dL, hash[1], "high 64 bits");
    }

    @Test
    void hashesOnlyTheGivenRange() {
        byte[] buf = new byte[200];
        new Random(7).nextBytes(buf);
        byte[] slice = Arrays.copyOfRange(buf, 13, 13 + 150);
        assertArrayEquals(CityHash128.hash128(slice), CityHash128.hash128(buf, 13, 150));
    }

    @SuppressWarnings("deprecation") // the oracle class is deprecated in clickhouse-data, still correct
    private static void assertMatchesOracle(byte[] buf, int off, int len) {
        long[] expected = ClickHouseCityHash.cityHash128(buf, off, len);
        long[] actual = CityHash128.hash128(buf, off, len);
        assertArrayEquals(expected, actual, () -> "len=" + len + " off=" + off);
    }
}
