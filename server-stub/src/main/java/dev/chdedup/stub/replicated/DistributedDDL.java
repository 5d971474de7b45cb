package dev.chdedup.stub.replicated;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.BlockStreams;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.common.FileNames;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.zookeeper.CreateMode;

/**
 * The initiator's side of an {@code ON CLUSTER} query, after ClickHouse's {@code executeDDLQueryOnCluster} and
 * {@code DDLQueryStatusSource}: resolves the cluster (macros allowed; an unknown one is CLUSTER_DOESNT_EXIST), writes the
 * {@link DDLLogEntry} as {@code query-N} with its {@code active/} and {@code finished/} children, then streams one row
 * per host as it finishes (host, port, status, error, num_hosts_remaining, num_hosts_active) until every host is done
 * or {@code distributed_ddl_task_timeout} passes (TIMEOUT_EXCEEDED, 159). {@code distributed_ddl_output_mode}:
 * {@code throw} (a host's error or the timeout is an exception), {@code none} (the same, with no rows),
 * {@code null_status_on_timeout} (unfinished hosts get a row with NULL status), {@code never_throw}.
 */
public final class DistributedDDL {
    private static final long POLL_MS = 20;

    private DistributedDDL() {
    }

    /**
     * The host ids of the servers registered in {@code cluster}, shard by shard and by replica name within a shard
     * (names compared with their numbers as numbers: r2 before r10); CLUSTER_DOESNT_EXIST when none registered.
     */
    static List<String> hosts(ZooKeeperClient zk, String cluster) throws Exception {
        List<String> out = new ArrayList<>();
        for (String shard : naturalOrder(zk.children(DDLWorker.CLUSTERS + "/" + cluster))) {
            String shardPath = DDLWorker.CLUSTERS + "/" + cluster + "/" + shard;
            for (String r : naturalOrder(zk.children(shardPath))) {
                String id = zk.get(shardPath + "/" + r);
                if (id != null && !id.isEmpty() && !out.contains(id)) {
                    out.add(id);
                }
            }
        }
        if (out.isEmpty()) {
            throw new ChException(ErrorCode.CLUSTER_DOESNT_EXIST, "Requested cluster '" + cluster + "' not found");
        }
        return out;
    }

    /** Names sorted with their runs of digits compared as numbers (01 < 2 < 10, r2 < r10). */
    public static List<String> naturalOrder(List<String> names) {
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(DistributedDDL::compareNatural);
        return sorted;
    }

    private static int compareNatural(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int ei = i;
                int ej = j;
                while (ei < a.length() && Character.isDigit(a.charAt(ei))) {
                    ei++;
                }
                while (ej < b.length() && Character.isDigit(b.charAt(ej))) {
                    ej++;
                }
                int c = new java.math.BigInteger(a.substring(i, ei)).compareTo(new java.math.BigInteger(b.substring(j, ej)));
                if (c != 0) {
                    return c;
                }
                i = ei;
                j = ej;
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }

    public static QueryResult execute(DDLWorker worker, Statement.OnCluster oc, QueryContext ctx) {
        String mode = ctx.settings().get("distributed_ddl_output_mode");
        if (!List.of("throw", "none", "null_status_on_timeout", "never_throw").contains(mode)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unknown distributed_ddl_output_mode: '" + mode + "'");
        }
        long timeoutMs = 1000L * ctx.settings().getLong("distributed_ddl_task_timeout");
        worker.ensureRegistered();
        ZooKeeperClient zk = worker.context().zookeeper();
        String cluster = worker.context().substitute(oc.cluster(), ctx.database(), "");
        String path;
        List<String> hosts;
        try {
            hosts = worker.clusterHosts(cluster);
            DDLLogEntry entry = new DDLLogEntry(oc.entryQuery(ctx.database()), hosts, worker.hostId());
            path = zk.create(DDLWorker.QUEUE + "/query-", entry.toText(), CreateMode.PERSISTENT_SEQUENTIAL);
            zk.multi(List.of(zk.op().create().forPath(path + "/active"), zk.op().create().forPath(path + "/finished")));
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("enqueueing a distributed DDL query", e);
        }
        worker.wakeUp();
        boolean nullable = mode.equals("null_status_on_timeout");
        List<Column> cols = List.of(new Column("host", DataTypes.STRING), new Column("port", DataTypes.parse("UInt16")),
            new Column("status", nullable ? DataTypes.nullable(DataTypes.parse("Int64")) : DataTypes.parse("Int64")),
            new Column("error", nullable ? DataTypes.nullable(DataTypes.STRING) : DataTypes.STRING),
            new Column("num_hosts_remaining", DataTypes.parse("UInt64")), new Column("num_hosts_active", DataTypes.parse("UInt64")));
        List<Object[]> rows = new ArrayList<>();
        Set<String> done = new LinkedHashSet<>();
        ChException firstError = null;
        long deadline = System.currentTimeMillis() + timeoutMs;
        try {
            while (done.size() < hosts.size()) {
                ctx.checkCancelled();
                for (String h : zk.children(path + "/finished")) {
                    if (!hosts.contains(h) || !done.add(h)) {
                        continue;
                    }
                    String status = zk.get(path + "/finished/" + h);
                    int nl = status == null ? -1 : status.indexOf('\n');
                    long code = nl < 0 ? ErrorCode.UNKNOWN_EXCEPTION.code : Long.parseLong(status.substring(0, nl).trim());
                    String error = nl < 0 ? "" : ReplicatedMergeTreeMutationEntry.unescape(status.substring(nl + 1));
                    rows.add(row(h, code, error, hosts.size() - done.size(), zk.children(path + "/active").size()));
                    if (code != 0 && firstError == null) {
                        firstError = new ChException(ErrorCode.of((int) code), "There was an error on [" + hostPort(h) + "]: " + error);
                    }
                }
                if (done.size() == hosts.size()) {
                    break;
                }
                if (System.currentTimeMillis() >= deadline) {
                    int active = zk.children(path + "/active").size();
                    int unfinished = hosts.size() - done.size();
                    if (nullable) {
                        for (String h : hosts) {
                            if (!done.contains(h)) {
                                rows.add(row(h, null, null, unfinished, active));
                            }
                        }
                    } else if (!mode.equals("never_throw")) {
                        throw new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Watching task " + path + " is executing longer than"
                            + " distributed_ddl_task_timeout (=" + timeoutMs / 1000 + ") seconds. There are " + unfinished + " unfinished hosts ("
                            + active + " of them are currently executing the task), they are going to execute the query in background");
                    }
                    break;
                }
                Thread.sleep(POLL_MS);
            }
        } catch (ChException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ChException(ErrorCode.QUERY_WAS_CANCELLED, "Query was cancelled");
        } catch (Exception e) {
            throw StorageReplicatedMergeTree.zookeeperError("waiting for distributed DDL task " + path, e);
        }
        if (firstError != null && (mode.equals("throw") || mode.equals("none"))) {
            throw firstError;
        }
        if (mode.equals("none")) {
            return QueryResult.Done.NOTHING;
        }
        return new QueryResult.Rows(new SelectExecutor.Stream(cols, BlockStreams.chunk(cols, rows, 65536)), null);
    }

    private static Object[] row(String hostId, Long code, String error, long remaining, long active) {
        int colon = hostId.lastIndexOf(':');
        return new Object[] {FileNames.unescapeForFileName(hostId.substring(0, colon)), Long.parseLong(hostId.substring(colon + 1)), code, error,
            remaining, active};
    }

    private static String hostPort(String hostId) {
        int colon = hostId.lastIndexOf(':');
        return FileNames.unescapeForFileName(hostId.substring(0, colon)) + ":" + hostId.substring(colon + 1);
    }
}
