package dev.chdedup.stub.exec;

/**
 * IntervalNanosecond ... IntervalYear as data types, as ClickHouse 26.7 has them: in CAST and a table's columns, read
 * from numbers and strings, added to dates, written as numbers in JSON (quoted as the 64-bit integers they are only
 * when asked), listed in system.data_type_families.
 */
class IntervalTypesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(INTERVAL 1 YEAR), INTERVAL 1 YEAR, toIntervalYear(2) FORMAT TSV", "IntervalYear\t1\t2"},
            {"SELECT CAST(3 AS IntervalYear) AS x, toTypeName(x) FORMAT TSV", "3\tIntervalYear"},
            {"SELECT CAST('5' AS IntervalDay), CAST(2.7 AS IntervalHour), CAST(-3 AS IntervalMonth) FORMAT TSV", "5\t2\t-3"},
            {"SELECT CAST('x' AS IntervalDay)", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT toIntervalDay(1) AS d, toIntervalSecond(-2) AS s FORMAT JSONEachRow", "{\"d\":1,\"s\":-2}"},
            {"SELECT toIntervalDay(1) FORMAT Values", "(1)"},
            {"SELECT toDate('2020-01-01') + CAST(2 AS IntervalDay) FORMAT TSV", "2020-01-03"},
            {"CREATE TABLE iv (k UInt8, y IntervalYear, s IntervalSecond) ENGINE = Memory", ""},
            {"INSERT INTO iv VALUES (1, 2, 30), (2, '3', -1)", ""},
            {"SELECT k, y, s, toTypeName(y), toDate('2020-02-29') + y FROM iv ORDER BY k FORMAT TSV", "1\t2\t30\tIntervalYear\t2022-02-28\n2\t3\t-1\tIntervalYear\t2023-02-28"},
            {"SELECT name FROM system.data_type_families WHERE name LIKE 'Interval%' ORDER BY name FORMAT TSV", "IntervalDay\nIntervalHour\nIntervalMicrosecond\nIntervalMillisecond\nIntervalMinute\nIntervalMonth\nIntervalNanosecond\nIntervalQuarter\nIntervalSecond\nIntervalWeek\nIntervalYear"}
        };
    }
}
