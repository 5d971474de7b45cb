package dev.chdedup.stub.exec;

/**
 * The JSONCompact row formats separate a row's values with a comma and a space as the engine does, and a query's own SETTINGS clause reaches its output format (a CSV delimiter, a TSV NULL, the quoting of 64-bit integers).
 */
class OutputFormatSettingsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT 1 AS a, [2, 3] AS b, 'a' AS c FORMAT JSONCompactEachRow", "[1, [2,3], \"a\"]"},
            {"SELECT 1 AS a, [2, 3] AS b, 'a' AS c FORMAT JSONCompactEachRowWithNames", "[\"a\", \"b\", \"c\"]\n[1, [2,3], \"a\"]"},
            {"SELECT 1 AS a, [2, 3] AS b, 'a' AS c FORMAT JSONCompactEachRowWithNamesAndTypes", "[\"a\", \"b\", \"c\"]\n[\"UInt8\", \"Array(UInt8)\", \"String\"]\n[1, [2,3], \"a\"]"},
            {"SELECT 1 AS a, [2, 3] AS b, 'a' AS c FORMAT JSONCompactStringsEachRow", "[\"1\", \"[2,3]\", \"a\"]"},
            {"SELECT 1 AS a, [2, 3] AS b, 'a' AS c FORMAT JSONCompactStringsEachRowWithNames", "[\"a\", \"b\", \"c\"]\n[\"1\", \"[2,3]\", \"a\"]"},
            {"SELECT 1 a, 'x' b FORMAT CSV SETTINGS format_csv_delimiter = ';'", "1;\"x\""},
            {"SELECT toUInt64(1) AS a FORMAT JSONEachRow SETTINGS output_format_json_quote_64bit_integers = 0", "{\"a\":1}"},
            {"SELECT toUInt64(1) AS a SETTINGS output_format_json_quote_64bit_integers = 0 FORMAT JSONEachRow", "{\"a\":1}"},
            {"SELECT 'a\\tb' AS s FORMAT TSV SETTINGS format_tsv_null_representation = 'N'", "a\\tb"},
            {"SELECT NULL AS s FORMAT TSV SETTINGS format_tsv_null_representation = 'N'", "N"}
        };
    }
}
