package dev.chdedup.stub.error;

/**
 * The ClickHouse error codes the stub raises, with ClickHouse's numbers and names (src/Common/ErrorCodes.cpp),
 * and the HTTP status its HTTP handler maps each one to.
 */
public enum ErrorCode {
    UNSUPPORTED_METHOD(1),
    CANNOT_PARSE_TEXT(6),
    NO_SUCH_COLUMN_IN_TABLE(16),
    CANNOT_PARSE_QUOTED_STRING(26),
    CANNOT_PARSE_INPUT_ASSERTION_FAILED(27),
    ATTEMPT_TO_READ_AFTER_EOF(32),
    CANNOT_READ_ALL_DATA(33),
    BAD_ARGUMENTS(36),
    CANNOT_PARSE_DATE(38),
    CANNOT_PARSE_DATETIME(41),
    NUMBER_OF_ARGUMENTS_DOESNT_MATCH(42),
    ILLEGAL_TYPE_OF_ARGUMENT(43),
    ILLEGAL_COLUMN(44),
    UNKNOWN_FUNCTION(46),
    UNKNOWN_IDENTIFIER(47),
    NOT_IMPLEMENTED(48),
    LOGICAL_ERROR(49),
    UNKNOWN_TYPE(50),
    TYPE_MISMATCH(53),
    TABLE_ALREADY_EXISTS(57),
    UNKNOWN_TABLE(60),
    SYNTAX_ERROR(62),
    UNKNOWN_AGGREGATE_FUNCTION(63),
    ARGUMENT_OUT_OF_BOUND(69),
    CANNOT_CONVERT_TYPE(70),
    CANNOT_PARSE_NUMBER(72),
    CANNOT_PARSE_BOOL(467),
    FILE_DOESNT_EXIST(107),
    BAD_REQUEST_PARAMETER(457),
    SIZE_OF_FIXED_STRING_DOESNT_MATCH(19),
    CANNOT_PARSE_IPV4(441),
    CANNOT_PARSE_IPV6(442),
    ZLIB_INFLATE_FAILED(354),
    ZSTD_DECODER_FAILED(561),
    LZ4_DECODER_FAILED(617),
    UNKNOWN_FORMAT(73),
    UNKNOWN_DATABASE(81),
    DATABASE_ALREADY_EXISTS(82),
    NO_DATA_TO_INSERT(108),
    UNKNOWN_SETTING(115),
    INCORRECT_DATA(117),
    CANNOT_READ_ARRAY_FROM_TEXT(130),
    TIMEOUT_EXCEEDED(159),
    READONLY(164),
    ILLEGAL_AGGREGATION(184),
    UNKNOWN_USER(192),
    WRONG_PASSWORD(193),
    REQUIRED_PASSWORD(194),
    NOT_AN_AGGREGATE(215),
    NOT_FOUND_COLUMN_IN_BLOCK(10),
    TOO_MANY_PARTS(252),
    VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE(321),
    CANNOT_ASSIGN_OPTIMIZE(388),
    QUERY_WAS_CANCELLED(394),
    FUNCTION_THROW_IF_VALUE_IS_NON_ZERO(395),
    UNKNOWN_STORAGE(56),
    NO_SUCH_DATA_PART(232),
    INVALID_PARTITION_VALUE(248),
    BAD_DATA_PART_NAME(233),
    UNKNOWN_ELEMENT_OF_ENUM(691),
    AUTHENTICATION_FAILED(516),
    DEDUPLICATION_IS_NOT_POSSIBLE(753),
    TOO_LARGE_STRING_SIZE(131),
    NO_COMMON_TYPE(386),
    SIZES_OF_ARRAYS_DONT_MATCH(190),
    QUERY_WITH_SAME_ID_IS_ALREADY_RUNNING(216),
    CANNOT_UPDATE_COLUMN(420),
    INCORRECT_QUERY(80),
    QUERY_IS_TOO_LARGE(369),
    CHECKSUM_DOESNT_MATCH(40),
    TOO_DEEP_RECURSION(306),
    MEMORY_LIMIT_EXCEEDED(241),
    SESSION_NOT_FOUND(372),
    SESSION_IS_LOCKED(373),
    INVALID_SESSION_TIMEOUT(374),
    DATABASE_ACCESS_DENIED(291),
    EMPTY_LIST_OF_COLUMNS_PASSED(51),
    DUPLICATE_COLUMN(15),
    DUPLICATE_DATA_PART(235),
    UNFINISHED(341),
    ABORTED(236),
    CORRUPTED_DATA(246),
    NUMBER_OF_COLUMNS_DOESNT_MATCH(7),
    UNEXPECTED_EXPRESSION(183),
    CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN(349),
    ILLEGAL_DIVISION(153),
    ILLEGAL_INDEX(127),
    UNEXPECTED_END_OF_FILE(3),
    TOO_LARGE_ARRAY_SIZE(128),
    TOO_MANY_SIMULTANEOUS_QUERIES(202),
    NO_FREE_CONNECTION(203),
    SOCKET_TIMEOUT(209),
    NETWORK_ERROR(210),
    TABLE_IS_READ_ONLY(242),
    UNEXPECTED_ZOOKEEPER_ERROR(244),
    TOO_FEW_LIVE_REPLICAS(285),
    UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE(286),
    UNKNOWN_STATUS_OF_INSERT(319),
    SYSTEM_ERROR(425),
    KEEPER_EXCEPTION(999),
    ACCESS_DENIED(497),
    UNKNOWN_EXCEPTION(1002);

    /** The code with number {@code n}, or UNKNOWN_EXCEPTION when the stub does not list it. */
    public static ErrorCode of(int n) {
        for (ErrorCode c : values()) {
            if (c.code == n) {
                return c;
            }
        }
        return UNKNOWN_EXCEPTION;
    }

    public final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    /** The status ClickHouse's HTTP handler answers for this code. */
    public int httpStatus() {
        switch (this) {
            case REQUIRED_PASSWORD:
                return 401;
            case UNKNOWN_USER:
            case WRONG_PASSWORD:
            case AUTHENTICATION_FAILED:
                return 403;
            case CANNOT_PARSE_TEXT:
            case CANNOT_PARSE_QUOTED_STRING:
            case CANNOT_PARSE_INPUT_ASSERTION_FAILED:
            case CANNOT_PARSE_DATE:
            case CANNOT_PARSE_DATETIME:
            case CANNOT_PARSE_NUMBER:
            case CANNOT_PARSE_IPV4:
            case CANNOT_PARSE_IPV6:
            case SYNTAX_ERROR:
            case BAD_REQUEST_PARAMETER:
            case INCORRECT_DATA:
            case TYPE_MISMATCH:
            case VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE:
            case DUPLICATE_COLUMN:
            case ILLEGAL_COLUMN:
            case BAD_ARGUMENTS:
                return 400;
            case ACCESS_DENIED:
                return 403;
            case TIMEOUT_EXCEEDED:
                return 408;
            case QUERY_IS_TOO_LARGE:
                return 413;
            case SOCKET_TIMEOUT:
                return 503;
            case UNKNOWN_TABLE:
            case UNKNOWN_FUNCTION:
            case UNKNOWN_IDENTIFIER:
            case UNKNOWN_TYPE:
            case UNKNOWN_STORAGE:
            case UNKNOWN_DATABASE:
            case UNKNOWN_SETTING:
            case UNKNOWN_AGGREGATE_FUNCTION:
            case UNKNOWN_FORMAT:
                return 404;
            case NOT_IMPLEMENTED:
                return 501;
            default:
                return 500;
        }
    }
}
