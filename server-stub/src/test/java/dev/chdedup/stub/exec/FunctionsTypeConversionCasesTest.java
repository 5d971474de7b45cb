package dev.chdedup.stub.exec;

/**
 * toLowCardinality, toStringCutToZero, toDecimalString, DATE and the to*DateTime* conversions' edges, held to the
 * engine's answers: result types, the types LowCardinality holds, rounding and the count of fractional digits, NULL,
 * numbers of seconds beyond DateTime's and DateTime64's ranges, the supertype of DateTime, DateTime64 and dates (arrays,
 * UNION ALL, if), and the engine's errors.
 */
class FunctionsTypeConversionCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT DATE('2023-01-01'), date('2023-01-01'), toTypeName(DATE(now())), DATE(toDateTime('2020-01-01 10:00:00'))", "2023-01-01\t2023-01-01\tDate\t2020-01-01"},
            {"SELECT toLowCardinality('1'), toTypeName(toLowCardinality('1')), toTypeName(toLowCardinality(1))", "1\tLowCardinality(String)\tLowCardinality(UInt8)"},
            {"SELECT toLowCardinality([1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toStringCutToZero('a\\0b'), toTypeName(toStringCutToZero('a')), toStringCutToZero(toFixedString('ab', 4)), toTypeName(toStringCutToZero(toFixedString('ab', 4))), toStringCutToZero(toNullable('x\\0y'))", "a\tString\tab\tString\tx"},
            {"SELECT toStringCutToZero(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toDecimalString(2.1456, 2), toDecimalString(5, 3), toDecimalString(-1.005, 2), toDecimalString(toDecimal64(1.5, 3), 0), toDecimalString(1e20, 2), toTypeName(toDecimalString(1, 1)), toDecimalString(nan, 2), toDecimalString(0.125, 2), toDecimalString(toNullable(1.5), 1)", "2.15\t5.000\t-1.00\t1.\t100000000000000000000.00\tString\tnan\t0.13\t1.5"},
            {"SELECT toDecimalString(1, 78)", "Code: 28 CANNOT_PRINT_FLOAT_OR_DOUBLE_NUMBER"},
            {"SELECT toDecimalString(1, -1)", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT toDecimalString(1, number) FROM numbers(2)", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT toDecimalString('1', 2)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toDateTime64OrNull('2025-12-30 13:44:17.123'), toDateTime64OrNull('invalid'), toTypeName(toDateTime64OrNull('x')), toDateTime64OrNull('2020-01-01', 6, 'Asia/Tokyo'), toDateTime64OrZero('x', 2)", "2025-12-30 13:44:17.123\t\\N\tNullable(DateTime64(3))\t2020-01-01 00:00:00.000000\t1970-01-01 00:00:00.00"},
            {"SELECT toDateTime64(1546300800000, 3), toDateTime64(253402300800, 0), toDateTime64(1546300800, 3), toDateTime64(toDecimal64(1546300800.5, 1), 3)", "9999-12-31 23:59:59.000\t9999-12-31 23:59:59\t2019-01-01 00:00:00.000\t2019-01-01 00:00:00.500"},
            {"SELECT toDecimalString(1.5, 0), toDecimalString(5, 0), toDecimalString(toDecimal64(1.25,3), 1), toDecimalString(toDecimal64(-1.25,3), 1), toDecimalString(inf, 2), toDecimalString(-inf, 1), toDecimalString(toDecimal32(2.5, 1), 0), toDecimalString(2.5, 0), toDecimalString(toUInt64(18446744073709551615), 1), toDecimalString(toInt128(5), 2), toDecimalString(toFloat32(42.7), 4)", "2\t5\t1.3\t-1.3\tinf\t-inf\t2.\t3\t18446744073709551615.0\t5.00\t42.7000"},
            {"SELECT toDecimalString(NULL, 2), toDecimalString(true, 1), toDecimalString(toDecimal64(123.456, 3), 5)", "\\N\t1.0\t123.45600"},
            {"SELECT toTypeName(toLowCardinality(toNullable('a'))), toTypeName(toLowCardinality(toLowCardinality('a'))), toTypeName(toLowCardinality(toDate('2020-01-01'))), toTypeName(toLowCardinality(1.5)), toTypeName(toLowCardinality(toFixedString('a',2)))", "LowCardinality(Nullable(String))\tLowCardinality(String)\tLowCardinality(Date)\tLowCardinality(Float64)\tLowCardinality(FixedString(2))"},
            {"SELECT toLowCardinality(toUUID('00000000-0000-0000-0000-000000000000'))", "00000000-0000-0000-0000-000000000000"},
            {"SELECT toLowCardinality(toDecimal32(1, 2))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toLowCardinality(NULL)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toDateTimeOrNull(1583851242, 'Asia/Shanghai'), toDateTimeOrNull(4294967296), toDateTimeOrNull(toUInt32(4294967295)), toDateTimeOrNull(toInt64(5))", "2020-03-10 22:40:42\t\\N\t2106-02-07 06:28:15\t1970-01-01 00:00:05"},
            {"SELECT toTypeName([toDateTime64('2020-01-01', 3, 'Asia/Tokyo'), toDateTime64('2020-01-01', 6, 'Asia/Tokyo')])", "Array(DateTime64(6, \\'Asia/Tokyo\\'))"},
            {"SELECT toTypeName([toDateTime64('2020-01-01', 3, 'Asia/Tokyo'), toDateTime('2020-01-01', 'Asia/Tokyo')])", "Array(DateTime64(3, \\'Asia/Tokyo\\'))"},
            {"SELECT toTypeName([toDateTime64('2020-01-01', 3), toDateTime('2020-01-01', 'Asia/Tokyo')])", "Array(DateTime64(3))"},
            {"SELECT toTypeName([toDateTime64('2020-01-01', 3), toDate('2020-01-01')])", "Array(DateTime64(3))"},
            {"SELECT toTypeName([toDateTime('2020-01-01'), toDateTime('2020-01-01', 'Asia/Tokyo')])", "Array(DateTime)"},
            {"SELECT toTypeName([toDateTime('2020-01-01', 'Asia/Tokyo'), toDateTime('2020-01-01')])", "Array(DateTime(\\'Asia/Tokyo\\'))"},
            {"SELECT toTypeName([toDate('2020-01-01'), toDateTime('2020-01-01', 'Asia/Tokyo')])", "Array(DateTime(\\'Asia/Tokyo\\'))"},
            {"SELECT toTypeName([toDate32('2020-01-01'), toDateTime('2020-01-01', 'Asia/Tokyo')])", "Array(DateTime64(0))"},
            {"SELECT toTypeName([toDate32('2020-01-01'), toDateTime64('2020-01-01', 2, 'Asia/Tokyo')])", "Array(DateTime64(2, \\'Asia/Tokyo\\'))"},
            {"SELECT [toDateTime64('2020-01-01 00:00:00.5', 1), toDateTime('2020-01-01 00:00:01')]", "['2020-01-01 00:00:00.5','2020-01-01 00:00:01.0']"},
            {"SELECT toDateTime64('2020-01-01 00:00:00.123', 3) AS a UNION ALL SELECT toDateTime64('2020-01-01 00:00:00.123456', 6)", "2020-01-01 00:00:00.123000\n2020-01-01 00:00:00.123456"},
            {"SELECT toTypeName(a) FROM (SELECT toDateTime64('2020-01-01', 3, 'Asia/Istanbul') AS a UNION ALL SELECT toDateTime64('2020-01-01', 6))", "DateTime64(6)\nDateTime64(6)"},
            {"SELECT if(1, toDateTime('2020-01-01 00:00:00'), toDateTime64('2020-01-01 00:00:00', 3)), toTypeName(if(1, toDateTime('2020-01-01 00:00:00'), toDateTime64('2020-01-01 00:00:00', 3)))", "2020-01-01 00:00:00.000\tDateTime64(3)"},
        };
    }
}
