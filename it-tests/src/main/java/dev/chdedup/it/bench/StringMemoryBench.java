package dev.chdedup.it.bench;

import dev.chdedup.stub.types.ByteStrings;
import java.nio.charset.StandardCharsets;

/**
 * Heap per String value in the stub's representation (a byte string: one char per byte, see
 * {@link ByteStrings}) against the Java text it replaced and against a bare {@code byte[]}, for ASCII, Latin,
 * Cyrillic and CJK values, printed as bytes per value and as ratios to Java text. It is the measurement behind
 * keeping String values as byte strings. Usage: {@code java -cp ... dev.chdedup.it.bench.StringMemoryBench}.
 */
public final class StringMemoryBench {
    private static final int VALUES = 500_000;
    /** Holds the values being measured so they stay reachable until the heap is read. */
    private static Object[] keep;

    private StringMemoryBench() {
    }

    private static long usedHeap() {
        Runtime r = Runtime.getRuntime();
        for (int i = 0; i < 5; i++) {
            System.gc();
        }
        return r.totalMemory() - r.freeMemory();
    }

    private static double bytesPerValue(String sample, int mode) {
        keep = null;
        long before = usedHeap();
        keep = new Object[VALUES];
        long array = usedHeap() - before;
        for (int i = 0; i < VALUES; i++) {
            String text = sample + i;
            keep[i] = switch (mode) {
                case 0 -> new String(text.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8);
                case 1 -> ByteStrings.fromText(text);
                default -> text.getBytes(StandardCharsets.UTF_8);
            };
        }
        double per = (usedHeap() - before - array) / (double) VALUES;
        keep = null;
        return per;
    }

    public static void main(String[] args) {
        String[][] samples = {{"ASCII", "ascii text value "}, {"Latin", "\u00fcber stra\u00dfe caf\u00e9 "},
            {"Cyrillic", "\u043f\u0440\u0438\u0432\u0435\u0442 \u043c\u0438\u0440 "},
            {"CJK", "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8"}};
        System.out.printf("StringMemoryBench: heap per String value, %,d values each, java %s%n", VALUES,
            System.getProperty("java.version"));
        for (String[] s : samples) {
            double text = bytesPerValue(s[1], 0);
            double bytes = bytesPerValue(s[1], 1);
            double raw = bytesPerValue(s[1], 2);
            System.out.printf("  %-9s Java text %5.1f B, byte string %5.1f B (%.2fx), byte[] %5.1f B (%.2fx)%n", s[0], text,
                bytes, bytes / text, raw, raw / text);
        }
    }
}
