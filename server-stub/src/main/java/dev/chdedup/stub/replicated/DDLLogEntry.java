package dev.chdedup.stub.replicated;

import java.util.ArrayList;
import java.util.List;

/**
 * One task of the distributed DDL queue, {@code /clickhouse/task_queue/ddl/query-NNNNNNNNNN}, after ClickHouse's
 * {@code DDLLogEntry} (format version 1): the query (escaped, on one line), the hosts that must run it as a quoted
 * list of host ids ({@code escapeForFileName(host):port}) and the initiator, for instance
 * {@code version: 1\nquery: CREATE TABLE `default`.t ON CLUSTER c (k UInt64) ...\nhosts: ['127%2E0%2E0%2E1:8123']\ninitiator: 127%2E0%2E0%2E1:8123\n}.
 * {@link #parse} reads what {@link #toText} writes.
 */
public record DDLLogEntry(String query, List<String> hosts, String initiator) {
    public DDLLogEntry {
        hosts = List.copyOf(hosts);
    }

    public String toText() {
        StringBuilder sb = new StringBuilder("version: 1\nquery: ").append(ReplicatedMergeTreeMutationEntry.escape(query)).append("\nhosts: [");
        for (int i = 0; i < hosts.size(); i++) {
            sb.append(i == 0 ? "" : ",").append('\'').append(hosts.get(i).replace("\\", "\\\\").replace("'", "\\'")).append('\'');
        }
        return sb.append("]\ninitiator: ").append(initiator).append('\n').toString();
    }

    public static DDLLogEntry parse(String text) {
        String[] l = text.split("\n", -1);
        if (l.length < 3 || !l[0].equals("version: 1")) {
            throw new IllegalArgumentException("Unknown DDLLogEntry format version: " + (l.length == 0 ? "" : l[0]));
        }
        if (!l[1].startsWith("query: ") || !l[2].startsWith("hosts: [") || !l[2].endsWith("]")) {
            throw new IllegalArgumentException("Not a DDLLogEntry: " + text);
        }
        List<String> hosts = new ArrayList<>();
        String list = l[2].substring("hosts: [".length(), l[2].length() - 1);
        StringBuilder cur = null;
        for (int i = 0; i < list.length(); i++) {
            char c = list.charAt(i);
            if (cur == null) {
                if (c == '\'') {
                    cur = new StringBuilder();
                }
            } else if (c == '\\' && i + 1 < list.length()) {
                cur.append(list.charAt(++i));
            } else if (c == '\'') {
                hosts.add(cur.toString());
                cur = null;
            } else {
                cur.append(c);
            }
        }
        String initiator = l.length > 3 && l[3].startsWith("initiator: ") ? l[3].substring("initiator: ".length()) : "";
        return new DDLLogEntry(ReplicatedMergeTreeMutationEntry.unescape(l[1].substring("query: ".length())), hosts, initiator);
    }
}
