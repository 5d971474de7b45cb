package dev.chdedup.driver.journal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The crash-safe insert journal of one directory: every INSERT execution is appended (durably) before its first
 * attempt and marked done when it is acknowledged or proved not written, so that what was in flight when the
 * process died is re-sent, with its own token and settings, by the next process ({@link #replay}). One instance per
 * directory and process ({@link #open} returns the shared one, so a pool's connections share it); a lock file keeps
 * a second process out. Entries being executed by this process are in flight and not {@link #pending()}.
 */
public final class DedupJournal implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DedupJournal.class);
    public static final String LOCK_FILE = "journal.lock";
    private static final Map<Path, DedupJournal> OPEN = new ConcurrentHashMap<>();

    private final Path dir;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private final JournalFile file;
    /** Entries not done, by id, oldest first; inFlight is the subset this process is executing now. */
    private final Map<Long, JournalEntry> entries = new LinkedHashMap<>();
    private final Set<Long> inFlight = new HashSet<>();
    private long nextId;
    private volatile boolean closed;
    /** Whether the re-send at the first connection has completed; guarded by startupLock. */
    private boolean startupReplayed;
    private final Object startupLock = new Object();
    private volatile Consumer<JournalEntry> appendListener;

    private DedupJournal(Path dir, FileChannel lockChannel, FileLock lock, JournalFile file, List<JournalEntry> recovered) {
        this.dir = dir;
        this.lockChannel = lockChannel;
        this.lock = lock;
        this.file = file;
        for (JournalEntry e : recovered) {
            entries.put(e.id(), e);
            nextId = Math.max(nextId, e.id() + 1);
        }
    }

    /**
     * The journal of {@code dir} (created if missing), shared by everything in this process that opens the same
     * directory; fails with a clear SQLException when another process holds it.
     */
    public static DedupJournal open(Path dir) throws SQLException {
        Path canonical;
        try {
            Files.createDirectories(dir);
            canonical = dir.toRealPath();
        } catch (IOException e) {
            throw new SQLException("Cannot create the insert journal directory " + dir + ": " + e, "58030", e);
        }
        synchronized (OPEN) {
            DedupJournal j = OPEN.get(canonical);
            if (j == null) {
                j = openUnshared(canonical);
                OPEN.put(canonical, j);
            }
            return j;
        }
    }

    private static DedupJournal openUnshared(Path dir) throws SQLException {
        FileChannel lockChannel = null;
        try {
            lockChannel = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = lockChannel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                lockChannel.close();
                throw new SQLException("The insert journal " + dir + " is in use by another process (it holds the lock on "
                    + dir.resolve(LOCK_FILE) + "): give each process its own dedup.journalDir", "55006");
            }
            List<JournalEntry> recovered = new ArrayList<>();
            long[] torn = new long[1];
            JournalFile f = JournalFile.open(dir, recovered, torn);
            if (!recovered.isEmpty()) {
                LOG.info("Insert journal {}: {} pending insert(s) from an earlier process", dir, recovered.size());
            }
            return new DedupJournal(dir, lockChannel, lock, f, recovered);
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new SQLException("Cannot open the insert journal " + dir + ": " + e.getMessage(), "58030", e);
        }
    }

    private static void closeQuietly(FileChannel c) {
        try {
            if (c != null) {
                c.close();
            }
        } catch (IOException e) {
            // nothing more to release
        }
    }

    public Path directory() {
        return dir;
    }

    /** The entries not done and not being executed by this process, oldest first. */
    public synchronized List<JournalEntry> pending() {
        List<JournalEntry> out = new ArrayList<>();
        for (JournalEntry e : entries.values()) {
            if (!inFlight.contains(e.id())) {
                out.add(e);
            }
        }
        return out;
    }

    /** How many entries are not done, in flight or not. */
    public synchronized int size() {
        return entries.size();
    }

    /** The journal file's size in bytes (bounded by what is not done). */
    public long fileBytes() {
        return file.size();
    }

    /**
     * Journals an execution about to start (the driver calls this before the first attempt) and returns it with its
     * id, in flight; it is durable when this returns.
     */
    public JournalEntry append(JournalEntry entry) throws SQLException {
        JournalEntry e;
        synchronized (this) {
            checkOpen();
            e = entry.withId(nextId++);
            entries.put(e.id(), e);
            inFlight.add(e.id());
        }
        try {
            file.append(e);
        } catch (IOException ex) {
            synchronized (this) {
                entries.remove(e.id());
                inFlight.remove(e.id());
            }
            throw new SQLException("Cannot journal the INSERT into " + e.target() + " in " + dir + ", so it was not sent: " + ex,
                "58030", ex);
        }
        Consumer<JournalEntry> l = appendListener;
        if (l != null) {
            l.accept(e);
        }
        return e;
    }

    /** Marks {@code entry} done: acknowledged, or proved not written. */
    public void done(JournalEntry entry) throws SQLException {
        synchronized (this) {
            if (entries.remove(entry.id()) == null) {
                return;
            }
            inFlight.remove(entry.id());
            if (closed) {
                return;
            }
        }
        try {
            file.done(entry.id());
        } catch (IOException ex) {
            LOG.warn("Insert journal {}: cannot mark {} done ({}); it will be re-sent with its token at the next open", dir,
                entry.token(), ex.toString());
        }
    }

    /** Leaves {@code entry} pending with nobody executing it: a replay (now or at the next open) re-sends it. */
    public synchronized void release(JournalEntry entry) {
        inFlight.remove(entry.id());
    }

    /** Takes a pending entry for a re-send; false when it is done or someone is executing it. */
    synchronized boolean claim(JournalEntry entry) {
        return entries.containsKey(entry.id()) && inFlight.add(entry.id());
    }

    /** Called with every entry once it is durable, before its first attempt (for tests and diagnostics). */
    public void setAppendListener(Consumer<JournalEntry> listener) {
        this.appendListener = listener;
    }

    /**
     * Re-sends every pending entry through {@code connection} (a connection of this driver, possibly pooled), each with
     * its own token and settings; an entry the window no longer protects is handled as {@code stale} says.
     */
    public JournalReplay.Report replay(Connection connection, JournalSettings.Stale stale) throws SQLException {
        return JournalReplay.run(this, connection, stale, pending());
    }

    /** {@link #replay(Connection, JournalSettings.Stale)} refusing stale entries ({@code dedup.journalStale=fail}). */
    public JournalReplay.Report replay(Connection connection) throws SQLException {
        return replay(connection, JournalSettings.Stale.FAIL);
    }

    /**
     * The re-send a connection opened with {@code dedup.journalReplay=auto} does before it is handed out: only the
     * first one per open journal does it; others opened meanwhile wait for it. A failed re-send is tried again by the
     * next connection.
     */
    public void replayAtStartup(Connection connection, JournalSettings.Stale stale) throws SQLException {
        synchronized (startupLock) {
            if (startupReplayed) {
                return;
            }
            replay(connection, stale);
            startupReplayed = true;
        }
    }

    /** Opens a connection of the driver for a background re-send. */
    @FunctionalInterface
    public interface ConnectionSource {
        Connection open() throws SQLException;
    }

    /**
     * What {@code dedup.journalReplay=auto} does at a process's first connection: a daemon thread re-sends the pending
     * entries through connections of its own ({@code source}), again after each failed round with {@code policy}'s
     * backoff, until a round leaves nothing it could not re-send; an entry that proves stale ends it as
     * {@code dedup.journalStale} says (refused with an error in the log under {@code fail}). Only the first call per
     * open journal starts it. Failures are logged and counted ({@link JournalMetrics}).
     */
    public void replayInBackground(ConnectionSource source, JournalSettings.Stale stale, dev.chdedup.retry.RetryPolicy policy) {
        synchronized (startupLock) {
            if (startupReplayed || pending().isEmpty()) {
                startupReplayed = true;
                return;
            }
            startupReplayed = true;
        }
        Thread t = new Thread(() -> {
            for (int round = 1; !closed; round++) {
                try (Connection c = source.open()) {
                    JournalReplay.Report r = replay(c, stale);
                    LOG.info("Insert journal {}: background replay done in round {}: {}", dir, round, r);
                    return;
                } catch (SQLException e) {
                    if (JournalReplay.isStaleRefusal(e)) {
                        LOG.error("Insert journal {}: background replay stopped: {}", dir, e.getMessage());
                        return;
                    }
                    long wait = policy.baseBackoffMillis(Math.min(round, 30));
                    LOG.warn("Insert journal {}: background replay round {} failed, next in {} ms: {}", dir, round, wait, e.getMessage());
                    synchronized (startupLock) {
                        try {
                            startupLock.wait(Math.max(1, wait)); // the backoff between rounds; close() wakes it
                        } catch (InterruptedException ie) {
                            return;
                        }
                    }
                }
            }
        }, "dedup-journal-replay");
        t.setDaemon(true);
        t.start();
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("The insert journal " + dir + " is closed", "55000");
        }
    }

    /** Closes the journal for the whole process and releases the directory's lock; pending entries stay on disk. */
    @Override
    public void close() throws SQLException {
        synchronized (OPEN) {
            OPEN.remove(dir, this);
            synchronized (this) {
                if (closed) {
                    return;
                }
                closed = true;
            }
            synchronized (startupLock) {
                startupLock.notifyAll(); // a background replay waiting out its backoff ends
            }
            try {
                file.close();
                lock.release();
            } catch (IOException e) {
                throw new SQLException("Cannot close the insert journal " + dir + ": " + e, "58030", e);
            } finally {
                closeQuietly(lockChannel);
            }
        }
    }

    @Override
    public String toString() {
        return "DedupJournal[" + dir + "]";
    }
}
