package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.fault.CrashPoint;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mutations of one {@link StorageMergeTree} (ALTER TABLE ... DELETE/UPDATE, DELETE FROM), the half of
 * ClickHouse's {@code StorageMergeTree} that handles them: each is persisted as a {@link MergeTreeMutationEntry}
 * with a version taken under the parts lock, then applied part by part (every part whose data version is lower is
 * rewritten under the new version, never one inserted after it), and finished on the next start if a crash cut it
 * short. A part being rewritten is in the table's set of busy parts, so no merge takes it; merges also leave alone
 * parts a pending mutation still has to rewrite. All state is guarded by the parts lock ({@link MergeTreeData}'s
 * monitor).
 */
final class MergeTreeMutations {
    private static final Logger LOG = LoggerFactory.getLogger(MergeTreeMutations.class);

    private final StorageMergeTree table;
    private final MergeTreeData data;
    private final MergeTreeDataMergerMutator mergerMutator;
    /** The table's busy parts: being merged, mutated, or inserted and not yet logged. */
    private final Set<IMergeTreeDataPart> currentlyMerging;
    /** Mutations not known to be done, by version. Guarded by the parts lock. */
    private final TreeMap<Long, MergeTreeMutationEntry> mutations = new TreeMap<>();
    /** The row function of each mutation in {@link #mutations} this process has compiled. Guarded by the parts lock. */
    private final Map<Long, MergeTreeDataMergerMutator.RowMutation> mutationFunctions = new HashMap<>();
    /** Mutations that finished or failed, newest last, for system.mutations. Guarded by the parts lock. */
    private final List<MergeTreeMutationStatus> finishedMutations = new ArrayList<>();
    /** Serializes the execution of mutations (they run in version order). */
    private final Object mutationRunner = new Object();
    void loadUnlocked(Path dir) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, MergeTreeMutationEntry.PREFIX + "*.txt")) {
            for (Path p : ds) {
                MergeTreeMutationEntry e = MergeTreeMutationEntry.read(p);
                if (e != null) {
                    table.noteBlockNumberUnlocked(e.version());
                    if (partsToDoUnlocked(e.version()) > 0) {
                        mutations.put(e.version(), e);
                    } else {
                        finishedMutations.add(new MergeTreeMutationStatus(e, true, 0, ""));
                    }
                }
            }
        }
        finishedMutations.sort(Comparator.comparingLong(m -> m.entry().version()));
    }

    /** Whether {@code p} still waits for a mutation: its data version is below a known mutation's. Holds the lock. */
    boolean needsMutationUnlocked(IMergeTreeDataPart p) {
        return !mutations.isEmpty() && mutations.lastKey() > p.dataVersion();
    }

    /**
     * Runs a mutation (ALTER TABLE ... DELETE/UPDATE, DELETE FROM) given as its command text and its row function:
     * takes its version under the parts lock, persists it, then rewrites every part with a lower data version as
     * the same block range with the new mutation version ({@code <partition>_<min>_<max>_<level>_<version>}).
     * Returns when every such part is rewritten. The deduplication log keeps its block ids, as in ClickHouse: deleted
     * rows re-inserted as the same block are still dropped as duplicates.
     */
    void mutate(String commands, MergeTreeDataMergerMutator.RowMutation function) throws IOException {
        MergeTreeMutationEntry entry;
        synchronized (data) {
            entry = new MergeTreeMutationEntry(table.allocateBlockNumberUnlocked(), System.currentTimeMillis() / 1000, commands);
            entry.write(data.directory());
            mutations.put(entry.version(), entry);
            mutationFunctions.put(entry.version(), function);
        }
        runMutations();
        synchronized (data) {
            for (MergeTreeMutationStatus m : finishedMutations) {
                if (m.entry().version() == entry.version() && !m.failReason().isEmpty()) {
                    throw new ChException(ErrorCode.UNFINISHED, "Exception happened during execution of mutation '" + entry.mutationId()
                        + "' with part '' reason: '" + m.failReason() + "'. This error maybe retryable or not.");
                }
            }
        }
    }

    /**
     * Compiles and finishes the mutations loaded from disk that are not done (a crash interrupted them).
     * {@code compiler} turns a mutation's command text into its row function.
     */
    void resume(java.util.function.Function<String, MergeTreeDataMergerMutator.RowMutation> compiler) {
        synchronized (data) {
            for (MergeTreeMutationEntry e : mutations.values()) {
                mutationFunctions.computeIfAbsent(e.version(), v -> compiler.apply(e.commands()));
            }
        }
        runMutations();
    }

    /** Applies the pending mutations this process has functions for, in version order, part by part. */
    private void runMutations() {
        synchronized (mutationRunner) {
            while (true) {
                MergeTreeMutationEntry entry;
                MergeTreeDataMergerMutator.RowMutation fn;
                IMergeTreeDataPart part;
                synchronized (data) {
                    Map.Entry<Long, MergeTreeMutationEntry> first = mutations.firstEntry();
                    if (first == null || !mutationFunctions.containsKey(first.getKey())) {
                        return;
                    }
                    entry = first.getValue();
                    fn = mutationFunctions.get(entry.version());
                    part = nextPartToMutateUnlocked(entry.version());
                    if (part == null) {
                        finishMutationUnlocked(entry, "");
                        continue;
                    }
                    currentlyMerging.add(part);
                }
                try {
                    List<MergeTreeDataPartReader> readers = data.openIfActive(List.of(part));
                    if (readers == null) {
                        continue;
                    }
                    MergeTreeDataMergerMutator.Result r = mergerMutator.mutatePartToTemporaryPart(part, readers.get(0), fn, entry.version(), table.fsync());
                    data.renameTempPartAndReplace(r.tmp(), r.info(), List.of(part));
                    CrashPoint.DURING_MUTATION.reached();
                } catch (RuntimeException e) {
                    if (!data.isActive(part)) {
                        // dropped while it was being mutated (DROP PARTITION, TRUNCATE): nothing left to mutate
                        continue;
                    }
                    LOG.warn("Mutation {} of {}.{} failed on part {}: {}", entry.mutationId(), table.database(), table.name(), part.name(), e.toString());
                    synchronized (data) {
                        // the reason goes to clients: no server path, no Java class
                        finishMutationUnlocked(entry, e instanceof ChException ? e.getMessage() : e instanceof java.io.UncheckedIOException
                            ? "I/O error while mutating part " + part.name() : "Cannot mutate part " + part.name());
                    }
                } finally {
                    synchronized (data) {
                        currentlyMerging.remove(part);
                        data.notifyAll();
                    }
                }
            }
        }
    }

    /**
     * The next active part with a data version below {@code version} that no merge holds, waiting for running merges
     * of such parts to end; null when none is left. Holds the lock (and waits on it).
     */
    private IMergeTreeDataPart nextPartToMutateUnlocked(long version) {
        while (true) {
            boolean busy = false;
            for (IMergeTreeDataPart p : data.activeParts()) {
                if (p.dataVersion() < version) {
                    if (!currentlyMerging.contains(p)) {
                        return p;
                    }
                    busy = true;
                }
            }
            if (!busy) {
                return null;
            }
            try {
                data.wait(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /**
     * Ends a mutation: done, or failed (then it is removed like a killed mutation: the parts already mutated stay
     * so, the others are left as they are and merges go on). Holds the lock.
     */
    private void finishMutationUnlocked(MergeTreeMutationEntry entry, String failReason) {
        mutations.remove(entry.version());
        mutationFunctions.remove(entry.version());
        finishedMutations.add(new MergeTreeMutationStatus(entry, failReason.isEmpty(), 0, failReason));
        if (!failReason.isEmpty()) {
            try {
                Files.deleteIfExists(data.directory().resolve(entry.fileName()));
            } catch (IOException ignored) {
                // it is found again on load and retried there
            }
        }
        table.scheduleMerges();
    }

    /**
     * KILL MUTATION: removes an unfinished mutation and its file, so no further part is rewritten for it (the parts
     * already rewritten stay so) and it no longer holds merges back; returns whether it was found.
     */
    boolean kill(String mutationId) {
        synchronized (data) {
            for (MergeTreeMutationEntry e : mutations.values()) {
                if (e.mutationId().equals(mutationId)) {
                    mutations.remove(e.version());
                    mutationFunctions.remove(e.version());
                    try {
                        Files.deleteIfExists(data.directory().resolve(e.fileName()));
                    } catch (IOException ex) {
                        throw new java.io.UncheckedIOException(ex);
                    }
                    data.notifyAll();
                    table.scheduleMerges();
                    return true;
                }
            }
            return false;
        }
    }

    private long partsToDoUnlocked(long version) {
        return data.activeParts().stream().filter(p -> p.dataVersion() < version).count();
    }

    /** The table's mutations, oldest first, as system.mutations shows them. */
    List<MergeTreeMutationStatus> statuses() {
        synchronized (data) {
            List<MergeTreeMutationStatus> out = new ArrayList<>(finishedMutations);
            for (MergeTreeMutationEntry e : mutations.values()) {
                out.add(new MergeTreeMutationStatus(e, false, partsToDoUnlocked(e.version()), ""));
            }
            out.sort(Comparator.comparingLong(m -> m.entry().version()));
            return out;
        }
    }

    MergeTreeMutations(StorageMergeTree table, MergeTreeData data, MergeTreeDataMergerMutator mergerMutator, Set<IMergeTreeDataPart> currentlyMerging) {
        this.table = table;
        this.data = data;
        this.mergerMutator = mergerMutator;
        this.currentlyMerging = currentlyMerging;
    }
}
