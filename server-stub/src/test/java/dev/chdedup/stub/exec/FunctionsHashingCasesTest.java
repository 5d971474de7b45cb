package dev.chdedup.stub.exec;

/**
 * The hashes of FunctionsHashing, FunctionsHashingInt and FunctionsStringHashFixedString held to the engine: hashes of
 * strings across the length classes of each algorithm, of several arguments, arrays, tuples, maps, NULLs inside them,
 * numbers, dates, decimals, UUIDs and addresses, the keyed forms, the result types and the errors.
 */
class FunctionsHashingCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT cityHash64(array('e','x','a'), 'mple', 10, toDateTime('2019-06-15 23:00:00')) AS CityHash, toTypeName(CityHash) AS type", "17177535963988450974\tUInt64"},
            {"SELECT sipHash64(array('e','x','a'), 'mple', 10, toDateTime('2019-06-15 23:00:00')), murmurHash2_32(array('e','x','a'), 'mple', 10, toDateTime('2019-06-15 23:00:00')), murmurHash3_64(array('e','x','a'), 'mple', 10, toDateTime('2019-06-15 23:00:00'))", "11348918044846389429\t2947095100\t11285022984631508790"},
            {"SELECT gccMurmurHash(1, 2, 3) AS res1, gccMurmurHash(('a', [1, 2, 3], 4, (4, ['foo', 'bar'], 1, (1, 2)))) AS res2", "12384823029245979431\t1188926775431157506"},
            {"SELECT hex(sipHash128Keyed((506097522914230528, 1084818905618843912),'foo', '\\x01', 3)), hex(sipHash128ReferenceKeyed((506097522914230528, 1084818905618843912),'foo', '\\x01', 3))", "B8467F65C8B4CFD9A5F8BD733917D9BF\t1D010CC83FB5460C25B556CE40992E61"},
            {"SELECT sipHash64Keyed((506097522914230528, 1084818905618843912), array('e','x','a'), 'mple', 10, toDateTime('2019-06-15 23:00:00'))", "8194087499447867747"},
            {"SELECT hex(sipHash128Keyed((1::UInt64, 2::UInt64), [NULL, 1], tuple(NULL::Nullable(String)))), sipHash64Keyed((1::UInt64, 2::UInt64), [NULL, 1], (1, NULL::Nullable(String)))", "D9621253ADEDFF60B76D12FF9B96AB62\t10278939455488991920"},
            {"SELECT cityHash64(map(1,'a')), cityHash64([(1,'a')]), murmurHash2_32([1,2]), cityHash64(tuple()), hex(sipHash128()), cityHash64(-1::Int8), cityHash64(1.5::Float32), cityHash64(1.5), cityHash64(toDecimal32(1.5, 2)), cityHash64(toUUID('612f3c40-5d3b-217e-707b-6a546a3d7b29')), cityHash64(toIPv6('::1')), cityHash64(toIPv4('1.2.3.4')), cityHash64(1::UInt128), cityHash64(toDateTime64('2020-01-01 00:00:00.123', 3, 'UTC')), cityHash64(toDate32('2020-01-01')), cityHash64(true)", "6337389125845714061\t6337389125845714061\t4126930486\t16324913028386710556\t1CE422FEE7BD8DE20000000000000000\t8055013221972926055\t17641193269776743632\t7287324520655339053\t8235273209324577223\t292498831552352603\t3747971208336161882\t5715546585361069049\t201160255169616649\t5924871011159503131\t6817702824740635125\t10577349846663553072"},
            {"SELECT javaHash(-1::Int8), javaHash(1::Int64), javaHash(-5::Int64), javaHash(1.5::Float32), javaHash(toIPv4('1.2.3.4')), javaHash(1::Int128), javaHash(toDate32('2020-01-01'))", "-1\t1\t4\t-1921\t122110\t-510534177\t18262"},
            {"SELECT javaHash(toDate('2020-01-01'))", "Code: 48 NOT_IMPLEMENTED"},
            {"SELECT javaHash('a', 'b')", "Code: 48 NOT_IMPLEMENTED"},
            {"SELECT javaHash([1])", "Code: 48 NOT_IMPLEMENTED"},
            {"SELECT halfMD5('abc', 'cde', 'fgh'), hex(halfMD5('abc', 'cde', 'fgh')), halfMD5(1), halfMD5([1,2])", "3212481293175290612\t2C9506B7374CFAF4\t6171409270389319049\t894046666179568563"},
            {"SELECT kafkaMurmurHash('foobar') AS res1, kafkaMurmurHash(array('e','x','a'), 'mple', 10, toDateTime('2019-06-15 23:00:00')) AS res2", "1357151166\t85479775"},
            {"SELECT hex(murmurHash3_128('foo', 'foo', 'foo')), hex(sipHash128('foo', '\\x01', 3)), hex(sipHash128Reference('foo', '', 3))", "F8F7AD9B6CD4CF117A71E277E2EC2931\t9DE516A64A414D4B1B609415E4523F24\t772E107DA5873FFEFEC6F20606179090"},
            {"SELECT toTypeName(cityHash64(NULL)), toTypeName(cityHash64(1::Nullable(UInt8))), cityHash64(NULL::Nullable(UInt8)), toTypeName(murmurHash3_128('a')), toTypeName(hiveHash('a')), toTypeName(murmurHash2_32('a'))", "Nullable(Nothing)\tNullable(UInt64)\t\\N\tFixedString(16)\tInt32\tUInt32"},
            {"SELECT sipHash64Keyed((1,2), 'a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT sipHash64Keyed(1, 'a')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT sipHash64Keyed((1::UInt64,2::UInt64)), sipHash64Keyed((1::UInt64,2::UInt64), []), hex(sipHash128Keyed((1::UInt64,2::UInt64), []))", "16324913028386710556\t4761183170873013810\t0AD04BFD000000000000000000000000"},
            {"SELECT intHash64(-1::Int8), intHash64(toUInt64(-1)), intHash64(255::UInt8), intHash32(-1::Int8), intHash32(toUInt64(-1)), intHash64(1.5::Decimal32(1)), intHash64(15), toTypeName(intHash32(NULL)), intHash32(toDate('1970-01-02')), intHash32(toIPv4('0.0.0.1')), intHash32(1)", "14600443904207254319\t14600443904207254319\t8055013221972926055\t3545659993\t3545659993\t4783429523421833175\t4783429523421833175\tNullable(Nothing)\t1343103100\t1343103100\t1343103100"},
            {"SELECT intHash64(1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT intHash64(1::UInt128)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT intHash64(1,2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT jumpConsistentHash(256, 4), jumpConsistentHash(-1, 3), toTypeName(jumpConsistentHash(1,2)), kostikConsistentHash(16045690984833335023, 2), toTypeName(kostikConsistentHash(1,2)), yandexConsistentHash(12345678901234, 1000), kostikConsistentHash(98765432123456789, 32768), kostikConsistentHash(1, 3), jumpConsistentHash(12345678901234, 1000)", "3\t2\tInt32\t1\tUInt16\t551\t25038\t0\t649"},
            {"SELECT jumpConsistentHash(1, 0)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT jumpConsistentHash(1.5, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT kostikConsistentHash(1, 40000)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT hex(MD4(toFixedString('a',2))), toTypeName(keccak256('a')), toTypeName(RIPEMD160(NULL)), hex(MD4('abc')), hex(RIPEMD160('The quick brown fox jumps over the lazy dog')), hex(keccak256('hello'))", "186CB09181E2C2ECAAC768C47C729904\tFixedString(32)\tNullable(Nothing)\tA448017AAF21D8525FC10AE87AA6729D\t37F332F68DB77BD9D7EDD4969571AD671CF9DD3B\t1C8AFF950685C2ED4BC3174F3472287B56D9517B9C948127319A09A7A36DEAC8"},
            {"SELECT MD4(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT URLHash(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT URLHash('a', 1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT URLHash(toFixedString('a',1))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT URLHash('http://a/b/c/', 2), URLHash('http://a/b/c/', 5), URLHash('http://a/b/c/', 0), URLHash('', 0), URLHash('x?'), URLHash('https://www.clickhouse.com'), URLHash('https://www.clickhouse.com/docs', 1)", "4217568850722160116\t11160318154034397263\t15633722665745929088\t11160318154034397263\t5748889492429595544\t13614512636072854701\t13167253331440520598"},
            {"SELECT cityHash64(substring(repeat('The quick brown fox jumps over the lazy dog 0123456789', 10), 1, 200)), cityHash64(substring(repeat('The quick brown fox', 3), 1, 40)), cityHash64('0123456789abcdefghij'), murmurHash3_32('abcdefg'), hex(murmurHash3_128('abcdefghijklmnopqrstu')), murmurHash2_64('abcdefghijk')", "16466767764349270854\t3471314569414920119\t8330036288721083378\t2285673222\t3CC9FF79E268D5C9FB3C9BE9C148CCD7\t18374413395122349366"},
            {"SELECT number, cityHash64(number, toString(number)), sipHash64([number, 1]) FROM numbers(3) FORMAT TSV", "0\t11865056383294460979\t17088942865463414668\n1\t5457822236776392013\t13224059243149505476\n2\t7737930187395698426\t4838345367890816465"},
            {"SELECT javaHashUTF16LE('abc')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT hiveHash('a', 'b')", "Code: 48 NOT_IMPLEMENTED"},
            {"SELECT URLHash('https://www.clickhouse.com/docs/en/', 2), URLHash(concat('http://a.b/c?d#', toString(number)), 1) FROM numbers(2) FORMAT TSV", "170238788250521253\t8221617853224851587\n170238788250521253\t8221617853224851587"},
        };
    }
}
