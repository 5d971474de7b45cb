package dev.chdedup.stub.exec;

/**
 * proportionsZTest beyond its documented example, held to the engine's answers: pooled and unpooled, several
 * confidence levels, the rows that answer NaN (no successes, more successes than trials, no trials, a level outside
 * [0, 1]), Boost's refusal of a level of 1, every unsigned width, column arguments, and the argument errors.
 */
class FunctionProportionsZTestCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT proportionsZTest(10, 11, 100, 101, 0.95, 'unpooled')", "(-0.20656724435948853,0.8363478437079654,-0.09345975390115283,0.07563797172293502)"},
            {"SELECT proportionsZTest(10, 11, 100, 101, 0.95, 'pooled')", "(-0.20650660711849533,0.8363952042359353,-0.09345975390115283,0.07563797172293502)"},
            {"SELECT proportionsZTest(10, 11, 100, 101, 0.99, 'unpooled')", "(-0.20656724435948853,0.8363478437079654,-0.12002693206274241,0.1022051498845246)"},
            {"SELECT proportionsZTest(50, 60, 100, 100, 0.9, 'pooled')", "(-1.4213381090374024,0.1552184896846842,-0.21513975388660309,0.01513975388660313)"},
            {"SELECT proportionsZTest(0, 0, 100, 101, 0.95, 'unpooled')", "(nan,nan,nan,nan)"},
            {"SELECT proportionsZTest(10, 11, 0, 101, 0.95, 'unpooled')", "(nan,nan,nan,nan)"},
            {"SELECT proportionsZTest(10, 11, 100, 101, 1.5, 'unpooled')", "(nan,nan,nan,nan)"},
            {"SELECT proportionsZTest(200, 11, 100, 101, 0.95, 'unpooled')", "(nan,nan,nan,nan)"},
            {"SELECT proportionsZTest(10, 11, 100, 101, 1., 'unpooled')", "Code: 1001 STD_EXCEPTION"},
            {"SELECT proportionsZTest(10, 11, 100, 101, 0., 'unpooled')", "(-0.20656724435948853,0.8363478437079654,-0.008910891089108905,-0.008910891089108905)"},
            {"SELECT proportionsZTest(10, 11, 100, 101, 0.95, 'x')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT toTypeName(proportionsZTest(10, 11, 100, 101, 0.95, 'unpooled'))", "Tuple(\\n    z_statistic Float64,\\n    p_value Float64,\\n    confidence_interval_low Float64,\\n    confidence_interval_high Float64)"},
            {"SELECT proportionsZTest(10.5, 11, 100, 101, 0.95, 'unpooled')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT proportionsZTest(-1, 11, 100, 101, 0.95, 'unpooled')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT proportionsZTest(10, 11, 100, 101, 0.95)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT proportionsZTest(10, 11, 100, 101, 1, 'unpooled')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT proportionsZTest(number, 11, 100, 101, 0.95, 'unpooled') FROM numbers(4)", "(nan,nan,nan,nan)\n(-3.0381897618004037,0.002380040291655172,-0.16271921098106212,-0.03510257119715572)\n(-2.614026640196694,0.008948205908469786,-0.15557514832671082,-0.022246633851506978)\n(-2.23025673959163,0.02573040336840826,-0.14825829032662252,-0.009563491851595315)"},
            {"SELECT proportionsZTest(10, 11, 100, 101, number / 10, 'unpooled') FROM numbers(11)", "Code: 1001 STD_EXCEPTION"},
            {"SELECT proportionsZTest(toUInt8(number + 1), toUInt16(30), toUInt32(200), toUInt64(300), 0.9, 'pooled') FROM numbers(5)", "(-4.3153593311834735,0.000015934349433255335,-0.1246473174106739,-0.0653526825893261)\n(-4.02814616647181,0.00005621839000591322,-0.12075040548035665,-0.059249594519643366)\n(-3.750283877387005,0.00017663448903859624,-0.11680463895251642,-0.053195361047483604)\n(-3.481113612311838,0.0004993336414638172,-0.11281472679651586,-0.047185273203484146)\n(-3.220040930558189,0.0012817229510682093,-0.1087846288228316,-0.04121537117716841)"},
            {"SELECT proportionsZTest(123456, 234567, 1000000, 1000000, 0.999, 'unpooled')", "(-207.1294682368585,0,-0.11287614582292417,-0.10934585417707583)"},
            {"SELECT proportionsZTest(1, 1, 1, 1, 0.95, 'unpooled')", "(nan,nan,nan,nan)"},
            {"SELECT proportionsZTest(NULL, 11, 100, 101, 0.95, 'unpooled')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
        };
    }
}
