package dev.chdedup.stub.server;

import dev.chdedup.stub.compat.CompatibilityProfile;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.distributed.Clusters;
import dev.chdedup.stub.distributed.Connection;
import dev.chdedup.stub.distributed.StorageDistributed;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What the server gives its Distributed tables: its clusters, the release it plays, and its own insert path for the
 * rows of a local shard (an INSERT of one Native block, with the query's context: its settings and token), as
 * ClickHouse's DistributedSink runs an InterpreterInsertQuery for a local replica. The insert path comes once the
 * server has built it ({@link #insertWith}): the catalog, which creates the tables, comes first.
 */
final class DistributedServer implements StorageDistributed.Server {
    private final Clusters clusters;
    private final CompatibilityProfile compat;
    private volatile InsertInterpreter inserts;
    private volatile dev.chdedup.stub.exec.Catalog local;

    DistributedServer(Clusters clusters, CompatibilityProfile compat) {
        this.clusters = clusters;
        this.compat = compat;
    }

    void insertWith(InsertInterpreter i) {
        this.inserts = i;
    }

    /** The server's catalog, once built: the tables a SELECT reads directly for a local shard. */
    void readWith(dev.chdedup.stub.exec.Catalog catalog) {
        this.local = catalog;
    }

    @Override
    public dev.chdedup.stub.exec.Catalog localTables() {
        return local;
    }

    @Override
    public Clusters clusters() {
        return clusters;
    }

    @Override
    public CompatibilityProfile compat() {
        return compat;
    }

    @Override
    public void insertLocal(String db, String table, List<Column> columns, List<Object[]> rows, QueryContext ctx) {
        StringBuilder q = new StringBuilder("INSERT INTO ").append(Connection.quote(db)).append('.').append(Connection.quote(table)).append(" (");
        for (int i = 0; i < columns.size(); i++) {
            q.append(i == 0 ? "" : ", ").append(Connection.quote(columns.get(i).name()));
        }
        q.append(") FORMAT Native");
        try {
            inserts.execute((Statement.Insert) Parser.parse(q.toString()), new ByteArrayInputStream(Connection.nativeBlock(columns, rows)), "Native", ctx);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
