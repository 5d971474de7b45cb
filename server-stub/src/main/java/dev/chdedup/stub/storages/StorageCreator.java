package dev.chdedup.stub.storages;

import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Creates the tables of one engine that a layer above this one implements (Distributed), as ClickHouse's {@code
 * StorageFactory::CreatorFn} registered for the engine: from the CREATE TABLE statement (its database given), the table's data
 * directory and the statement's text. {@code attach} is true when the server loads the table at its start rather than
 * a query creating it: the engine's sanity checks that need the rest of the server (the cluster exists) are skipped then.
 */
@FunctionalInterface
public interface StorageCreator {
    Storage create(String database, Statement.CreateTable ct, Path dataDir, String createSql, boolean attach) throws IOException;
}
