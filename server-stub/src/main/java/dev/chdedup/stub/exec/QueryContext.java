package dev.chdedup.stub.exec;

import java.time.Instant;

/**
 * What a query runs with: the current database, the user, its id, the settings in force and the instant
 * {@code now()} returns for the whole query.
 */
public final class QueryContext {
    private final String database;
    private final String user;
    private final String queryId;
    private final Settings settings;
    private final Instant now;

    public QueryContext(String database, String user, String queryId, Settings settings) {
        this.database = database;
        this.user = user;
        this.queryId = queryId;
        this.settings = settings;
        this.now = Instant.now();
    }

    public String database() {
        return database;
    }

    public String user() {
        return user;
    }

    public String queryId() {
        return queryId;
    }

    public Settings settings() {
        return settings;
    }

    public Instant now() {
        return now;
    }

    public QueryContext withSettings(Settings s) {
        return new QueryContext(database, user, queryId, s);
    }

    public QueryContext withDatabase(String db) {
        return new QueryContext(db, user, queryId, settings);
    }
}
