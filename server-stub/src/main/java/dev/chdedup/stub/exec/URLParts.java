package dev.chdedup.stub.exec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * How ClickHouse's URL functions find the parts of a URL (src/Functions/URL: protocol.h, domain.h, netloc,
 * ExtractFirstSignificantSubdomain.h): a simplified scan of a byte string (one char a byte, {@link
 * dev.chdedup.stub.types.ByteStrings}) rather than an RFC parser. Each method answers the part as {@code [start, end)}
 * offsets into the URL, {@code null} when there is none.
 */
final class URLParts {
    private URLParts() {
    }

    /** The second-level public suffixes (co.uk, com.tr, github.io, ...) firstSignificantSubdomain skips. */
    private static final Set<String> SECOND_LEVEL_SUFFIXES = loadSuffixes();

    private static Set<String> loadSuffixes() {
        Set<String> out = new HashSet<>();
        try (InputStream in = URLParts.class.getResourceAsStream("/url/tld_second_level.txt");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.ISO_8859_1))) {
            String line;
            while ((line = r.readLine()) != null) {
                line = line.strip();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    out.add(line);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    static boolean isAlpha(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }

    static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    static boolean isAlphaNumeric(char c) {
        return isAlpha(c) || isDigit(c);
    }

    /** The first offset at or after {@code from} holding one of {@code chars}, else the length. */
    static int find(String s, int from, String chars) {
        for (int i = from; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return s.length();
    }

    /** The scheme: a letter, then letters, digits, '+', '-' and '.'; its end offset (0 when there is none). */
    static int schemeEnd(String s) {
        if (s.isEmpty() || !isAlpha(s.charAt(0))) {
            return 0;
        }
        int pos = 1;
        while (pos < s.length()) {
            char c = s.charAt(pos);
            if (!(isAlphaNumeric(c) || c == '+' || c == '-' || c == '.')) {
                break;
            }
            pos++;
        }
        return pos;
    }

    /** protocol(): the scheme when a ':' follows it and at least three more bytes do. */
    static int[] protocol(String s) {
        int end = schemeEnd(s);
        if (end == 0 || s.length() - end < 4 || s.charAt(end) != ':') {
            return null;
        }
        return new int[] {0, end};
    }

    private static boolean restricted(char c, boolean rfc) {
        switch (c) {
            case ' ': case '\t': case '<': case '>': case '%': case '{': case '}': case '|': case '\\': case '^': case '~':
            case ']': case ';': case '=': case '&':
                return true;
            case '[':
                return !rfc;
            default:
                return false;
        }
    }

    /**
     * Where the authority starts: after "//", or after a scheme of at most 15 bytes and "://", else at 0; -1 when a
     * restricted byte comes first.
     */
    private static int authorityStart(String s, boolean rfc) {
        int size = s.length();
        if (size >= 2 && s.charAt(0) == '/' && s.charAt(1) == '/') {
            return 2;
        }
        int schemeEnd = Math.min(size, 16);
        int pos = 1;
        for (; pos < schemeEnd; pos++) {
            char c = s.charAt(pos);
            if (isAlphaNumeric(c) || c == '.' || c == '-' || c == '+' || rfc && c == '[') {
                continue;
            }
            if (restricted(c, rfc)) {
                return -1;
            }
            break;
        }
        return schemeEnd - pos > 2 && s.charAt(pos) == ':' && s.charAt(pos + 1) == '/' && s.charAt(pos + 2) == '/' ? pos + 3 : 0;
    }

    /** The host ending before {@code pos}: it needs a dot with a byte after it that is not ':', '/', '?' or '#'. */
    private static int[] checkHost(String s, int pos, int dot, int start) {
        if (dot < 0 || start >= pos || pos - dot == 1) {
            return null;
        }
        char afterDot = s.charAt(dot + 1);
        if (afterDot == ':' || afterDot == '/' || afterDot == '?' || afterDot == '#') {
            return null;
        }
        return new int[] {start, pos};
    }

    /** The host of a URL (ClickHouse's getURLHost, or getURLHostRFC when {@code rfc}). */
    static int[] host(String s, boolean rfc) {
        return rfc ? hostRFC(s) : hostSimple(s);
    }

    private static int[] hostSimple(String s) {
        int pos = authorityStart(s, false);
        if (pos < 0) {
            return null;
        }
        int dot = -1;
        int start = pos;
        for (; pos < s.length(); pos++) {
            char c = s.charAt(pos);
            switch (c) {
                case '.':
                    dot = pos;
                    break;
                case ':': case '/': case '?': case '#':
                    return checkHost(s, pos, dot, start);
                case '@':
                    start = pos + 1;
                    break;
                default:
                    if (restricted(c, false)) {
                        return null;
                    }
            }
        }
        return checkHost(s, pos, dot, start);
    }

    private static int[] hostRFC(String s) {
        if (s.length() < 2) {
            return null;
        }
        int pos = authorityStart(s, true);
        if (pos < 0) {
            return null;
        }
        int size = s.length();
        boolean openBracket = false;
        boolean endBracket = false;
        if (pos < size && s.charAt(pos) == '[') {
            openBracket = true;
            pos++;
        }
        int dot = -1;
        int colon = -1;
        boolean subDelims = false;
        boolean at = false;
        boolean terminatorAfterColon = false;
        int start = pos;
        scan:
        for (; pos < size; pos++) {
            char c = s.charAt(pos);
            switch (c) {
                case '.':
                    if (openBracket) {
                        return null;
                    }
                    if (at || colon < 0) {
                        dot = pos;
                    }
                    break;
                case ':':
                    if (openBracket) {
                        continue;
                    }
                    if (at || colon >= 0) {
                        break scan;
                    }
                    colon = pos;
                    break;
                case '/': case '?': case '#':
                    break scan;
                case '@':
                    if (terminatorAfterColon) {
                        return null;
                    }
                    if (at) {
                        break scan;
                    }
                    subDelims = false;
                    at = true;
                    start = pos + 1;
                    break;
                case ';': case '=': case '&': case '~': case '%':
                    // sub-delims: allowed in the userinfo only
                    subDelims = true;
                    break;
                case ']':
                    if (openBracket) {
                        endBracket = true;
                        break scan;
                    }
                    if (colon < 0) {
                        return null;
                    }
                    terminatorAfterColon = true;
                    break;
                case ' ': case '\t': case '<': case '>': case '{': case '}': case '|': case '\\': case '^': case '[':
                    if (colon < 0) {
                        return null;
                    }
                    terminatorAfterColon = true;
                    break;
                default:
                    break;
            }
        }
        if (subDelims) {
            return null;
        }
        if (!at) {
            if (openBracket && endBracket) {
                return new int[] {start, pos};
            }
            pos = colon >= 0 ? colon : pos;
        }
        return checkHost(s, pos, dot, start);
    }

    /** domain() and domainWithoutWWW(): the host, less a leading "www." when {@code withoutWWW}. */
    static int[] domain(String s, boolean withoutWWW, boolean rfc) {
        int[] h = host(s, rfc);
        if (h != null && withoutWWW && h[1] - h[0] > 4 && s.startsWith("www.", h[0])) {
            h[0] += 4;
        }
        return h;
    }

    /**
     * firstSignificantSubdomain(): the domain level below the public suffix, taken as the last level or, when the last
     * two levels are a listed second-level suffix, the third level; the whole domain when it has no dot. Answers
     * {start, end, end of the domain}.
     */
    static int[] firstSignificantSubdomain(String s, boolean withoutWWW, boolean rfc) {
        int[] d = domain(s, withoutWWW, rfc);
        if (d == null) {
            return null;
        }
        int begin = d[0];
        int domainEnd = d[1];
        int end = s.charAt(domainEnd - 1) == '.' ? domainEnd - 1 : domainEnd;
        int p0 = -1;
        int p1 = -1;
        int p2 = -1;
        for (int i = begin; i < end; i++) {
            if (s.charAt(i) == '.') {
                p2 = p1;
                p1 = p0;
                p0 = i;
            }
        }
        if (p0 < 0) {
            return new int[] {begin, end, domainEnd};
        }
        if (p1 < 0) {
            return new int[] {begin, p0, domainEnd};
        }
        if (p2 < 0) {
            p2 = begin - 1;
        }
        if (SECOND_LEVEL_SUFFIXES.contains(s.substring(p1 + 1, end))) {
            return new int[] {p2 + 1, p1, domainEnd};
        }
        return new int[] {p1 + 1, p0, domainEnd};
    }

    /** topLevelDomain(): after the host's last dot (a trailing dot aside), unless that starts with a digit (IPv4). */
    static int[] topLevelDomain(String s, boolean rfc) {
        int[] h = host(s, rfc);
        if (h == null) {
            return null;
        }
        int end = s.charAt(h[1] - 1) == '.' ? h[1] - 1 : h[1];
        int lastDot = s.lastIndexOf('.', end - 1);
        if (lastDot < h[0] || lastDot + 1 >= s.length() || isDigit(s.charAt(lastDot + 1))) {
            return null;
        }
        return new int[] {lastDot + 1, end};
    }

    /** netloc(): the userinfo, host and port, up to the path, query string or fragment (ClickHouse's ExtractNetloc). */
    static int[] netloc(String s) {
        int size = s.length();
        int pos;
        if (size > 2 && s.charAt(0) == '/' && s.charAt(1) == '/') {
            pos = 2;
        } else {
            int schemeEnd = Math.min(size, 16);
            pos = 1;
            for (; pos < schemeEnd; pos++) {
                char c = s.charAt(pos);
                if (isAlphaNumeric(c) || c == '.' || c == '-' || c == '+') {
                    continue;
                }
                if (restricted(c, false)) {
                    return null;
                }
                break;
            }
            pos = pos + 2 < schemeEnd && s.charAt(pos) == ':' && s.charAt(pos + 1) == '/' && s.charAt(pos + 2) == '/' ? pos + 3 : 0;
        }
        boolean identification = false;
        int hostnameEnd = size;
        int questionMark = size;
        int slash = size;
        int start = pos;
        for (; pos < size; pos++) {
            char c = s.charAt(pos);
            switch (c) {
                case '/':
                    if (identification) {
                        return new int[] {start, pos};
                    }
                    slash = pos;
                    break;
                case '?':
                    if (identification) {
                        return new int[] {start, pos};
                    }
                    questionMark = pos;
                    break;
                case '#':
                    return new int[] {start, pos};
                case '@':
                    identification = true;
                    hostnameEnd = size;
                    break;
                case ';': case '=': case '&': case '~': case '%':
                    if (!identification) {
                        hostnameEnd = pos;
                        break;
                    }
                    return pos > start ? new int[] {start, Math.min(pos, Math.min(questionMark, slash))} : null;
                case ' ': case '\t': case '<': case '>': case '{': case '}': case '|': case '\\': case '^': case '[': case ']':
                    return pos > start ? new int[] {start, Math.min(pos, Math.min(questionMark, slash))} : null;
                default:
                    break;
            }
        }
        if (identification) {
            return new int[] {start, pos};
        }
        return new int[] {start, Math.min(Math.min(pos, questionMark), Math.min(slash, hostnameEnd))};
    }
}
