package dev.chdedup.stub.mv;

import dev.chdedup.stub.sql.Query;

/** A plain view ({@code CREATE VIEW v AS SELECT ...}): reading it runs its SELECT; it stores nothing. */
public record PlainView(String database, String name, Query select, String createSql) {
}
