package dev.chdedup.stub.exec;

/**
 * The Encoding and coding functions of the registry (FunctionsBinaryRepresentation, FunctionsBitToArray, FunctionChar,
 * FunctionsBaseConversion, FunctionsCRC) beyond their documented examples, held to the engine's answers: each type's
 * bytes for hex and bin, odd digit counts and stray digits for unhex and unbin, signed and Bool bitmasks, the base
 * codings' padding and alphabets with what their decoders refuse, and the engine's errors for wrong arguments.
 */
class FunctionsEncodingCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT hex(0), hex(1), hex(256), hex(-1), hex(toInt8(-1)), hex(toInt16(-2)), hex(toUInt64(18446744073709551615)), hex(toInt128(1)), hex(toUInt256(258)), hex(1.5), hex(toFloat32(1.5)), hex(toDate('2020-01-01')), hex(toDateTime('2020-01-01 00:00:00', 'UTC')), hex(toDecimal32(1.5, 2)), hex(true)", "00\t01\t0100\tFF\tFF\tFFFE\tFFFFFFFFFFFFFFFF\t01\t0102\t000000000000F83F\t0000C03F\t4756\t5E0BE100\t96000000\t01"},
            {"SELECT hex(toDateTime64('2020-01-01', 3, 'UTC'))", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT hex(toIPv4('1.2.3.4')), hex(toIPv6('::1')), hex(toFixedString('ab', 3)), hex(NULL), toTypeName(hex(toNullable(1)))", "01020304\t00000000000000000000000000000001\t616200\t\\N\tNullable(String)"},
            {"SELECT hex([1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT hex(toInt128(-1)), hex(toInt32(-1)), hex(toDecimal64(-1, 2)), hex(toBFloat16(1))", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF\tFFFFFFFF\t9CFFFFFFFFFFFFFF\t803F"},
            {"SELECT hex(toDate32('2020-01-01'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT hex(unhex('1')), hex(unhex('zz')), hex(unhex('0G')), hex(unhex('123')), hex(unhex('gg12')), hex(unhex('AbCd')), unhex(toFixedString('41', 2)), unhex(NULL), HEX('a'), UNHEX('41')", "01\tEF\tFF\t0123\tEF12\tABCD\tA\t\\N\t61\tA"},
            {"SELECT unhex(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT hex(toTime('01:00:00'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT lower(hex(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0'))), hex(toFloat64(number)) FROM numbers(15, 2)", "61f0c4045cb311e7907ba6006ad3dba0\t0000000000002E40\n61f0c4045cb311e7907ba6006ad3dba0\t0000000000003040"},
            {"SELECT bin('ab'), bin(0), bin(256), bin(toInt8(-1)), hex(unbin('1')), hex(unbin('101')), hex(unbin('111111111')), hex(unbin('2')), hex(unbin('12')), hex(unbin('')), hex(unbin('0000000011')), bin(toFixedString('a',2)), bin(1.5)", "0110000101100010\t00000000\t0000000100000000\t11111111\t01\t05\t01FF\t01\t03\t\t03\t0110000100000000\t0000000000000000000000000000000000000000000000001111100000111111"},
            {"SELECT bin(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')) = bin(unhex('61f0c4045cb311e7907ba6006ad3dba0')), bin(toIPv4('1.2.3.4')), BIN(toFloat32(15))", "1\t00000001000000100000001100000100\t00000000000000000111000001000001"},
            {"SELECT char(104.1, 101, 108.9, 108.9, 111), hex(char(256, -1, 65)), toTypeName(char(65)), char(NULL, 65), toTypeName(char(toNullable(65))), CHAR(65)", "hello\t00FF41\tString\t\\N\tNullable(String)\tA"},
            {"SELECT char()", "Code: 35 TOO_FEW_ARGUMENTS_FOR_FUNCTION"},
            {"SELECT char('a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT hex(char(65.9::Float32, toDecimal32(66.7, 1)))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT hex(char(toUInt64(18446744073709551615), toInt128(67), 321))", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT bitmaskToArray(0), toTypeName(bitmaskToArray(toInt8(-1))), bitmaskToArray(toInt8(-1)), bitmaskToList(0), bitmaskToList(toInt16(-32768)), toTypeName(bitmaskToArray(toUInt64(1))), bitmaskToArray(toUInt64(18446744073709551615))", "[]\tArray(Int8)\t[1,2,4,8,16,32,64,-128]\t\t-32768\tArray(UInt64)\t[1,2,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576,2097152,4194304,8388608,16777216,33554432,67108864,134217728,268435456,536870912,1073741824,2147483648,4294967296,8589934592,17179869184,34359738368,68719476736,137438953472,274877906944,549755813888,1099511627776,2199023255552,4398046511104,8796093022208,17592186044416,35184372088832,70368744177664,140737488355328,281474976710656,562949953421312,1125899906842624,2251799813685248,4503599627370496,9007199254740992,18014398509481984,36028797018963968,72057594037927936,144115188075855872,288230376151711744,576460752303423488,1152921504606846976,2305843009213693952,4611686018427387904,9223372036854775808]"},
            {"SELECT bitmaskToArray(1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT bitmaskToArray(toInt128(-1))", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT bitmaskToArray(true), bitmaskToArray(NULL), toTypeName(bitmaskToList(toNullable(3))), bitmaskToList(toNullable(3)), bitmaskToList(toInt64(-9223372036854775807))", "[true]\t\\N\tNullable(String)\t1,2\t1,-9223372036854775808"},
            {"SELECT toTypeName(bitPositionsToArray(toInt8(1))), bitPositionsToArray(0), bitPositionsToArray(toInt128(-1)) = range(128), toTypeName(bitPositionsToArray(toUInt256(1))), bitPositionsToArray(toInt8(-1)), bitPositionsToArray(number) FROM numbers(3)", "Array(UInt64)\t[]\t1\tArray(UInt64)\t[0,1,2,3,4,5,6,7]\t[]\nArray(UInt64)\t[]\t1\tArray(UInt64)\t[0,1,2,3,4,5,6,7]\t[0]\nArray(UInt64)\t[]\t1\tArray(UInt64)\t[0,1,2,3,4,5,6,7]\t[1]"},
            {"SELECT bitPositionsToArray(1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT bitPositionsToArray(true)", "[0]"},
            {"SELECT hex(unbin('00000000')), hex(unbin('0000000100000001')), hex(unbin('000000000')), hex(unbin('0')), hex(unbin('0001')), hex(unbin('000000001')), hex(unbin('0000000000000001')), hex(unhex('0001')), hex(unhex('00')), hex(unbin('0000000011')), hex(unbin('111111111'))", "00\t0101\t00\t00\t01\t01\t0001\t0001\t00\t03\t01FF"},
            {"SELECT hex(unhex('001')), hex(unhex('0')), hex(unhex('00001'))", "0001\t00\t000001"},
            {"SELECT hex(char(toUInt64(18446744073709551615), toInt128(67), 321))", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT hex(char(toUInt64(18446744073709551615))), hex(char(toUInt32(321)))", "FF\t41"},
            {"SELECT base64Encode(''), base64Decode(''), base64URLEncode('\\xff\\xfe?'), base64Encode('\\xff\\xfe?'), tryBase64Decode('!!'), tryBase64Decode('YQ'), tryBase64Decode('YQ='), base64URLDecode('_-8'), toTypeName(base64Encode(toNullable('a')))", "\t\t__4_\t//4/\t\t\t\t\ufffd\ufffd\tNullable(String)"},
            {"SELECT base64Decode('!!')", "Code: 117 INCORRECT_DATA"},
            {"SELECT base64Decode('YQ')", "Code: 117 INCORRECT_DATA"},
            {"SELECT base64Encode(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT base64Decode(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT base64Encode(toFixedString('a', 2)), base64Decode(toFixedString('YQ==', 4)), TO_BASE64('a'), from_base64('YQ==')", "YQA=\ta\tYQ==\ta"},
            {"SELECT base64URLDecode('YQ=='), base64URLDecode('YQ'), tryBase64URLDecode('YQ==='), base64Decode(' YQ==')", "a\ta\t\ta"},
            {"SELECT base32Encode(''), base32Decode(''), base32Encode('a'), tryBase32Decode('ME'), tryBase32Decode('me======'), tryBase32Decode('1'), base32Decode('ME======'), tryBase32Decode(' ME======'), tryBase32Decode('MFRA===='), tryBase32Decode('MFRB====')", "\t\tME======\t\ta\t\ta\t\tab\t"},
            {"SELECT base32Decode('ME')", "Code: 117 INCORRECT_DATA"},
            {"SELECT base32Encode('Encoded'), base32Encode('ab'), base32Encode('abc'), base32Encode('abcd'), base32Encode('abcde'), base32Encode('abcdef'), base32Decode(base32Encode('abcdefghijk'))", "IVXGG33EMVSA====\tMFRA====\tMFRGG===\tMFRGGZA=\tMFRGGZDF\tMFRGGZDFMY======\tabcdefghijk"},
            {"SELECT base58Encode(''), base58Decode(''), base58Encode('\\0\\0a'), base58Decode('11'), tryBase58Decode('0'), base58Encode(toFixedString('a', 2))", "\t\t112g\t\\0\\0\t\t8P9"},
            {"SELECT base58Decode('0')", "Code: 117 INCORRECT_DATA"},
            {"SELECT base32Decode('MFRA=')", "Code: 117 INCORRECT_DATA"},
            {"SELECT tryBase32Decode('MFRA'), tryBase32Decode('MFRA=====') , tryBase32Decode('M=======') , tryBase32Decode('MF======'), tryBase32Decode('MFR=====')", "\t\t\t\t"},
            {"SELECT tryBase64Decode('YQ==='), tryBase64Decode('Y==='), tryBase64Decode('YQ=a'), tryBase64URLDecode('YQ='), tryBase64URLDecode('Y'), tryBase64Decode('YWJj'), tryBase64Decode('Y\\tW\\nJ\\rj'), base64Decode('YR==')", "\t\t\ta\t\tabc\tabc\ta"},
            {"SELECT base58Encode('Hello World'), base58Decode('JxF12TrwUP45BMd'), tryBase58Decode('l'), hex(base58Decode('1112')), tryBase58Decode(NULL)", "JxF12TrwUP45BMd\tHello World\t\t00000001\t\\N"},
            {"SELECT base64Encode(toString(number)), base64Decode(base64Encode(toString(number))) FROM numbers(3)", "MA==\t0\nMQ==\t1\nMg==\t2"},
            {"SELECT toTypeName(CRC32('a')), toTypeName(CRC64('a')), CRC32(''), crc32ieee('a'), CRC64('a'), CRC32(toFixedString('a',2)), CRC32IEEE('ClickHouse'), CRC64('ClickHouse'), CRC32('ClickHouse'), crc64(NULL)", "UInt32\tUInt64\t0\t984961486\t3219832958944941148\t1027557401\t3089448422\t12126588151325169346\t1538217360\t\\N"},
            {"SELECT CRC32(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT CRC32([1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT CRC64(repeat('\\xff', 20)), CRC32IEEE(repeat('\\xaa', 9))", "15434291246811234199\t3206477291"},
        };
    }
}
