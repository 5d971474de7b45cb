package dev.chdedup.stub.server;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Settings;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * HTTP sessions ({@code session_id}): the settings {@code SET} changed, the database {@code USE} chose and the roles
 * {@code SET ROLE} chose, kept
 * until {@code session_timeout} seconds (default 60) pass unused. A session serves one query at a time; a
 * second concurrent query is {@code SESSION_IS_LOCKED}, as in ClickHouse.
 */
public final class Sessions {
    public static final int DEFAULT_TIMEOUT_SECONDS = 60;
    public static final int MAX_TIMEOUT_SECONDS = 3600;

    /** One session's state; fields are changed only by the query holding {@link #lock}. */
    public static final class Session {
        final String id;
        final String user;
        final ReentrantLock lock = new ReentrantLock();
        volatile Settings settings = Settings.DEFAULTS;
        volatile String database;
        volatile long expiresAt;
        volatile int timeoutSeconds;
        /** The current roles SET ROLE chose, or null for the user's default roles. */
        volatile java.util.List<String> currentRoles;
        /** CREATE TEMPORARY TABLE's tables, gone with the session. */
        final Map<String, dev.chdedup.stub.exec.TableSource> temporaryTables = new ConcurrentHashMap<>();

        Session(String id, String user, String database) {
            this.id = id;
            this.user = user;
            this.database = database;
        }
    }

    private final Map<String, Session> sessions = new ConcurrentHashMap<>();

    /** Finds or creates the session and locks it for one query; release with {@link #release}. */
    public Session acquire(String id, String user, String defaultDatabase, int timeoutSeconds, boolean check) {
        long now = System.currentTimeMillis();
        sessions.values().removeIf(s -> s.expiresAt < now && !s.lock.isLocked());
        Session s;
        if (check) {
            s = sessions.get(id);
            if (s == null) {
                throw new ChException(ErrorCode.SESSION_NOT_FOUND, "Session " + id + " not found");
            }
        } else {
            s = sessions.computeIfAbsent(id, k -> new Session(k, user, defaultDatabase));
        }
        if (!s.user.equals(user)) {
            throw new ChException(ErrorCode.SESSION_NOT_FOUND, "Session " + id + " belongs to another user");
        }
        if (!s.lock.tryLock()) {
            throw new ChException(ErrorCode.SESSION_IS_LOCKED, "Session " + id + " is locked by a concurrent client");
        }
        if (timeoutSeconds > MAX_TIMEOUT_SECONDS) {
            s.lock.unlock();
            throw new ChException(ErrorCode.INVALID_SESSION_TIMEOUT, "Session timeout " + timeoutSeconds + " is larger than " + MAX_TIMEOUT_SECONDS);
        }
        s.timeoutSeconds = timeoutSeconds;
        return s;
    }

    public void release(Session s) {
        s.expiresAt = System.currentTimeMillis() + s.timeoutSeconds * 1000L;
        s.lock.unlock();
    }
}
