package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.junit.StubClusterExtension;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Tries to make the leader's merge selecting cover a part it does not merge: writers send single-row quorum inserts
 * (insert_quorum=2) as fast as they can to all three replicas of one partition, so the leader keeps selecting merges
 * (merge_selecting_sleep_ms=1) while its fetch pool makes fetched parts active. A merge selected from local parts read
 * while a fetch finished, with the queue read after it, spanned that part's block number without its rows; every
 * replica then dropped the part as covered (a chaos run lost acknowledged quorum inserts that way). Afterwards every
 * acknowledged insert is present exactly once on every replica.
 */
class ReplicatedMergeSelectingRaceTest {
    private static final int WRITERS = 6;
    private static final int INSERTS = 80;

    @RegisterExtension
    static StubClusterExtension replicas = StubClusterExtension.builder().replicas(3).build();

    private static String url(int i) {
        return replicas.cluster().replica(i).httpUrl();
    }

    @Test
    void mergesNeverCoverAPartTheyDoNotMerge() throws Exception {
        for (int r = 1; r <= 3; r++) {
            Http.query(url(r), "CREATE TABLE q (id UInt32) ENGINE = ReplicatedMergeTree('/clickhouse/tables/q', '{replica}') ORDER BY id"
                + " SETTINGS merge_selecting_sleep_ms = 1");
        }
        ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            int writer = w;
            writers.add(pool.submit(() -> {
                for (int i = 0; i < INSERTS; i++) {
                    int id = writer * 1000 + i;
                    HttpResponse<String> a = Http.send(url((writer + i) % 3 + 1), "INSERT INTO q VALUES (" + id + ")",
                        "insert_quorum=2&insert_deduplication_token=t" + id);
                    assertEquals(200, a.statusCode(), a.body());
                }
                return null;
            }));
        }
        for (Future<?> f : writers) {
            f.get(240, TimeUnit.SECONDS);
        }
        pool.shutdownNow();
        for (int r = 1; r <= 3; r++) {
            Http.query(url(r), "SYSTEM SYNC REPLICA q");
        }
        int expected = WRITERS * INSERTS;
        for (int r = 1; r <= 3; r++) {
            String counts = Http.query(url(r), "SELECT count(), uniqExact(id) FROM q").trim();
            String merged = Http.query(url(r), "SELECT count() FROM system.parts WHERE table = 'q' AND active AND level > 0").trim();
            System.out.printf("ReplicatedMergeSelectingRaceTest r%d: %d quorum inserts acknowledged, rows and distinct %s, %s merged parts%n", r,
                expected, counts.replace('\t', ' '), merged);
            assertEquals(expected + "\t" + expected, counts, "rows on r" + r);
        }
    }
}
