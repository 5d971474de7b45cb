package dev.chdedup.stub.types;

import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The implicit time zone of the query running on this thread: {@code session_timezone} when set, else the server's
 * (UTC). DateTime and DateTime64 types that name no zone show, parse and split their values in it, as ClickHouse
 * applies {@code session_timezone} to them. Held per thread because a query runs, from parsing its input to
 * writing its result, on the thread that serves its request.
 */
public final class SessionTimeZone {
    private static final ThreadLocal<ZoneId> CURRENT = new ThreadLocal<>();

    private SessionTimeZone() {
    }

    /** The zone for types that name none. */
    public static ZoneId current() {
        ZoneId z = CURRENT.get();
        return z == null ? ZoneOffset.UTC : z;
    }

    static boolean isUtc() {
        ZoneId z = CURRENT.get();
        return z == null || z.equals(ZoneOffset.UTC) || "UTC".equals(z.getId());
    }

    /** The zone a {@code session_timezone} value names (empty: the server's), or BAD_ARGUMENTS. */
    public static ZoneId parse(String name) {
        if (name == null || name.isEmpty()) {
            return ZoneOffset.UTC;
        }
        return TimeZones.setting(name);
    }

    /** Makes {@code zone} this thread's implicit zone until the returned scope is closed. */
    public static Scope use(ZoneId zone) {
        ZoneId previous = CURRENT.get();
        CURRENT.set(zone);
        return () -> {
            if (previous == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(previous);
            }
        };
    }

    /** Restores the previous zone when closed. */
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
