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
    public static final String TIMEZONE = dev.chdedup.stub.types.SessionTimeZone.serverName();
    public static final String DISPLAY_NAME = "chdedup-stub";

    private ServerInfo() {
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
