package dev.chdedup.stub.exec;

/**
 * estimateCompressionRatio beyond its documented example, held to the engine's answers: LZ4 over inputs below and
 * above 64 KiB (its two hash tables), several blocks, the NONE codec, strings, repetitive and float values, no rows,
 * and its errors for arguments and parameters.
 */
class AggregateFunctionEstimateCompressionRatioCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"CREATE TABLE compression_estimate_example (`number` UInt64) ENGINE = MergeTree() ORDER BY number SETTINGS min_bytes_for_wide_part = 0", ""},
            {"INSERT INTO compression_estimate_example SELECT number FROM system.numbers LIMIT 100_000", ""},
            {"SELECT estimateCompressionRatio(number) AS estimate FROM compression_estimate_example", "1.9988506608699999"},
            {"SELECT estimateCompressionRatio(number), estimateCompressionRatio('LZ4')(number), estimateCompressionRatio('NONE')(number), estimateCompressionRatio(65536)(number) FROM numbers(50000)", "1.9986309378076017\t1.9986309378076017\t0.9999375039060059\t1.9972637486643299"},
            {"SELECT estimateCompressionRatio(toString(number)), estimateCompressionRatio(toUInt32(number % 100)), estimateCompressionRatio(toFloat64(number) / 3) FROM numbers(200000)", "1.5572059239284084\t223.90148334732717\t1.9974507534758763"},
            {"SELECT estimateCompressionRatio(number) FROM numbers(0)", "0"},
            {"SELECT estimateCompressionRatio(number, number) FROM numbers(2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT estimateCompressionRatio(0)(number) FROM numbers(2)", "Code: 457 BAD_QUERY_PARAMETER"},
            {"SELECT estimateCompressionRatio('LZ4', 'NONE')(number) FROM numbers(2)", "Code: 457 BAD_QUERY_PARAMETER"},
            {"SELECT estimateCompressionRatio(1.5)(number) FROM numbers(2)", "Code: 456 UNKNOWN_QUERY_PARAMETER"},
        };
    }
}
