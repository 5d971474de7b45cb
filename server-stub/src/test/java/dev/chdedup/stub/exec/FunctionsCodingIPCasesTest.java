package dev.chdedup.stub.exec;

/**
 * The IP address functions of FunctionsCodingIP held to the engine: result types, NULL and Nullable arguments,
 * IPv4-mapped addresses, CIDR edges (0 and past the width), cutIPv6's byte counts, the strictness of isIPv4String, the
 * OrDefault conversions of other types, and the engine's errors for wrong types, counts and texts.
 */
class FunctionsCodingIPCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT IPv4NumToString(1), IPv4NumToString(toUInt32(3232235521)), IPv4NumToString(toIPv4('1.2.3.4')), toTypeName(IPv4NumToString(NULL)), IPv4NumToString(256), INET_NTOA(16909060), inet_ntoa(1)", "0.0.0.1\t192.168.0.1\t1.2.3.4\tNullable(Nothing)\t0.0.1.0\t1.2.3.4\t0.0.0.1"},
            {"SELECT IPv4NumToString(-1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv4NumToString(toUInt64(1))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv4NumToString('1')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv4NumToStringClassC(toIPv4('1.2.3.4')), IPv4NumToStringClassC(16909060)", "1.2.3.xxx\t1.2.3.xxx"},
            {"SELECT IPv4StringToNum('1.2.3.4'), toTypeName(IPv4StringToNum('1.2.3.4')), IPv4StringToNumOrDefault('x'), toTypeName(IPv4StringToNumOrDefault('x')), toTypeName(IPv4StringToNumOrNull('x')), IPv4StringToNumOrNull('x'), INET_ATON('10.0.0.1')", "16909060\tUInt32\t0\tUInt32\tNullable(UInt32)\t\\N\t167772161"},
            {"SELECT IPv4StringToNum('x')", "Code: 675 CANNOT_PARSE_IPV4"},
            {"SELECT IPv4StringToNum(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv4StringToNum(toFixedString('1.2.3.4', 7))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv4StringToNum(NULL)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTypeName(isIPv4String(NULL::Nullable(String))), toTypeName(IPv4StringToNum(NULL::Nullable(String))), toTypeName(IPv4StringToNumOrNull(NULL::Nullable(String))), toTypeName(IPv4StringToNumOrDefault(NULL::Nullable(String))), IPv4StringToNumOrDefault(NULL::Nullable(String)), toTypeName(IPv6StringToNumOrNull(NULL::Nullable(String))), toTypeName(IPv6StringToNumOrDefault(NULL::Nullable(String)))", "Nullable(UInt8)\tNullable(UInt32)\tNullable(UInt32)\tNullable(UInt32)\t\\N\tNullable(FixedString(16))\tNullable(FixedString(16))"},
            {"SELECT IPv4ToIPv6(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv4ToIPv6(toIPv4('1.2.3.4')), toTypeName(IPv4ToIPv6(toIPv4('1.2.3.4'))), hex(IPv4ToIPv6(toUInt32(1))), toTypeName(IPv4ToIPv6(toUInt32(1)))", "::ffff:1.2.3.4\tIPv6\t00000000000000000000FFFF00000001\tFixedString(16)"},
            {"SELECT IPv4ToIPv6('1')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv4CIDRToRange(toIPv4('192.168.5.2'), 16), toTypeName(IPv4CIDRToRange(toIPv4('192.168.5.2'), 16)), IPv4CIDRToRange(3232236802, 0), IPv4CIDRToRange(toIPv4('1.2.3.4'), 32), IPv4CIDRToRange(toIPv4('1.2.3.4'), 33), IPv4CIDRToRange(toIPv4('1.2.3.4'), 31)", "('192.168.0.0','192.168.255.255')\tTuple(IPv4, IPv4)\t('0.0.0.0','255.255.255.255')\t('1.2.3.4','1.2.3.4')\t('1.2.3.4','1.2.3.4')\t('1.2.3.4','1.2.3.5')"},
            {"SELECT IPv4CIDRToRange('1.2.3.4', 3)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv4CIDRToRange(toIPv4('1.2.3.4'), 3::UInt16)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv6NumToString(toIPv6('::1')), IPv6NumToString(toFixedString(unhex('00000000000000000000FFFF01020304'),16)), toTypeName(IPv6NumToString(toIPv6('::1'))), INET6_NTOA(toIPv6('::2')), IPv6NumToString(toFixedString(unhex('2A0206B8000000000000000000000011'), 16))", "::1\t::ffff:1.2.3.4\tString\t::2\t2a02:6b8::11"},
            {"SELECT IPv6NumToString('abc')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv6NumToString(toFixedString('abc', 3))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT hex(IPv6StringToNum('::1')), toTypeName(IPv6StringToNum('::1')), hex(IPv6StringToNum('1.2.3.4')), hex(IPv6StringToNumOrDefault('x')), toTypeName(IPv6StringToNumOrNull('x')), IPv6StringToNumOrNull('x'), hex(INET6_ATON('2001:db8::1'))", "00000000000000000000000000000001\tFixedString(16)\t00000000000000000000FFFF01020304\t00000000000000000000000000000000\tNullable(FixedString(16))\t\\N\t20010DB8000000000000000000000001"},
            {"SELECT IPv6StringToNum('x')", "Code: 676 CANNOT_PARSE_IPV6"},
            {"SELECT IPv6StringToNum('')", "Code: 676 CANNOT_PARSE_IPV6"},
            {"SELECT hex(IPv6StringToNum(toFixedString('::1', 3)))", "00000000000000000000000000000001"},
            {"SELECT cutIPv6(toIPv6('2001:db8::1'), 2, 0), toTypeName(cutIPv6(toIPv6('2001:db8::1'), 2, 0)), cutIPv6(IPv6StringToNum('::ffff:1.2.3.4'), 0, 1), cutIPv6(IPv6StringToNum('::ffff:1.2.3.4'), 16, 0), cutIPv6(IPv6StringToNum('::1'), 1, 5), cutIPv6(IPv6StringToNum('::ffff:1.2.3.4'), 0, 4), cutIPv6(IPv6StringToNum('::ffff:1.2.3.4'), 0, 6), cutIPv6(IPv6StringToNum('1:2:3:4:5:6:7:8'), 3, 0), toTypeName(cutIPv6(NULL, 1, 1))", "2001:db8::\tString\t::ffff:1.2.3.0\t::ffff:1.2.3.4\t::\t::ffff:0.0.0.0\t::\t1:2:3:4:5:6::\tNullable(Nothing)"},
            {"SELECT cutIPv6(IPv6StringToNum('::1'), 17, 0)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT cutIPv6(IPv6StringToNum('::1'), 0, 17)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT cutIPv6('::1', 1, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT cutIPv6(IPv6StringToNum('::1'), 1::UInt16, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv6CIDRToRange(toIPv6('2001:0db8:0000:85a3:0000:0000:ac1f:8001'), 32), toTypeName(IPv6CIDRToRange(toIPv6('::1'), 0)), IPv6CIDRToRange(toIPv6('::1'), 200), IPv6CIDRToRange(IPv6StringToNum('1:2::3'), 20), IPv6CIDRToRange(toIPv6('::1'), 0)", "('2001:db8::','2001:db8:ffff:ffff:ffff:ffff:ffff:ffff')\tTuple(IPv6, IPv6)\t('::1','::1')\t('1::','1:fff:ffff:ffff:ffff:ffff:ffff:ffff')\t('::','ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')"},
            {"SELECT IPv6CIDRToRange('::1', 3)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT IPv6CIDRToRange(toIPv6('::1'), 3::UInt16)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isIPv4String('1.2.3.4'), isIPv4String(''), toTypeName(isIPv4String(NULL)), isIPv6String('1.2.3.4'), isIPv6String('::'), isIPv4String('01.2.3.4'), isIPv4String(' 1.2.3.4'), isIPv4String('1.2.3.4\\0'), isIPv6String('::ffff:1.2.3.4'), isIPv6String('1::2::3'), isIPv4String('1.2.3.04'), isIPv4String('1.2.3.256'), isIPv6String('2001:db8:85a3::8a2e:370:7334'), isIPv6String('1:2:3:4:5:6:7:8:9')", "1\t0\tNullable(Nothing)\t0\t1\t0\t0\t0\t1\t0\t0\t0\t1\t0"},
            {"SELECT isIPv4String(toFixedString('1.2.3.4',7))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isIPv4String(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isIPAddressInRange('127.0.0.1', '127.0.0.0/8'), isIPAddressInRange('::ffff:192.168.0.1', '::ffff:192.168.0.4/128'), isIPAddressInRange('1.2.3.4', '::ffff:0:0/96'), isIPAddressInRange('::ffff:1.2.3.4', '1.2.3.0/24'), isIPAddressInRange(toIPv6('::ffff:1.2.3.4'), '1.2.3.0/24'), isIPAddressInRange('1.2.3.4'::Nullable(String), '1.2.3.0/24'), toTypeName(isIPAddressInRange('1.2.3.4'::Nullable(String), '1.2.3.0/24')), isIPAddressInRange(NULL::Nullable(String), '1.2.3.0/24'), isIPAddressInRange('1::', '1::/0'), isIPAddressInRange('1.2.3.4', '0.0.0.0/0'), isIPAddressInRange(toIPv4('1.2.3.4'), '1.2.3.0/24'), isIPAddressInRange('2001:db8::1', '2001:db8::/33')", "1\t0\t0\t0\t0\t1\tUInt8\t0\t1\t1\t1\t1"},
            {"SELECT isIPAddressInRange(NULL, '1.2.3.0/24')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isIPAddressInRange('x', '1.2.3.0/24')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT isIPAddressInRange('1.2.3.4', '1.2.3.0')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT isIPAddressInRange('1.2.3.4', '1.2.3.0/33')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT isIPAddressInRange('1.2.3.4', 'x/3')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT isIPAddressInRange(1, '1.2.3.0/24')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isIPAddressInRange('1.2.3.4', '1.2.3.0/24'::Nullable(String))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isIPAddressInRange(concat('1.2.3.', toString(number)), concat('1.2.3.0/3', toString(number))) FROM numbers(2) FORMAT TSV", "1\n1"},
            {"SELECT toIPv4OrDefault('x'), toIPv4OrDefault('x', toIPv4('1.1.1.1')), toTypeName(toIPv4OrDefault('x')), toIPv4OrDefault(NULL), toTypeName(toIPv4OrDefault(NULL)), toIPv4OrDefault('1.2.3.4'::Nullable(String)), toTypeName(toIPv4OrDefault('1.2.3.4'::Nullable(String))), toIPv4OrDefault(NULL::Nullable(String), toIPv4('1.1.1.1'))", "0.0.0.0\t1.1.1.1\tIPv4\t0.0.0.0\tIPv4\t1.2.3.4\tIPv4\t1.1.1.1"},
            {"SELECT toIPv4OrDefault('x', '1.1.1.1')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toIPv4OrDefault('x', toIPv4('1.1.1.1'), 3)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT toIPv4OrDefault(1), toIPv4OrDefault(toUInt32(5)), toIPv6OrDefault(5), toIPv4OrDefault(toIPv4('1.2.3.4')), toIPv6OrDefault(toIPv6('::3')), toIPv6OrDefault(toIPv4('1.2.3.4'))", "0.0.0.0\t0.0.0.0\t::\t1.2.3.4\t::3\t::ffff:1.2.3.4"},
            {"SELECT toIPv6OrDefault('x'), toIPv6OrDefault('1.2.3.4'), toIPv6OrDefault('x', toIPv6('::5')), toIPv4OrDefault('999.999.999.999'), toIPv6OrDefault('2001:0db8:85a3::8a2e:370g:7334')", "::\t::ffff:1.2.3.4\t::5\t0.0.0.0\t::"},
            {"SELECT toIPv4('01.2.3.4'), toIPv6('127.0.0.1'), toIPv4(2130706433), hex(toIPv4('171.225.130.45'))", "1.2.3.4\t::ffff:127.0.0.1\t127.0.0.1\tABE1822D"},
        };
    }
}
