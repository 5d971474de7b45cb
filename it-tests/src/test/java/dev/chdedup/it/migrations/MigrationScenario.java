package dev.chdedup.it.migrations;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.chdedup.it.StubServerExtension;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A shop's analytics schema taken from version to version by a migration tool, as an application runs it: over a
 * HikariCP pool of our driver ({@code jdbc:dedup:clickhouse://}) against the stub, with the application's rows
 * written between versions. A subclass says how its tool migrates to a version and what its history table holds;
 * the checks here are what ClickHouse answers after each version: rows written before a version read its new columns
 * (the DEFAULT, the MATERIALIZED expression, the converted type, the new name), and DESCRIBE, system.columns and
 * system.tables show the latest schema.
 *
 * <p>Versions (db/migration for Flyway, db/changelog for Liquibase, the same statements): 1 creates {@code events}
 * (MergeTree, PARTITION BY toYYYYMM(ts)) and {@code users} (ReplacingMergeTree(updated_at)); 2 adds
 * {@code events.amount Decimal(18, 2) DEFAULT 0 AFTER kind}; 3 adds {@code day Date MATERIALIZED toDate(ts)} (and
 * {@code amount} again, IF NOT EXISTS), widens {@code users.visits} to UInt64, renames {@code events.payload} to
 * {@code details}, drops {@code users.email} and comments on {@code amount} and {@code events}; 4 renames
 * {@code users} to {@code customers} and creates the view {@code revenue_by_month}; 5 creates the dictionary
 * {@code customer_names} (HASHED, from {@code customers}) and the view {@code revenue_by_customer}, which calls dictGet.
 */
// a tool that loops on a JDBC answer never returns: the separate thread lets the test fail all the same
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
abstract class MigrationScenario {
    static final int LATEST = 5;

    /** The stub of the subclass, one per test class. */
    abstract StubServerExtension stub();

    /** Runs the tool on the pool's database up to {@code version} ({@link #LATEST}: all); returns how many it applied. */
    abstract int migrate(DataSource ds, int version) throws Exception;

    /** Checks that the tool's own history says versions 1 to {@code version} are applied, and nothing more. */
    abstract void assertHistory(DataSource ds, int version) throws Exception;

    /** What the tool needs of the pool beyond the URL; nothing unless a subclass says. */
    void configure(HikariConfig config) {
    }

    @Test
    void firstVersionCreatesTheTablesAndIsAppliedOnce() throws Exception {
        try (HikariDataSource ds = pool("shop_v1")) {
            assertEquals(1, migrate(ds, 1), "migrations applied up to version 1");
            assertHistory(ds, 1);
            assertEquals(0, migrate(ds, 1), "migrations applied by a second run up to version 1");
            assertEquals(List.of(
                    "events|MergeTree|toYYYYMM(ts)|kind, ts, id",
                    "users|ReplacingMergeTree||user_id"),
                rows(ds, "SELECT name, engine, partition_key, sorting_key FROM system.tables"
                    + " WHERE database = currentDatabase() AND name IN ('events', 'users') ORDER BY name"));
            assertEquals(List.of(
                    "id|UInt64|||",
                    "ts|DateTime('UTC')|||",
                    "user_id|UInt32|||",
                    "kind|LowCardinality(String)|||",
                    "payload|String|||"),
                describe(ds, "events"));
        }
    }

    @Test
    void rowsWrittenBetweenVersionsReadAsTheLatestSchema() throws Exception {
        try (HikariDataSource ds = pool("shop")) {
            assertEquals(1, migrate(ds, 1), "migrations applied up to version 1");
            execute(ds, "INSERT INTO events (id, ts, user_id, kind, payload) VALUES"
                + " (1, '2026-01-15 10:00:00', 1, 'page_view', '/home'),"
                + " (2, '2026-01-20 09:30:00', 2, 'click', 'buy-button'),"
                + " (3, '2026-02-01 18:45:00', 1, 'page_view', '/cart')");
            execute(ds, "INSERT INTO users VALUES (1, 'alice', 'alice@example.com', 3, '2026-01-15 10:00:00'),"
                + " (2, 'bob', 'bob@example.com', 1, '2026-01-20 09:30:00')");

            assertEquals(1, migrate(ds, 2), "migrations applied from version 1 to 2");
            assertEquals(List.of("1|0.00", "2|0.00", "3|0.00"), rows(ds, "SELECT id, amount FROM events ORDER BY id"),
                "rows of version 1 read the DEFAULT of amount");
            execute(ds, "INSERT INTO events (id, ts, user_id, kind, amount, payload) VALUES"
                + " (4, '2026-02-02 12:00:00', 1, 'purchase', 12.50, 'order-17'),"
                + " (5, '2026-02-10 16:20:00', 2, 'purchase', 7.25, 'order-18')");
            execute(ds, "INSERT INTO users VALUES (1, 'alice', 'alice@example.com', 4, '2026-02-02 12:00:00')");

            assertEquals(1, migrate(ds, 3), "migrations applied from version 2 to 3");
            execute(ds, "INSERT INTO events (id, ts, user_id, kind, amount, details) VALUES"
                + " (6, '2026-03-01 08:15:00', 3, 'purchase', 30, 'order-19')");
            execute(ds, "INSERT INTO users (user_id, name, visits, updated_at) VALUES (3, 'carol', 5000000000, '2026-03-01 08:15:00')");

            assertEquals(1, migrate(ds, 4), "migrations applied from version 3 to 4");
            assertEquals(1, migrate(ds, LATEST), "migrations applied from version 4 to 5");
            assertHistory(ds, LATEST);
            assertEquals(0, migrate(ds, LATEST), "migrations applied by a second run of all");

            assertEquals(List.of(
                    "1|page_view|0.00|/home|2026-01-15",
                    "2|click|0.00|buy-button|2026-01-20",
                    "3|page_view|0.00|/cart|2026-02-01",
                    "4|purchase|12.50|order-17|2026-02-02",
                    "5|purchase|7.25|order-18|2026-02-10",
                    "6|purchase|30.00|order-19|2026-03-01"),
                rows(ds, "SELECT id, kind, amount, details, toString(day) FROM events ORDER BY id"));
            assertEquals(List.of("202601|2", "202602|3", "202603|1"),
                rows(ds, "SELECT partition, sum(rows) FROM system.parts WHERE database = currentDatabase()"
                    + " AND table = 'events' AND active GROUP BY partition ORDER BY partition"));
            assertEquals(List.of("1|alice|4", "2|bob|1", "3|carol|5000000000"),
                rows(ds, "SELECT user_id, name, visits FROM customers FINAL ORDER BY user_id"),
                "the latest row of each user, visits widened to UInt64");
            assertEquals(List.of("2026-01-01|0|0.00", "2026-02-01|2|19.75", "2026-03-01|1|30.00"),
                rows(ds, "SELECT toString(month), purchases, revenue FROM revenue_by_month ORDER BY month"));

            assertEquals(List.of(
                    "id|UInt64|||",
                    "ts|DateTime('UTC')|||",
                    "user_id|UInt32|||",
                    "kind|LowCardinality(String)|||",
                    "amount|Decimal(18, 2)|DEFAULT|0|order total in EUR",
                    "details|String|||",
                    "day|Date|MATERIALIZED|toDate(ts)|"),
                describe(ds, "events"));
            assertEquals(List.of(
                    "user_id|UInt32||1|1",
                    "name|String||0|2",
                    "visits|UInt64||0|3",
                    "updated_at|DateTime('UTC')||0|4"),
                rows(ds, "SELECT name, type, default_kind, is_in_sorting_key, position FROM system.columns"
                    + " WHERE database = currentDatabase() AND table = 'customers' ORDER BY position"));
            assertEquals(List.of(
                    "customer_names|Dictionary|",
                    "customers|ReplacingMergeTree|",
                    "events|MergeTree|user activity, one row per event",
                    "revenue_by_customer|View|",
                    "revenue_by_month|View|"),
                rows(ds, "SELECT name, engine, comment FROM system.tables WHERE database = currentDatabase()"
                    + " AND name IN ('events', 'users', 'customers', 'revenue_by_month', 'customer_names', 'revenue_by_customer')"
                    + " ORDER BY name"));
            assertEquals(List.of("1|alice|12.50", "2|bob|7.25", "3|carol|30.00"),
                rows(ds, "SELECT user_id, name, revenue FROM revenue_by_customer ORDER BY user_id"),
                "the view reads each customer's name from the dictionary");
            assertEquals(List.of("customer_names|LOADED|Hashed|3"),
                rows(ds, "SELECT name, status, type, element_count FROM system.dictionaries WHERE database = currentDatabase()"));
            assertEquals(List.of("unknown|1"),
                rows(ds, "SELECT dictGet('customer_names', 'name', 9), dictHas('customer_names', 3)"),
                "an id the dictionary lacks reads as the attribute's DEFAULT");
        }
    }

    /** A pool of our driver on {@code database}, which it creates first; the caller closes it. */
    HikariDataSource pool(String database) {
        stub().scalar("CREATE DATABASE " + database);
        HikariConfig config = new HikariConfig();
        config.setPoolName("migrations-" + database);
        config.setJdbcUrl("jdbc:dedup:" + stub().server().jdbcUrl(database).substring("jdbc:".length()));
        config.setMaximumPoolSize(3);
        config.setMinimumIdle(0);
        configure(config);
        return new HikariDataSource(config);
    }

    static void execute(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** DESCRIBE's name, type, default_type, default_expression and comment, one line per column. */
    static List<String> describe(DataSource ds, String table) throws SQLException {
        List<String> lines = new ArrayList<>();
        for (String row : rows(ds, "DESCRIBE TABLE " + table)) {
            String[] f = row.split("\\|", -1);
            lines.add(String.join("|", f[0], f[1], f[2], f[3], f[4]));
        }
        return lines;
    }

    /** The rows of a query, columns joined by {@code |}; a Decimal is written with its scale. */
    static List<String> rows(DataSource ds, String sql) throws SQLException {
        try (Connection c = ds.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            List<String> rows = new ArrayList<>();
            while (rs.next()) {
                StringJoiner row = new StringJoiner("|");
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    row.add(v instanceof BigDecimal d ? d.toPlainString() : rs.getString(i));
                }
                rows.add(row.toString());
            }
            return rows;
        }
    }
}
