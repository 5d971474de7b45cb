package dev.chdedup.stub.types;

import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The implicit time zone of the query running on this thread: {@code session_timezone} when set, else the server's.
 * The server's zone is its {@code timezone} server setting: UTC unless the system property {@code chdedup.stub.timezone}
 * names another (a real server without the setting takes the machine's zone; a stub embedded in tests answers the same
 * on every machine unless told otherwise); a zone whose rules are a fixed offset of zero computes as
 * {@link ZoneOffset#UTC} while keeping its own name. DateTime and DateTime64 types that name no zone show, parse and split their values in it, as ClickHouse
 * applies {@code session_timezone} to them. Held per thread because a query runs, from parsing its input to
 * writing its result, on the thread that serves its request.
 */
public final class SessionTimeZone {
    private static final ThreadLocal<ZoneId> CURRENT = new ThreadLocal<>();
    private static final String SERVER_NAME = System.getProperty("chdedup.stub.timezone", "UTC");
    private static final ZoneId SERVER = serverZone(SERVER_NAME);

    private SessionTimeZone() {
    }

    private static ZoneId serverZone(String name) {
        ZoneId z = ZoneId.of(name);
        return z.getRules().isFixedOffset() && z.getRules().getOffset(java.time.Instant.EPOCH).getTotalSeconds() == 0
            ? ZoneOffset.UTC : z;
    }

    /** The server's zone name, as {@code serverTimezone()} answers it. */
    public static String serverName() {
        return SERVER_NAME;
    }

    /** The server's zone. */
    public static ZoneId server() {
        return SERVER;
    }

    /** The zone for types that name none. */
    public static ZoneId current() {
        ZoneId z = CURRENT.get();
        return z == null ? SERVER : z;
    }

    static boolean isUtc() {
        ZoneId z = current();
        return z.equals(ZoneOffset.UTC) || "UTC".equals(z.getId());
    }

    /** The zone a {@code session_timezone} value names (empty: the server's), or BAD_ARGUMENTS. */
    public static ZoneId parse(String name) {
        if (name == null || name.isEmpty()) {
            return SERVER;
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
