package dev.chdedup.stub.exec;

/**
 * Time zones as ClickHouse 26.7 loads them: the names of its tz database only (Java also reads offsets such as
 * {@code Z}, {@code +05:00} or {@code UTC+5}, which the engine refuses), the names Java's database lacks (EST, ROC,
 * Factory, ...), the fixed offsets {@code Fixed/UTC+HH:MM:SS} client-v2 sends for a zone it only knows by its offset,
 * in a column's type, a function's argument and {@code session_timezone}, and {@code system.time_zones}.
 */
class TimeZonesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toDateTime(1577836800, 'Fixed/UTC+05:30:00') AS x, toTypeName(x) FORMAT TSV", "2020-01-01 05:30:00\tDateTime(\\'Fixed/UTC+05:30:00\\')"},
            {"SELECT toDateTime(1577836800, 'Fixed/UTC-03:00:00') AS x, toTypeName(x), toUnixTimestamp(x) FORMAT TSV", "2019-12-31 21:00:00\tDateTime(\\'Fixed/UTC-03:00:00\\')\t1577836800"},
            {"SELECT toDateTime(1577836800, 'Fixed/UTC+05:60:00'), toDateTime(1577836800, 'Fixed/UTC+05:00:60'), toDateTime(1577836800, 'Fixed/UTC-00:00:00'), toDateTime(1577836800, 'Fixed/UTC+18:00:00') FORMAT TSV", "2020-01-01 06:00:00\t2020-01-01 05:01:00\t2020-01-01 00:00:00\t2020-01-01 18:00:00"},
            {"SELECT toDateTime64('2020-01-01 00:00:00.123', 3, 'Fixed/UTC+05:30:00') AS x, toUnixTimestamp(x), toString(toDateTime64(0, 3, 'Fixed/UTC-01:00:00')) FORMAT TSV", "2020-01-01 00:00:00.123\t1577817000\t1969-12-31 23:00:00.000"},
            {"SELECT toDateTime('2020-01-01 00:00:00', 'Fixed/UTC+05:30:00') AS x, toUnixTimestamp(x), toTimeZone(x, 'UTC'), toHour(x), toStartOfDay(x) FORMAT TSV", "2020-01-01 00:00:00\t1577817000\t2019-12-31 18:30:00\t0\t2020-01-01 00:00:00"},
            {"SELECT toDateTime(0) AS x, toTypeName(x), toHour(x) FORMAT TSV SETTINGS session_timezone = 'Fixed/UTC+05:30:00'", "1970-01-01 05:30:00\tDateTime\t5"},
            {"SELECT toDateTime(1577836800, 'EST'), toDateTime(1577836800, 'MST'), toDateTime(1577836800, 'HST'), toDateTime(1577836800, 'GMT+0'), toDateTime(1577836800, 'GMT-0'), toDateTime(1577836800, 'ROC'), toDateTime(1577836800, 'Factory') FORMAT TSV", "2019-12-31 19:00:00\t2019-12-31 17:00:00\t2019-12-31 14:00:00\t2020-01-01 00:00:00\t2020-01-01 00:00:00\t2020-01-01 08:00:00\t2020-01-01 00:00:00"},
            {"SELECT toDateTime(1577836800, 'Zulu'), toDateTime(1577836800, 'UCT'), toDateTime(1577836800, 'Etc/GMT+5'), toDateTime(1577836800, 'US/Eastern'), toDateTime(1577836800, 'EST5EDT'), toDateTime(1577836800, 'CET') FORMAT TSV", "2020-01-01 00:00:00\t2020-01-01 00:00:00\t2019-12-31 19:00:00\t2019-12-31 19:00:00\t2019-12-31 19:00:00\t2020-01-01 01:00:00"},
            {"SELECT toDateTime(1577836800, 'Fixed/UTC+25:00:00')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'Fixed/UTC+5:00:00')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'Fixed/UTC05:00:00')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'fixed/UTC+05:00:00')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'Fixed/UTC+05:30')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'Z')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, '+05:00')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'GMT+5')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'UTC+5')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'utc')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'SystemV/EST5')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDateTime(1577836800, 'PST')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toTimeZone(now(), 'Bad/Zone')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT now() SETTINGS session_timezone = 'Bad/Zone'", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT now() SETTINGS session_timezone = 'Z'", "Code: 36 BAD_ARGUMENTS"},
            {"CREATE TABLE tz_bad (d DateTime('Bad/Zone')) ENGINE = Memory", "Code: 36 BAD_ARGUMENTS"},
            {"CREATE TABLE tz_bad (d DateTime64(3, 'Fixed/UTC+5')) ENGINE = Memory", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT count(), countIf(time_zone LIKE 'Fixed%'), min(time_zone), max(time_zone) FROM system.time_zones FORMAT TSV", "597\t0\tAfrica/Abidjan\tZulu"},
            {"SELECT time_zone FROM system.time_zones WHERE time_zone IN ('EST', 'Europe/Berlin', 'SystemV/EST5', 'Factory') ORDER BY time_zone FORMAT TSV", "EST\nEurope/Berlin\nFactory"}
        };
    }
}
