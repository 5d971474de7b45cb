package dev.chdedup.driver;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The servers a URL names ({@code jdbc:dedup:clickhouse://h1:8123,h2:8123/db}), each as an official driver URL of its own
 * (the official driver takes one host), in the order they are tried: the live ones in the URL's order (or shuffled, for
 * {@code dedup.endpointOrder=random}), then those that failed recently, earliest expiry first. An endpoint that failed
 * (a connection refused, a request lost) is quarantined for {@code dedup.endpointQuarantineMs}, shared by every
 * connection of the process, as client-v2 quarantines its endpoints.
 */
final class Endpoints {
    /** Quarantined endpoint URLs (without query) and when each may be tried again, in epoch milliseconds. */
    private static final Map<String, Long> QUARANTINED = new ConcurrentHashMap<>();

    private final List<String> urls;
    private final boolean random;
    private final long quarantineMillis;

    private Endpoints(List<String> urls, boolean random, long quarantineMillis) {
        this.urls = List.copyOf(urls);
        this.random = random;
        this.quarantineMillis = quarantineMillis;
    }

    /**
     * The endpoints of {@code officialUrl} ({@code jdbc:clickhouse:[protocol:]//host[:port][,host[:port]...][/db][?query]}):
     * one URL per host, each with the same path and query.
     */
    static Endpoints of(String officialUrl, boolean random, long quarantineMillis) {
        int slashes = officialUrl.indexOf("//");
        if (slashes < 0) {
            return new Endpoints(List.of(officialUrl), random, quarantineMillis);
        }
        int start = slashes + 2;
        int end = start;
        while (end < officialUrl.length() && officialUrl.charAt(end) != '/' && officialUrl.charAt(end) != '?') {
            end++;
        }
        List<String> urls = new ArrayList<>();
        for (String host : officialUrl.substring(start, end).split(",")) {
            if (!host.isBlank()) {
                urls.add(officialUrl.substring(0, start) + host.strip() + officialUrl.substring(end));
            }
        }
        return new Endpoints(urls.isEmpty() ? List.of(officialUrl) : urls, random, quarantineMillis);
    }

    int size() {
        return urls.size();
    }

    List<String> urls() {
        return urls;
    }

    /** The endpoint of {@code url}: the URL without its query, the key of quarantines and of cached table facts. */
    static String endpoint(String url) {
        int q = url.indexOf('?');
        return q < 0 ? url : url.substring(0, q);
    }

    /** Every endpoint in the order a new connection tries them. */
    List<String> candidates() {
        long now = System.currentTimeMillis();
        List<String> live = new ArrayList<>();
        List<String> resting = new ArrayList<>();
        for (String u : urls) {
            (quarantined(u, now) ? resting : live).add(u);
        }
        if (random) {
            Collections.shuffle(live, ThreadLocalRandom.current());
        }
        resting.sort(Comparator.comparingLong(u -> QUARANTINED.getOrDefault(endpoint(u), 0L)));
        live.addAll(resting);
        return live;
    }

    /** The endpoints other than {@code current}, live ones first, for an INSERT whose attempt on {@code current} failed. */
    List<String> others(String current) {
        List<String> out = new ArrayList<>(candidates());
        out.removeIf(u -> endpoint(u).equals(endpoint(current)));
        return out;
    }

    void quarantine(String url) {
        if (urls.size() > 1 && quarantineMillis > 0) {
            QUARANTINED.put(endpoint(url), System.currentTimeMillis() + quarantineMillis);
        }
    }

    /** Ends the quarantine of {@code url}: it answered. */
    void release(String url) {
        QUARANTINED.remove(endpoint(url));
    }

    boolean quarantined(String url) {
        return quarantined(url, System.currentTimeMillis());
    }

    private static boolean quarantined(String url, long now) {
        Long until = QUARANTINED.get(endpoint(url));
        if (until == null) {
            return false;
        }
        if (until <= now) {
            QUARANTINED.remove(endpoint(url), until);
            return false;
        }
        return true;
    }
}
