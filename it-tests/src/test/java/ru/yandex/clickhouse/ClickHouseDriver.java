package ru.yandex.clickhouse;

/**
 * Stands in for the legacy ClickHouse JDBC driver's class, which liquibase-clickhouse 0.7.2's ClickHouseDatabase
 * names when it is loaded (as Liquibase's default driver for {@code jdbc:clickhouse} URLs). The real class comes
 * with ru.yandex.clickhouse:clickhouse-jdbc, a second driver for {@code jdbc:clickhouse:} URLs that the pom leaves
 * out so that DriverManager only finds the official one. The migration tests hand Liquibase a connection, so
 * nothing uses this class beyond its name.
 */
public final class ClickHouseDriver {
    private ClickHouseDriver() {
    }
}
