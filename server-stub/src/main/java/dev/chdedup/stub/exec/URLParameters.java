package dev.chdedup.stub.exec;

import java.util.ArrayList;
import java.util.List;

/**
 * The URL parameter and hierarchy functions of {@link FunctionsURL}, as ClickHouse's extractURLParameter(s),
 * extractURLParameterNames, cutURLParameter, URLHierarchy and URLPathHierarchy scan a URL: the parameters start after
 * the first '?' or '#' (a fragment's parameters count as the query string's) and are separated by '&'; values are not
 * decoded.
 */
final class URLParameters {
    private URLParameters() {
    }

    /** Where "name=" starts a parameter (after '?', '#' or '&') at or after {@code from}, or -1. */
    private static int findParameter(String url, String nameEq, int from) {
        int pos = from;
        while (pos < url.length()) {
            int at = url.indexOf(nameEq, pos);
            if (at < 0) {
                return -1;
            }
            char prev = url.charAt(at - 1);
            if (prev == '?' || prev == '#' || prev == '&') {
                return at;
            }
            pos = at + nameEq.length();
        }
        return -1;
    }

    /** extractURLParameter(url, name): the value of the first parameter called {@code name}, up to '&' or '#'; '' when none. */
    static String value(String url, String name) {
        int query = URLParts.find(url, 0, "?#");
        if (query + 1 >= url.length()) {
            return "";
        }
        String nameEq = name + "=";
        int at = findParameter(url, nameEq, query + 1);
        if (at < 0) {
            return "";
        }
        int begin = at + nameEq.length();
        return url.substring(begin, URLParts.find(url, begin, "&#"));
    }

    /**
     * cutURLParameter(url, names): the URL without each named parameter (its first occurrence) and one '&' next to it
     * (the one after it, else the one before it).
     */
    static String cut(String url, List<String> names) {
        List<int[]> cuts = new ArrayList<>();
        int query = URLParts.find(url, 0, "?#");
        for (String name : names) {
            String nameEq = name + "=";
            int at = query + 1 < url.length() ? findParameter(url, nameEq, query + 1) : -1;
            if (at < 0) {
                continue;
            }
            char prev = url.charAt(at - 1);
            int begin = at;
            int end = URLParts.find(url, at + nameEq.length(), "&#");
            if (end < url.length() && url.charAt(end) == '&') {
                end++;
            } else if (prev == '&') {
                begin--;
            }
            cuts.add(new int[] {begin, end});
        }
        cuts.sort((a, b) -> a[0] != b[0] ? Integer.compare(a[0], b[0]) : Integer.compare(a[1], b[1]));
        StringBuilder out = new StringBuilder(url.length());
        int copied = 0;
        for (int[] c : cuts) {
            if (c[0] > copied) {
                out.append(url, copied, c[0]);
            }
            copied = Math.max(copied, c[1]);
        }
        if (copied < url.length()) {
            out.append(url, copied, url.length());
        }
        return out.toString();
    }

    /**
     * extractURLParameters (each "name=value", or a name alone) or, when {@code namesOnly}, extractURLParameterNames (each
     * name, but not a last one that no '=', '&' or '#' follows).
     */
    static List<Object> parameters(String url, boolean namesOnly) {
        List<Object> out = new ArrayList<>();
        int end = url.length();
        int pos = URLParts.find(url, 0, "?#");
        if (pos + 1 >= end) {
            return out;
        }
        pos++;
        while (true) {
            int tokenBegin;
            while (true) {
                tokenBegin = pos;
                pos = URLParts.find(url, pos, "=&#?");
                if (pos == end) {
                    return out;
                }
                if (url.charAt(pos) == '?') {
                    pos++;
                    continue;
                }
                break;
            }
            if (namesOnly) {
                out.add(url.substring(tokenBegin, pos));
                pos = URLParts.find(url, pos, "&#");
                if (pos + 1 >= end) {
                    return out;
                }
                pos++;
                continue;
            }
            int tokenEnd;
            if (url.charAt(pos) == '&' || url.charAt(pos) == '#') {
                tokenEnd = pos++;
            } else {
                pos = URLParts.find(url, pos + 1, "&#");
                tokenEnd = pos;
                if (pos < end) {
                    pos++;
                }
            }
            out.add(url.substring(tokenBegin, tokenEnd));
            if (pos >= end) {
                return out;
            }
        }
    }

    private static boolean separator(char c) {
        return c == '/' || c == '?' || c == '#';
    }

    /**
     * URLHierarchy (the URL cut after its host and after each '/', '?' or '#' of the rest, runs of them counting as one)
     * or, when {@code pathOnly}, URLPathHierarchy (the same from the path on). Only a URL with a lowercase protocol and
     * "://" has one; URLHierarchy answers another URL whole, URLPathHierarchy answers nothing.
     */
    static List<Object> hierarchy(String url, boolean pathOnly) {
        List<Object> out = new ArrayList<>();
        int end = url.length();
        int pos = 0;
        // ClickHouse's scan takes the protocol's bytes strictly between 'a' and 'z' or '0' and '9'
        while (pos < end && (url.charAt(pos) > 'a' && url.charAt(pos) < 'z' || url.charAt(pos) > '0' && url.charAt(pos) < '9')) {
            pos++;
        }
        if (pos == 0 || pos == end || !(pos + 3 < end && url.charAt(pos) == ':' && url.charAt(pos + 1) == '/' && url.charAt(pos + 2) == '/')) {
            if (!pathOnly && end > 0) {
                out.add(url);
            }
            return out;
        }
        pos += 3;
        while (pos < end && !separator(url.charAt(pos))) {
            pos++;
        }
        int start = pathOnly ? pos : 0;
        if (pos != end) {
            pos++;
        }
        if (!pathOnly) {
            out.add(url.substring(0, pos));
        }
        while (true) {
            while (pos < end && separator(url.charAt(pos))) {
                pos++;
            }
            if (pos == end) {
                return out;
            }
            while (pos < end && !separator(url.charAt(pos))) {
                pos++;
            }
            if (pos != end) {
                pos++;
            }
            out.add(url.substring(start, pos));
        }
    }
}
