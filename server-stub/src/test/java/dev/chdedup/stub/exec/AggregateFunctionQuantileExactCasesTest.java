package dev.chdedup.stub.exec;

/**
 * quantilesExactExclusive and quantilesExactInclusive beyond their documented examples, and the table over a table
 * function their examples read ({@code CREATE TABLE t AS numbers(n)}), held to the engine's answers: levels 0 and 1,
 * Float32, Nullable, empty and one-row inputs, the types they refuse, levels out of range, a second table of that
 * name and an unknown table function.
 */
class AggregateFunctionQuantileExactCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"CREATE TABLE IF NOT EXISTS qe_num AS numbers(1000)", ""},
            {"SELECT quantilesExactExclusive(0.25, 0.5, 0.999)(number), quantilesExactInclusive(0.25, 0.5, 0.999)(number) FROM qe_num", "[249.25,499.5,998.999]\t[249.75,499.5,998.001]"},
            {"SELECT count(), sum(number) FROM qe_num WHERE number % 7 = 0", "143\t71071"},
            {"SELECT quantilesExactExclusive(0, 1, 0.5)(number), quantilesExactInclusive(0, 1, 0.5)(number) FROM numbers(10)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT quantilesExactExclusive(0.1, 0.9)(x), quantilesExactInclusive(0.1, 0.9)(x), toTypeName(quantilesExactExclusive(0.5)(x)) FROM (SELECT toFloat32(number) / 3 AS x FROM numbers(7))", "[0,2]\t[0.2,1.8000000000000003]\tArray(Float64)"},
            {"SELECT quantilesExactExclusive(0.5)(toDecimal32(number, 2)), quantilesExactInclusive(0.5)(toDate(number)) FROM numbers(5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT quantilesExactExclusive(0.5)(x), quantilesExactInclusive(0.5)(x) FROM (SELECT if(number % 2 = 0, NULL, number) AS x FROM numbers(9))", "[4]\t[4]"},
            {"SELECT quantilesExactExclusive(0.5)(number), quantilesExactInclusive(0.5)(number) FROM numbers(0)", "[nan]\t[nan]"},
            {"SELECT quantilesExactExclusive(0.5)(number), quantilesExactInclusive(0.5)(number) FROM numbers(1)", "[0]\t[0]"},
            {"SELECT quantilesExactExclusive(1.5)(number) FROM numbers(5)", "Code: 12 PARAMETER_OUT_OF_BOUND"},
            {"SELECT quantilesExactInclusive(0.5)(toString(number)) FROM numbers(5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT quantileExactExclusive(0.3)(number), quantileExactInclusive(0.3)(number) FROM numbers(10)", "2.3\t2.6999999999999997"},
            {"CREATE TABLE qe_num AS numbers(10)", "Code: 57 TABLE_ALREADY_EXISTS"},
            {"CREATE TABLE qe_bad AS nosuchfunction(1)", "Code: 46 UNKNOWN_FUNCTION"},
            {"CREATE TABLE qe_series AS generateSeries(1, 5)", ""},
            {"SELECT groupArray(generate_series) FROM qe_series", "[1,2,3,4,5]"},
        };
    }
}
