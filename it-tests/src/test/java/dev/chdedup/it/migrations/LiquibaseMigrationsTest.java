package dev.chdedup.it.migrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.zaxxer.hikari.HikariConfig;
import dev.chdedup.it.StubServerExtension;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.sql.DataSource;
import liquibase.Contexts;
import liquibase.LabelExpression;
import liquibase.Liquibase;
import liquibase.database.Database;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MigrationScenario} with Liquibase and the liquibase-clickhouse extension, run as Spring's SpringLiquibase
 * runs it: a connection of the pool, the database implementation Liquibase finds for it (the extension's, which
 * creates DATABASECHANGELOG and DATABASECHANGELOGLOCK as MergeTree tables and takes the lock with ALTER TABLE
 * ... UPDATE), and {@code update} with a label filter: version n is the changesets labelled v1 to vn of
 * db/changelog/shop.changelog.sql.
 */
class LiquibaseMigrationsTest extends MigrationScenario {
    static {
        // no call home for usage analytics: the tests reach nothing but the stub
        System.setProperty("liquibase.analytics.enabled", "false");
        // the test's database is its own: a lock not taken at once is a failure, not another run to wait for
        System.setProperty("liquibase.changelogLockWaitTimeInMinutes", "0");
        System.setProperty("liquibase.changelogLockPollRate", "1");
    }

    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static final String CHANGELOG = "db/changelog/shop.changelog.sql";
    private static final String[] CHANGESETS = {
        "1-create-events-and-users", "2-events-amount", "3-evolve-columns", "4-customers-and-revenue",
        "5-customer-names-dictionary"};

    @Override
    StubServerExtension stub() {
        return STUB;
    }

    /**
     * Liquibase's JdbcExecutor reads every result of a statement it executes, asking getUpdateCount() and
     * getMoreResults() until they answer -1 and false, as JDBC says; a driver that answers an INSERT's count again
     * after getMoreResults() keeps it looping for ever (its lock table's first row is such an INSERT). Checked first,
     * so that the tests fail instead of running into their timeout.
     */
    @BeforeAll
    static void statementsSayWhenTheirResultsEnd() throws SQLException {
        STUB.scalar("CREATE TABLE results_end (x UInt8) ENGINE = MergeTree ORDER BY x");
        String url = "jdbc:dedup:" + STUB.jdbcUrl().substring("jdbc:".length());
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            assertFalse(st.execute("INSERT INTO results_end VALUES (1)"), "execute of an INSERT: no result set");
            assertEquals(1, st.getUpdateCount(), "the INSERT's update count");
            assertFalse(st.getMoreResults(), "getMoreResults after the INSERT's count");
            assertEquals(-1, st.getUpdateCount(), "getUpdateCount after getMoreResults: -1, no more results");
        }
    }

    /**
     * The extension leaves Liquibase's transactional mode on: Liquibase calls setAutoCommit(false), which the official
     * driver refuses with SQLSTATE 0A000 unless told to ignore it, and HikariCP closes a connection that answers 0A000.
     */
    @Override
    void configure(HikariConfig config) {
        config.addDataSourceProperty("jdbc_ignore_unsupported_values", "true");
    }

    /** A Liquibase on one connection of the pool, which closing it gives back. */
    private static Liquibase liquibase(DataSource ds) throws Exception {
        Connection connection = ds.getConnection();
        Database database = DatabaseFactory.getInstance().findCorrectDatabaseImplementation(new JdbcConnection(connection));
        assertEquals("clickhouse", database.getShortName(), "the Liquibase database found for our driver's connection");
        // as spring.liquibase.default-schema does: the extension names its tables' database by the connection's
        // catalog, which the official driver leaves null (it reports the database as the schema)
        database.setDefaultSchemaName(connection.getSchema());
        return new Liquibase(CHANGELOG, new ClassLoaderResourceAccessor(), database);
    }

    private static LabelExpression upTo(int version) {
        return new LabelExpression(IntStream.rangeClosed(1, version).mapToObj(v -> "v" + v).collect(Collectors.joining(", ")));
    }

    @Override
    int migrate(DataSource ds, int version) throws Exception {
        try (Liquibase liquibase = liquibase(ds)) {
            int pending = liquibase.listUnrunChangeSets(new Contexts(), upTo(version)).size();
            liquibase.update(new Contexts(), upTo(version));
            return pending;
        }
    }

    @Override
    void assertHistory(DataSource ds, int version) throws Exception {
        List<String> expected = new ArrayList<>();
        for (int v = 1; v <= version; v++) {
            expected.add(CHANGESETS[v - 1] + "|shop|" + CHANGELOG + "|EXECUTED|v" + v);
        }
        assertEquals(expected, rows(ds, "SELECT ID, AUTHOR, FILENAME, EXECTYPE, LABELS FROM DATABASECHANGELOG ORDER BY ORDEREXECUTED"));
        assertEquals(List.of("1|0"), rows(ds, "SELECT ID, LOCKED FROM DATABASECHANGELOGLOCK"), "the lock is released");
        try (Liquibase liquibase = liquibase(ds)) {
            assertEquals(List.of(), liquibase.listUnrunChangeSets(new Contexts(), upTo(version)), "changesets not run");
        }
    }
}
