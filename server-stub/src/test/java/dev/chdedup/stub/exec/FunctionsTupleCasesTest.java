package dev.chdedup.stub.exec;

/**
 * The tuple functions of {@link FunctionsTuple} (and tupleElement): element types from the scalar functions, names,
 * NULLs and errors, held to the engine's answers.
 */
class FunctionsTupleCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(tuplePlus((1, 2), (2, 3))), toTypeName(tupleMinus((1, 2), (2, 3))), toTypeName(tupleMultiply((1, 2.5), (2, 3))), toTypeName(tupleDivide((1, 2), (2, 3))), toTypeName(tupleNegate((1, 2))), toTypeName(tupleModulo((15, 10), (5, 3)))", "Tuple(UInt16, UInt16)\tTuple(Int16, Int16)\tTuple(UInt16, Float64)\tTuple(Float64, Float64)\tTuple(Int16, Int16)\tTuple(UInt8, UInt8)"},
            {"SELECT toTypeName(tupleMultiplyByNumber((1, 2), -2.1)), toTypeName(tupleDivideByNumber((1, 2), 2)), toTypeName(tupleIntDivByNumber((1, 2), 2)), toTypeName(tupleModuloByNumber((1, 2), 2)), tupleIntDivOrZeroByNumber((1, 2), 0)", "Tuple(Float64, Float64)\tTuple(Float64, Float64)\tTuple(UInt8, UInt8)\tTuple(UInt8, UInt8)\t(0,0)"},
            {"SELECT tuplePlus((1, 2), (1, 2, 3))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT tuplePlus((1, 2), [1, 2])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTypeName(tuplePlus(NULL, (1, 2))), tuplePlus((1, NULL), (1, 2)), vectorSum((1, 2), (3, 4)), vectorDifference((1, 2), (3, 4))", "Nullable(Nothing)\t(2,NULL)\t(4,6)\t(-2,-2)"},
            {"SELECT toTypeName(tupleHammingDistance((1, 2), (1, 3))), toTypeName(tupleHammingDistance((1, 2, 3), (1, 3, 4))), tupleHammingDistance((1, 'a'), (2, 'a')), tupleHammingDistance(tuple(), tuple())", "UInt16\tUInt32\t1\t0"},
            {"SELECT tupleNames(CAST((1, 'a') AS Tuple(x UInt8, y String))), tupleNames((1, 2)), toTypeName(tupleConcat(CAST((1, 'a') AS Tuple(x UInt8, y String)), (2,)))", "['x','y']\t['1','2']\tTuple(UInt8, String, UInt8)"},
            {"SELECT tupleConcat(1, (2,))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT tupleNames(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT tupleToNameValuePairs(CAST((1, 2) AS Tuple(x UInt8, y UInt16)))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT tupleToNameValuePairs(CAST((1, 2) AS Tuple(x UInt8, y UInt8))), tupleToNameValuePairs((3, 2, 1))", "[('x',1),('y',2)]\t[('1',3),('2',2),('3',1)]"},
            {"SELECT flattenTuple(CAST((3, ('c', 4)) AS Tuple(a UInt32, b Tuple(c String, d UInt32))))", "(3,'c',4)"},
            {"SELECT flattenTuple((1, (2, 3)))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT tupleElement((1, 'hello'), -1), tupleElement((1, 2), 5, 'not_found'), tupleElement((1, 2), -3, 'x'), tupleElement(CAST((1, 2) AS Tuple(a UInt8, b UInt8)), 'b')", "hello\tnot_found\tx\t2"},
            {"SELECT tupleElement((1, 2), 0)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT tupleElement((1, 2), 'c')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toTypeName(dotProduct((1, 2), (3, 4))), dotProduct((1, 2), (3, 4)), scalarProduct([1, 2], [3, 4]), toTypeName(dotProduct((1, 2.5), (1, 2)))", "UInt32\t11\t11\tFloat64"},
        };
    }
}
