package dev.chdedup.stub.system;

import dev.chdedup.stub.exec.Catalog;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** What the system tables read from the database catalog, which implements it ({@code server.DatabaseCatalog}). */
public interface SystemCatalog extends Catalog {
    String SYSTEM = "system";

    Path root();

    boolean databaseExists(String name);

    List<String> databaseNames();

    /** Tables of a database by name, sorted. */
    Map<String, Object> tables(String db);
}
