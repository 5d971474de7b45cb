package dev.chdedup.stub.exec;

/**
 * Functions in an INSERT's VALUES: a back-quoted or double-quoted name calls the function as a bare one does (in a
 * SELECT too), now() and expressions are evaluated, an unknown function is UNKNOWN_FUNCTION and inserts nothing;
 * with input_format_values_interpret_expressions = 0 the engine still evaluates them through its templates
 * (input_format_values_deduce_templates_of_expressions), and refuses them only with both off (SUPPORT_IS_DISABLED).
 */
class ValuesExpressionsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"CREATE TABLE tv2 (d Date, t DateTime, s String) ENGINE = Memory", ""},
            {"INSERT INTO tv2 VALUES (`toDate`('2020-01-01'), now(), 'a')", ""},
            {"INSERT INTO tv2 VALUES (toDate('2020-01-02'), toDateTime('2020-01-01 00:00:00'), concat('b', 'c'))", ""},
            {"INSERT INTO tv2 VALUES ('2020-01-03', '2020-01-01 00:00:00', lower('X'))", ""},
            {"INSERT INTO tv2 VALUES (toDate('2020-01-05') - 1, '2020-01-01 00:00:00', `upper`('q'))", ""},
            {"SELECT d, s FROM tv2 ORDER BY d", "2020-01-01\ta\n2020-01-02\tbc\n2020-01-03\tx\n2020-01-04\tQ"},
            {"SELECT count() FROM tv2 WHERE t > '2021-01-01'", "1"},
            {"INSERT INTO tv2 SETTINGS input_format_values_interpret_expressions = 0 VALUES (toDate('2020-01-05'), now(), 'z')", ""},
            {"INSERT INTO tv2 SETTINGS input_format_values_interpret_expressions = 0, input_format_values_deduce_templates_of_expressions = 0 VALUES (toDate('2020-01-06'), now(), 'z')", "Code: 344 SUPPORT_IS_DISABLED"},
            {"INSERT INTO tv2 VALUES (`nosuchfn`('x'), now(), 'y')", "Code: 46 UNKNOWN_FUNCTION"},
            {"SELECT count() FROM tv2", "5"},
            {"SELECT `toDate`('2020-01-01'), \"lower\"('X')", "2020-01-01\tx"},
            {"SELECT `nosuch`(1)", "Code: 46 UNKNOWN_FUNCTION"},
        };
    }
}
