package dev.chdedup.stub.exec;

/**
 * The reinterpretAs functions and reinterpret(x, 'Type'): a value's bytes in memory read as another type, with the
 * engine's result types, trailing-zero rules, NULL handling and errors for the types that cannot be reinterpreted.
 */
class ReinterpretFunctionsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT reinterpretAsUInt16('ab'), reinterpretAsUInt8('ab'), reinterpretAsUInt32('a'), reinterpretAsUInt64('abcdefghij'), reinterpretAsInt8('\\xff'), reinterpretAsInt16('\\xff\\xff'), reinterpretAsInt32(''), reinterpretAsInt64('\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff'), reinterpretAsFloat32(toUInt32(1069547520)), reinterpretAsFloat64(toUInt64(4609434218613702656)) FORMAT TSV", "25185\t97\t97\t7523094288207667809\t-1\t-1\t0\t-1\t1.5\t1.5"},
            {"SELECT toTypeName(reinterpretAsUInt8('a')), toTypeName(reinterpretAsUInt16('a')), toTypeName(reinterpretAsUInt32('a')), toTypeName(reinterpretAsUInt64('a')), toTypeName(reinterpretAsInt8('a')), toTypeName(reinterpretAsInt16('a')), toTypeName(reinterpretAsInt32('a')), toTypeName(reinterpretAsInt64('a')), toTypeName(reinterpretAsFloat32('a')), toTypeName(reinterpretAsFloat64('a')) FORMAT TSV", "UInt8\tUInt16\tUInt32\tUInt64\tInt8\tInt16\tInt32\tInt64\tFloat32\tFloat64"},
            {"SELECT toTypeName(reinterpretAsString(1)), toTypeName(reinterpretAsFixedString(1)), toTypeName(reinterpretAsFixedString(toUInt32(1))), toTypeName(reinterpretAsFixedString(toFixedString('a',3))) FORMAT TSV", "String\tFixedString(1)\tFixedString(4)\tFixedString(3)"},
            {"SELECT hex(reinterpretAsString(258)), hex(reinterpretAsString(toUInt32(258))), hex(reinterpretAsString(0)), hex(reinterpretAsString(-1)), hex(reinterpretAsString(1.5)), hex(reinterpretAsString(toFloat32(1.5))), hex(reinterpretAsFixedString(258)), hex(reinterpretAsFixedString(0)), hex(reinterpretAsFixedString(toUInt64(0))) FORMAT TSV", "0201\t0201\t\tFF\t000000000000F83F\t0000C03F\t0201\t00\t0000000000000000"},
            {"SELECT reinterpretAsUInt16(258), reinterpretAsUInt8(258), reinterpretAsInt8(255), reinterpretAsUInt64(-1), reinterpretAsFloat64(toUInt64(4607182418800017408)), reinterpretAsInt32(toFloat32(1)), reinterpretAsUInt32(1.5) FORMAT TSV", "258\t2\t-1\t255\t1\t1065353216\t0"},
            {"SELECT reinterpretAsInt64(toInt8(-1)), reinterpretAsInt16('\\xff'), reinterpretAsString('abc'), toTypeName(reinterpretAsString('abc')), reinterpretAsString(toFixedString('ab\\0', 3)), toTypeName(reinterpretAsString(toFixedString('ab',3))) FORMAT TSV", "255\t255\tabc\tString\tab\tString"},
            {"SELECT reinterpretAsUInt16(toFixedString('ab',2)), reinterpretAsUInt32(toDate('2020-01-01')), reinterpretAsUInt32(toDateTime('2020-01-01 00:00:00','UTC')), hex(reinterpretAsString(toDate('2020-01-01'))), reinterpretAsUInt64(toUUID('00000000-0000-0001-0000-000000000002')) FORMAT TSV", "25185\t18262\t1577836800\t5647\t1"},
            {"SELECT reinterpretAsUInt16(NULL), toTypeName(reinterpretAsUInt16(NULL)), reinterpretAsString(NULL), toTypeName(reinterpretAsString(NULL)), toTypeName(reinterpretAsFixedString(NULL)) FORMAT TSV", "\\N\tNullable(Nothing)\t\\N\tNullable(Nothing)\tNullable(Nothing)"},
            {"SELECT reinterpretAsUInt16(toNullable('ab')), toTypeName(reinterpretAsUInt16(toNullable('ab'))) FORMAT TSV", "25185\tNullable(UInt16)"},
            {"SELECT hex(reinterpretAsString(toNullable(1))), toTypeName(reinterpretAsString(toNullable(1))), toTypeName(reinterpretAsFixedString(toNullable(1))) FORMAT TSV", "01\tNullable(String)\tNullable(FixedString(1))"},
            {"SELECT reinterpretAsUInt8(c1), toTypeName(reinterpretAsUInt8(c1)) FROM values('c1 Nullable(String)', ('a'), (NULL)) FORMAT TSV", "97\tNullable(UInt8)\n\\N\tNullable(UInt8)"},
            {"SELECT reinterpretAsUInt8([1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsUInt8(toIPv4('1.2.3.4'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsUInt8(toDate32('2020-01-01'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsUInt8(CAST('a' AS Enum8('a' = 5)))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsFixedString('abc')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsFixedString([1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsString((1, 2))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsString(['a'])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsString(map(1, 2))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpretAsUInt8(1, 2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT reinterpretAsUInt8()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT reinterpretAsString()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT reinterpretAsUInt8(toDecimal32(1, 2)), hex(reinterpretAsString(toDecimal32(1, 2))), reinterpretAsUInt8(true), hex(reinterpretAsString(toInt128(-1))), hex(reinterpretAsString(toDecimal128(1, 2))) FORMAT TSV", "100\t64\t1\tFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\t64"},
            {"SELECT hex(reinterpretAsString([1])), hex(reinterpretAsString([258, 3])), hex(reinterpretAsString(CAST([0, 1, 0], 'Array(UInt8)'))), hex(reinterpretAsString(CAST([], 'Array(UInt8)'))), hex(reinterpretAsString([1.5])) FORMAT TSV", "01\t02010300\t000100\t\t000000000000F83F"},
            {"SELECT hex(reinterpretAsString('a\\0')), hex(reinterpretAsString(toFixedString('\\0a\\0', 3))), hex(reinterpretAsFixedString(toFixedString('a', 3))) FORMAT TSV", "6100\t0061\t610000"},
            {"SELECT hex(reinterpretAsString(toUUID('00000000-0000-0001-0000-000000000002'))), hex(reinterpretAsFixedString(toUUID('00000000-0000-0001-0000-000000000002'))) FORMAT TSV", "010000000000000002\t01000000000000000200000000000000"},
            {"SELECT hex(reinterpretAsString(toIPv4('1.2.3.4'))), hex(reinterpretAsString(toDateTime64('2020-01-01 00:00:00.5', 3, 'UTC'))), hex(reinterpretAsString(toDate32('2020-01-01'))), hex(reinterpretAsString(CAST('a' AS Enum16('a' = 258)))), hex(reinterpretAsFixedString(toIPv6('::1'))) FORMAT TSV", "04030201\tF4E9665E6F01\t5647\t0201\t00000000000000000000000000000001"},
            {"SELECT reinterpretAsDate(18262), toTypeName(reinterpretAsDate(18262)), reinterpretAsDateTime(toUInt32(1577836800)), toTypeName(reinterpretAsDateTime(1)), reinterpretAsUUID(toFixedString('0123456789abcdef', 16)), toTypeName(reinterpretAsUUID('a')) FORMAT TSV", "2020-01-01\tDate\t2020-01-01 00:00:00\tDateTime\t37363534-3332-3130-6665-646362613938\tUUID"},
            {"SELECT reinterpretAsUUID('a'), reinterpretAsUUID(1), reinterpretAsDate('ab'), reinterpretAsDateTime('abcd') FORMAT TSV", "00000000-0000-0061-0000-000000000000\t00000000-0000-0001-0000-000000000000\t2038-12-15\t2023-05-16 11:00:49"},
            {"SELECT reinterpretAsInt128('abc'), reinterpretAsUInt256(toInt8(-1)), reinterpretAsInt128(toInt128(-1)), toTypeName(reinterpretAsUInt128('a')), toTypeName(reinterpretAsInt256('a')) FORMAT TSV", "6513249\t255\t-1\tUInt128\tInt256"},
            {"SELECT reinterpret(258, 'UInt8'), toTypeName(reinterpret(258, 'UInt8')), reinterpret('ab', 'UInt16') FORMAT TSV", "2\tUInt8\t25185"},
            {"SELECT reinterpretAsFloat32(toUInt32(2143289344)), reinterpretAsFloat32(toUInt32(2139095040)), reinterpretAsFloat32(toUInt32(4286578688)), hex(reinterpretAsString(toFloat32(-0.))) FORMAT TSV", "nan\tinf\t-inf\t00000080"},
            {"SELECT reinterpretAsUInt32(toDateTime64('2020-01-01 00:00:00', 3, 'UTC')), reinterpretAsUInt64(toDateTime64('2020-01-01 00:00:00', 3, 'UTC')), reinterpretAsUInt16(toBFloat16(1)) FORMAT TSV", "1583802368\t1577836800000\t16256"},
            {"SELECT reinterpretAsUInt16(c1), hex(reinterpretAsString(c2)) FROM values('c1 String, c2 UInt32', ('ab', 258), ('', 0), ('abc', 4294967295)) FORMAT TSV", "25185\t0201\n0\t\n25185\tFFFFFFFF"},
            {"SELECT name FROM system.functions WHERE name LIKE 'reinterpret%' ORDER BY name FORMAT TSV", "reinterpret\nreinterpretAsDate\nreinterpretAsDateTime\nreinterpretAsFixedString\nreinterpretAsFloat32\nreinterpretAsFloat64\nreinterpretAsInt128\nreinterpretAsInt16\nreinterpretAsInt256\nreinterpretAsInt32\nreinterpretAsInt64\nreinterpretAsInt8\nreinterpretAsString\nreinterpretAsUInt128\nreinterpretAsUInt16\nreinterpretAsUInt256\nreinterpretAsUInt32\nreinterpretAsUInt64\nreinterpretAsUInt8\nreinterpretAsUUID"},
            {"SELECT reinterpret('abc', 'Array(UInt16)')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT reinterpret('abcd', 'Array(UInt16)'), toTypeName(reinterpret('abcd', 'Array(UInt16)'))", "[25185,25699]\tArray(UInt16)"},
            {"SELECT reinterpret([1,2], 'Array(UInt16)')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpret(toUInt32(1), 'Array(UInt8)')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpret('', 'Array(UInt8)'), reinterpret(toFixedString('ab',2), 'Array(UInt8)')", "[]\t[97,98]"},
            {"SELECT reinterpret('ab', 'Array(String)')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT reinterpret(toNullable('ab'), 'Array(UInt8)')", "[97,98]"},
            {"SELECT reinterpret(x'3108b4403108d4403108b4403108d440', 'Array(Float32)') AS string_to_array_of_Float32", "[5.626,6.626,5.626,6.626]"},
            {"SELECT x'3108', X'41', toTypeName(x'41'), x'', hex(x'4'), hex(x'abc'), hex(b'1'), hex(b'111111111'), b'0100000101000010', hex(x'00ff')", "1\\b\tA\tString\t\t04\t0ABC\t01\t01FF\tAB\t00FF"},
            {"SELECT x'4g'", "Code: 62 SYNTAX_ERROR"},
            {"SELECT length(x'c3a9'), x'c3a9'", "2\té"},
        };
    }
}
