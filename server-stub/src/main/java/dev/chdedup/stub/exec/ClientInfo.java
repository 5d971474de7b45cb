package dev.chdedup.stub.exec;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * Who sent a query and how, as {@code system.query_log} and {@code system.processes} show it: the interface (2 for
 * HTTP), the HTTP method's code, the client's address and port, the User-Agent, Referer and X-Forwarded-For headers,
 * the quota key, and the query's current database, {@code log_comment} and changed settings. Over HTTP ClickHouse
 * knows no client name or version (those come with the native protocol's hello), so they stay empty and 0. Mirrors
 * ClickHouse's ClientInfo, with what QueryLogElement takes from the query's context beside it.
 */
public record ClientInfo(int interfaceKind, int httpMethod, InetSocketAddress address, String httpUserAgent,
                         String httpReferer, String forwardedFor, String quotaKey, String currentDatabase,
                         String logComment, Map<String, String> settings) {
    /** ClickHouse's ClientInfo::Interface::HTTP. */
    public static final int HTTP = 2;

    /** A query with no client known (run inside the server). */
    public static final ClientInfo NONE = new ClientInfo(0, 0, null, "", "", "", "", "", "", Map.of());

    /** ClickHouse's ClientInfo::HTTPMethod code of an HTTP method: GET 1, POST 2, PUT 4, DELETE 5, HEAD 6, other 0. */
    public static int httpMethodCode(String method) {
        switch (method) {
            case "GET": return 1;
            case "POST": return 2;
            case "PUT": return 4;
            case "DELETE": return 5;
            case "HEAD": return 6;
            default: return 0;
        }
    }

    /** The client's address as an IPv6 value (16 bytes, an IPv4 address mapped), all zeros when unknown. */
    public String addressBytes() {
        byte[] b = new byte[16];
        InetAddress a = address == null ? null : address.getAddress();
        if (a != null) {
            byte[] raw = a.getAddress();
            if (raw.length == 4) {
                b[10] = (byte) 0xFF;
                b[11] = (byte) 0xFF;
                System.arraycopy(raw, 0, b, 12, 4);
            } else {
                System.arraycopy(raw, 0, b, 0, 16);
            }
        }
        return dev.chdedup.stub.types.ByteStrings.of(b);
    }

    /** The client's port, 0 when unknown. */
    public long port() {
        return address == null ? 0 : address.getPort();
    }
}
