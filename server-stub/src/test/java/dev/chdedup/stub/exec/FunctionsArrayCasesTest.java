package dev.chdedup.stub.exec;

/**
 * The array functions of {@link FunctionsArray}, {@link FunctionsArrayMapped} (with {@link HigherOrderFunctions}),
 * {@link FunctionsArrayAggregation} and {@link FunctionArraySort}: result types, NULLs, edges, errors and their
 * system.functions rows, held to the engine's answers.
 */
class FunctionsArrayCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(arrayPushBack([1], 2::Int16)), arrayPushBack([1], NULL), arrayPushFront(['b'], 'a'), arrayPopBack([]), arrayPopFront([1])", "Array(Int16)\t[1,NULL]\t['a','b']\t[]\t[]"},
            {"SELECT arrayPushBack([1], 'a')", "Code: 386 NO_COMMON_TYPE"},
            {"SELECT arrayPopBack(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayResize([1, 2, 3], -1), arrayResize([1], -3), arrayResize([1, 2, 3], -2, 9), arrayResize([1, 2, 3], 0), toTypeName(arrayResize([1], 3, 1000))", "[3]\t[0,0,1]\t[2,3]\t[]\tArray(UInt16)"},
            {"SELECT arrayWithConstant(2, NULL), toTypeName(arrayWithConstant(2, 'a')), replicate(NULL, [1, 2]), toTypeName(replicate(1, [NULL]))", "[NULL,NULL]\tArray(String)\t[NULL,NULL]\tArray(UInt8)"},
            {"SELECT arrayWithConstant(-1, 1)", "Code: 128 TOO_LARGE_ARRAY_SIZE"},
            {"SELECT range(toUInt8(3)) AS r, toTypeName(r), range(-2, 2) AS r2, toTypeName(r2), range(1, 10, 3), range(5, 1, -1), range(5, 1), range(NULL)", "[0,1,2]\tArray(UInt8)\t[-2,-1,0,1]\tArray(Int16)\t[1,4,7]\t[5,4,3,2]\t[]\t\\N"},
            {"SELECT range(1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT range(1, 5, 0)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT range(1, 2, 3, 4)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT reverse([1, NULL]) AS r, toTypeName(r), reverse((1, 'a')), reverse('abc')", "[NULL,1]\tArray(Nullable(UInt8))\t('a',1)\tcba"},
            {"SELECT arrayRotateLeft([1, 2, 3], 5), arrayRotateRight([1, 2, 3], -7), arrayShiftRight(['a', 'b'], 1), arrayShiftRight(['a', 'b'], 1, 'z'), arrayShiftLeft([1, 2, 3], 5)", "[3,1,2]\t[2,3,1]\t['','a']\t['z','a']\t[0,0,0]"},
            {"SELECT arrayShiftRight([1, 2], 1, 300)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayRotateLeft([1, 2], 1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayShingles([1, 2, 3], 2) AS r, toTypeName(r)", "[[1,2],[2,3]]\tArray(Array(UInt8))"},
            {"SELECT arrayShingles([1, 2], 3)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT arrayShingles([1, 2], 0)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT arrayCompact([1, NULL, NULL, 2, 2]), arrayCompact([nan, nan, 1]), arrayFlatten([[1], [2, 3]]), arrayFlatten([1, 2]), toTypeName(arrayFlatten([[[1]]]))", "[1,NULL,2]\t[nan,1]\t[1,2,3]\t[1,2]\tArray(UInt8)"},
            {"SELECT arrayFlatten(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayTranspose([[1, 2], [3]])", "Code: 190 SIZES_OF_ARRAYS_DONT_MATCH"},
            {"SELECT arrayTranspose([1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayZipUnaligned([1], ['a', 'b']) AS r, toTypeName(r)", "[(1,'a'),(NULL,'b')]\tArray(Tuple(Nullable(UInt8), Nullable(String)))"},
            {"SELECT arrayZipUnaligned([1], 2)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTypeName(arrayElementOrNull([1, 2], 3)), arrayElementOrNull([1], 0), arrayElementOrNull([1, 2], -2), arrayElementOrNull(['a'], 1)", "Nullable(UInt8)\t\\N\t1\ta"},
            {"SELECT arrayElementOrNull([1, 2], 'a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT emptyArrayToSingle([1]), emptyArrayToSingle(emptyArrayString()), toTypeName(emptyArrayToSingle([NULL])), emptyArrayToSingle(CAST([] AS Array(Nullable(Int8))))", "[1]\t['']\tArray(Nullable(Nothing))\t[NULL]"},
            {"SELECT arrayRemove([1, 2, 2, 3], 2), arrayRemove([1, NULL], NULL), arrayRemove(['a'], 'b')", "[1,3]\t[1]\t['a']"},
            {"SELECT arrayRemove([1, 2], 'a')", "Code: 386 NO_COMMON_TYPE"},
            {"SELECT toTypeName(emptyArrayDateTime()), toTypeName(emptyArrayInt8()), emptyArrayFloat32()", "Array(DateTime)\tArray(Int8)\t[]"},
            {"SELECT toTypeName(arraySum([1, 2])), toTypeName(arraySum([-1])), toTypeName(arraySum([toDecimal32(1, 2)])), toTypeName(arrayAvg([1])), toTypeName(arrayMin([1, NULL])), toTypeName(arrayProduct([1, 2]))", "UInt64\tInt64\tDecimal(38, 2)\tFloat64\tNullable(UInt8)\tFloat64"},
            {"SELECT arrayMin(emptyArrayUInt8()), arrayMax(emptyArrayFloat64()), arraySum(emptyArrayUInt8()), arrayAvg(emptyArrayUInt8()), arrayMin(emptyArrayString())", "0\t0\t0\t0\t"},
            {"SELECT arrayMin(['b', 'a']), arrayMax([toDate('2020-01-01')]), arrayMin([1, NULL]), arrayMax([NULL, NULL]), arrayMin([nan, 1]), arrayMax([1, nan, 3]), arrayMin([nan])", "a\t2020-01-01\t1\t\\N\t1\t3\tnan"},
            {"SELECT arraySum(['a'])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayAvg([NULL, 1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arraySum([toUInt64(18446744073709551615), 1]), arrayProduct([toInt8(100), 100]), arraySum(NULL)", "0\t10000\t\\N"},
            {"SELECT toTypeName(arrayDifference([1::Int8])), toTypeName(arrayDifference([1::UInt32])), toTypeName(arrayDifference([1::Float32])), toTypeName(arrayCumSum([toDecimal32(1, 2)])), arrayDifference([toUInt8(0), 255]), arrayCumSum([toInt8(127), 1]), arrayCumSumNonNegative([1.5, -3, 2])", "Array(Int16)\tArray(Int64)\tArray(Float64)\tArray(Decimal(38, 2))\t[0,255]\t[127,128]\t[1.5,0,2]"},
            {"SELECT arrayDifference([1, NULL])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayCumSum([1, NULL])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayCount([1, 0, 2]), arrayExists([0, 1]), arrayAll([1, 1]), toTypeName(arrayCount(x -> x, [1]))", "2\t1\t1\tUInt32"},
            {"SELECT arrayCount([])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayFilter([1])", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT arraySort(x -> x, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arraySum(x -> x, [1], [2])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayMap(x, y -> x, [1], [2, 3])", "Code: 190 SIZES_OF_ARRAYS_DONT_MATCH"},
            {"SELECT arrayFilter(x -> x * 2, [1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayFilter(x -> x = 1 OR x IS NULL, [1, NULL, 2]), arrayCount(x -> true, [1]), arrayExists(x -> toNullable(x), [0])", "[1,NULL]\t1\t0"},
            {"SELECT arraySort([3, NULL, 1]), arrayReverseSort([3, NULL, 1, nan]), arraySort(x -> -x, [1, 2, 3]), arraySort((x, y) -> y, ['a', 'b'], [2, 1])", "[1,3,NULL]\t[3,1,nan,NULL]\t[3,2,1]\t['b','a']"},
            {"SELECT arrayPartialSort(2, [5, 9, 1, 3]), arrayPartialSort(0, [3, 1]), arrayPartialSort(-1, [3, 1]), arrayPartialReverseSort(1, [1, 5, 3, 2, 4])", "[1,3,5,9]\t[1,3]\t[1,3]\t[5,4,3,2,1]"},
            {"SELECT arrayTopK(2, [1, 2, 3]) AS r, toTypeName(r), arrayTopK(0, [1]), arrayBottomK(2, ['b', 'a', 'c']), arrayTopK(2, [nan, 1, 2]), toTypeName(arrayTopK(2, [1, NULL]))", "[3,2]\tArray(UInt8)\t[]\t['a','b']\t[2,1]\tArray(UInt8)"},
            {"SELECT arrayTopK(-1, [1])", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT arrayFirst(x -> x > 5, [1, 2]) AS r, toTypeName(r), arrayFirstOrNull(x -> x > 5, [1, 2]) AS r2, toTypeName(r2), arrayLastIndex(x -> x > 0, []) AS r3, toTypeName(r3)", "0\tUInt8\t\\N\tNullable(UInt8)\t0\tUInt32"},
            {"SELECT arrayFirst(x -> x, [1, NULL]) AS r, toTypeName(r), arrayLast(x -> x > 1, [1, 2, 3]), arrayFirstIndex(x -> x > 1, [1, 2, 3])", "1\tNullable(UInt8)\t3\t2"},
            {"SELECT arrayFill(x -> x > 1, [1, 2, 0, 0]), arrayReverseFill(x -> x > 1, [0, 0, 2, 0]), arrayFill(x -> x, [1, NULL, 0])", "[1,2,2,2]\t[2,2,2,0]\t[1,1,1]"},
            {"SELECT arraySplit(x -> x, []), arraySplit(x -> x, [1, 2, 0]), arrayReverseSplit(x -> x, [1, 0, 2]), toTypeName(arraySplit(x -> x, [1])), arraySplit((x, y) -> y, [1, 2], [1, 1])", "[]\t[[1],[2,0]]\t[[1],[0,2]]\tArray(Array(UInt8))\t[[1],[2]]"},
            {"SELECT arrayFold((acc, x) -> acc + x, [1, 2, 3], toUInt64(0)) AS r, toTypeName(r), arrayFold((acc, x) -> acc + x, [1, 2, 3], 1.5)", "6\tUInt64\t7.5"},
            {"SELECT arrayFold((acc, x) -> acc + x, [1, 2, 3], 0)", "Code: 53 TYPE_MISMATCH"},
            {"SELECT arrayMap(x, y -> x + y, [1, 2], [3, 4]), arrayMap(x -> x * number, [1, 2]) FROM numbers(2)", "[4,6]\t[0,0]\n[4,6]\t[1,2]"},
            {"SELECT name, case_insensitive, alias_to, categories FROM system.functions WHERE name IN ('arraySum', 'reverse', 'REVERSE', 'flatten', 'tupleElement', 'L2Norm', 'normL2', 'arrayAUC', 'dotProduct', 'scalarProduct', 'arrayFold', 'arrayEnumerate', 'array', 'tuple') ORDER BY name", "L2Norm\t0\t\tDistance\narray\t0\t\tArrays\narrayAUC\t0\tarrayROCAUC\t\narrayEnumerate\t0\t\tArrays\narrayFold\t0\t\tArrays\narraySum\t0\t\tArrays\ndotProduct\t0\t\tTuple\nflatten\t1\tarrayFlatten\t\nnormL2\t1\tL2Norm\t\nreverse\t1\t\tArrays\nscalarProduct\t1\tdotProduct\t\ntuple\t0\t\tTuple\ntupleElement\t0\t\tTuple"},
        };
    }
}
