package dev.chdedup.stub.exec;

/** What the query engine needs of the database catalog: resolving a table name to something readable. */
public interface Catalog {
    /** The table, or throws UNKNOWN_TABLE / UNKNOWN_DATABASE. */
    TableSource table(String database, String table, QueryContext ctx);
}
