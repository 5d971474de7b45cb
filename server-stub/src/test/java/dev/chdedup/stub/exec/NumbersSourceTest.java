package dev.chdedup.stub.exec;

/**
 * The endless system.numbers under a WHERE that bounds {@code number}: the query ends with the engine's rows (a query
 * the bound is not found for would run until killed). The answers are ClickHouse 26.7's, taken through the oracle.
 */
class NumbersSourceTest extends EngineAnswers {
    /** Ends a query the bound is not found for (TIMEOUT_EXCEEDED) instead of letting it run; the engine's answers are the same. */
    private static final String BOUND = " SETTINGS max_execution_time = 30";

    @Override
    String[][] cases() {
        return new String[][] {
            // the official JDBC driver sends an Array parameter of IN (?) as an array literal
            {"select number from system.numbers where number in ([2,4,6]) limit 10" + BOUND, "2\n4\n6"},
            {"select number from system.numbers where number in [1, 3] limit 5" + BOUND, "1\n3"},
            {"SELECT number FROM system.numbers WHERE number IN (5, 7) AND number > 5 LIMIT 10" + BOUND, "7"},
        };
    }
}
