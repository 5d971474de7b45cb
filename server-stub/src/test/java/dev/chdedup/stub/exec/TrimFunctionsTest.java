package dev.chdedup.stub.exec;

/**
 * trimLeft, trimRight, trimBoth and the parser's LTRIM, RTRIM and TRIM, in any case: spaces only unless a constant set
 * of bytes is given, String or FixedString in, String out, NULL's Nullable(Nothing), ClickHouse's argument errors.
 */
class TrimFunctionsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT LTRIM('  a  '), RTRIM('  a  '), TRIM('  a  '), Trim('  a  '), lTrim('  a ') FORMAT TSV", "a  \t  a\ta\ta\ta "},
            {"SELECT TRIMLEFT('  a') FORMAT TSV", "Code: 46 UNKNOWN_FUNCTION"},
            {"SELECT trimLeft('xxaxx', 'x'), trimRight('xxaxx', 'x'), trimBoth('xxaxx','x'), trimBoth('xyaxy','yx') FORMAT TSV", "axx\txxa\ta\ta"},
            {"SELECT trimLeft(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT trim(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT ltrim(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT trimLeft(NULL), toTypeName(trimLeft(NULL)), toTypeName(trimLeft(toNullable('a'))) FORMAT TSV", "\\N\tNullable(Nothing)\tNullable(String)"},
            {"SELECT trimBoth(' \\t\\na\\t\\n ') FORMAT TSV", "\\t\\na\\t\\n"},
            {"SELECT trimLeft(toFixedString(' a', 3)), toTypeName(trimLeft(toFixedString(' a', 3))), hex(trimRight(toFixedString(' a', 3))) FORMAT TSV", "a\\0\tString\t206100"},
            {"SELECT trimLeft('xa', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT trimLeft('xa', NULL), toTypeName(trimLeft('xa', NULL)) FORMAT TSV", "\\N\tNullable(Nothing)"},
            {"SELECT trimLeft(toNullable('xa'), 'x'), toTypeName(trimLeft(toNullable('xa'), 'x')) FORMAT TSV", "a\tNullable(String)"},
            {"SELECT trimLeft('xa', 'x', 'y')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT trimLeft()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT trimBoth('  ', ''), trimBoth('', 'x'), trimBoth('  ') FORMAT TSV", "  \t\t"},
            {"SELECT ltrim('xxa', 'x'), rtrim('axx','x'), trim('xax','x') FORMAT TSV", "a\ta\ta"},
            {"SELECT trimLeft(' a', toFixedString(' ', 1))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT name, case_insensitive, alias_to FROM system.functions WHERE name ILIKE '%trim%' ORDER BY name FORMAT TSV", "ltrim\t0\ttrimLeft\nrtrim\t0\ttrimRight\ntrim\t0\ttrimBoth\ntrimBoth\t0\t\ntrimLeft\t0\t\ntrimRight\t0\t"},
            {"SELECT trimLeft('xa', c1) FROM values('x')", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT trimLeft(c1), trimRight(c2), trimBoth(c1, 'a ') FROM values((' a', toNullable('a  '))) FORMAT TSV", "a\ta\t"},
            {"SELECT trimLeft(c1), toTypeName(trimLeft(c1)) FROM values('c1 Nullable(String)', (' a'), (NULL)) FORMAT TSV", "a\tNullable(String)\n\\N\tNullable(String)"}
        };
    }
}
