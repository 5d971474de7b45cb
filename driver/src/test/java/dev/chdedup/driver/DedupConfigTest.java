package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.driver.journal.JournalSettings;
import dev.chdedup.retry.RetryPolicy;
import java.nio.file.Path;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Properties;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Connection properties: declared once in {@link DedupProperty}, validated once into a {@link DedupConfig}; an error names the property. */
class DedupConfigTest {

    private static Properties props(String... kv) {
        Properties p = new Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    @Test
    void defaults() throws SQLException {
        DedupConfig c = DedupConfig.from(new Properties());
        RetryPolicy p = c.policy();
        assertEquals(5, p.maxAttempts());
        assertEquals(Duration.ofMillis(100), p.initialBackoff());
        assertEquals(Duration.ofMillis(5000), p.maxBackoff());
        assertEquals(2.0, p.multiplier());
        assertEquals(0.2, p.jitter());
        assertEquals(Duration.ofMillis(120_000), p.maxElapsed());
        assertEquals("", c.tokenPrefix());
        assertTrue(c.enabled());
        assertFalse(c.retryWithoutLog());
        assertEquals(60_000, c.tableInfoTtlMillis());
        assertEquals(RetryPolicy.DEFAULT, p, "the driver's defaults are the retry module's");
    }

    @Test
    void everyPropertyIsRead() throws SQLException {
        DedupConfig c = DedupConfig.from(props(
            "retry.maxAttempts", " 7 ", "retry.initialBackoffMs", "10", "retry.maxBackoffMs", "20", "retry.backoffMultiplier", "1.5",
            "retry.jitter", "0", "retry.maxElapsedMs", "3000", "dedup.tokenPrefix", "app-1:", "dedup.mode", "OFF",
            "dedup.onTableWithoutLog", "Retry", "dedup.tableInfoTtlMs", "0"));
        assertEquals(new RetryPolicy(7, Duration.ofMillis(10), Duration.ofMillis(20), 1.5, 0, Duration.ofMillis(3000)), c.policy());
        assertEquals("app-1:", c.tokenPrefix());
        assertFalse(c.enabled());
        assertTrue(c.retryWithoutLog());
        assertEquals(0, c.tableInfoTtlMillis());
    }

    @Test
    void theJournalIsOffUnlessADirectoryIsGiven() throws SQLException {
        assertFalse(DedupConfig.from(new Properties()).journal().enabled());
        JournalSettings j = DedupConfig.from(props("dedup.journalDir", "/var/lib/app/journal", "dedup.journalReplay", "Manual",
            "dedup.journalStale", "SKIP")).journal();
        assertEquals(new JournalSettings(Path.of("/var/lib/app/journal"), JournalSettings.Replay.MANUAL, JournalSettings.Stale.SKIP), j);
        assertEquals(JournalSettings.Stale.FAIL, DedupConfig.from(props("dedup.journalDir", "j")).journal().stale());
        assertEquals(JournalSettings.Replay.AUTO, DedupConfig.from(props("dedup.journalDir", "j")).journal().replay());
        assertEquals(JournalSettings.Replay.BLOCKING, DedupConfig.from(props("dedup.journalDir", "j", "dedup.journalReplay", "blocking"))
            .journal().replay());
    }

    @Test
    void boundsAreInclusive() throws SQLException {
        assertEquals(1, DedupConfig.from(props("retry.maxAttempts", "1")).policy().maxAttempts());
        assertEquals(1000, DedupConfig.from(props("retry.maxAttempts", "1000")).policy().maxAttempts());
        assertEquals(0.99, DedupConfig.from(props("retry.jitter", "0.99")).policy().jitter());
        assertEquals(Duration.ZERO, DedupConfig.from(props("retry.initialBackoffMs", "0", "retry.maxBackoffMs", "0")).policy().maxBackoff());
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource(delimiter = '|', textBlock = """
        retry.maxAttempts       | 0
        retry.maxAttempts       | -1
        retry.maxAttempts       | 1001
        retry.maxAttempts       | five
        retry.maxAttempts       | 2.5
        retry.maxAttempts       | ''
        retry.initialBackoffMs  | -5
        retry.initialBackoffMs  | 1s
        retry.maxBackoffMs      | 3600001
        retry.backoffMultiplier | 0.5
        retry.backoffMultiplier | 101
        retry.backoffMultiplier | x
        retry.backoffMultiplier | NaN
        retry.backoffMultiplier | Infinity
        retry.jitter            | 1
        retry.jitter            | -0.1
        retry.jitter            | NaN
        retry.maxElapsedMs      | 0
        retry.maxElapsedMs      | 99999999999999999999
        dedup.mode              | always
        dedup.mode              | ''
        dedup.onTableWithoutLog | ignore
        dedup.tableInfoTtlMs    | -1
        dedup.tableInfoTtlMs    | 86400001
        dedup.journalReplay     | never
        dedup.journalStale      | ignore
        dedup.journalDir        | bad\u0000dir
        """)
    void aBadValueIsAnSqlExceptionNamingTheProperty(String key, String value) {
        SQLException e = assertThrows(SQLException.class, () -> DedupConfig.from(props(key, value)));
        assertTrue(e.getMessage().contains(key), e.getMessage());
        assertTrue(e.getMessage().contains(value.trim()), e.getMessage());
        assertEquals("HY024", e.getSQLState());
    }

    @Test
    void maxBackoffBelowInitialNamesBoth() {
        SQLException e = assertThrows(SQLException.class,
            () -> DedupConfig.from(props("retry.initialBackoffMs", "500", "retry.maxBackoffMs", "100")));
        assertTrue(e.getMessage().contains("retry.maxBackoffMs") && e.getMessage().contains("retry.initialBackoffMs"), e.getMessage());
    }

    @Test
    void choicesIgnoreCaseAndAreNormalized() throws SQLException {
        assertEquals("token", DedupProperty.MODE.choice(props("dedup.mode", "TOKEN"), "token", "off"));
        assertEquals("fail", DedupProperty.ON_TABLE_WITHOUT_LOG.choice(new Properties(), "fail", "retry"));
    }

    @Test
    void everyKeyIsUniqueAndFoundByKey() {
        Set<String> keys = new HashSet<>();
        for (DedupProperty p : DedupProperty.values()) {
            assertTrue(keys.add(p.key), p.key);
            assertSame(p, DedupProperty.byKey(p.key));
            assertFalse(p.description.isBlank(), p.key);
            assertNotNull(p.defaultValue, p.key);
        }
        assertNull(DedupProperty.byKey("socket_timeout"));
        assertNull(DedupProperty.byKey("retry.MAXATTEMPTS"));
    }

    @Test
    void theDriverDocsTableShowsEveryPropertyAsDeclared() throws java.io.IOException {
        String readme = java.nio.file.Files.readString(Path.of("..", "docs", "driver.md"));
        for (DedupProperty p : DedupProperty.values()) {
            String row = "| `" + p.key + "` | " + (p.defaultValue.isEmpty() ? "(empty)" : "`" + p.defaultValue + "`") + " | "
                + p.description + " |";
            assertTrue(readme.contains(row), "docs/driver.md lacks the row\n" + row);
        }
    }

    @Test
    void everyDefaultIsValid() throws SQLException {
        Properties p = new Properties();
        for (DedupProperty d : DedupProperty.values()) {
            p.setProperty(d.key, d.defaultValue);
        }
        assertEquals(DedupConfig.from(new Properties()), DedupConfig.from(p));
    }

    @Test
    void propertyInfoShowsTheValueDefaultAndChoices() {
        DriverPropertyInfo i = DedupProperty.MODE.info(props("dedup.mode", "off"));
        assertEquals("dedup.mode", i.name);
        assertEquals("off", i.value);
        assertFalse(i.required);
        assertTrue(i.description.contains("Default: token."), i.description);
        assertEquals(Set.of("token", "content", "strict", "off"), Set.of(i.choices));
        DriverPropertyInfo prefix = DedupProperty.TOKEN_PREFIX.info(new Properties());
        assertEquals("", prefix.value);
        assertTrue(prefix.description.contains("Default: (empty)."), prefix.description);
        assertEquals(Set.of("fail", "retry"), Set.of(DedupProperty.ON_TABLE_WITHOUT_LOG.info(new Properties()).choices));
    }

    @Test
    void dedupModeOffersContentAndStrict() throws SQLException {
        assertEquals(DedupConfig.Mode.CONTENT, DedupConfig.from(props("dedup.mode", "content")).mode());
        assertEquals(DedupConfig.Mode.STRICT, DedupConfig.from(props("dedup.mode", "Strict")).mode());
        assertTrue(DedupConfig.from(props("dedup.mode", "strict")).enabled());
        assertFalse(DedupConfig.from(props("dedup.mode", "off")).enabled());
        SQLException e = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class, () -> DedupConfig.from(props("dedup.mode", "hash")));
        assertTrue(e.getMessage().contains("dedup.mode") && e.getMessage().contains("strict"), e.getMessage());
    }
}
