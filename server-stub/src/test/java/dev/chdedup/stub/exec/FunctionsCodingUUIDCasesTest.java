package dev.chdedup.stub.exec;

/**
 * The UUID and Snowflake ID functions of FunctionsCodingUUID held to the engine: both byte orders (variants 1 and
 * 2), texts of other lengths and with characters that are not hex digits, version 7 and other UUIDs, epochs and zones,
 * precisions of DateTime64, values before 1970 and of all 64 bits, toUUIDOrDefault, the generators' types, versions,
 * distinct values and encoded times, and the engine's errors.
 */
class FunctionsCodingUUIDCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT UUIDNumToString(toFixedString('abcdefghijklmnop', 16), 1), UUIDNumToString(toFixedString('abcdefghijklmnop', 16), 2), toTypeName(UUIDNumToString(toFixedString('abcdefghijklmnop', 16))), UUIDNumToString(toFixedString('abcdefghijklmnop', 16)), toTypeName(UUIDNumToString(NULL))", "61626364-6566-6768-696a-6b6c6d6e6f70\t64636261-6665-6867-696a-6b6c6d6e6f70\tString\t61626364-6566-6768-696a-6b6c6d6e6f70\tNullable(Nothing)"},
            {"SELECT UUIDNumToString('abc')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT UUIDNumToString(toFixedString('abcdefghijklmnop', 16), 3)", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT UUIDNumToString(toFixedString('abcdefghijklmnop', 16), 1::UInt16)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT UUIDNumToString(toFixedString('abcdefghijklmnop', 16), 1, 1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT hex(UUIDStringToNum('612f3c40-5d3b-217e-707b-6a546a3d7b29', 2)), toTypeName(UUIDStringToNum('612f3c40-5d3b-217e-707b-6a546a3d7b29')), hex(UUIDStringToNum('612f3c40-5d3b-217e-707b-6a546a3d7b2X')), hex(UUIDStringToNum('612f3c40x5d3b-217e-707b-6a546a3d7b29')), hex(UUIDStringToNum(toFixedString('612f3c40-5d3b-217e-707b-6a546a3d7b29', 36))), hex(UUIDStringToNum('x')), hex(UUIDStringToNum('{612f3c40-5d3b-217e-707b-6a546a3d7b29}')), hex(UUIDStringToNum('612F3C40-5D3B-217E-707B-6A546A3D7B29'))", "403C2F613B5D7E21707B6A546A3D7B29\tFixedString(16)\t612F3C405D3B217E707B6A546A3D7B1F\t612F3C405D3B217E707B6A546A3D7B29\t612F3C405D3B217E707B6A546A3D7B29\t00000000000000000000000000000000\t00000000000000000000000000000000\t612F3C405D3B217E707B6A546A3D7B29"},
            {"SELECT UUIDStringToNum(toFixedString('612f3c405d3b217e707b6a546a3d7b29', 32))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT UUIDStringToNum(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT hex(UUIDToNum(toUUID('612f3c40-5d3b-217e-707b-6a546a3d7b29'), 2)), toTypeName(UUIDToNum(toUUID('612f3c40-5d3b-217e-707b-6a546a3d7b29'))), hex(UUIDToNum(toUUID('612f3c40-5d3b-217e-707b-6a546a3d7b29')))", "403C2F613B5D7E21707B6A546A3D7B29\tFixedString(16)\t612F3C405D3B217E707B6A546A3D7B29"},
            {"SELECT UUIDToNum('612f3c40-5d3b-217e-707b-6a546a3d7b29')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT UUIDv7ToDateTime(toUUID('018f05c9-4ab8-7b86-b64e-c9f03fbd45d1')), toTypeName(UUIDv7ToDateTime(toUUID('018f05c9-4ab8-7b86-b64e-c9f03fbd45d1'))), toTypeName(UUIDv7ToDateTime(toUUID('018f05c9-4ab8-7b86-b64e-c9f03fbd45d1'), 'UTC')), UUIDv7ToDateTime(toUUID('018f05c9-4ab8-4b86-b64e-c9f03fbd45d1')), UUIDv7ToDateTime(toUUID('018f05c9-4ab8-7b86-b64e-c9f03fbd45d1'), 'Asia/Kolkata')", "2024-04-22 12:30:29.048\tDateTime64(3)\tDateTime64(3, \\'UTC\\')\t1970-01-01 00:00:00.000\t2024-04-22 18:00:29.048"},
            {"SELECT UUIDv7ToDateTime('x')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT UUIDv7ToDateTime(toUUID('018f05c9-4ab8-7b86-b64e-c9f03fbd45d1'), 1)", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT UUIDv7ToDateTime(toUUID('018f05c9-4ab8-7b86-b64e-c9f03fbd45d1'), 'Nowhere/Zone')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT dateTimeToSnowflakeID(toDateTime('2021-08-15 18:57:56', 'Asia/Shanghai')), toTypeName(dateTimeToSnowflakeID(now())), dateTimeToSnowflakeID(toDateTime('2021-08-15 18:57:56', 'Asia/Shanghai'), 1000), dateTime64ToSnowflakeID(toDateTime64('2021-08-15 18:57:56.123', 3, 'UTC')), dateTime64ToSnowflakeID(toDateTime64('2021-08-15 18:57:56.123456', 6, 'UTC')), dateTime64ToSnowflakeID(toDateTime64('2021-08-15 18:57:56', 0, 'UTC'), 5)", "6832626392367104000\tUInt64\t6832626388172800000\t6832747188838203392\t6832747188838203392\t6832747188301332480"},
            {"SELECT dateTimeToSnowflakeID(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dateTimeToSnowflakeID(toDateTime64('2021-08-15 18:57:56', 3))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dateTimeToSnowflakeID(toDateTime('2021-08-15 18:57:56'), -1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dateTimeToSnowflakeID(toDateTime('2021-08-15 18:57:56'), 1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dateTime64ToSnowflakeID(toDateTime('2021-08-15 18:57:56'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toTypeName(dateTimeToSnowflakeID(NULL)), dateTimeToSnowflakeID(toDateTime('2021-08-15 18:57:56', 'UTC'), 1628967476000), dateTimeToSnowflakeID(toDateTime('2021-08-15 18:57:56', 'UTC'), 1628967476001), dateTimeToSnowflakeID(toDateTime('1970-01-01 00:00:00','UTC')), dateTime64ToSnowflakeID(toDateTime64('1960-01-01 00:00:00',3,'UTC'))", "Nullable(Nothing)\t362387865600000\t362387861405696\t0\t17122941200672751616"},
            {"SELECT snowflakeIDToDateTime(7204436857747984384::UInt64), toTypeName(snowflakeIDToDateTime(7204436857747984384::UInt64)), snowflakeIDToDateTime64(7204436857747984384::UInt64), toTypeName(snowflakeIDToDateTime64(7204436857747984384::UInt64)), snowflakeIDToDateTime(7204436857747984384::UInt64, 0, 'UTC'), snowflakeIDToDateTime64(7204436857747984384::UInt64, 1000, 'Asia/Shanghai'), toTypeName(snowflakeIDToDateTime64(1::UInt64, 0, 'UTC')), snowflakeIDToDateTime(1::UInt64), snowflakeIDToDateTime64(18446744073709551615), snowflakeIDToDateTime(18446744073709551615, 1288834974657, 'UTC')", "2024-06-06 10:59:58\tDateTime\t2024-06-06 10:59:58.851\tDateTime64(3)\t2024-06-06 10:59:58\t2024-06-06 18:59:59.851\tDateTime64(3, \\'UTC\\')\t1970-01-01 00:00:00\t2109-05-15 07:35:11.103\t2014-02-09 02:49:49"},
            {"SELECT snowflakeIDToDateTime(7204436857747984384), snowflakeIDToDateTime64(7204436857747984384)", "2024-06-06 10:59:58\t2024-06-06 10:59:58.851"},
            {"SELECT snowflakeIDToDateTime(1::UInt64, -5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT snowflakeIDToDateTime(1::UInt64, 1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT snowflakeIDToDateTime(1::UInt64, 5::UInt8, 'UTC'), snowflakeIDToDateTime(toUInt64(number), 5) FROM numbers(1)", "1970-01-01 00:00:00\t1970-01-01 00:00:00"},
            {"SELECT toTypeName(snowflakeIDToDateTime(NULL)), toTypeName(snowflakeIDToDateTime(1::Nullable(UInt64)))", "Nullable(Nothing)\tNullable(DateTime)"},
            {"SELECT snowflakeIDToDateTime(1::UInt32)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT snowflakeIDToDateTime(1::UInt64, 5, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT toUUIDOrDefault('61f0c404-5cb3-11e7-907b-a6006ad3dba0', toUUID('59f0c404-5cb3-11e7-907b-a6006ad3dba0')), toUUIDOrDefault('-----61f0c404-5cb3-11e7-907b-a6006ad3dba0', toUUID('59f0c404-5cb3-11e7-907b-a6006ad3dba0')), toUUIDOrDefault(toUUID('612f3c40-5d3b-217e-707b-6a546a3d7b29')), toUUIDOrDefault('x'), toTypeName(toUUIDOrDefault('x')), toUUIDOrDefault(1), toUUIDOrDefault(NULL, toUUID('612f3c40-5d3b-217e-707b-6a546a3d7b29')), toUUIDOrDefault('612f3c405d3b217e707b6a546a3d7b29')", "61f0c404-5cb3-11e7-907b-a6006ad3dba0\t59f0c404-5cb3-11e7-907b-a6006ad3dba0\t612f3c40-5d3b-217e-707b-6a546a3d7b29\t00000000-0000-0000-0000-000000000000\tUUID\t00000000-0000-0000-0000-000000000000\t612f3c40-5d3b-217e-707b-6a546a3d7b29\t612f3c40-5d3b-217e-707b-6a546a3d7b29"},
            {"SELECT toUUIDOrDefault('x', 'y')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toTypeName(generateUUIDv4()), toTypeName(generateUUIDv7()), toTypeName(generateSnowflakeID()), toTypeName(dateTimeToUUIDv7(now())), toTypeName(generateUUIDv4(1)), toTypeName(generateSnowflakeID(1, 5))", "UUID\tUUID\tUInt64\tUUID\tUUID\tUInt64"},
            {"SELECT count(DISTINCT generateUUIDv4()), count(DISTINCT generateUUIDv7(number)), count(DISTINCT generateSnowflakeID()), count(DISTINCT dateTimeToUUIDv7(toDateTime('2021-08-15 18:57:56', 'UTC'))) FROM numbers(100)", "100\t100\t100\t100"},
            {"SELECT UUIDv7ToDateTime(dateTimeToUUIDv7(toDateTime('2021-08-15 18:57:56', 'UTC')), 'UTC'), substring(toString(dateTimeToUUIDv7(toDateTime('2021-08-15 18:57:56', 'UTC'))), 1, 15), intDiv(generateSnowflakeID(1, 5), 4096) % 1024, substring(toString(generateUUIDv7()), 15, 1), substring(toString(generateUUIDv4()), 15, 1)", "2021-08-15 18:57:56.000\t017b4b2d-7720-7\t5\t7\t4"},
            {"SELECT generateSnowflakeID(1, 2, 3)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT generateSnowflakeID(1, 'a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dateTimeToUUIDv7(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT generateUUIDv7(1,2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT generateUUIDv4(1,2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT dateTimeToUUIDv7(NULL)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
        };
    }
}
