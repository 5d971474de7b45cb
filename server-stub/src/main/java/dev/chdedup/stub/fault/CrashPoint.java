package dev.chdedup.stub.fault;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Points of the write path where an armed failpoint ends the whole process at once, as {@code kill -9} would:
 * {@link Runtime#halt} runs no shutdown hook and flushes nothing. Crash tests start the stub as a child process,
 * arm one ({@code SYSTEM ENABLE FAILPOINT stub_crash_after_part_rename}), send an insert, restart it on the same
 * data directory and check what survived. Armed points are process-wide (every server of the JVM dies with it),
 * and each fires once. Never arm one in a JVM you want to keep.
 */
public enum CrashPoint {
    /** A part is written under its temporary name and not renamed yet. */
    BEFORE_PART_RENAME("stub_crash_before_part_rename"),
    /** A part is renamed and active, and its block ids are not in the deduplication log yet. */
    AFTER_PART_RENAME("stub_crash_after_part_rename"),
    /** A part and its block ids are committed, and the client has no answer yet. */
    AFTER_INSERT_COMMIT("stub_crash_after_insert_commit"),
    /** A replicated insert's part is on disk under its final name, not active, and its ZooKeeper commit not sent. */
    BEFORE_KEEPER_COMMIT("stub_crash_before_keeper_commit"),
    /** A replicated insert's ZooKeeper commit succeeded and its part is not active on this replica yet. */
    AFTER_KEEPER_COMMIT("stub_crash_after_keeper_commit"),
    /** A mutation has rewritten one part and not the others. */
    DURING_MUTATION("stub_crash_during_mutation"),
    /** Parts a drop, merge or mutation removed are out of the set and their files not deleted yet. */
    BEFORE_REMOVED_FILES_DELETED("stub_crash_before_removed_files_deleted");

    private static final Logger LOG = LoggerFactory.getLogger(CrashPoint.class);
    /** The exit status of a process a crash point ended: that of a process killed by SIGKILL. */
    public static final int EXIT_STATUS = 137;

    public final String failpoint;
    private volatile boolean armed;

    CrashPoint(String failpoint) {
        this.failpoint = failpoint;
    }

    public static CrashPoint ofFailpoint(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        for (CrashPoint p : values()) {
            if (p.failpoint.equals(n)) {
                return p;
            }
        }
        return null;
    }

    public void arm(boolean on) {
        armed = on;
    }

    /** Ends the process here if this point is armed. */
    public void reached() {
        if (armed) {
            LOG.warn("Failpoint {} reached: halting the process", failpoint);
            Runtime.getRuntime().halt(EXIT_STATUS);
        }
    }
}
