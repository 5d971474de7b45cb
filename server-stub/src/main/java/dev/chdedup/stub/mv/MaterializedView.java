package dev.chdedup.stub.mv;

import dev.chdedup.stub.sql.Query;

/**
 * A materialized view: its SELECT over one source table, and the table its output goes to, either a table
 * named with TO or its implicit inner table ({@code .inner.<view>}). Mirrors ClickHouse's
 * {@code StorageMaterializedView}.
 */
public record MaterializedView(String database, String name, String sourceDatabase, String sourceTable, Query select,
                               String selectSql, String targetDatabase, String targetTable, boolean hasInnerTable,
                               String createSql) {
    public String id() {
        return database + "." + name;
    }
}
