package dev.chdedup.stub.exec;

import java.lang.management.ManagementFactory;

/** What the server says about itself: version, time zone, display name, uptime. */
public final class ServerInfo {
    /**
     * The ClickHouse release whose behaviour the stub follows: the engine it is checked against (chDB 3.4.0 embeds
     * 26.7.2.1, ../shared/oracle/), whose settings tables it recorded. What version(), system.build_options and error
     * texts say, unless the server plays an older release.
     */
    public static final String VERSION = "26.7.2.1";
    /** The commit of the release's tag and its protocol revision, as the engine's system.build_options lists them. */
    public static final String VERSION_GITHASH = "a6156303df65c307bdb8b66e9e9cc5637346a6b8";
    public static final long VERSION_REVISION = 54513;
    public static final String TIMEZONE = dev.chdedup.stub.types.SessionTimeZone.serverName();

    private ServerInfo() {
    }

    /** Holds the display name, looked up once: a host name lookup may ask DNS. */
    private static final class DisplayName {
        static final String VALUE = hostName();
    }

    /**
     * The name in every response's {@code X-ClickHouse-Server-Display-Name}: ClickHouse's {@code display_name}, whose
     * default is the host's name ({@code getFQDNOrHostName()}, what {@code hostName()} answers).
     */
    public static String displayName() {
        return DisplayName.VALUE;
    }

    public static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            return "localhost";
        }
    }

    public static long uptimeSeconds() {
        return ManagementFactory.getRuntimeMXBean().getUptime() / 1000;
    }
}
