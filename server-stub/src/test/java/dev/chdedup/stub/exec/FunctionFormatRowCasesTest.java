package dev.chdedup.stub.exec;

/**
 * formatRow and formatRowNoNewline beyond their documented examples, held to the engine's answers: row formats with
 * their headers (names as the select list names the arguments), escaping, NULLs, a format setting,
 * CustomSeparated's result delimiters, and the engine's errors for block formats, unknown formats and wrong arguments.
 */
class FunctionFormatRowCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT formatRow('TSV', 1, 'a\\tb', NULL), formatRow('CSVWithNames', 1, 'x'), toTypeName(formatRow('CSV', 1))", "1\\ta\\\\tb\\t\\\\N\\n\t\"1\",\"\\'x\\'\"\\n1,\"x\"\\n\tString"},
            {"SELECT formatRow('JSONEachRow', number, 'good') FROM numbers(2)", "{\"number\":0,\"\\'good\\'\":\"good\"}\\n\n{\"number\":1,\"\\'good\\'\":\"good\"}\\n"},
            {"SELECT formatRow('Values', 1, 'x'), formatRowNoNewline('Values', 1, 'x'), formatRowNoNewline('TSV', 1, 'x'), formatRowNoNewline('JSONEachRow', 1, 'x')", "(1,\\'x\\')\t(1,\\'x\\')\t1\\tx\t{\"1\":1,\"\\'x\\'\":\"x\"}"},
            {"SELECT formatRow('XYZ', 1)", "Code: 73 UNKNOWN_FORMAT"},
            {"SELECT formatRow('CSV')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT formatRow(materialize('CSV'), 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT formatRow(1, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT formatRow('Native', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT formatRow('RowBinary', toUInt8(65))", "A"},
            {"SELECT formatRow('Pretty', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT formatRow('CustomSeparated', 1, 'a')", "1\\ta\\n"},
            {"SELECT formatRowNoNewline('CSV', 1, 'a') SETTINGS format_csv_delimiter=';'", "1;\"a\""},
            {"SELECT formatRow('CSV', NULL), formatRow('CSV', toNullable(1)), toTypeName(formatRow('CSV', toNullable(1)))", "\\\\N\\n\t1\\n\tString"},
            {"SELECT formatRow('TabSeparatedRaw', 'a\\tb'), formatRow('JSONCompactEachRow', 1, 'x')", "a\\tb\\n\t[1, \"x\"]\\n"},
            {"SELECT formatRow('CSV', number, 'good') FROM numbers(3)", "0,\"good\"\\n\n1,\"good\"\\n\n2,\"good\"\\n"},
            {"SELECT formatRowNoNewline('CSV', number, 'good') FROM numbers(3)", "0,\"good\"\n1,\"good\"\n2,\"good\""},
            {"SELECT formatRow('CustomSeparated', number, 'good') FROM numbers(3) SETTINGS format_custom_result_before_delimiter='<prefix>\\n', format_custom_result_after_delimiter='<suffix>'", "<prefix>\\n0\\tgood\\n<suffix>\n<prefix>\\n1\\tgood\\n<suffix>\n<prefix>\\n2\\tgood\\n<suffix>"},
            {"SELECT formatRow('TSVWithNamesAndTypes', 1, 'x')", "1\\t\\\\\\'x\\\\\\'\\nUInt8\\tString\\n1\\tx\\n"},
            {"SELECT formatRow('TSKV', 1, 'a')", "1=1\\t\\'a\\'=a\\n"},
            {"SELECT formatRow('JSONEachRow', number, toString(number), [number]) FROM numbers(2)", "{\"number\":0,\"toString(number)\":\"0\",\"[number]\":[0]}\\n\n{\"number\":1,\"toString(number)\":\"1\",\"[number]\":[1]}\\n"},
        };
    }
}
