package dev.chdedup.stub.exec;

/**
 * accurateCastOrDefault and the to*OrDefault and OrZero conversions, held to the engine's answers: what converts
 * exactly (numbers that keep their value, an integer's exact text), the default argument's type check, NULL, Date32's
 * zero, decimals with a scale, DateTime and DateTime64 with a zone, Nullable targets.
 */
class AccurateConversionCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toInt8OrDefault('abc'), toInt8OrDefault('12'), toInt8OrDefault('300', toInt8(5)), toTypeName(toInt8OrDefault('1', toInt8(5))), toInt8OrDefault(NULL), toTypeName(toInt8OrDefault(toNullable('1')))", "0\t12\t5\tInt8\t0\tInt8"},
            {"SELECT toInt8OrDefault('1', 5)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toInt8OrDefault('1', toInt16(5))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toInt8OrDefault(1.5, toInt8(3)), toInt8OrDefault(300, toInt8(3)), toUInt8OrDefault(-1, toUInt8(7)), toFloat32OrDefault('x', toFloat32(1.5))", "3\t3\t7\t1.5"},
            {"SELECT toInt8OrDefault(number::String, toInt8(-1)) FROM numbers(2)", "0\n1"},
            {"SELECT toDateOrDefault('x'), toDateOrDefault('x', toDate('2020-01-01')), toDate32OrDefault('xx'), toDateTimeOrDefault('x'), toDateTimeOrDefault('x', 'UTC'), toDateTime64OrDefault('x', 3)", "1970-01-01\t2020-01-01\t1900-01-01\t1970-01-01 00:00:00\t1970-01-01 00:00:00\t1970-01-01 00:00:00.000"},
            {"SELECT toDecimal32OrDefault('x', 2), toDecimal32OrDefault('1.5', 2, toDecimal32(9, 2)), toTypeName(toDecimal32OrDefault('x', 2))", "0\t1.5\tDecimal(9, 2)"},
            {"SELECT toInt8OrDefault('1', 'x')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDate32OrZero('x'), toDate32OrNull('x'), accurateCastOrDefault('x', 'Date32'), toDateTime64OrZero('x', 3), toDateTimeOrZero('x')", "1900-01-01\t\\N\t1900-01-01\t1970-01-01 00:00:00.000\t1970-01-01 00:00:00"},
            {"SELECT accurateCastOrDefault(1.5, 'Int8'), accurateCastOrDefault(1.5, 'Int8', toInt8(4)), accurateCastOrDefault(NULL, 'Int8'), toTypeName(accurateCastOrDefault(toNullable(1), 'Int8')), accurateCastOrDefault(1e300, 'Float32'), accurateCastOrDefault('1.5', 'Int8')", "0\t4\t0\tInt8\t0\t0"},
            {"SELECT accurateCastOrDefault(1, 'Int8', 5)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT accurateCastOrDefault(2, 'Int8', toInt8(5)), accurateCastOrDefault(-1, 'UInt64'), accurateCastOrDefault(256, 'UInt8'), accurateCastOrDefault('256', 'UInt8'), accurateCastOrDefault(' 25', 'UInt8'), accurateCastOrDefault('2.0', 'UInt8'), accurateCastOrDefault(1.0, 'UInt8')", "2\t0\t0\t0\t0\t0\t1"},
            {"SELECT toDateTimeOrDefault('x','UTC', toDateTime('2020-01-01 00:00:00', 'Asia/Tokyo'))", "2019-12-31 15:00:00"},
            {"SELECT toDateTime64OrDefault('x', 3, 'UTC', toDateTime64('2020-01-01 00:00:00', 2))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDecimal32OrDefault('x', 2, toDecimal32(1, 3))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toDecimal32OrDefault(1.234, 2), toDecimal32OrDefault('1.234', 2), toDecimal32OrDefault('Inf', 0), toDecimal64OrDefault('1e3', 0)", "1.23\t1.23\t0\t1000"},
            {"SELECT accurateCastOrDefault('abc', 'Nullable(UInt8)'), accurateCastOrDefault(NULL, 'Nullable(UInt8)', toNullable(toUInt8(3)))", "\\N\t3"},
        };
    }
}
