package dev.chdedup.stub.exec;

/**
 * The norms and distances of {@link FunctionsDistance} over tuples and arrays: result types, aliases and errors, held
 * to the engine's answers.
 */
class FunctionsDistanceCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(L1Norm((1, 2))), toTypeName(L2Norm((1, 2))), toTypeName(LinfNorm((1, -2))), toTypeName(L2SquaredNorm((1, 2))), toTypeName(LpNorm((1, 2), 2)), toTypeName(L1Distance((1, 2), (2, 3))), toTypeName(L2SquaredDistance((1, 2), (2, 3))), toTypeName(cosineDistance((1, 2), (2, 3)))", "UInt16\tFloat64\tFloat64\tUInt32\tFloat64\tUInt32\tInt64\tFloat64"},
            {"SELECT toTypeName(L1Norm((1::Int8, -2::Int16))), L1Norm((1::Int8, -2::Int16)), toTypeName(L2SquaredNorm((1::Int8, -2::Int16))), L1Norm((1,)) AS r, toTypeName(r)", "UInt32\t3\tInt64\t1\tUInt8"},
            {"SELECT L1Norm([1, 2]) AS r, toTypeName(r), L1Norm([1::Float32, -2]) AS r2, toTypeName(r2), L2Norm([1::Int64, 2]), LinfNorm([1, -3]), L2SquaredNorm([1, 2]), LpNorm([1, 2], 3)", "3\tFloat64\t3\tFloat32\t2.23606797749979\t3\t5\t2.080083823051904"},
            {"SELECT L1Distance([1, 2], [3, 5]), L2Distance([1::Float32, -2], [3::Float32, 5]) AS r, toTypeName(r), LinfDistance([1::Int64, 2], [3::Int8, 4]), L2SquaredDistance([1, 2], [3, 5]), LpDistance([1, 2], [3, 5], 3), cosineDistance([1, 2], [3, 5])", "5\t7.28011\tFloat32\t2\t13\t3.2710663101885897\t0.002945514498418511"},
            {"SELECT L1Distance([1, 2], [1, 2, 3])", "Code: 190 SIZES_OF_ARRAYS_DONT_MATCH"},
            {"SELECT L1Norm([])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT L1Normalize([1, 2])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT L1Normalize((1::Float32, 2)) AS r, toTypeName(r), L2Normalize((3, 4)), LinfNormalize((3, 4)), LpNormalize((3, 4), 5)", "(0.3333333333333333,0.6666666666666666)\tTuple(Float64, Float64)\t(0.6,0.8)\t(0.75,1)\t(0.7187302630182624,0.9583070173576831)"},
            {"SELECT normL1((1, 2)), distanceL2((1, 2), (2, 3)), normalizeL2((3, 4)), distanceCosine((1, 2), (2, 3))", "3\t1.4142135623730951\t(0.6,0.8)\t0.007722123286332261"},
            {"SELECT arrayDotProduct([1, 2, 3], [4, 5, 6]) AS r, toTypeName(r), arrayDotProduct([200, 200], [200, 200]), toTypeName(arrayDotProduct([1::Int8], [1::UInt8])), arrayDotProduct([1::Float32, -2], [3::Float32, 5]) AS f, toTypeName(f)", "32\tUInt16\t14464\tInt16\t-7\tFloat32"},
        };
    }
}
