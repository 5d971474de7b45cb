package dev.chdedup.stub.exec;

/**
 * Type names under print_pretty_type_names (on since 24.1): toTypeName and DESCRIBE write a named tuple's elements on
 * lines of their own, four spaces deeper per level, inside arrays and maps too; off, or under a compatibility before
 * 24.1, on one line; held to the engine's answers.
 */
class PrettyTypeNamesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(CAST((1, 2) AS Tuple(a UInt8, b UInt8)))", "Tuple(\\n    a UInt8,\\n    b UInt8)"},
            {"SELECT toTypeName(CAST(((1, (2, 3)), [4]) AS Tuple(a Tuple(x UInt8, y Tuple(p UInt8, q UInt8)), b Array(UInt8))))", "Tuple(\\n    a Tuple(\\n        x UInt8,\\n        y Tuple(\\n            p UInt8,\\n            q UInt8)),\\n    b Array(UInt8))"},
            {"SELECT toTypeName((1, 2)), toTypeName(CAST([(1, 2)] AS Array(Tuple(a UInt8, b UInt8)))), toTypeName(CAST(map('k', (1, 2)) AS Map(String, Tuple(a UInt8, b UInt8))))", "Tuple(UInt8, UInt8)\tArray(Tuple(\\n    a UInt8,\\n    b UInt8))\tMap(String, Tuple(\\n    a UInt8,\\n    b UInt8))"},
            {"SELECT toTypeName(CAST((1, 2) AS Tuple(a UInt8, b UInt8))) SETTINGS print_pretty_type_names = 0", "Tuple(a UInt8, b UInt8)"},
            {"SELECT toTypeName(CAST((1, 2) AS Tuple(a UInt8, b UInt8))) SETTINGS compatibility = '23.8'", "Tuple(a UInt8, b UInt8)"},
            {"CREATE TABLE ptt (x Tuple(a UInt8, b String), y Array(Tuple(c UInt8, d UInt8))) ENGINE = MergeTree ORDER BY tuple()", ""},
            {"DESCRIBE ptt", "x\tTuple(\\n    a UInt8,\\n    b String)\t\t\t\t\t\ny\tArray(Tuple(\\n    c UInt8,\\n    d UInt8))\t\t\t\t\t"},
        };
    }
}
