package dev.chdedup.stub.system;

import dev.chdedup.stub.distributed.DistributedAsyncInsertDirectoryQueue;
import dev.chdedup.stub.distributed.StorageDistributed;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.types.ByteStrings;
import java.util.List;

/**
 * {@code system.distribution_queue}, as ClickHouse's StorageSystemDistributionQueue: one row per directory of queued
 * files of each Distributed table (files and bytes waiting, broken ones, the errors of its sender). 18.16 has no such
 * table: the server playing it answers UNKNOWN_TABLE.
 */
public final class DistributionQueueTable implements SystemTables.Extra {
    private final SystemCatalog catalog;

    public DistributionQueueTable(SystemCatalog catalog) {
        this.catalog = catalog;
    }

    @Override
    public List<String> names() {
        return List.of("distribution_queue");
    }

    @Override
    public TableSource table(String name, QueryContext ctx) {
        if (StorageDistributed.isLegacy(ctx.compat())) {
            throw new ChException(ErrorCode.UNKNOWN_TABLE, "Table system.distribution_queue doesn't exist."); // 18.16's words
        }
        SystemTable out = SystemTable.of("distribution_queue");
        for (String db : catalog.databaseNames()) {
            if (!catalog.databaseExists(db) || SystemCatalog.SYSTEM.equals(db) || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Object o : catalog.tables(db).values()) {
                if (!(o instanceof StorageDistributed t)) {
                    continue;
                }
                for (DistributedAsyncInsertDirectoryQueue q : t.directoryQueues()) {
                    DistributedAsyncInsertDirectoryQueue.Status s = q.status();
                    out.add().set("database", ByteStrings.fromText(t.database())).set("table", ByteStrings.fromText(t.name()))
                        .set("data_path", ByteStrings.fromText(s.dataPath())).set("is_blocked", s.isBlocked()).set("error_count", s.errorCount())
                        .set("data_files", s.filesCount()).set("data_compressed_bytes", s.bytesCount())
                        .set("broken_data_files", s.brokenFilesCount()).set("broken_data_compressed_bytes", s.brokenBytesCount())
                        .set("last_exception", ByteStrings.fromText(s.lastException()))
                        .set("last_exception_time", s.lastExceptionTime() == null ? 0L : s.lastExceptionTime().getEpochSecond());
                }
            }
        }
        return out.source();
    }
}
