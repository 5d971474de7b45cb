package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The driver's URL handling: its own prefix only, our properties split off, the rest handed to the official driver unchanged. */
class DedupDriverTest {
    private final DedupDriver driver = new DedupDriver();

    @Test
    void acceptsOnlyItsOwnPrefix() {
        assertTrue(driver.acceptsURL("jdbc:dedup:clickhouse://localhost:8123/db"));
        assertTrue(driver.acceptsURL("jdbc:dedup:clickhouse:http://localhost:8123"));
        assertTrue(driver.acceptsURL("jdbc:dedup:ch://localhost"));
        assertFalse(driver.acceptsURL("jdbc:clickhouse://localhost:8123/db"));
        assertFalse(driver.acceptsURL("jdbc:ch://localhost"));
        assertFalse(driver.acceptsURL("jdbc:dedup:mysql://localhost"));
        assertFalse(driver.acceptsURL("jdbc:dedup:"));
        assertFalse(driver.acceptsURL("JDBC:DEDUP:CLICKHOUSE://localhost"));
        assertFalse(driver.acceptsURL(""));
        assertFalse(driver.acceptsURL(null));
    }

    @Test
    void connectReturnsNullForOtherUrls() throws SQLException {
        assertNull(driver.connect("jdbc:clickhouse://127.0.0.1:1/db", new Properties()));
        assertNull(driver.connect("jdbc:postgresql://127.0.0.1:1/db", null));
        assertNull(driver.connect(null, new Properties()));
    }

    @Test
    void isRegisteredOnceWithDriverManager() throws SQLException {
        DedupDriver.register();
        DedupDriver.register();
        long ours = Collections.list(DriverManager.getDrivers()).stream().filter(d -> d instanceof DedupDriver).count();
        assertEquals(1, ours);
        Driver found = DriverManager.getDriver("jdbc:dedup:clickhouse://localhost:8123/db");
        assertTrue(found instanceof DedupDriver, String.valueOf(found));
        assertFalse(DriverManager.getDriver("jdbc:clickhouse://localhost:8123/db") instanceof DedupDriver);
    }

    @Test
    void aBadPropertyFailsTheConnectBeforeAnyNetworkCall() {
        // port 1: nothing listens; the validation error must come first and name the property
        SQLException e = assertThrows(SQLException.class,
            () -> driver.connect("jdbc:dedup:clickhouse://127.0.0.1:1/db?retry.maxAttempts=0", new Properties()));
        assertTrue(e.getMessage().contains("retry.maxAttempts"), e.getMessage());
        Properties p = new Properties();
        p.setProperty("dedup.onTableWithoutLog", "sometimes");
        e = assertThrows(SQLException.class, () -> driver.connect("jdbc:dedup:clickhouse://127.0.0.1:1/db", p));
        assertTrue(e.getMessage().contains("dedup.onTableWithoutLog"), e.getMessage());
    }

    @Test
    void splitRemovesOurUrlParametersAndKeepsTheOthersVerbatim() {
        DedupDriver.Target t = DedupDriver.split(
            "jdbc:dedup:clickhouse://h:8123/db?retry.maxAttempts=7&socket_timeout=500&dedup.tokenPrefix=app%3A1&custom_settings=a%3D1&compress=0",
            new Properties());
        assertEquals("jdbc:clickhouse://h:8123/db?socket_timeout=500&custom_settings=a%3D1&compress=0", t.url());
        assertEquals(Map.of("retry.maxAttempts", "7", "dedup.tokenPrefix", "app:1"), asMap(t.ours()));
        assertTrue(t.delegateProps().isEmpty());
    }

    @Test
    void splitWithOnlyOurParametersDropsTheQuery() {
        assertEquals("jdbc:clickhouse://h:8123/db", DedupDriver.split("jdbc:dedup:clickhouse://h:8123/db?retry.jitter=0&dedup.mode=off", null).url());
        assertEquals("jdbc:clickhouse://h:8123/db", DedupDriver.split("jdbc:dedup:clickhouse://h:8123/db", null).url());
        assertEquals("jdbc:clickhouse://h:8123/db", DedupDriver.split("jdbc:dedup:clickhouse://h:8123/db?", null).url());
        assertEquals("jdbc:ch://h/db?ssl=true", DedupDriver.split("jdbc:dedup:ch://h/db?ssl=true", null).url());
    }

    @Test
    void splitMovesOurPropertiesOutOfTheInfo() {
        Properties info = new Properties();
        info.setProperty("user", "u");
        info.setProperty("password", "p");
        info.setProperty("retry.maxAttempts", "3");
        info.setProperty("dedup.onTableWithoutLog", "retry");
        info.setProperty("clickhouse_setting_insert_quorum", "2");
        DedupDriver.Target t = DedupDriver.split("jdbc:dedup:clickhouse://h:8123/db?retry.maxAttempts=9", info);
        assertEquals(Map.of("user", "u", "password", "p", "clickhouse_setting_insert_quorum", "2"), asMap(t.delegateProps()));
        // an explicit Properties value wins over the URL's
        assertEquals(Map.of("retry.maxAttempts", "3", "dedup.onTableWithoutLog", "retry"), asMap(t.ours()));
        assertEquals(5, info.size(), "the caller's Properties are not modified");
    }

    @Test
    void pinnedSettingsUseClickHouseDefaultsUnlessTheConnectionSetsThem() {
        Map<String, String> dflt = DedupDriver.pinnedSettings("jdbc:clickhouse://h/db", new Properties());
        assertEquals("1048576", dflt.get("max_insert_block_size"));
        assertEquals("1048576", dflt.get("min_insert_block_size_rows"));
        assertEquals("268435456", dflt.get("min_insert_block_size_bytes"));
        assertEquals("65409", dflt.get("max_block_size"));
        assertEquals("1", dflt.get("insert_deduplicate"));
        assertEquals("enable", dflt.get("deduplicate_insert"));
        // a 26.2+ server queues an insert by default (async_insert 1): the answer must come after the flush
        assertEquals("1", dflt.get("wait_for_async_insert"));

        Properties p = new Properties();
        p.setProperty("clickhouse_setting_min_insert_block_size_rows", "1000");
        p.setProperty("clickhouse_setting_async_insert", "1");
        p.setProperty("clickhouse_setting_wait_for_async_insert", "0");
        Map<String, String> own = DedupDriver.pinnedSettings("jdbc:clickhouse://h/db?clickhouse_setting_max_insert_block_size=5000", p);
        assertEquals("5000", own.get("max_insert_block_size"));
        assertEquals("1000", own.get("min_insert_block_size_rows"));
        assertEquals("1", own.get("wait_for_async_insert"));
    }

    @Test
    void propertyInfoListsEveryPropertyOfOurs() throws SQLException {
        Properties info = new Properties();
        info.setProperty("retry.maxAttempts", "9");
        DriverPropertyInfo[] all = driver.getPropertyInfo("jdbc:dedup:clickhouse://127.0.0.1:1/db?dedup.mode=off", info);
        Map<String, DriverPropertyInfo> byName = Arrays.stream(all).collect(Collectors.toMap(i -> i.name, i -> i, (a, b) -> a));
        for (DedupProperty p : DedupProperty.values()) {
            assertTrue(byName.containsKey(p.key), p.key);
        }
        assertEquals("9", byName.get("retry.maxAttempts").value);
        assertEquals("off", byName.get("dedup.mode").value);
        assertEquals("0.2", byName.get("retry.jitter").value);
        assertTrue(all.length > DedupProperty.values().length, "the official driver's properties follow ours");

        List<String> other = Arrays.stream(driver.getPropertyInfo("jdbc:mysql://x", null)).map(i -> i.name).collect(Collectors.toList());
        assertEquals(Arrays.stream(DedupProperty.values()).map(p -> p.key).collect(Collectors.toList()), other);
    }

    @Test
    void versionAndCompliance() {
        assertEquals(0, driver.getMajorVersion());
        assertEquals(1, driver.getMinorVersion());
        assertFalse(driver.jdbcCompliant());
    }

    private static Map<String, String> asMap(Properties p) {
        Set<String> names = p.stringPropertyNames();
        return names.stream().collect(Collectors.toMap(k -> k, p::getProperty));
    }
}
