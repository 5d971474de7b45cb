package dev.chdedup.stub.exec;

/**
 * Markdown and Pretty as ClickHouse 26.7 writes them: values escaped as TabSeparated escapes them (NULL is \N, a pipe
 * is not escaped), and numbers, dates and times aligned to the right, Bool, Enum, UUID, addresses and strings to the left.
 */
class PrettyFormatsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT 'a|b' AS x, 'c`d' AS y, 'e*f' z, 'g\\\\h' w, 'i\\nj' v FORMAT Markdown", "| x | y | z | w | v |\n|:-|:-|:-|:-|:-|\n| a|b | c`d | e*f | g\\\\h | i\\nj |"},
            {"SELECT NULL AS n, ['a\\tb'] AS arr, 'x\\ty' AS t, toDate(0) AS d, 1.5 AS f FORMAT Markdown", "| n | arr | t | d | f |\n|:-|:-|:-|-:|-:|\n| \\N | ['a\\tb'] | x\\ty | 1970-01-01 | 1.5 |"},
            {"SELECT toDate(0) a, toDateTime(0, 'UTC') b, toDateTime64(0, 3, 'UTC') c, toTime(1) d, toDecimal32(1, 1) e, toUUID('00000000-0000-0000-0000-000000000000') f, toIPv4('1.1.1.1') g, CAST(1 AS Enum8('x' = 1)) h, true i, toNullable(1) j, CAST('x' AS LowCardinality(String)) k, 'x' l, [1] m, toInt128(1) n, toDate32(0) o, toFloat32(1) p, toNullable(toDate(0)) q FORMAT Markdown", "| a | b | c | d | e | f | g | h | i | j | k | l | m | n | o | p | q |\n|-:|-:|-:|-:|-:|:-|:-|:-|:-|-:|:-|:-|:-|-:|-:|-:|-:|\n| 1970-01-01 | 1970-01-01 00:00:00 | 1970-01-01 00:00:00.000 | 00:00:01 | 1 | 00000000-0000-0000-0000-000000000000 | 1.1.1.1 | x | true | 1 | x | x | [1] | 1 | 1970-01-01 | 1 | 1970-01-01 |"},
            {"SELECT toDate(0) a, toTime(1) d, toUUID('00000000-0000-0000-0000-000000000000') f, true i FORMAT PrettyCompactMonoBlock", "   ┌──────────a─┬────────d─┬─f────────────────────────────────────┬─i────┐\n1. │ 1970-01-01 │ 00:00:01 │ 00000000-0000-0000-0000-000000000000 │ true │\n   └────────────┴──────────┴──────────────────────────────────────┴──────┘"},
            {"SELECT 1 AS a, 'x' AS b FORMAT PrettyCompact", "   ┌─a─┬─b─┐\n1. │ 1 │ x │\n   └───┴───┘"}
        };
    }
}
