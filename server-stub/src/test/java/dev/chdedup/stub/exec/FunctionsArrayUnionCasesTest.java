package dev.chdedup.stub.exec;

/**
 * arrayUnion and arraySymmetricDifference of {@link FunctionsArraySet}: the order of ClickHouse's hash table ({@link
 * HashTableOrder}) for integers, floats, dates, decimals and strings, NULLs, types and errors, held to the engine's
 * answers.
 */
class FunctionsArrayUnionCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT arrayUnion([-2, 1], [10, 1], [-2], []) AS num_example, arrayUnion(['hi'], [], ['hello', 'hi']) AS str_example, arrayUnion([1, 3, NULL], [2, 3, NULL]) AS null_example", "[10,-2,1]\t['hello','hi']\t[3,2,1,NULL]"},
            {"SELECT arrayUnion(range(1, 40)), arrayUnion([0, 5, 0, 1]), arrayUnion([toInt64(-1), 100000, 7]), arrayUnion([1.5, 2.5]), arrayUnion([toDate('2020-01-01'), toDate('2021-01-01')])", "[10,33,14,1,15,30,18,12,17,22,16,13,28,36,39,6,21,4,5,34,32,8,24,19,23,29,31,35,11,3,38,9,7,25,20,2,37,27,26]\t[0,1,5]\t[100000,7,-1]\t[2.5,1.5]\t['2020-01-01','2021-01-01']"},
            {"SELECT arrayUnion(['hi', 'hello', 'a', 'b', 'abc', 'abcd', 'abcdefgh', 'abcdefghijk', 'longer string here', 'zz', ''])", "['','b','abcd','abcdefghijk','zz','hello','hi','abcdefgh','abc','longer string here','a']"},
            {"SELECT arrayUnion([1], [1.5]) AS r, toTypeName(r), arrayUnion([1]), arrayUnion([toDecimal32(1.5, 2), 2.25::Decimal32(2)]), arrayUnion([-1::Int8, 3::Int8], [-5::Int8])", "[1.5,1]\tArray(Float64)\t[1]\t[1.5,2.25]\t[3,-5,-1]"},
            {"SELECT arrayUnion([toFloat32(0.5), 2], [7])", "[7,2,0.5]"},
            {"SELECT arrayUnion(range(number), [1]) FROM numbers(4)", "[1]\n[0,1]\n[0,1]\n[0,2,1]"},
            {"SELECT arraySymmetricDifference([1, 2], [1, 2], [1, 2]) AS a, arraySymmetricDifference([1, 2], [1, 2], [1, 3]) AS b, arraySymmetricDifference([1, 2, 3], [2, 3, 4]), arraySymmetricDifference([1, 2], [2, 3], [3, 4])", "[]\t[3,2]\t[1,4]\t[3,2,1,4]"},
            {"SELECT toTypeName(arraySymmetricDifference([1, NULL], [2])), arraySymmetricDifference([1, NULL], [2]), arraySymmetricDifference([1, NULL], [NULL]), arraySymmetricDifference([1, 2], [1.5]) AS r, toTypeName(r)", "Array(Nullable(UInt8))\t[2,1,NULL]\t[1]\t[2,1.5,1]\tArray(Float64)"},
            {"SELECT arraySymmetricDifference(['hi', 'hello', 'a', 'b', 'abc', 'abcd'], ['zz']), arraySymmetricDifference([1, 1, 2])", "['b','abcd','zz','hello','hi','abc','a']\t[]"},
            {"SELECT arraySymmetricDifference()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT arrayUnion([1], 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayUnion([1], ['a'])", "Code: 386 NO_COMMON_TYPE"},
        };
    }
}
