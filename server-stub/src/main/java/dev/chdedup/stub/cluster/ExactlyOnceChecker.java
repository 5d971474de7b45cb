package dev.chdedup.stub.cluster;

import dev.chdedup.stub.replicated.DataPartsExchange;
import dev.chdedup.stub.server.StubServer;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks what an application believes it wrote into a replicated table against what every replica holds. The
 * application records each batch execution: its batch id (the value of the id column on each of its rows; batches of
 * identical content share one), its row count, and whether it was acknowledged or failed for good (with an outcome the
 * failure says is unknown, or known: nothing written). {@link #check} then
 * syncs every replica (SYSTEM SYNC REPLICA, with a deadline), waits until every replication queue is empty and all
 * replicas hold the same active parts with the same checksums (each part's file, as a fetching replica gets it from the
 * interserver endpoint), and counts on each replica the rows lost (fewer than the acknowledged copies) and duplicated
 * (more than acknowledged plus failed copies, or rows of an id nobody wrote).
 */
public final class ExactlyOnceChecker {
    private final String database;
    private final String table;
    private final String idColumn;
    /** id -> {rows per copy, acknowledged executions, failed-for-good executions}. */
    private final Map<Long, long[]> expected = new HashMap<>();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ExactlyOnceChecker(String database, String table, String idColumn) {
        this.database = database;
        this.table = table;
        this.idColumn = idColumn;
    }

    /** One execution of batch {@code id} ({@code rows} rows) was acknowledged: it must be there exactly once. */
    public synchronized ExactlyOnceChecker acknowledged(long id, long rows) {
        entry(id, rows)[1]++;
        return this;
    }

    /** One execution of batch {@code id} failed for good with an unknown outcome: it may be there once or not at all. */
    public synchronized ExactlyOnceChecker failed(long id, long rows) {
        return failed(id, rows, true);
    }

    /**
     * One execution of batch {@code id} failed for good; when its failure says the outcome is known
     * ({@code outcomeUnknown} false: nothing was written), a copy of it found on a replica is a duplicate.
     */
    public synchronized ExactlyOnceChecker failed(long id, long rows, boolean outcomeUnknown) {
        long[] e = entry(id, rows);
        if (outcomeUnknown) {
            e[2]++;
        }
        return this;
    }

    private long[] entry(long id, long rows) {
        long[] e = expected.computeIfAbsent(id, k -> new long[] {rows, 0, 0});
        if (e[0] != rows) {
            throw new IllegalArgumentException("batch " + id + " was recorded with " + e[0] + " rows, now with " + rows);
        }
        return e;
    }

    /** What one replica holds against what was written. */
    public record ReplicaResult(String replica, long rows, long lostRows, long duplicatedRows, List<Long> lostBatches, List<Long> duplicatedBatches) {
    }

    /** The outcome: per replica counts, whether the replicas converged (same parts and checksums, queues empty) and when. */
    public record Result(List<ReplicaResult> replicas, boolean converged, String divergence, long convergenceMillis) {
        public long lostRows() {
            return replicas.stream().mapToLong(ReplicaResult::lostRows).sum();
        }

        public long duplicatedRows() {
            return replicas.stream().mapToLong(ReplicaResult::duplicatedRows).sum();
        }

        public boolean ok() {
            return converged && lostRows() == 0 && duplicatedRows() == 0;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (ReplicaResult r : replicas) {
                sb.append(String.format("%s: %d rows, %d lost, %d duplicated%s%s%n", r.replica(), r.rows(), r.lostRows(), r.duplicatedRows(),
                    r.lostBatches().isEmpty() ? "" : ", lost batches " + r.lostBatches(),
                    r.duplicatedBatches().isEmpty() ? "" : ", duplicated batches " + r.duplicatedBatches()));
            }
            sb.append(converged ? "converged in " + convergenceMillis + " ms: same parts and checksums, queues empty"
                : "NOT converged: " + divergence);
            return sb.toString();
        }
    }

    /** Syncs and compares the running replicas of {@code cluster}; waits at most {@code deadline} for convergence. */
    public Result check(StubCluster cluster, Duration deadline) throws Exception {
        long start = System.nanoTime();
        long end = start + deadline.toNanos();
        String divergence = "";
        boolean converged = false;
        List<StubServer> servers = cluster.replicas();
        while (System.nanoTime() < end) {
            divergence = divergence(servers, Duration.ofNanos(Math.max(1_000_000_000L, end - System.nanoTime())));
            if (divergence.isEmpty()) {
                converged = true;
                break;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000_000L);
        }
        long convergence = (System.nanoTime() - start) / 1_000_000;
        List<ReplicaResult> results = new ArrayList<>();
        for (int i = 0; i < servers.size(); i++) {
            results.add(count("r" + (i + 1), servers.get(i)));
        }
        return new Result(results, converged, divergence, convergence);
    }

    /** Empty when every replica has an empty queue and the same parts with the same checksums; else what differs. */
    private String divergence(List<StubServer> servers, Duration syncTimeout) {
        Map<String, String> first = null;
        for (int i = 0; i < servers.size(); i++) {
            StubServer s = servers.get(i);
            try {
                query(s, "SYSTEM SYNC REPLICA " + database + "." + table, syncTimeout);
                String queued = query(s, "SELECT count() FROM system.replication_queue WHERE database = '" + database
                    + "' AND table = '" + table + "'").trim();
                if (!queued.equals("0")) {
                    return "r" + (i + 1) + " has " + queued + " entries in its queue";
                }
                Map<String, String> parts = checksums(s);
                if (first == null) {
                    first = parts;
                } else if (!first.equals(parts)) {
                    return "r" + (i + 1) + " holds parts " + parts + ", r1 " + first;
                }
            } catch (java.net.http.HttpTimeoutException e) {
                return "r" + (i + 1) + ": SYSTEM SYNC REPLICA did not end in time; queue: " + queue(s);
            } catch (Exception e) {
                return "r" + (i + 1) + ": " + e.getMessage();
            }
        }
        return "";
    }

    /** The replica's queue entries of the table, for a report on why it did not converge. */
    private String queue(StubServer s) {
        try {
            return query(s, "SELECT node_name, type, new_part_name, num_tries, last_exception, num_postponed, postpone_reason, is_currently_executing"
                + " FROM system.replication_queue WHERE database = '" + database + "' AND table = '" + table + "'", Duration.ofSeconds(10)).trim()
                .replace("\n", " | ");
        } catch (Exception e) {
            return "unreadable: " + e;
        }
    }

    /** Active part name -> checksum of its file as the interserver endpoint serves it. */
    private Map<String, String> checksums(StubServer s) throws Exception {
        String replicaPath = query(s, "SELECT replica_path FROM system.replicas WHERE database = '" + database + "' AND table = '" + table + "'").trim();
        Map<String, String> out = new TreeMap<>();
        for (String part : query(s, "SELECT name FROM system.parts WHERE database = '" + database + "' AND table = '" + table
            + "' AND active ORDER BY name").split("\n")) {
            if (part.isEmpty()) {
                continue;
            }
            URI uri = URI.create("http://" + s.host() + ":" + s.replication().interserverPort() + "/?endpoint="
                + URLEncoder.encode(DataPartsExchange.ENDPOINT_PREFIX + replicaPath, StandardCharsets.UTF_8) + "&part=" + URLEncoder.encode(part, StandardCharsets.UTF_8));
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("part " + part + " went away while it was read (a merge): HTTP " + r.statusCode());
            }
            out.put(part, DataPartsExchange.checksum(r.body()).split("\t")[2].trim());
        }
        return out;
    }

    private ReplicaResult count(String name, StubServer s) throws Exception {
        Map<Long, Long> counts = new HashMap<>();
        long total = 0;
        for (String line : query(s, "SELECT " + idColumn + ", count() FROM " + database + "." + table + " GROUP BY " + idColumn).split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("\t");
            long c = Long.parseLong(f[1]);
            counts.put(Long.parseLong(f[0]), c);
            total += c;
        }
        long lost = 0;
        long dup = 0;
        List<Long> lostIds = new ArrayList<>();
        List<Long> dupIds = new ArrayList<>();
        synchronized (this) {
            for (Map.Entry<Long, long[]> e : expected.entrySet()) {
                long[] x = e.getValue();
                long have = counts.getOrDefault(e.getKey(), 0L);
                long min = x[0] * x[1];
                long max = x[0] * (x[1] + x[2]);
                if (have < min) {
                    lost += min - have;
                    lostIds.add(e.getKey());
                } else if (have > max) {
                    dup += have - max;
                    dupIds.add(e.getKey());
                }
            }
            for (Map.Entry<Long, Long> e : counts.entrySet()) {
                if (!expected.containsKey(e.getKey())) {
                    dup += e.getValue();
                    dupIds.add(e.getKey());
                }
            }
        }
        lostIds.sort(null);
        dupIds.sort(null);
        return new ReplicaResult(name, total, lost, dup, first(lostIds), first(dupIds));
    }

    private static List<Long> first(List<Long> ids) {
        return ids.size() <= 20 ? ids : List.copyOf(ids.subList(0, 20));
    }

    private String query(StubServer s, String sql) throws Exception {
        return query(s, sql, Duration.ofSeconds(120));
    }

    private String query(StubServer s, String sql, Duration timeout) throws Exception {
        URI uri = URI.create(s.httpUrl() + "/?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(timeout).POST(HttpRequest.BodyPublishers.noBody()).build(),
            HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(r.body().trim());
        }
        return r.body();
    }
}
