package dev.chdedup.stub.exec;

/**
 * groupFormat beyond its documented example, held to the engine's answers: several output formats (with names and
 * types, Values, compact JSON of arrays, tuples and dates), NULL and Nullable arguments, no rows, GROUP BY, and its
 * errors for the parameter.
 */
class AggregateFunctionGroupFormatCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT groupFormat('JSONEachRow')(number, toString(number)) FROM numbers(3)", "{\"c1\":0,\"c2\":\"0\"}\\n{\"c1\":1,\"c2\":\"1\"}\\n{\"c1\":2,\"c2\":\"2\"}\\n"},
            {"SELECT groupFormat('CSV')(number, toString(number)) FROM numbers(3)", "0,\"0\"\\n1,\"1\"\\n2,\"2\"\\n"},
            {"SELECT groupFormat('CSVWithNames')(number) FROM numbers(2)", "\"c1\"\\n0\\n1\\n"},
            {"SELECT groupFormat('TSV')(x) FROM (SELECT if(number = 1, NULL, number) AS x FROM numbers(3))", "0\\n2\\n"},
            {"SELECT groupFormat('JSONEachRow')(number) FROM numbers(0)", ""},
            {"SELECT groupFormat('CSV')(toNullable(number)) FROM numbers(0)", "\\N"},
            {"SELECT toTypeName(groupFormat('CSV')(number)), toTypeName(groupFormat('CSV')(toNullable(number))) FROM numbers(1)", "String\tNullable(String)"},
            {"SELECT groupFormat('Values')(number, 'a') FROM numbers(2)", "(0,\\'a\\'),(1,\\'a\\')"},
            {"SELECT groupFormat('JSONCompactEachRow')([number], (number, 'x'), toDate('2020-01-01') + number) FROM numbers(2)", "[[0], [0,\"x\"], \"2020-01-01\"]\\n[[1], [1,\"x\"], \"2020-01-02\"]\\n"},
            {"SELECT groupFormat('TSVWithNamesAndTypes')(number, toString(number)) FROM numbers(2)", "c1\\tc2\\nUInt64\\tString\\n0\\t0\\n1\\t1\\n"},
            {"SELECT number % 2 AS k, groupFormat('CSV')(number) FROM numbers(4) GROUP BY k ORDER BY k", "0\t0\\n2\\n\n1\t1\\n3\\n"},
            {"SELECT groupFormat(number) FROM numbers(2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT groupFormat('Nope')(number) FROM numbers(2)", "Code: 73 UNKNOWN_FORMAT"},
            {"SELECT groupFormat(1)(number) FROM numbers(2)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT groupFormat('CSV', 'x')(number) FROM numbers(2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
        };
    }
}
