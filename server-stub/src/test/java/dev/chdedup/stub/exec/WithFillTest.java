package dev.chdedup.stub.exec;

/**
 * ORDER BY ... WITH FILL stepping by an Interval value as by the INTERVAL literal of the same unit. The answers are
 * ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle).
 */
class WithFillTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"SELECT d FROM (SELECT toDateTime('2025-01-01 00:00:00') AS d) ORDER BY d WITH FILL TO toDateTime('2025-01-04 00:00:00') STEP toIntervalDay(1)",
                "2025-01-01 00:00:00\n2025-01-02 00:00:00\n2025-01-03 00:00:00"},
            {"SELECT count() FROM (SELECT toDateTime(1736035200) + number * 86400 AS ts1 FROM numbers(3) ORDER BY ts1 ASC WITH FILL FROM "
                + "toDateTime(1736035200) TO toDateTime(1751587199) STEP toIntervalDay(1))", "180"},
            {"SELECT d FROM (SELECT toDate('2025-01-01') AS d) ORDER BY d WITH FILL TO toDate('2025-01-20') STEP toIntervalWeek(1)",
                "2025-01-01\n2025-01-08\n2025-01-15"},
            {"SELECT d FROM (SELECT toDateTime64('2025-01-01 00:00:00', 3) AS d) ORDER BY d WITH FILL TO toDateTime64('2025-01-01 03:00:00', 3) "
                + "STEP toIntervalHour(1)", "2025-01-01 00:00:00.000\n2025-01-01 01:00:00.000\n2025-01-01 02:00:00.000"},
        };
    }
}
