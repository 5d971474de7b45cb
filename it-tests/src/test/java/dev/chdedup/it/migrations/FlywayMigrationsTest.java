package dev.chdedup.it.migrations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.it.StubServerExtension;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.ValidateResult;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link MigrationScenario} with Flyway and its ClickHouse plugin (flyway-database-clickhouse), configured as an
 * application configures it: the pool, {@code classpath:db/migration}, and a target version. Its history is
 * {@code flyway_schema_history}, which the plugin creates as a MergeTree in the connection's database.
 */
class FlywayMigrationsTest extends MigrationScenario {
    @RegisterExtension
    static final StubServerExtension STUB = StubServerExtension.create();

    private static final String[] SCRIPTS = {
        "V1__create_events_and_users.sql", "V2__events_amount.sql", "V3__evolve_columns.sql",
        "V4__customers_and_revenue.sql", "V5__customer_names_dictionary.sql"};

    @Override
    StubServerExtension stub() {
        return STUB;
    }

    private static Flyway flyway(DataSource ds, int version) {
        return Flyway.configure()
            .dataSource(ds)
            .locations("classpath:db/migration")
            .target(version == LATEST ? "latest" : String.valueOf(version))
            .load();
    }

    @Override
    int migrate(DataSource ds, int version) {
        return flyway(ds, version).migrate().migrationsExecuted;
    }

    @Override
    void assertHistory(DataSource ds, int version) throws Exception {
        List<String> expected = new ArrayList<>();
        for (int v = 1; v <= version; v++) {
            expected.add(v + "|" + v + "|SQL|" + SCRIPTS[v - 1] + "|ok");
        }
        assertEquals(expected, rows(ds, "SELECT installed_rank, version, type, script, if(success, 'ok', 'failed')"
            + " FROM flyway_schema_history ORDER BY installed_rank"));
        Flyway flyway = flyway(ds, version);
        assertEquals(String.valueOf(version), flyway.info().current().getVersion().getVersion(), "Flyway's current version");
        assertEquals(0, flyway.info().pending().length, "pending migrations up to version " + version);
        ValidateResult validated = flyway.validateWithResult();
        assertTrue(validated.validationSuccessful, () -> "validate: " + validated.getAllErrorMessages());
    }
}
