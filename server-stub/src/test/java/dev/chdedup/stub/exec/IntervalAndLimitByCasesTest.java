package dev.chdedup.stub.exec;

/**
 * INTERVAL with an expression before its unit ({@code INTERVAL 2 * 3 DAY}, read as ClickHouse's interval layer reads it,
 * up to the unit) and LIMIT BY over expressions, held to the engine's answers.
 */
class IntervalAndLimitByCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT INTERVAL 1 + 1 HOUR", "2"},
            {"SELECT INTERVAL 2 * 3 DAY", "6"},
            {"SELECT toDate('2024-01-10') - INTERVAL 2 * 3 DAY", "2024-01-04"},
            {"SELECT INTERVAL (1 + 1) * 2 HOUR", "4"},
            {"SELECT toDate('2024-01-10') - INTERVAL 1 DAY - INTERVAL 2 DAY", "2024-01-07"},
            {"SELECT toDateTime('2024-01-01 00:00:00', 'UTC') + INTERVAL number * 2 MINUTE FROM numbers(3)", "2024-01-01 00:00:00\n2024-01-01 00:02:00\n2024-01-01 00:04:00"},
            {"SELECT INTERVAL 3 DAY * 2", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT number FROM numbers(10) ORDER BY number LIMIT 1 BY number % 3", "0\n1\n2"},
            {"SELECT number FROM numbers(10) ORDER BY number DESC LIMIT 2 BY intDiv(number, 4)", "9\n8\n7\n6\n3\n2"},
            {"SELECT number % 3 AS k, number FROM numbers(10) ORDER BY number LIMIT 2 BY k", "0\t0\n1\t1\n2\t2\n0\t3\n1\t4\n2\t5"},
            {"SELECT number FROM numbers(10) ORDER BY number LIMIT 1 BY number % 2 LIMIT 1", "0"},
        };
    }
}
