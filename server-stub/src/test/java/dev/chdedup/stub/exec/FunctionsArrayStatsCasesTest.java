package dev.chdedup.stub.exec;

/**
 * The measures of {@link FunctionsArrayStats} and the reductions of {@link FunctionArrayReduce}: Levenshtein distances,
 * autocorrelation, AUCs, Gini, arrayReduce over aggregates, their types and errors, held to the engine's answers.
 */
class FunctionsArrayStatsCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT arrayLevenshteinDistance([1, 2, 4], [1, 2, 3]), toTypeName(arrayLevenshteinDistance([1], [2])), arrayLevenshteinDistance(['a', 'b'], ['b']), arrayLevenshteinDistance([1, 2], [1.0, 2]), arrayLevenshteinDistance([1], ['a']), arrayLevenshteinDistance([[1]], [[1], [2]])", "1\tUInt32\t1\t2\t1\t1"},
            {"SELECT arrayLevenshteinDistance([], [1, 2]), arrayLevenshteinDistance([1::Int8], [1::UInt8]), arrayLevenshteinDistance(['a', 'b', 'c'], ['c', 'b', 'a'])", "2\t1\t2"},
            {"SELECT arrayLevenshteinDistanceWeighted(['A', 'B', 'C'], ['A', 'K', 'L'], [1.0, 2, 3], [3.0, 4, 5]), toTypeName(arrayLevenshteinDistanceWeighted([1], [2], [1], [1])), arrayLevenshteinDistanceWeighted([1, 2], [2], [1, 5], [2])", "14\tFloat64\t1"},
            {"SELECT arraySimilarity(['A', 'B', 'C'], ['A', 'K', 'L'], [1.0, 2, 3], [3.0, 4, 5]), arraySimilarity([1], [1], [1], [1]), arraySimilarity([1], [2], [0], [0])", "0.2222222222222222\t1\t1"},
            {"SELECT arrayLevenshteinDistanceWeighted([1, 2], [2], [1], [2])", "Code: 190 SIZES_OF_ARRAYS_DONT_MATCH"},
            {"SELECT arrayLevenshteinDistanceWeighted([1], [2], [1], [1.5])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayLevenshteinDistance([1], 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayAutocorrelation([1, 2, 3, 4, 5]), arrayAutocorrelation([10, 20, 10]), arrayAutocorrelation([5, 5, 5]), arrayAutocorrelation([1, 2, 3, 4, 5], 2)", "[1,0.4,-0.1,-0.4,-0.4]\t[1,-0.6666666666666669,0.16666666666666674]\t[nan,nan,nan]\t[1,0.4]"},
            {"SELECT arrayAutocorrelation([1, 2, 3, 4, 5], 0), arrayAutocorrelation([1, 2, 3], 10), arrayAutocorrelation([1]), toTypeName(arrayAutocorrelation([1::Float32]))", "[]\t[1,0,-0.5]\t[nan]\tArray(Float64)"},
            {"SELECT arrayAutocorrelation(['a'])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayROCAUC([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]), arrayROCAUC([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1], false), arrayROCAUC([1, 1, 1], [0, 1, 0]), arrayROCAUC([0.1, 0.4, 0.4, 0.8], [0, 1, 0, 1]), arrayAUC([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])", "0.75\t3\t0.5\t0.875\t0.75"},
            {"SELECT arrayROCAUC([1, 2], [1, 1]), arrayROCAUC([1, 2], [0, 0]), toTypeName(arrayROCAUC([1], [1]))", "nan\tnan\tFloat64"},
            {"SELECT arrayAUCPR([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1]), arrayAUCPR([0.1, 0.4, 0.4, 0.8], [0, 1, 0, 1]), arrayAUCPR([1, 2], [0, 0]), arrayPRAUC([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])", "0.8333333333333333\t0.8333333333333333\t0\t0.8333333333333333"},
            {"SELECT arrayROCAUC([0.1, 0.4], [0, 1, 1])", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT arrayNormalizedGini([0.9, 0.3, 0.8, 0.7], [6, 1, 0, 2]), arrayNormalizedGini([1, 2, 3], [1, 2, 3]), toTypeName(arrayNormalizedGini([1], [1]))", "(0.18055555555555558,0.2638888888888889,0.6842105263157896)\t(0.11111111111111116,0.11111111111111116,1)\tTuple(Float64, Float64, Float64)"},
            {"SELECT arrayNormalizedGini([0.9, 0.3, 0.8, 0.7], [6, 1, 0, 2, 3])", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT arrayNormalizedGini(['a'], [1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayReduce('max', [1, 2, 3]), arrayReduce('maxIf', [3, 5], [1, 0]), arrayReduce('sum', [1, 2]) AS r, toTypeName(r), arrayReduce('max', emptyArrayUInt8()), arrayReduce('count', [1, NULL])", "3\t3\t3\tUInt64\t0\t1"},
            {"SELECT arrayReduce('sum', [1, NULL]) AS r, toTypeName(r), arrayReduce('quantile(0.5)', [1, 2, 3, 4]), arrayReduce('uniq', [1, 1, 2])", "1\tNullable(UInt64)\t2.5\t2"},
            {"SELECT arrayReduce('foo', [1])", "Code: 63 UNKNOWN_AGGREGATE_FUNCTION"},
            {"SELECT arrayReduce(1, [1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayReduce('sum', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayReduceInRanges('sum', [(1, 5), (2, 3), (3, 4), (4, 4)], [1000000, 200000, 30000, 4000, 500, 60, 7]) AS r, toTypeName(r)", "[1234500,234000,34560,4567]\tArray(UInt64)"},
            {"SELECT arrayReduceInRanges('sum', [(1, 10), (0, 1), (5, 2)], [1, 2, 3, 4])", "[10,0,0]"},
            {"SELECT arrayReduce('sum', range(number)) FROM numbers(4)", "0\n0\n1\n3"},
        };
    }
}
