package dev.chdedup.stub.exec;

import java.lang.management.ManagementFactory;

/** What the server says about itself: version, time zone, display name, uptime. */
public final class ServerInfo {
    /** The ClickHouse version whose behaviour the stub follows (deduplication settings of 26.2). */
    public static final String VERSION = "26.2.1.1";
    public static final String TIMEZONE = "UTC";
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
