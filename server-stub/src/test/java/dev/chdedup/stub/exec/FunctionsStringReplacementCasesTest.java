package dev.chdedup.stub.exec;

/**
 * The String Replacement functions of the registry (FunctionsStringReplacement, FunctionPrintf) beyond their documented
 * examples, held to the engine's answers: format's placeholders and its errors for malformed patterns, printf's
 * conversions, flags, widths and precisions with C's rounding and the errors for a wrong kind or count of arguments,
 * overlay's negative and out-of-range offsets and lengths, translate's deletions and errors, regexpQuoteMeta's set.
 */
class FunctionsStringReplacementCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT format('{} {}', 'a', 1), format('{1} {0} {1}', 'World', 'Hello'), format('{{}} {}', 'x'), format('{}', NULL), toTypeName(format('{}', toNullable('a'))), format('{}-{}', 1.5, toDate('2020-01-01')), toTypeName(format('{}', NULL)), format('{}', toNullable('a'))", "a 1\tHello World Hello\t{} x\t\\N\tNullable(String)\t1.5-2020-01-01\tNullable(Nothing)\ta"},
            {"SELECT format('abc')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT format('{} {}', 'a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT format('{0} {}', 'a', 'b')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT format('{} {0}', 'a', 'b')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT format('{', 'a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT format('}', 'a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT format('{5}', 'a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT format(1, 'a')", "Code: 170 BAD_GET"},
            {"SELECT format('{a}', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT format('{}{}', toString(number), number) FROM numbers(3)", "00\n11\n22"},
            {"SELECT printf('%%%s %s %d', 'Hello', 'World', 2024), printf('%5d|%-5s|%.2f|%x|%05.1f|%e', 42, 'ab', 3.14159, 255, 2.25, 12345.678), printf('abc'), toTypeName(printf('%d', toNullable(1)))", "%Hello World 2024\t   42|ab   |3.14|ff|002.2|1.234568e+04\tabc\tNullable(String)"},
            {"SELECT printf('%d', 'a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT printf('%s', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT printf('%d %d', 1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT printf('%d', 1, 2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT printf('%f', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT printf('%d', 1.5)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT printf('%s', NULL)", "\\N"},
            {"SELECT printf('%5.1s|%-3c|%+d|% d|%#x|%#o|%lld|%ld|%hd|%i', 'abc', 65, 5, 5, 255, 8, 1, 2, 3, 4)", "    a|A  |+5| 5|0xff|010|1|2|3|4"},
            {"SELECT printf('%g|%g|%g|%g|%G|%.3g|%#g|%a', 0.0001, 123456789.0, 100000.0, 1e-5, 1e-10, 3.14159, 1.0, 1.0)", "0.0001|1.23457e+08|100000|1e-05|1E-10|3.14|1.00000|0x1p+0"},
            {"SELECT printf('%u', -1), printf('%x', -1), printf('%d', toUInt64(18446744073709551615)), printf('%s', toFixedString('ab', 3)), printf('%.3f', toFloat32(1.1))", "18446744073709551615\tffffffffffffffff\t-1\tab\\0\t1.100"},
            {"SELECT printf('%d', toInt128(5))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT printf('%5%')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT printf('%q', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT printf('%', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT printf('%08.3f|%-8.2e|%+.0f|%.0f|%.0f|%10.4g|%E|%f|%f|%f', -3.14159, 1234.5, 2.5, 3.5, 0.5, 0.000123456, 0.0, inf, -inf, nan)", "-003.142|1.23e+03|+2|4|0| 0.0001235|0.000000E+00|inf|-inf|nan"},
            {"SELECT printf('%.3d|%.0d|%5.3d|%-+5d|%05d|%x|%X|%o', 7, 0, 42, 3, -42, 3735928559, 3735928559, toInt8(-1))", "007|0|  042|+3   |-0042|deadbeef|DEADBEEF|1777777777777777777777"},
            {"SELECT overlay('abc', 'XY', 0), overlay('abc', 'XY', -1), overlay('abc', 'XY', 5), overlay('abc', 'XY', 2, 0), overlay('abc', 'XY', 2, -1), overlay('abc', 'XY', -5), overlay('abc','XY', 2, 10), toTypeName(overlay(toNullable('a'), 'b', 1)), overlayUTF8('абв', 'X', 2), overlay('абв', 'X', 2)", "abcXY\tabXY\tabcXY\taXYbc\taXY\tXYc\taXY\tNullable(String)\tаXв\t\ufffdXбв"},
            {"SELECT overlay('abc', 'X', 1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT overlay(1, 'X', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT overlay('abc', 'X')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT overlay('abcdef', 'XY', 2, -2), overlay('abcdef', 'XY', 2, -5), overlay('abcdef', 'XY', 2, -10), overlay('abcdef', 'XY', -3, 1), overlay('abcdef', 'XY', -8, 3), overlay('abcdef', 'XY', 0, 1), overlay('abcdef', 'XY', 4, 10), overlayUTF8('абвгд', 'X', -2, 1), overlay('abcdef', 'XY', -6, 1), overlay('abcdef', 'XY', -7, 1), overlay('abcdef', 'XY', -7, 2)", "aXYdef\taXYdef\taXYdef\tabcXYef\tXYdef\tabcdefXY\tabcXY\tабвXд\tXYbcdef\tXYbcdef\tXYcdef"},
            {"SELECT OVERLAY('abc', 'X', 2), overlay(NULL, 'X', 1), overlay('abc', 'X', number) FROM numbers(2)", "aXc\t\\N\tabcX\naXc\t\\N\tXbc"},
            {"SELECT translate('abc', 'ab', 'x'), translate('aaa', 'aa', 'xy'), translateUTF8('абв', 'аб', 'x'), toTypeName(translate(toNullable('a'), 'a', 'b')), translate(toFixedString('ab',2), 'a', 'b'), translateUTF8('abc', 'ab', 'жз'), translate('é', 'a', 'b'), translate('abca', 'aa', 'xy')", "xc\tyyy\txв\tNullable(String)\tbb\tжзc\té\tybcy"},
            {"SELECT translate('abc', 'ab', 'é')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT translateUTF8('abc', 'a', 'xy')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT translate('abc', 'a', 'xyz')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT translateUTF8(toFixedString('ab',2), 'a', 'b')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT translate('é', 'é', 'e')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT translateUTF8('Münchener Straße', 'üß', 'us'), translate(NULL, 'a', 'b'), translate('Hello, World!', 'delor', 'DELOR')", "Munchener Strase\t\\N\tHELLO, WORLD!"},
            {"SELECT regexpQuoteMeta('}:=!<>,\"''%@`;'), hex(regexpQuoteMeta('\\0')), regexpQuoteMeta('a.b\\0c'), regexpQuoteMeta('é_-\\\\'), regexpQuoteMeta(NULL), regexpQuoteMeta('[]{}()|^$*+?.\\\\/ #&~-')", "}\\\\:=!<>,\"\\'%@`;\t5C00\ta\\\\.b\\\\\\0c\té_\\\\-\\\\\\\\\t\\N\t\\\\[\\\\]\\\\{}\\\\(\\\\)\\\\|\\\\^\\\\$\\\\*\\\\+\\\\?\\\\.\\\\\\\\/ #&~\\\\-"},
            {"SELECT regexpQuoteMeta(toFixedString('a',1))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT format('{}', [1,2]), format('{}', 'a', 'b'), format('{}', 'x''y'), format('{}', 1::UInt64), format('{}', 'é')", "[1,2]\ta\tx\\'y\t1\té"},
        };
    }
}
