package dev.chdedup.stub.exec;

/**
 * The small "Other" functions beyond their documented examples, held to the engine's answers: countDigits and
 * isDecimalOverflow over decimals that fill their native integer, formatReadableQuantity, visibleWidth,
 * flipCoordinates, minSampleSizeContinuous and minSampleSizeConversion (the normal quantiles to the last digit), the
 * server introspection functions (profiles, schemas, macros, MySQL variables, revision, table name length, HTTP
 * headers, serial ids, shards), hasColumnInTable, icebergBucket and icebergTruncate: result types, NULL and Nullable
 * arguments, and the engine's errors for wrong arguments.
 */
class FunctionsMiscellaneousCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT countDigits(toDecimal32(1, 9)), countDigits(toDecimal64(-1, 18)), countDigits(toDecimal128(1, 38))", "10\t19\t39"},
            {"SELECT toDecimal32(1000000000, 0), toDecimal32(-2147483648, 0), CAST(toInt64(1000000000) AS Decimal(9,0))", "1000000000\t-2147483648\t1000000000"},
            {"SELECT toDecimal32(3000000000, 0)", "Code: 407 DECIMAL_OVERFLOW"},
            {"SELECT toDecimal64(10, 18)", "Code: 407 DECIMAL_OVERFLOW"},
            {"SELECT toDecimal32(2.5, 9)", "Code: 407 DECIMAL_OVERFLOW"},
            {"SELECT isDecimalOverflow(toDecimal32(1000000000, 0), 9), isDecimalOverflow(toDecimal32(999999999, 0))", "1\t0"},
            {"SELECT formatReadableQuantity(1024), formatReadableQuantity(-1500), formatReadableQuantity(0.5), formatReadableQuantity(1e30), formatReadableQuantity(NULL), toTypeName(formatReadableQuantity(toNullable(1)))", "1.02 thousand\t-1.50 thousand\t0.50\t1.00 nonillion\t\\N\tNullable(String)"},
            {"SELECT formatReadableQuantity(1e33), formatReadableQuantity(1e63), formatReadableQuantity(1e66), formatReadableQuantity(nan), formatReadableQuantity(inf), formatReadableQuantity(toDecimal32(1234, 2))", "1000.00 nonillion\t1.00 vigintillion\t1000.00 vigintillion\tnan\tinf vigintillion\t1.23 thousand"},
            {"SELECT formatReadableQuantity('a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT formatReadableQuantity(1, 2, 3)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT formatReadableQuantity(1234, -1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT visibleWidth(NULL), visibleWidth(123), visibleWidth('héllo'), visibleWidth([1,2]), visibleWidth(toDate('2020-01-01')), visibleWidth(1.5), visibleWidth('a\\tb'), toTypeName(visibleWidth(1))", "4\t3\t5\t5\t10\t3\t9\tUInt64"},
            {"SELECT visibleWidth('日本'), visibleWidth((1,'ab')), visibleWidth(map(1,2)), visibleWidth('a\\nb'), visibleWidth('\\x01')", "4\t8\t5\t2\t0"},
            {"SELECT visibleWidth(x) FROM (SELECT arrayJoin(['a', NULL, 'ccc']) x)", "1\n4\n3"},
            {"SELECT visibleWidth()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT flipCoordinates((1.0, 2.0)), flipCoordinates([[[(1.0,2.0)]]]), toTypeName(flipCoordinates([[[(1.0,2.0)]]])), flipCoordinates(CAST((1.0,2.0) AS Point))", "(2,1)\t[[[(2,1)]]]\tArray(Array(Array(Tuple(Float64, Float64))))\t(2,1)"},
            {"SELECT flipCoordinates(NULL)", "\\N"},
            {"SELECT flipCoordinates((1, 2))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT flipCoordinates((1.0,2.0,3.0))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT flipCoordinates(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT flipCoordinates([NULL])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT minSampleSizeContinuous(10, 2, 0.1, 0.9, 0.01), minSampleSizeConversion(0.1, 0.01, 0.5, 0.5), minSampleSizeConversion(0.3, 0.05, 0.99, 0.001), minSampleSizeContinuous(5, 1, 0.01, 0.999999, 0.00001)", "(119.03509735398828,9,11)\t(855.0530072532372,0.09000000000000001,0.11)\t(5530.362566519499,0.25,0.35)\t(67279.89006717855,4.95,5.05)"},
            {"SELECT minSampleSizeConversion(1.5, 0.03, 0.80, 0.05), minSampleSizeConversion(0.25, -0.03, 0.80, 0.05), minSampleSizeContinuous(1, 2, 3, 0.8, 0.05), toTypeName(minSampleSizeConversion(0.25, 0.03, 0.80, 0.05))", "(nan,1.47,1.53)\t(nan,nan,nan)\t(nan,nan,nan)\tTuple(\\n    minimum_sample_size Float64,\\n    detect_range_lower Float64,\\n    detect_range_upper Float64)"},
            {"SELECT minSampleSizeContinuous(NULL, 2, 3, 0.8, 0.05)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT minSampleSizeContinuous(toDecimal32(1,2), 2, 3, 0.8, 0.05)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT minSampleSizeConversion(1, 0.03, 0.80, 0.05)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT minSampleSizeContinuous(1, 2, 3, 0.8)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT currentProfiles(), enabledProfiles(), defaultProfiles(), toTypeName(currentProfiles()), currentSchemas(true), currentSchemas(false)", "['default']\t['default']\t['default']\tArray(String)\t['default']\t['default']"},
            {"SELECT currentSchemas()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT currentSchemas(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT currentProfiles(1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT authenticatedUser(), toTypeName(authenticatedUser())", "default\tString"},
            {"EXECUTE AS u1 SELECT 1", "Code: 344 SUPPORT_IS_DISABLED"},
            {"SELECT getMacro('test')", "Code: 139 NO_ELEMENTS_IN_CONFIG"},
            {"SELECT getMacro(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT getMacro(materialize('a'))", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT globalVariable('max_allowed_packet'), toTypeName(globalVariable('max_allowed_packet')), globalVariable('version'), globalVariable('auto_increment_increment'), toTypeName(globalVariable('x'))", "67108864\tInt32\t5.7.30\t0\tInt32"},
            {"SELECT globalVariable(materialize('x'))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT hasThreadFuzzer(), toTypeName(hasThreadFuzzer()), revision(), toTypeName(revision())", "0\tUInt8\t54513\tUInt32"},
            {"SELECT getMaxTableNameLengthForDatabase('default'), toTypeName(getMaxTableNameLengthForDatabase('default')), getMaxTableNameLengthForDatabase('nonexist'), getMaxTableNameLengthForDatabase('a-b')", "206\tUInt64\t205\t208"},
            {"SELECT getMaxTableNameLengthForDatabase('')", "Code: 117 INCORRECT_DATA"},
            {"SELECT getMaxTableNameLengthForDatabase(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT getMaxTableNameLengthForDatabase(materialize('a'))", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT getClientHTTPHeader('Content-Type')", "Code: 446 FUNCTION_NOT_ALLOWED"},
            {"SELECT getClientHTTPHeader(1) SETTINGS allow_get_client_http_header = 1", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT generateSerialID('id2', 100)", "Code: 139 NO_ELEMENTS_IN_CONFIG"},
            {"SELECT generateSerialID(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT generateSerialID()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT shardNum(), shardCount(), toTypeName(shardNum()), toTypeName(shardCount())", "0\t0\tUInt32\tUInt32"},
            {"CREATE TABLE shard_num_example (dummy UInt8) ENGINE=Distributed(test_cluster_two_shards_localhost, system, one, dummy)", "Code: 701 CLUSTER_DOESNT_EXIST"},
            {"SELECT hasColumnInTable('system','one','dummy'), hasColumnInTable('system','one','DUMMY'), hasColumnInTable('system','one','')", "1\t0\t0"},
            {"SELECT hasColumnInTable('system','one', materialize('dummy'))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT hasColumnInTable('system','nonexist','metric')", "Code: 60 UNKNOWN_TABLE"},
            {"SELECT hasColumnInTable('nodb','metrics','metric')", "Code: 81 UNKNOWN_DATABASE"},
            {"SELECT hasColumnInTable('system','metrics')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT icebergBucket(5, 1.0 :: Float32), icebergBucket(16, 34), icebergBucket(16, 'iceberg'), toTypeName(icebergBucket(16, 34)), icebergBucket(7, -5), icebergBucket(3, NULL), icebergBucket(3, toNullable(1)), toTypeName(icebergBucket(3, toNullable(1)))", "4\t3\t9\tUInt32\t4\t\\N\t2\tNullable(UInt32)"},
            {"SELECT icebergBucket(0, 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT icebergBucket(materialize(3), 1)", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT icebergBucket(3, [1])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT icebergBucket(3.5, 1)", "Code: 170 BAD_GET"},
            {"SELECT icebergTruncate(3, 'iceberg'), icebergTruncate(10, -1), icebergTruncate(10, 15), icebergTruncate(10, toDecimal32(12.29, 2)), icebergTruncate(2, 'héllo'), toTypeName(icebergTruncate(10, toInt8(5))), toTypeName(icebergTruncate(3, toFixedString('abcd', 4)))", "ice\t-10\t10\t12.2\thé\tInt16\tString"},
            {"SELECT toTypeName(icebergTruncate(10, toUInt8(5))), toTypeName(icebergTruncate(10, toInt16(5))), toTypeName(icebergTruncate(10, toUInt32(5))), toTypeName(icebergTruncate(10, toUInt64(5))), toTypeName(icebergTruncate(10, toDecimal64(5, 3))), toTypeName(icebergTruncate(10, toDecimal32(5, 3))), toTypeName(icebergTruncate(10, toNullable(5)))", "Int16\tInt32\tInt64\tInt64\tDecimal(18, 3)\tDecimal(9, 3)\tNullable(Int16)"},
            {"SELECT icebergTruncate(10, toInt8(-128)), icebergTruncate(10, toDecimal32(-12.29, 2)), icebergTruncate(4, toFixedString('ab', 4)), icebergTruncate(3, NULL), icebergTruncate(3, toNullable('abcd'))", "-130\t-12.3\tab\\0\\0\t\\N\tabc"},
            {"SELECT icebergTruncate(10, toInt128(5))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT icebergTruncate(3, 1.5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT icebergTruncate(0, 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT icebergTruncate(-3, 'abc')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT icebergTruncate(materialize(3), 'abc')", "Code: 44 ILLEGAL_COLUMN"},
        };
    }
}
