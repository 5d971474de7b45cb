package dev.chdedup.stub.exec;

/**
 * uniqCombined beyond its documented examples, held to the engine's answers: just past the exact set's size, and
 * estimates by its HyperLogLog at precisions 12, 14, 17 and 20 (linear counting and the raw estimate), numbers of
 * several widths, floats (-0 apart from 0), strings, Nullable and NULL arguments, -State and -Merge, and its errors.
 */
class AggregateFunctionUniqCombinedCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT uniqCombined(number), uniqCombined(12)(number), uniqCombined(20)(number * 3), uniqCombined(toFloat64(number) / 7), uniqCombined(toInt32(number) - 500) FROM numbers(8193)", "8218\t8071\t8193\t8186\t8212"},
            {"SELECT uniqCombined(number), uniqCombined(12)(number), uniqCombined(20)(number * 3), uniqCombined(toFloat64(number) / 7), uniqCombined(toInt32(number) - 500) FROM numbers(100000)", "100314\t98160\t100091\t100052\t100271"},
            {"SELECT uniqCombined(number), uniqCombined(12)(number), uniqCombined(20)(number * 3), uniqCombined(toFloat64(number) / 7), uniqCombined(toInt32(number) - 500) FROM numbers(700000)", "701954\t709328\t700132\t697946\t702173"},
            {"SELECT uniqCombined(12)(number), uniqCombined(14)(number % 5000) FROM numbers(4096)", "4050\t4064"},
            {"SELECT uniqCombined(substring(toString(number) || 'xyz', 1, 30)), uniqCombined(toFloat32(number) / 3), uniqCombined(if(number % 3 = 0, NULL, number)), uniqCombined(number % 2 = 0) FROM numbers(9000)", "8988\t9000\t6000\t2"},
            {"SELECT uniqCombined(substring(toString(number) || 'xyz', 1, 30)), uniqCombined(toFloat32(number) / 3), uniqCombined(if(number % 3 = 0, NULL, number)) FROM numbers(100000)", "99852\t100208\t66729"},
            {"SELECT uniqCombined(x) FROM (SELECT if(number % 2 = 0, 0., -0.) AS x FROM numbers(10))", "2"},
            {"SELECT uniqCombined(NULL), uniqCombined(toNullable(1)), toTypeName(uniqCombined(number)) FROM numbers(3)", "\\N\t1\tUInt64"},
            {"SELECT uniqCombined(number) FROM numbers(0)", "0"},
            {"SELECT uniqCombined(11)(number) FROM numbers(10)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT uniqCombined(21)(number) FROM numbers(10)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT uniqCombined() FROM numbers(10)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT k, uniqCombinedMerge(s) FROM (SELECT number % 2 AS k, uniqCombinedState(number) AS s FROM numbers(30000) GROUP BY k) GROUP BY k ORDER BY k", "0\t15072\n1\t14999"},
        };
    }
}
