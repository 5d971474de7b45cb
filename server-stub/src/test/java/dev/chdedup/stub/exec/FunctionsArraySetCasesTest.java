package dev.chdedup.stub.exec;

/**
 * The lookups and counts of {@link FunctionsArraySet}: types, NULL elements, maps and JSON, common-type errors, held to
 * the engine's answers.
 */
class FunctionsArraySetCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT has([1, NULL], NULL), has([1, 2], 1.0), has(['a'], 'a'), has([[1, 2]], [1, 2]), has([(1, 'a')], (1, 'a'))", "1\t1\t1\t1\t1"},
            {"SELECT has([1, 2], 'a')", "Code: 386 NO_COMMON_TYPE"},
            {"SELECT has(1, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT has(map('a', 1), 'a'), has(map('a', 1), 'b')", "1\t0"},
            {"SELECT hasAll([1, 2], [1, NULL]), hasAny([NULL], [1]), hasSubstr([1, 2, 3], []), hasSubstr([1, 2, 1, 2, 3], [1, 2, 3]), hasSubstr([1, 2], [1.5])", "0\t0\t1\t1\t0"},
            {"SELECT hasAll([1], 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTypeName(countEqual([1], 1)), countEqual([1, 2, 1], 1), countEqual([1, 2], NULL), countEqual([1, NULL, NULL], NULL)", "UInt64\t2\t0\t2"},
            {"SELECT countEqual([1, 2], 'a')", "Code: 386 NO_COMMON_TYPE"},
            {"SELECT indexOfAssumeSorted([1, 2, 3, 3], 3), indexOfAssumeSorted([1, 2, 3], 4), indexOfAssumeSorted([3, 2, 1], 3), toTypeName(indexOfAssumeSorted([1], 1))", "3\t0\t0\tUInt64"},
            {"SELECT arrayExcept([1, 2, 1], [1]), arrayExcept([1, NULL], [NULL]), arrayExcept(['a'], [])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayExcept([1, 2], [1.0])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayExcept([1], 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayJaccardIndex([1, 2], [2, 3]) AS r, toTypeName(r), arrayJaccardIndex([1, 1, 2], [1])", "0.3333333333333333\tFloat64\t0.3333333333333333"},
            {"SELECT arrayJaccardIndex([], [])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT arrayUniq([1, NULL, NULL]), arrayUniq([]), arrayUniq([1, 1], [2, 3]), arrayEnumerateUniq([1, NULL, NULL, 1]), arrayEnumerateDense([NULL, 1, NULL]), toTypeName(arrayEnumerateUniq([1]))", "2\t0\t2\t[1,1,2,2]\t[1,2,1]\tArray(UInt32)"},
            {"SELECT arrayEnumerateUniqRanked([[1, 2], [1]]), arrayEnumerateUniqRanked([[1, 2], [1]], 1), arrayEnumerateDenseRanked([[1, 2], [1]]), toTypeName(arrayEnumerateUniqRanked(1, [[1]], 2))", "[[1,1],[2]]\t[1,1]\t[[1,2],[1]]\tArray(Array(UInt32))"},
            {"SELECT has('{\"a\": {\"b\": 1}}'::JSON, 'a'), has('{\"a\": {\"b\": 1}}'::JSON, 'a.b'), has('{\"a\": {\"b\": 1}}'::JSON, 'a.c'), has('{\"a\": null}'::JSON, 'a'), has('{\"a\": [1]}'::JSON, 'a')", "1\t1\t0\t0\t1"},
            {"SELECT has('{\"a\": 1}'::JSON, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT has('{\"ab\": 1}'::JSON, 'a'), has(map('a', 1, 'b', 2), 'b'), has(map(1, 'x'), 2)", "0\t1\t0"},
        };
    }
}
