package dev.chdedup.stub.exec;

/**
 * The order of topK, topKWeighted, approx_top_k, approx_top_count and approx_top_sum among values of equal counts,
 * held to the engine's answers: ClickHouse's partial sort of the counters (numbers, strings, weighted, k below and
 * above the number of distinct values).
 */
class AggregateFunctionsTopKCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT approx_top_k(2)(k) FROM VALUES('k Char, w UInt64', ('y', 1), ('y', 1), ('x', 5), ('y', 1), ('z', 10))", "[('y',3,0),('z',1,0)]"},
            {"SELECT topK(3)(number % 7) FROM numbers(20)", "[3,5,4]"},
            {"SELECT topK(2)(x), approx_top_k(3)(x), approx_top_count(2)(x) FROM (SELECT arrayJoin([5, 3, 3, 1, 1, 7, 9, 9, 2]) AS x)", "[1,9]\t[(9,2,0),(1,2,0),(3,2,0)]\t[(1,2,0),(9,2,0)]"},
            {"SELECT topK(4)(x), approx_top_k(4)(x) FROM (SELECT arrayJoin(['a', 'b', 'c', 'd', 'e', 'f', 'c', 'e']) AS x)", "['e','c','f','a']\t[('e',2,0),('c',2,0),('f',1,0),('a',1,0)]"},
            {"SELECT topKWeighted(2)(x, w), approx_top_sum(2)(x, w) FROM (SELECT arrayJoin([(1, 2), (2, 2), (3, 1), (4, 2)]) AS t, t.1 AS x, t.2 AS w)", "[4,1]\t[(4,2,0),(1,2,0)]"},
            {"SELECT topK(5)(number % 13) FROM numbers(100)", "[5,8,7,6,4]"},
        };
    }
}
