package dev.chdedup.stub.exec;

/**
 * QBit(T, N), ClickHouse 26.7's vector type, as every row format shows it: an array of exactly N values of Int8,
 * BFloat16, Float32 or Float64, with the engine's errors for another size or element type.
 */
class QBitTypeTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT toTypeName(CAST([1, 2, 3, 4] AS QBit(Float32, 4))) AS t, CAST([1, 2, 3, 4] AS QBit(Float32, 4)) AS q FORMAT TSV", "QBit(Float32, 4)\t[1,2,3,4]"},
            {"SELECT CAST([1, 2, 3, 4] AS QBit(BFloat16, 4)) AS q, CAST([1.5, 2] AS QBit(Float64, 2)) AS r, CAST([-1, 2] AS QBit(Int8, 2)) AS i FORMAT JSONEachRow", "{\"q\":[1,2,3,4],\"r\":[1.5,2],\"i\":[-1,2]}"},
            {"SELECT CAST([1, 2, 3] AS QBit(Float32, 4))", "Code: 190 SIZES_OF_ARRAYS_DONT_MATCH"},
            {"SELECT toTypeName(CAST([1, 2] AS QBit(Int32, 2)))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"CREATE TABLE qb (k UInt8, v QBit(Float32, 3)) ENGINE = Memory", ""},
            {"INSERT INTO qb VALUES (1, [1, 2, 3]), (2, [0.5, 0, -1])", ""},
            {"INSERT INTO qb VALUES (3, [1, 2])", "Code: 190 SIZES_OF_ARRAYS_DONT_MATCH"},
            {"SELECT k, v, toTypeName(v) FROM qb ORDER BY k FORMAT TSV", "1\t[1,2,3]\tQBit(Float32, 3)\n2\t[0.5,0,-1]\tQBit(Float32, 3)"},
            {"DESCRIBE qb", "k\tUInt8\t\t\t\t\t\nv\tQBit(Float32, 3)\t\t\t\t\t"},
            {"SELECT name FROM system.data_type_families WHERE name = 'QBit' FORMAT TSV", "QBit"}
        };
    }
}
