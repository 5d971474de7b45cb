package dev.chdedup.stub.replicated;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.StorageCatalog;
import java.util.ArrayList;
import java.util.List;

/**
 * The SYSTEM statements of replication, which the server's SystemCommands hands on: {@code SYSTEM SYNC REPLICA t} (copies the log and waits
 * until this replica's queue has done what was in it, up to 300 s, as the default receive_timeout), and
 * {@code SYSTEM STOP|START FETCHES [t]}.
 */
public final class ReplicatedSystemCommands {
    /** How long SYNC REPLICA waits (ClickHouse waits up to receive_timeout, 300 s). */
    private static final long SYNC_TIMEOUT_MS = 300_000;

    private final StorageCatalog catalog;

    public ReplicatedSystemCommands(StorageCatalog catalog) {
        this.catalog = catalog;
    }

    /** Runs a SYSTEM statement of replication; null for any other action. */
    public QueryResult execute(Statement.SystemCmd cmd, QueryContext ctx) {
        switch (cmd.action()) {
            case "SYNC REPLICA": {
                StorageReplicatedMergeTree t = replicated(cmd, ctx);
                long deadline = System.currentTimeMillis() + SYNC_TIMEOUT_MS;
                try {
                    while (!t.queue().syncReplica(Math.max(1, deadline - System.currentTimeMillis()))) {
                        // an ALTER_METADATA entry opened the table again: its queue stopped, the new one goes on
                        StorageReplicatedMergeTree again = t;
                        while (t.queue().isClosed() && again == t && System.currentTimeMillis() < deadline) {
                            Thread.sleep(10);
                            again = replicated(cmd, ctx);
                        }
                        if (again == t) {
                            throw new ChException(ErrorCode.TIMEOUT_EXCEEDED, "SYNC REPLICA " + t.database() + "." + t.name()
                                + ": command timed out. See the 'receive_timeout' setting");
                        }
                        t = again;
                    }
                } catch (ChException e) {
                    throw e;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ChException(ErrorCode.ABORTED, "SYNC REPLICA interrupted");
                } catch (Exception e) {
                    throw StorageReplicatedMergeTree.zookeeperError("syncing the replica", e);
                }
                return QueryResult.Done.NOTHING;
            }
            case "STOP FETCHES":
            case "START FETCHES": {
                boolean stop = cmd.action().startsWith("STOP");
                List<StorageReplicatedMergeTree> targets = new ArrayList<>();
                if (cmd.table() != null) {
                    targets.add(replicated(cmd, ctx));
                } else {
                    for (String db : catalog.databaseNames()) {
                        if (catalog.databaseExists(db) && !StorageCatalog.SYSTEM.equals(db) && !db.equalsIgnoreCase("information_schema")) {
                            for (Object o : catalog.tables(db).values()) {
                                if (o instanceof StorageReplicatedMergeTree) {
                                    targets.add((StorageReplicatedMergeTree) o);
                                }
                            }
                        }
                    }
                }
                targets.forEach(t -> t.queue().stopFetches(stop));
                return QueryResult.Done.NOTHING;
            }
            default:
                return null;
        }
    }

    private StorageReplicatedMergeTree replicated(Statement.SystemCmd cmd, QueryContext ctx) {
        String db = cmd.database() != null ? cmd.database() : ctx.database();
        StorageMergeTree t = catalog.mergeTree(db, cmd.table());
        if (!(t instanceof StorageReplicatedMergeTree)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table " + db + "." + cmd.table() + " is not replicated");
        }
        return (StorageReplicatedMergeTree) t;
    }
}
