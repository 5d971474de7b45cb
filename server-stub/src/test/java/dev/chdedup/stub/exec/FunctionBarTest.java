package dev.chdedup.stub.exec;

/**
 * bar (FunctionBar) held to ClickHouse 26.7's answers, recorded from the engine: widths in eighths, the default width of
 * 80, values below min or above max, NaN, decimals, Nullable and NULL arguments, and the engine's errors.
 */
class FunctionBarTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"SELECT bar(1, 0, 10, 50), bar(-1, 0, 10), bar(3.7, 0, 10, 5), bar(15, 0, 10, 5), toTypeName(bar(1, 0, 10))",
                "█████\t\t█▊\t█████\tString"},
            {"SELECT bar(number, 0, 10, 3) FROM numbers(11)",
                "\n▎\n▌\n▉\n█▏\n█▌\n█▊\n██\n██▍\n██▋\n███"},
            {"SELECT bar(5, 0, number + 10) FROM numbers(2)",
                "████████████████████████████████████████\n████████████████████████████████████▎"},
            {"SELECT bar(5, 0, 10, 2.5), bar(5, 10, 0), bar(nan, 0, 10, 4), bar(toDecimal32(5, 2), 0, 10, 4), bar(toInt8(-3), -10, 10, 4), bar(inf, 0, 10, 4), bar(5, 5, 5, 4), bar(1, 0, 3, 80), bar(1e308, -1e308, 1e308, 4)",
                "█▎\t\t\t██\t█▍\t████\t\t██████████████████████████▋\t████"},
            {"SELECT bar(toNullable(5), 0, 10, 4) AS b, toTypeName(b), bar(5, NULL, 10)",
                "██\tNullable(String)\t\\N"},
            {"SELECT bar(1, 0, 10, 0)",
                "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT bar(1, 0, 10, 5000)",
                "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT bar('a', 0, 10)",
                "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT bar(5, 0)",
                "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT bar(5, 0, 10, 4, 1)",
                "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT bar(5, 0, 10, number + 1) FROM numbers(2)",
                "Code: 44 ILLEGAL_COLUMN"},
        };
    }
}
