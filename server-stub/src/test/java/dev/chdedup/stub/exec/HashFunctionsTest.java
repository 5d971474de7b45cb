package dev.chdedup.stub.exec;

/**
 * xxHash32 and xxHash64 of strings, numbers, dates, UUIDs and several arguments (folded as the engine folds them), and
 * MD5, SHA1, SHA224, SHA256, SHA384, SHA512, SHA512_256 of String and FixedString: values, types, NULLs and errors.
 */
class HashFunctionsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT xxHash64('abc'), toTypeName(xxHash64('abc')), xxHash32('abc'), toTypeName(xxHash32('abc')), xxHash64(''), xxHash32('') FORMAT TSV", "4952883123889572249\tUInt64\t852579327\tUInt32\t17241709254077376921\t46947589"},
            {"SELECT xxHash64(toUInt8(1)), xxHash64(1, 2), xxHash64('a', 'b'), xxHash32('a', 'b'), xxHash64(toFixedString('abc', 3)) FORMAT TSV", "9962287286179718960\t6381735198130655124\t14756808377901732262\t1353805580\t4952883123889572249"},
            {"SELECT xxHash64(NULL), toTypeName(xxHash64(NULL)), xxHash64(toNullable('abc')), toTypeName(xxHash64(toNullable('abc'))) FORMAT TSV", "\\N\tNullable(Nothing)\t4952883123889572249\tNullable(UInt64)"},
            {"SELECT xxHash64(), xxHash32() FORMAT TSV", "16324913028386710556\t4263699484"},
            {"SELECT xxHash64(toDate('2020-01-01')), xxHash64(1.5), xxHash64(toInt64(-1)), xxHash32(toUInt32(7)) FORMAT TSV", "11120563652420268876\t5329932555030153977\t9642548396912002761\t3867920632"},
            {"SELECT xxHash64(toUUID('61f0c404-5cb3-11e7-907b-a6006ad3dba0')), xxHash64(toDecimal32(1.5, 2)), xxHash64(true), xxHash64(toDate32('2020-01-01')), xxHash64(toDateTime('2020-01-01 00:00:00', 'UTC')) FORMAT TSV", "3529889290943225394\t2552452087697073151\t9962287286179718960\t16258642771709532355\t5825004945018294187"},
            {"SELECT xxHash32(1, 'a', 2.5), xxHash64(toInt128(-5)), xxHash64(toUInt256(5)), xxHash64(toFixedString('ab', 3)), xxHash64('ab\\0') FORMAT TSV", "778388232\t14582058984729396369\t11767946716224466070\t2482992030550022600\t2482992030550022600"},
            {"SELECT xxHash64(c1), xxHash32(c1), toTypeName(xxHash64(c1)) FROM values('c1 Nullable(String)', 'a', NULL) FORMAT TSV", "15154266338359012955\t1426945110\tNullable(UInt64)\n\\N\t\\N\tNullable(UInt64)"},
            {"SELECT xxHash64(c1) FROM values('c1 LowCardinality(String)', 'abc') FORMAT TSV", "4952883123889572249"},
            {"SELECT xxHash64(number) FROM numbers(3) FORMAT TSV", "3803688792395291579\n11468921228449061269\n16917558970995453360"},
            {"SELECT hex(MD5('abc')), toTypeName(MD5('abc')), hex(SHA1('abc')), toTypeName(SHA1('')), hex(SHA224('abc')), toTypeName(SHA224('abc')) FORMAT TSV", "900150983CD24FB0D6963F7D28E17F72\tFixedString(16)\tA9993E364706816ABA3E25717850C26C9CD0D89D\tFixedString(20)\t23097D223405D8228642A477BDA255B32AADBCE4BDA0B3F7E36C9DA7\tFixedString(28)"},
            {"SELECT hex(SHA256('abc')), toTypeName(SHA256('abc')), hex(SHA384('')), toTypeName(SHA384('')), hex(SHA512('')), toTypeName(SHA512('')), hex(SHA512_256('abc')), toTypeName(SHA512_256('abc')) FORMAT TSV", "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD\tFixedString(32)\t38B060A751AC96384CD9327EB1B1E36A21FDB71114BE07434C0CC7BF63F6E1DA274EDEBFE76F65FBD51AD2F14898B95B\tFixedString(48)\tCF83E1357EEFB8BDF1542850D66D8007D620E4050B5715DC83F4A921D36CE9CE47D0D13C5D85F2B0FF8318D2877EEC2F63B931BD47417A81A538327AF927DA3E\tFixedString(64)\t53048E2681941EF99B2E29B76B4C7DABE4C2D0C634FC6D46E0E2F13107E7AF23\tFixedString(32)"},
            {"SELECT hex(SHA256(toFixedString('abc', 3))), hex(MD5(toFixedString('abc', 5))), hex(MD5('')) FORMAT TSV", "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD\t5A6FDB6E10E458A53635A48E0F1DDAE3\tD41D8CD98F00B204E9800998ECF8427E"},
            {"SELECT SHA256(NULL), toTypeName(SHA256(NULL)), toTypeName(SHA256(toNullable('a'))) FORMAT TSV", "\\N\tNullable(Nothing)\tNullable(FixedString(32))"},
            {"SELECT hex(SHA256(c1)) FROM values('c1 Nullable(String)', 'a', NULL) FORMAT TSV", "CA978112CA1BBDCAFAC231B39A23DC4DA786EFF8147C4E72B9807785AFEE48BB\n\\N"},
            {"SELECT hex(SHA1(c1)) FROM values('c1 LowCardinality(String)', 'abc') FORMAT TSV", "A9993E364706816ABA3E25717850C26C9CD0D89D"},
            {"SELECT SHA256(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT SHA256('a', 'b')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT MD5()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT SHA1([1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT sha256('a')", "Code: 46 UNKNOWN_FUNCTION"},
            {"SELECT md5('a')", "Code: 46 UNKNOWN_FUNCTION"},
            {"SELECT hex(MD5('Привет')), lower(hex(SHA256('x'))) FORMAT TSV", "8A669E9418750C81AB90AE159A8EC410\t2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"},
            {"SELECT name FROM system.functions WHERE name IN ('MD5', 'SHA1', 'SHA224', 'SHA256', 'SHA384', 'SHA512', 'SHA512_256', 'xxHash32', 'xxHash64') ORDER BY name FORMAT TSV", "MD5\nSHA1\nSHA224\nSHA256\nSHA384\nSHA512\nSHA512_256\nxxHash32\nxxHash64"}
        };
    }
}
