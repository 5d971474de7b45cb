package dev.chdedup.stub.distributed;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;

/**
 * The address patterns of {@code remote()} and {@code remoteSecure()}, as ClickHouse's {@code parseRemoteDescription}
 * and {@code parseAddress} read them: {@code ,} separates shards and {@code |} the replicas of a shard; {@code {a,b}}
 * and {@code {a|b}} give alternatives, {@code {1..3}} a range ({@code {01..03}} keeps the leading zeroes when both
 * bounds have the same width); several braces give their product. Each address is {@code host}, {@code host:port} or
 * {@code [ipv6]:port}. Errors are the engine's BAD_ARGUMENTS.
 */
public final class RemoteDescription {
    /** A host and its port as an address names them: the host without IPv6's brackets. */
    public record HostPort(String host, int port) {
    }

    private RemoteDescription() {
    }

    /**
     * The shards of {@code description}, each its replicas' addresses, a port left out being {@code defaultPort}; at most
     * {@code maxAddresses} in a set ({@code table_function_remote_max_addresses}).
     */
    public static List<List<HostPort>> shards(String description, int defaultPort, long maxAddresses, String function) {
        List<List<HostPort>> out = new ArrayList<>();
        for (String shard : parse(description, 0, description.length(), ',', maxAddresses, function)) {
            List<HostPort> replicas = new ArrayList<>();
            for (String replica : parse(shard, 0, shard.length(), '|', maxAddresses, function)) {
                replicas.add(parseAddress(replica, defaultPort));
            }
            out.add(replicas);
        }
        if (out.isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Shard list is empty after parsing first argument");
        }
        return out;
    }

    /** The strings {@code d[l, r)} stands for, split at {@code separator} outside braces. */
    static List<String> parse(String d, int l, int r, char separator, long maxAddresses, String function) {
        List<String> res = new ArrayList<>();
        if (l >= r) {
            res.add(""); // an empty pattern is the set of one empty string
            return res;
        }
        List<String> cur = new ArrayList<>();
        for (int i = l; i < r; i++) {
            char ch = d.charAt(i);
            if (ch == '{') {
                int depth = 1;
                int lastDot = -1; // the second dot of the rightmost pair of dots
                boolean hasSeparator = false;
                int m;
                for (m = i + 1; m < r; m++) {
                    char c = d.charAt(m);
                    depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                    if (c == '.' && d.charAt(m - 1) == '.') {
                        lastDot = m;
                    }
                    hasSeparator |= c == separator;
                    if (depth == 0) {
                        break;
                    }
                }
                if (depth != 0) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table function '" + function + "': incorrect brace sequence in first argument");
                }
                List<String> alternatives;
                if (lastDot != -1) {
                    alternatives = range(d, i, lastDot, m, maxAddresses, function);
                } else if (hasSeparator) {
                    alternatives = parse(d, i + 1, m, separator, maxAddresses, function);
                } else {
                    alternatives = List.of(d.substring(i, m + 1)); // expanded when its own separator is split
                }
                cur = product(cur, alternatives, maxAddresses, function);
                i = m;
            } else if (ch == separator) {
                res.addAll(cur);
                cur = new ArrayList<>();
            } else {
                cur = product(cur, List.of(String.valueOf(ch)), maxAddresses, function);
            }
        }
        res.addAll(cur);
        if (res.size() > maxAddresses) {
            throw tooMany(function);
        }
        return res;
    }

    /** {@code {N..M}} at {@code d[open, close]}, its dots ending at {@code lastDot}. */
    private static List<String> range(String d, int open, int lastDot, int close, long maxAddresses, String function) {
        String braces = d.substring(open, close + 1);
        if (d.charAt(lastDot - 1) != '.') {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table function '" + function + "': incorrect argument in braces (only one dot): " + braces);
        }
        long left = number(d, open + 1, lastDot - 1);
        if (left < 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table function '" + function + "': incorrect argument in braces (Incorrect left number): " + braces);
        }
        long right = number(d, lastDot + 1, close);
        if (right < 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table function '" + function + "': incorrect argument in braces (Incorrect right number): " + braces);
        }
        if (left > right) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table function '" + function + "': incorrect argument in braces (left number is greater then right): "
                + braces);
        }
        if (right - left + 1 > maxAddresses) {
            throw tooMany(function);
        }
        int width = lastDot - 1 - (open + 1);
        boolean zeroes = width == close - (lastDot + 1); // bounds of one width keep their leading zeroes
        List<String> out = new ArrayList<>();
        for (long id = left; id <= right; id++) {
            String s = Long.toString(id);
            out.add(zeroes && s.length() < width ? "0".repeat(width - s.length()) + s : s);
        }
        return out;
    }

    /** The decimal number {@code d[l, r)} (0 when empty), or -1 when it is not one or passes 10^15. */
    private static long number(String d, int l, int r) {
        long v = 0;
        for (int i = l; i < r; i++) {
            char c = d.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
            if (v > 1_000_000_000_000_000L) {
                return -1;
            }
        }
        return v;
    }

    /** Every string of {@code to} followed by every string of {@code what}. */
    private static List<String> product(List<String> to, List<String> what, long maxAddresses, String function) {
        if (what.isEmpty()) {
            return to;
        }
        if (to.isEmpty()) {
            return new ArrayList<>(what);
        }
        if ((long) what.size() * to.size() > maxAddresses) {
            throw tooMany(function);
        }
        List<String> out = new ArrayList<>(to.size() * what.size());
        for (String a : to) {
            for (String b : what) {
                out.add(a + b);
            }
        }
        return out;
    }

    private static ChException tooMany(String function) {
        return new ChException(ErrorCode.BAD_ARGUMENTS, "Table function '" + function + "': first argument generates too many result addresses");
    }

    /** {@code host}, {@code host:port} or {@code [ipv6]:port}, as ClickHouse's {@code parseAddress}. */
    public static HostPort parseAddress(String s, int defaultPort) {
        if (s.isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Empty address passed to function parseAddress");
        }
        int port;
        if (s.charAt(0) == '[') {
            int close = s.indexOf(']', 1);
            if (close < 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Illegal address passed to function parseAddress: the address begins with opening square"
                    + " bracket, but no closing square bracket found");
            }
            port = close + 1;
        } else {
            port = s.indexOf(':');
            port = port < 0 ? s.length() : port;
        }
        if (port == s.length()) {
            return new HostPort(unbracketed(s), defaultPort);
        }
        if (s.charAt(port) != ':') {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Illegal port prefix passed to function parseAddress: " + s.substring(port));
        }
        String digits = s.substring(port + 1);
        int p = -1;
        if (!digits.isEmpty() && digits.length() <= 5 && digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            p = Integer.parseInt(digits);
        }
        if (p < 0 || p > 65535) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Illegal port passed to function parseAddress: " + digits);
        }
        return new HostPort(unbracketed(s.substring(0, port)), p);
    }

    private static String unbracketed(String host) {
        return host.length() > 1 && host.charAt(0) == '[' && host.charAt(host.length() - 1) == ']' ? host.substring(1, host.length() - 1) : host;
    }
}
