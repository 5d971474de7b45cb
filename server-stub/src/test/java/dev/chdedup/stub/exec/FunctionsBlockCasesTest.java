package dev.chdedup.stub.exec;

/**
 * The "Other" functions of a whole block and of aggregate states beyond their documented examples, held to the
 * engine's answers: neighbor, runningDifference, runningDifferenceStartingWithFirstValue, rowNumberInBlock, blockSize,
 * rowNumberInAllBlocks and blockNumber over blocks of max_block_size and of numbers() (65409 rows), in WHERE, GROUP BY
 * and nested expressions; initializeAggregation and runningAccumulate with grouping; result types, NULLs, the
 * deprecation setting and the engine's errors.
 */
class FunctionsBlockCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT number, neighbor(number, -1, 100), toTypeName(neighbor(number, 1, 1000)), neighbor(toString(number), number - 2), neighbor(number, 1, number * 10) FROM numbers(4) SETTINGS allow_deprecated_error_prone_window_functions = 1", "0\t100\tUInt64\t\t1\n1\t0\tUInt64\t0\t2\n2\t1\tUInt64\t2\t3\n3\t2\tUInt64\t\t30"},
            {"SELECT toTypeName(neighbor(toNullable(1), 1)), toTypeName(neighbor(1, 1, NULL)), toTypeName(neighbor(toUInt8(1), 1, -1)) SETTINGS allow_deprecated_error_prone_window_functions = 1", "Nullable(UInt8)\tNullable(UInt8)\tInt16"},
            {"SELECT neighbor(number, 18446744073709551615) FROM numbers(3) SETTINGS allow_deprecated_error_prone_window_functions = 1", "0\n0\n1"},
            {"SELECT neighbor(number, 2) FROM numbers(3)", "Code: 721 DEPRECATED_FUNCTION"},
            {"SELECT neighbor(1, 'a') SETTINGS allow_deprecated_error_prone_window_functions = 1", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT neighbor(1) SETTINGS allow_deprecated_error_prone_window_functions = 1", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT neighbor(1, 1, 'a') SETTINGS allow_deprecated_error_prone_window_functions = 1", "Code: 386 NO_COMMON_TYPE"},
            {"SELECT neighbor(number, toNullable(1)) FROM numbers(3) SETTINGS allow_deprecated_error_prone_window_functions = 1", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTypeName(runningDifference(toUInt8(1))), toTypeName(runningDifference(toUInt16(1))), toTypeName(runningDifference(toUInt32(1))), toTypeName(runningDifference(toInt64(1))), toTypeName(runningDifference(1.5)), toTypeName(runningDifference(toDate('2020-01-01'))), toTypeName(runningDifference(now())), toTypeName(runningDifference(toNullable(1))) SETTINGS allow_deprecated_error_prone_window_functions = 1", "Int16\tInt32\tInt64\tInt64\tFloat64\tInt32\tInt64\tNullable(Int16)"},
            {"SELECT runningDifference(x) FROM (SELECT arrayJoin([1, NULL, 3, 10, NULL, NULL, 4]) x) SETTINGS allow_deprecated_error_prone_window_functions = 1", "0\n\\N\n2\n7\n\\N\n\\N\n-6"},
            {"SELECT runningDifferenceStartingWithFirstValue(x) FROM (SELECT arrayJoin([5, NULL, 3, 10]) x) SETTINGS allow_deprecated_error_prone_window_functions = 1", "5\n\\N\n-2\n7"},
            {"SELECT runningDifference(x) FROM (SELECT arrayJoin([toUInt64(0), 18446744073709551615]) x) SETTINGS allow_deprecated_error_prone_window_functions = 1", "0\n-1"},
            {"SELECT runningDifference(x) FROM (SELECT arrayJoin([toUInt8(0), 255, 1]) x) SETTINGS allow_deprecated_error_prone_window_functions = 1", "0\n255\n-254"},
            {"SELECT runningDifference(x) FROM (SELECT arrayJoin([1.5, 0.25, -2]) x) SETTINGS allow_deprecated_error_prone_window_functions = 1", "0\n-1.25\n-2.25"},
            {"SELECT runningDifference('a') SETTINGS allow_deprecated_error_prone_window_functions = 1", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT runningDifference(toDecimal32(1,2)) SETTINGS allow_deprecated_error_prone_window_functions = 1", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT runningDifference(1)", "Code: 721 DEPRECATED_FUNCTION"},
            {"SELECT number, runningDifference(number) FROM numbers(5) WHERE number % 2 = 0 SETTINGS allow_deprecated_error_prone_window_functions = 1", "0\t0\n2\t2\n4\t2"},
            {"SELECT blockNumber(), blockSize(), rowNumberInBlock(), rowNumberInAllBlocks() FROM (SELECT * FROM system.numbers LIMIT 10) SETTINGS max_block_size = 3", "6\t3\t0\t0\n6\t3\t1\t1\n6\t3\t2\t2\n7\t3\t0\t3\n7\t3\t1\t4\n7\t3\t2\t5\n8\t3\t0\t6\n8\t3\t1\t7\n8\t3\t2\t8\n9\t1\t0\t9"},
            {"SELECT blockSize(), count() FROM numbers(100000) GROUP BY 1 ORDER BY 1", "34591\t34591\n65409\t65409"},
            {"SELECT toString(rowNumberInBlock()) FROM numbers(3)", "0\n1\n2"},
            {"SELECT number FROM numbers(10) WHERE rowNumberInBlock() % 3 = 0 SETTINGS max_block_size = 4", "0\n3\n4\n7\n8"},
            {"SELECT toTypeName(blockNumber()), toTypeName(blockSize()), toTypeName(rowNumberInBlock()), toTypeName(rowNumberInAllBlocks())", "UInt64\tUInt64\tUInt64\tUInt64"},
            {"SELECT rowNumberInBlock(1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT initializeAggregation('sum', 5), toTypeName(initializeAggregation('sum', 5)), toTypeName(initializeAggregation('quantileState(0.5)', 5)), finalizeAggregation(initializeAggregation('quantileState(0.5)', 5))", "5\tUInt64\tAggregateFunction(quantile(0.5), UInt8)\t5"},
            {"SELECT initializeAggregation(1, 2)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT initializeAggregation('sumState')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT initializeAggregation('nosuch', 1)", "Code: 63 UNKNOWN_AGGREGATE_FUNCTION"},
            {"SELECT initializeAggregation(materialize('sum'), 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT finalizeAggregation(initializeAggregation('sumState', toNullable(1))), finalizeAggregation(initializeAggregation('argMaxState', 'a', 1))", "1\ta"},
            {"SELECT number, runningAccumulate(s, number % 2 = 0 OR number = 3) FROM (SELECT number, initializeAggregation('sumState', number) s FROM numbers(6)) SETTINGS allow_deprecated_error_prone_window_functions = 1", "0\t0\n1\t1\n2\t2\n3\t5\n4\t9\n5\t5"},
            {"SELECT runningAccumulate(s, k) FROM (SELECT sumState(number) s, number % 3 k FROM numbers(9) GROUP BY k ORDER BY k) SETTINGS allow_deprecated_error_prone_window_functions = 1", "9\n12\n15"},
            {"SELECT runningAccumulate(1) SETTINGS allow_deprecated_error_prone_window_functions = 1", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT runningAccumulate() SETTINGS allow_deprecated_error_prone_window_functions = 1", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT runningAccumulate(initializeAggregation('sumState', number)) FROM numbers(3)", "Code: 721 DEPRECATED_FUNCTION"},
        };
    }
}
