package dev.chdedup.stub.exec;

/**
 * randomString, randomFixedString and randomPrintableASCII: their types and lengths, a new value for each row, the
 * printable range, NULLs and the engine's errors (the values themselves are random, so only their shape is held).
 */
class RandomStringsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(randomString(5)), length(randomString(5)), toTypeName(randomFixedString(5)), length(randomFixedString(5)), toTypeName(randomPrintableASCII(5)), length(randomPrintableASCII(5)), length(randomString(0)) FORMAT TSV", "String\t5\tFixedString(5)\t5\tString\t5\t0"},
            {"SELECT match(randomPrintableASCII(200), '^[ -~]{200}$'), length(randomString(3, 'x')), length(randomString(3, 1)), length(randomPrintableASCII(4, number)) FROM numbers(1) FORMAT TSV", "1\t3\t3\t4"},
            {"SELECT length(randomString(3)) FROM numbers(2) FORMAT TSV", "3\n3"},
            {"SELECT count(DISTINCT randomString(16)), count(DISTINCT randomFixedString(16)), count(DISTINCT randomPrintableASCII(16)) FROM numbers(100) FORMAT TSV", "100\t100\t100"},
            {"SELECT length(randomString(c1)), length(randomPrintableASCII(c1)) FROM values('c1 UInt8', 1, 2) FORMAT TSV", "1\t1\n2\t2"},
            {"SELECT length(randomString(toInt8(3))), length(randomString(toFloat32(2.9))), length(randomPrintableASCII(toNullable(2))), toTypeName(randomString(toNullable(3))) FORMAT TSV", "3\t2\t2\tNullable(String)"},
            {"SELECT randomString(NULL), toTypeName(randomString(NULL)), randomFixedString(NULL), toTypeName(randomPrintableASCII(NULL)) FORMAT TSV", "\\N\tNullable(Nothing)\t\\N\tNullable(Nothing)"},
            {"SELECT randomString()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT randomString(1, 2, 3)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT randomString('a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT randomString([1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT randomString(-1)", "Code: 131 TOO_LARGE_STRING_SIZE"},
            {"SELECT randomPrintableASCII(-1)", "Code: 131 TOO_LARGE_STRING_SIZE"},
            {"SELECT randomString(c1) FROM values('c1 Int8', -1)", "Code: 131 TOO_LARGE_STRING_SIZE"},
            {"SELECT randomFixedString(0)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT randomFixedString(16777216)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT randomFixedString(1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT randomFixedString(toInt8(3))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT randomFixedString('a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT randomFixedString(3, 4)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT randomFixedString(c1) FROM values('c1 UInt8', 1)", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT name FROM system.functions WHERE name IN ('randomString', 'randomFixedString', 'randomPrintableASCII') ORDER BY name FORMAT TSV", "randomFixedString\nrandomPrintableASCII\nrandomString"}
        };
    }
}
