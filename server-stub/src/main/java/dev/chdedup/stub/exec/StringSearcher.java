package dev.chdedup.stub.exec;

/**
 * Substring search over byte strings ({@link dev.chdedup.stub.types.ByteStrings}: one char a byte) in ClickHouse's four
 * modes: bytes as they are, ASCII letters in either case, and the same over UTF-8 where positions count code points
 * (the bytes that are not continuation bytes) and, case-insensitively, a code point equals another of the same lower or
 * upper case (Java's simple case mapping, as ClickHouse's per-code-point folding).
 */
final class StringSearcher {
    final boolean utf8;
    final boolean caseInsensitive;

    StringSearcher(boolean utf8, boolean caseInsensitive) {
        this.utf8 = utf8;
        this.caseInsensitive = caseInsensitive;
    }

    /** The searcher a function's name asks for: ...UTF8, ...CaseInsensitive..., both or neither. */
    static StringSearcher forName(String name) {
        return new StringSearcher(name.endsWith("UTF8"), name.contains("CaseInsensitive"));
    }

    static char lowerAscii(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
    }

    static boolean continuation(char c) {
        return (c & 0xC0) == 0x80;
    }

    /** The number of code points in {@code s[0, end)}. */
    static int codePoints(String s, int end) {
        int n = 0;
        for (int i = 0; i < end; i++) {
            if (!continuation(s.charAt(i))) {
                n++;
            }
        }
        return n;
    }

    /** The length of the text in this searcher's unit: bytes, or code points for UTF-8. */
    int length(String s) {
        return utf8 ? codePoints(s, s.length()) : s.length();
    }

    /** The byte offset of the 1-based position {@code pos} (in bytes or code points); the length past the end. */
    int offsetOf(String s, long pos) {
        if (!utf8) {
            return (int) Math.min(pos - 1, s.length());
        }
        int i = 0;
        for (long k = 1; k < pos && i < s.length(); k++) {
            i++;
            while (i < s.length() && continuation(s.charAt(i))) {
                i++;
            }
        }
        return i;
    }

    /** The 1-based position (bytes or code points) of byte offset {@code off}. */
    long positionOf(String s, int off) {
        return (utf8 ? codePoints(s, off) : off) + 1L;
    }

    /** The code point of the UTF-8 sequence at {@code i} (a lone byte stands for itself) and its length, as {cp, length}. */
    static int[] decode(String s, int i) {
        int c = s.charAt(i);
        int len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
        if (len == 1 || i + len > s.length()) {
            return new int[] {c, 1};
        }
        int cp = c & (0xFF >> (len + 1));
        for (int k = 1; k < len; k++) {
            char d = s.charAt(i + k);
            if (!continuation(d)) {
                return new int[] {c, 1};
            }
            cp = cp << 6 | d & 0x3F;
        }
        return new int[] {cp, len};
    }

    static boolean sameIgnoringCase(int a, int b) {
        return a == b || Character.toLowerCase(a) == Character.toLowerCase(b) || Character.toUpperCase(a) == Character.toUpperCase(b);
    }

    /** Where {@code needle} ends when it matches {@code h} at byte offset {@code at}, else -1. */
    int matchEnd(String h, int at, String needle) {
        if (!caseInsensitive) {
            return h.startsWith(needle, at) ? at + needle.length() : -1;
        }
        if (!utf8) {
            if (at + needle.length() > h.length()) {
                return -1;
            }
            for (int k = 0; k < needle.length(); k++) {
                if (lowerAscii(h.charAt(at + k)) != lowerAscii(needle.charAt(k))) {
                    return -1;
                }
            }
            return at + needle.length();
        }
        int i = at;
        int k = 0;
        while (k < needle.length()) {
            if (i >= h.length()) {
                return -1;
            }
            int[] a = decode(h, i);
            int[] b = decode(needle, k);
            if (!sameIgnoringCase(a[0], b[0])) {
                return -1;
            }
            i += a[1];
            k += b[1];
        }
        return i;
    }

    /** The first byte offset at or after {@code from} where {@code needle} (not empty) matches, as {start, end}; null when none. */
    int[] find(String h, String needle, int from) {
        if (!caseInsensitive) {
            int at = h.indexOf(needle, from);
            return at < 0 ? null : new int[] {at, at + needle.length()};
        }
        for (int at = from; at < h.length(); at++) {
            if (utf8 && continuation(h.charAt(at))) {
                continue;
            }
            int end = matchEnd(h, at, needle);
            if (end >= 0) {
                return new int[] {at, end};
            }
        }
        return null;
    }

    /**
     * position(h, needle, start): the 1-based position of the first match at or after position {@code start} (0 counts
     * as 1), 0 when none; an empty needle is found at {@code start} itself while that is at most one past the end.
     */
    long position(String h, String needle, long start) {
        long from = Math.max(start, 1);
        if (needle.isEmpty()) {
            return from <= length(h) + 1L ? from : 0;
        }
        if (from > length(h) + 1L) {
            return 0;
        }
        int[] m = find(h, needle, offsetOf(h, from));
        return m == null ? 0 : positionOf(h, m[0]);
    }

    /** countSubstrings: the matches that do not overlap, from position {@code start} on; 0 for an empty needle. */
    long count(String h, String needle, long start) {
        long from = Math.max(start, 1);
        if (needle.isEmpty() || from > length(h) + 1L) {
            return 0;
        }
        long n = 0;
        int at = offsetOf(h, from);
        int[] m;
        while ((m = find(h, needle, at)) != null) {
            n++;
            at = m[1];
        }
        return n;
    }

    /** Whether the bytes (or code points) of {@code needle} occur in {@code h} in order, not necessarily together. */
    boolean hasSubsequence(String h, String needle) {
        int i = 0;
        int k = 0;
        while (k < needle.length()) {
            if (i >= h.length()) {
                return false;
            }
            if (!utf8) {
                char a = h.charAt(i++);
                char b = needle.charAt(k);
                if (a == b || caseInsensitive && lowerAscii(a) == lowerAscii(b)) {
                    k++;
                }
                continue;
            }
            int[] a = decode(h, i);
            int[] b = decode(needle, k);
            i += a[1];
            if (a[0] == b[0] || caseInsensitive && sameIgnoringCase(a[0], b[0])) {
                k += b[1];
            }
        }
        return true;
    }
}
