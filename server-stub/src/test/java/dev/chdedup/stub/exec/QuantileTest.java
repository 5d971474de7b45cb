package dev.chdedup.stub.exec;

/**
 * The quantile aggregates as ClickHouse 26.7 computes them: quantile and median interpolating between the values
 * around level * (n - 1) (Float64), quantileExact and medianExact taking the value at floor(level * n) (the argument's
 * type), quantiles and quantilesExact as arrays, levels as parameters ({@code quantile(0.9)(x)}, integers 0 and 1
 * too), NULLs skipped, nan and the default of no value, per group, unsigned 64-bit values, and the engine's errors for
 * a level out of [0, 1] (PARAMETER_OUT_OF_BOUND) or not a number. The answers are the engine's, recorded through the
 * oracle (shared/oracle). Before, quantile was UNKNOWN_FUNCTION.
 */
class QuantileTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"SELECT quantile(0.5)(number), quantile(0.9)(number), quantile(number), median(number), quantileExact(0.5)(number), quantileExact(0.9)(number), medianExact(number), quantiles(0.1, 0.5, 0.99)(number), toTypeName(quantile(0.5)(number)), toTypeName(quantileExact(0.5)(number)) FROM numbers(10)", "4.5\t8.1\t4.5\t4.5\t5\t9\t5\t[0.9,4.5,8.91]\tFloat64\tUInt64"},
            {"SELECT quantile(0.5)(x), quantileExact(0.5)(x), quantiles(0.5)(x) FROM (SELECT toUInt8(1) AS x WHERE 0)", "nan\t0\t[nan]"},
            {"SELECT k, quantile(0.25)(v), quantileExact(0.75)(v) FROM (SELECT number % 2 AS k, number * 1.5 AS v FROM numbers(7)) GROUP BY k ORDER BY k", "0\t2.25\t9\n1\t3\t7.5"},
            {"SELECT quantile(1)(number) FROM numbers(4)", "3"},
            {"SELECT quantile(2.)(number) FROM numbers(3)", "Code: 12 PARAMETER_OUT_OF_BOUND"},
            {"SELECT quantilesExact(0.2, 0.8)(toInt32(number) - 5), toTypeName(quantilesExact(0.5)(toInt32(number))) FROM numbers(11)", "[-3,3]\tArray(Int32)"},
            {"SELECT quantile(0.3)(x), median(x), quantileExact(0.3)(x) FROM (SELECT if(number % 3 = 0, NULL, number) AS x FROM numbers(20))", "6.199999999999999\t10\t5"},
            {"SELECT quantile(0.5)(toFloat32(number) / 3) FROM numbers(6)", "0.8333333333333333"},
            {"SELECT quantiles(0.25, 0.5, 0.75)(number * number) FROM numbers(100)", "[612.75,2450.5,5513.25]"},
            {"SELECT quantile(0.5)(18446744073709551615 - number) FROM numbers(3)", "-2"},
            {"SELECT quantile(0)(number), quantileExact(1)(number), quantiles(0, 1)(number) FROM numbers(4)", "0\t3\t[0,3]"},
            {"SELECT quantile('a')(number) FROM numbers(4)", "Code: 70 CANNOT_CONVERT_TYPE"},
        };
    }
}
