package dev.chdedup.stub.exec;

/**
 * Time and Time64(P) as ClickHouse 26.7 has them: their text, read right to left and clamped to 999:59:59, their names, the casts from strings, numbers, dates and times and back, toTime and toTime64 with their OrNull and OrZero forms, arithmetic and comparison, supertypes, and the formats that quote them.
 */
class TimeTypeTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT '12:30:00'::Time AS t, toTypeName(t), toInt32(t), '-1:00:00'::Time, '999:59:59'::Time FORMAT TSV", "12:30:00\tTime\t45000\t-01:00:00\t999:59:59"},
            {"SELECT '12:30'::Time, '12'::Time, '01:02:03'::Time, '1:02:03'::Time, '100:00:00'::Time, '-01:00:00'::Time, '00:00:00'::Time, '12:60:00'::Time, '12:30:61'::Time, '999:59:60'::Time FORMAT TSV", "00:12:30\t00:00:12\t01:02:03\t01:02:03\t100:00:00\t-01:00:00\t00:00:00\t13:00:00\t12:31:01\t999:59:59"},
            {"SELECT '-00:00:00'::Time, '-0:00:01'::Time, '00:00:00'::Time64(2), '-999:59:59.99'::Time64(2), '1:00'::Time, '123:00:00'::Time FORMAT TSV", "00:00:00\t-00:00:01\t00:00:00.00\t-999:59:59.99\t00:01:00\t123:00:00"},
            {"SELECT '1000:00:00'::Time", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT '12:3'::Time", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT '5:5'::Time", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT ' 12:30:00'::Time", "Code: 41 CANNOT_PARSE_DATETIME"},
            {"SELECT '12:30:00 '::Time", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT 'ab'::Time", "Code: 41 CANNOT_PARSE_DATETIME"},
            {"SELECT ''::Time", "Code: 41 CANNOT_PARSE_DATETIME"},
            {"SELECT '12:30:00.999'::Time", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT '12:30:00.123'::Time64(3) AS t, toTypeName(t), '12:30:00'::Time64, toTypeName('01:02:03'::Time64), '12:30:00.123456789'::Time64(9), '12:30:00.5'::Time64(0) FORMAT TSV", "12:30:00.123\tTime64(3)\t12:30:00.000\tTime64(3)\t12:30:00.123456789\t12:30:00"},
            {"SELECT toTypeName(CAST('01:00:00' AS time)), toTypeName(CAST('01:00:00' AS Time64)) FORMAT TSV", "Time\tTime64(3)"},
            {"SELECT CAST('01:00:00' AS Time('UTC'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT CAST('01:00:00' AS Time64(3, 'UTC'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT CAST('01:00:00' AS Time64(10))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT CAST(45000 AS Time), CAST(-45000 AS Time), CAST(4000000 AS Time), CAST(-4000000 AS Time), CAST(1.7 AS Time) FORMAT TSV", "12:30:00\t-12:30:00\t999:59:59\t-999:59:59\t00:00:01"},
            {"SELECT toTime(toDateTime('2020-01-01 12:30:00')), toTime(3600), toTypeName(toTime(3600)), toTime64('12:00:00.5', 2), toTypeName(toTime64(1, 3)) FORMAT TSV", "12:30:00\t01:00:00\tTime\t12:00:00.50\tTime64(3)"},
            {"SELECT toTime(toDateTime('2020-01-01 12:30:00', 'Asia/Tokyo')), toTime64(toDateTime64('2020-01-01 12:30:00.75', 2), 2), toTime(toDate('2020-01-01')) FORMAT TSV", "12:30:00\t12:30:00.75\t00:00:00"},
            {"SELECT toTime64(1.25, 2), toTime64(-1.25, 2), toTime64('1.5', 1), toTime(true), toTime(-3599999 - 1), toTime64(-1, 0), toTime64(3599999.9999, 3) FORMAT TSV", "00:00:01.25\t-00:00:01.25\t00:00:01.5\t00:00:01\t-999:59:59\t-00:00:01\t999:59:59.000"},
            {"SELECT toTime('12:30:00', 'UTC')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT toTime('12:30:00') AS t, t + 1, toTypeName(t + 1), t - 1, t - toTime('12:00:00'), toTypeName(t - toTime('12:00:00')), t < toTime('13:00:00') FORMAT TSV", "12:30:00\t12:30:01\tTime\t12:29:59\t1800\tInt32\t1"},
            {"SELECT toTime64('12:30:00', 3) - toTime64('12:00:00', 3) AS d, toTypeName(d), toTime64('12:30:00', 3) + 1, toTypeName(toTime64('12:30:00', 3) + 1), toTime64('12:30:00', 3) - 1 FORMAT TSV", "1800\tDecimal(18, 3)\t12:30:01.000\tTime64(3)\t12:29:59.000"},
            {"SELECT toTime('12:30:00') + 1.5 AS d, toTypeName(d), 1 + toTime('12:30:00'), toTime('999:59:59') + 1 FORMAT TSV", "12:30:01\tTime\t12:30:01\t999:59:59"},
            {"SELECT toTime('12:30:00') - toTime64('12:00:00', 2) AS d, toTypeName(d) FORMAT TSV", "1800\tDecimal(18, 2)"},
            {"SELECT toTime('12:30:00') + INTERVAL 1 HOUR AS d, toTypeName(d), toTime('12:30:00') - INTERVAL 30 MINUTE FORMAT TSV", "13:30:00\tTime\t12:00:00"},
            {"SELECT toTime('12:00:00') + toTime('01:00:00')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTime('12:00:00') * 2", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTime('12:00:00') = '12:00:00', toTime('12:00:00') < toTime64('12:00:00.5', 1), greatest(toTime('01:00:00'), toTime('02:00:00')) FORMAT TSV", "1\t1\t02:00:00"},
            {"SELECT [toTime('01:00:00'), toTime('02:00:00')] AS a, toTypeName(a), if(1, toTime('01:00:00'), toTime64('02:00:00', 2)) AS b, toTypeName(b) FORMAT TSV", "['01:00:00','02:00:00']\tArray(Time)\t01:00:00.00\tTime64(2)"},
            {"SELECT toTime(NULL), toTypeName(toTime(toNullable('01:00:00'))), toTimeOrNull('xx'), toTimeOrZero('xx') FORMAT TSV", "\\N\tNullable(Time)\t\\N\t00:00:00"},
            {"SELECT CAST(toTime('12:30:00') AS Int32), CAST(toTime64('12:30:00.25', 2) AS Int64), CAST(toTime('12:30:00') AS String), CAST(toTime('12:30:00') AS DateTime), CAST(toTime('12:30:00') AS Time64(3)) FORMAT TSV", "45000\t45000\t12:30:00\t1970-01-01 12:30:00\t12:30:00.000"},
            {"SELECT toTime('12:30:00') AS t, toTime64('12:30:00.5', 3) AS u FORMAT JSONEachRow", "{\"t\":\"12:30:00\",\"u\":\"12:30:00.500\"}"},
            {"SELECT toTime('12:30:00') AS t, toTime64('12:30:00.5', 3) AS u FORMAT CSV", "\"12:30:00\",\"12:30:00.500\""},
            {"SELECT toTime('12:30:00') AS t, toTime64('12:30:00.5', 3) AS u FORMAT Values", "('12:30:00','12:30:00.500')"},
            {"SELECT toTime('12:30:00') AS t, [toTime64('12:30:00.5', 3)] AS u FORMAT JSONCompactEachRow", "[\"12:30:00\", [\"12:30:00.500\"]]"},
            {"SELECT min(t), max(t), count() FROM (SELECT toTime(number * 1000) AS t FROM numbers(5)) FORMAT TSV", "00:00:00\t01:06:40\t5"},
            {"SELECT name FROM system.data_type_families WHERE name IN ('Time', 'Time64') ORDER BY name FORMAT TSV", "Time\nTime64"},
            {"SELECT toHour(toTime('12:30:45'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT CAST(toTime64('12:30:00.75', 2) AS Time)", "Code: 70 CANNOT_CONVERT_TYPE"},
            {"SELECT CAST(toDateTime64('2020-01-01 12:30:00.75', 2) AS Time64(2)), CAST(toDateTime('2020-01-01 12:30:00') AS Time), CAST(toDate('2020-01-02') AS Time) FORMAT TSV", "12:30:00.75\t12:30:00\t00:00:00"},
            {"SELECT CAST(toTime64('12:30:00.25', 2) AS Float64), CAST(toTime64('12:30:00.25', 2) AS Decimal(10,3)), CAST(toTime('01:00:00') AS Float32), toTime64('12:30:00.25', 2) = 45000.25 FORMAT TSV", "45000.25\t45000.25\t3600\t1"},
            {"SELECT CAST(toTime('01:00:00') AS DateTime64(3))", "1970-01-01 01:00:00.000"},
            {"SELECT CAST(toTime64('01:00:00.5', 1) AS DateTime)", "Code: 70 CANNOT_CONVERT_TYPE"}
        };
    }
}
