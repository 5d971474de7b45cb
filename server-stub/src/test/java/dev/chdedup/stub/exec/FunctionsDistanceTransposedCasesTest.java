package dev.chdedup.stub.exec;

/**
 * The QBit distances of {@link FunctionsDistanceTransposed}: each element read from the first precision bits of
 * Float64, Float32 and BFloat16 QBits, and the errors of a wrong precision, reference size or argument type, held to
 * the engine's answers.
 */
class FunctionsDistanceTransposedCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"CREATE TABLE qb (id UInt32, vec QBit(Float64, 1), v32 QBit(Float32, 1), b16 QBit(BFloat16, 1)) ENGINE = Memory", ""},
            {"INSERT INTO qb VALUES (1, [1], [1], [1]), (2, [0.3], [0.3], [0.3]), (3, [7], [7], [7]), (4, [-2.5], [-2.5], [-2.5])", ""},
            {"SELECT groupArray(dotProductTransposed(vec, [1], 8)), groupArray(dotProductTransposed(v32, [1], 8)), groupArray(dotProductTransposed(b16, [1], 8)) FROM (SELECT * FROM qb ORDER BY id)", "[0.000030517578125,0.000030517578125,2,-2]\t[0.5,0.125,2,-2]\t[0.5,0.125,2,-2]"},
            {"SELECT groupArray(dotProductTransposed(vec, [1], 12)), groupArray(dotProductTransposed(v32, [1], 12)), groupArray(dotProductTransposed(b16, [1], 12)) FROM (SELECT * FROM qb ORDER BY id)", "[1.5,0.375,6,-3]\t[1.0625,0.296875,7.25,-2.625]\t[1.0625,0.296875,7.25,-2.625]"},
            {"SELECT groupArray(dotProductTransposed(vec, [1], 16)), groupArray(dotProductTransposed(v32, [1], 16)), groupArray(dotProductTransposed(b16, [1], 16)) FROM (SELECT * FROM qb ORDER BY id)", "[1.03125,0.3046875,7.125,-2.5625]\t[1.00390625,0.2998046875,7.015625,-2.5078125]\t[1,0.298828125,7,-2.5]"},
            {"SELECT groupArray(L2DistanceTransposed(vec, [2], 20)), groupArray(distanceL2Transposed(vec, [0.1], 64)) FROM (SELECT * FROM qb ORDER BY id)", "[0.998046875,1.69970703125,5.0078125,4.50390625]\t[0.9,0.19999999999999998,6.9,2.6]"},
            {"SELECT L2DistanceTransposed(vec, [1], 0) FROM qb", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT L2DistanceTransposed(v32, [1], 33) FROM qb", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT L2DistanceTransposed(vec, [1, 1], 16) FROM qb", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT L2DistanceTransposed([1, 2, 3], [1, 1, 1], 16)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"DROP TABLE qb", ""},
        };
    }
}
