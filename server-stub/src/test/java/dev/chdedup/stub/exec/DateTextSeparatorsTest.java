package dev.chdedup.stub.exec;

/**
 * Dates and times written with other separators between the date's parts ({@code 2026.12.06}, {@code 2026/12/06},
 * {@code 2026_12_06}), which ClickHouse reads as it reads dashes: in conversions, CAST and inserted values. Liquibase
 * writes its timestamps so ({@code toDateTime64('2026.12.06 07:18:24.513', 3)}). The answers are ClickHouse 26.7's,
 * recorded through the oracle (shared/oracle).
 */
class DateTextSeparatorsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"SELECT toDateTime64('2026.12.06 07:18:24.513', 3), toDateTime('2026/12/06 07:18:24'), toDate('2026.12.06'), toDate('2026/12/06'), toDate32('2026.12.06')", "2026-12-06 07:18:24.513\t2026-12-06 07:18:24\t2026-12-06\t2026-12-06\t2026-12-06"},
            {"SELECT CAST('2026.12.06 07:18:24' AS DateTime), CAST('2026_12_06' AS Date), toDateTime('2026-12-06T07:18:24')", "2026-12-06 07:18:24\t2026-12-06\t2026-12-06 07:18:24"},
            {"SELECT toDate('20261206'), toDate('2026-12-06 23:59:59'), toDateTime('1700000000'), toDateTime64('1700000000.5', 1)", "2026-12-06\t2026-12-06\t2023-11-14 22:13:20\t2023-11-14 22:13:20.5"},
            {"SELECT toDecimal64('2026.12', 2), toFloat64('2026.12')", "2026.12\t2026.12"},
            {"DROP TABLE IF EXISTS dt_sep", ""},
            {"CREATE TABLE dt_sep (d Date, t DateTime64(3)) ENGINE = MergeTree ORDER BY d", ""},
            {"INSERT INTO dt_sep VALUES ('2026.12.06', '2026.12.06 07:18:24.513'), ('2026/01/02', '2026/01/02 00:00:01')", ""},
            {"SELECT * FROM dt_sep ORDER BY d", "2026-01-02\t2026-01-02 00:00:01.000\n2026-12-06\t2026-12-06 07:18:24.513"},
        };
    }
}
