package dev.chdedup.stub.exec;

/**
 * AND, OR, NOT and xor as ClickHouse 26.7 types them: a Bool when an argument is a Bool ({@code FALSE OR x}), else a
 * UInt8, with the engine's NULL handling and errors.
 */
class LogicalFunctionsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(FALSE OR 1), toTypeName(1 AND true), toTypeName(1 OR 0), toTypeName(NOT 1), toTypeName(NOT true), toTypeName(xor(true, 0)), toTypeName(xor(1, 0)) FORMAT TSV", "Bool\tBool\tUInt8\tUInt8\tBool\tBool\tUInt8"},
            {"SELECT FALSE OR 1, 1 AND true, true AND 0, NOT true, xor(true, 0), FALSE OR 2, xor(1, 1, 1), xor(1, 0, 1) FORMAT TSV", "true\ttrue\tfalse\tfalse\ttrue\ttrue\t1\t0"},
            {"SELECT toTypeName(toNullable(true) OR 0), toNullable(true) OR 0, toTypeName(NULL OR true), NULL OR true, NULL AND true, toTypeName(NULL AND false) FORMAT TSV", "Nullable(UInt8)\t1\tNullable(Bool)\ttrue\t\\N\tNullable(Bool)"},
            {"SELECT toTypeName(toNullable(true) AND true), toTypeName(toNullable(true) AND toNullable(false)), toTypeName(true AND NULL), toTypeName(NULL AND NULL), toTypeName(xor(NULL, true)), toTypeName(xor(toNullable(true), 1)), toTypeName(not toNullable(1)) FORMAT TSV", "Nullable(Bool)\tNullable(UInt8)\tNullable(Bool)\tNullable(UInt8)\tNullable(Nothing)\tNullable(Bool)\tNullable(UInt8)"},
            {"SELECT FALSE OR 1 FORMAT JSONEachRow", "{\"or(false, 1)\":true}"},
            {"SELECT toTypeName(c OR d), c OR d, c AND d, xor(c, d), NOT c FROM values('c Bool, d UInt8', (false, 3), (true, 0), (false, 0)) FORMAT TSV", "Bool\ttrue\tfalse\ttrue\ttrue\nBool\ttrue\tfalse\ttrue\tfalse\nBool\tfalse\tfalse\tfalse\ttrue"},
            {"SELECT toTypeName(not c), not c, c OR 0, toTypeName(c OR 0) FROM values('c Nullable(Bool)', (false), (NULL)) FORMAT TSV", "Nullable(Bool)\ttrue\t0\tNullable(UInt8)\nNullable(Bool)\t\\N\t\\N\tNullable(UInt8)"},
            {"SELECT count() FROM numbers(10) WHERE (number > 5 OR false) AND true FORMAT TSV", "4"},
            {"SELECT xor(1)", "Code: 35 TOO_FEW_ARGUMENTS_FOR_FUNCTION"},
            {"SELECT xor(1, 'a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT xor(NULL, 1) FORMAT TSV", "\\N"},
            {"SELECT number % 2 = 0 OR false AS e, toTypeName(e) FROM numbers(2) FORMAT TSV", "true\tBool\nfalse\tBool"}
        };
    }
}
