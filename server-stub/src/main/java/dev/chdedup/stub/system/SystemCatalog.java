package dev.chdedup.stub.system;

import dev.chdedup.stub.storages.StorageCatalog;
import java.nio.file.Path;

/** What the system tables read from the database catalog, which implements it ({@code server.DatabaseCatalog}). */
public interface SystemCatalog extends StorageCatalog {
    /** The server's data directory (the paths system.databases shows). */
    Path root();
}
