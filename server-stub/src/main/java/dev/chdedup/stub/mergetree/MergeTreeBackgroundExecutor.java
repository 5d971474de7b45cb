package dev.chdedup.stub.mergetree;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs background merges on one daemon thread: a table asks to be looked at after each insert, and is merged
 * step by step while its policy finds something to merge. States: LATENT until constructed, STARTED, CLOSED.
 */
public final class MergeTreeBackgroundExecutor implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(MergeTreeBackgroundExecutor.class);
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "stub-merges");
        t.setDaemon(true);
        return t;
    });
    private final Set<StorageMergeTree> pending = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    public void schedule(StorageMergeTree table) {
        if (closed || !pending.add(table)) {
            return;
        }
        try {
            executor.execute(() -> {
                pending.remove(table);
                try {
                    int steps = 0;
                    while (!closed && steps++ < 100 && table.mergeStep()) {
                        // keep merging while the policy finds work
                    }
                } catch (RuntimeException e) {
                    LOG.warn("Background merge of {}.{} failed: {}", table.database(), table.name(), e.toString());
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            pending.remove(table);
        }
    }

    @Override
    public void close() {
        closed = true;
        executor.shutdown();
        try {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
