package dev.chdedup.stub.exec;

/**
 * cramersV, cramersVBiasCorrected, contingency and theilsU beyond their documented examples, held to the engine's
 * answers: tables large enough that ClickHouse's hash maps grow (the sums run in their order, which the last digits
 * show), argument types (strings, dates, decimals, floats, arrays, Nullable, LowCardinality), fewer than two rows or
 * one distinct value, -State and -Merge, and the errors for a wrong count of arguments, parameters and values without
 * contiguous bytes.
 */
class AggregateFunctionsCrossTabCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT cramersV(a, b), contingency(a, b), cramersVBiasCorrected(a, b), theilsU(a, b) FROM (SELECT number % 97 AS a, (number * 7) % 53 AS b FROM numbers(20000))", "0.011136814770049104\t0.08005098429567525\t0\t0.0007583464129972833"},
            {"SELECT cramersV(a, b), theilsU(a, b), theilsU(b, a) FROM (SELECT toString(number % 37) AS a, toDate(number % 23) AS b FROM numbers(3000))", "0.030181725017576592\t0.0027977688012572354\t0.003221986789526859"},
            {"SELECT cramersV(toDecimal32(number % 3, 2), toFloat32(number % 5)), theilsU([number % 3], toInt128(number % 7)) FROM numbers(100)", "0.04905524551257884\t0.0032467794227155553"},
            {"SELECT cramersV(toString(number % 3), number % 4), theilsU(toString(number % 3), number % 4), contingency(number % 3, toNullable(number % 4)) FROM numbers(50)", "0.05137623327375888\t0.0023709081573310854\t0.07246594253997703"},
            {"SELECT cramersV(toLowCardinality(toString(number % 3)), number % 4), toTypeName(cramersV(number, number)) FROM numbers(50)", "0.05137623327375888\tFloat64"},
            {"SELECT cramersV(number, 1), theilsU(1, number), cramersVBiasCorrected(number, 1), contingency(number, 1) FROM numbers(5)", "nan\t0\tnan\t0"},
            {"SELECT cramersV(number % 2, number % 3), cramersVBiasCorrected(number % 2, number % 3), theilsU(number % 2, number % 3), contingency(number % 2, number % 3) FROM numbers(2)", "1\tnan\t1\t0.7071067811865476"},
            {"SELECT cramersV(number % 3, number % 4), theilsU(number, number) FROM numbers(1)", "nan\tnan"},
            {"SELECT cramersV(if(number % 3 = 0, NULL, number % 5), number % 4) FROM numbers(60)", "8.603189426505949e-9"},
            {"SELECT cramersV(NULL, 1)", "\\N"},
            {"SELECT cramersV(number % 2) FROM numbers(5)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT cramersV(1)(number, number) FROM numbers(10)", "Code: 133 AGGREGATE_FUNCTION_DOESNT_ALLOW_PARAMETERS"},
            {"SELECT cramersV([toString(number)], number) FROM numbers(10)", "Code: 48 NOT_IMPLEMENTED"},
            {"SELECT cramersV((number, 1), number) FROM numbers(10)", "Code: 48 NOT_IMPLEMENTED"},
            {"SELECT k, cramersVMerge(s), theilsUMerge(t) FROM (SELECT number % 2 AS k, cramersVState(number % 5, number % 3) AS s, theilsUState(number % 5, number % 3) AS t FROM numbers(100) GROUP BY k) GROUP BY k ORDER BY k", "0\t0.09776923610938075\t0.00578435796500258\n1\t0.09776923610938075\t0.005784357965002719"},
        };
    }
}
