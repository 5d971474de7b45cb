package dev.chdedup.stub.exec;

/**
 * The functions that need what the stub's configuration does not provide (embedded dictionaries of regions, AI
 * providers, naive Bayes models), answering as a server without it; the bitmap subsets and bitmapTransform; the part
 * name functions of Introspection; held to the engine's answers, errors included.
 */
class FunctionsUnconfiguredAndIntrospectionTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT regionToName(1::UInt32, 'en')", "Code: 156 DICTIONARIES_WAS_NOT_LOADED"},
            {"SELECT regionToName()", "Code: 156 DICTIONARIES_WAS_NOT_LOADED"},
            {"SELECT regionIn(1::UInt32, 2::UInt32)", "Code: 156 DICTIONARIES_WAS_NOT_LOADED"},
            {"SELECT aiGenerate('x')", "Code: 344 SUPPORT_IS_DISABLED"},
            {"SELECT aiGenerate('x') SETTINGS allow_experimental_ai_functions = 1", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT AIGenerate('x', map('credentials', 'nope')) SETTINGS allow_experimental_ai_functions = 1", "Code: 669 NAMED_COLLECTION_DOESNT_EXIST"},
            {"SELECT aiEmbed('x', 'm') SETTINGS allow_experimental_ai_functions = 1", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT aiGenerate(1) SETTINGS allow_experimental_ai_functions = 1", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT AIEmbed('x')", "Code: 46 UNKNOWN_FUNCTION"},
            {"SELECT naiveBayesClassifier('model', 'x')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT naiveBayesClassifierWithProb('m', 'x')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT naiveBayesClassifier(1, 'x')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT naiveBayesClassifier('m', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT naiveBayesClassifier('m')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT name, case_insensitive, alias_to, categories FROM system.functions WHERE name IN ('AIGenerate', 'aiGenerate', 'regionToName', 'naiveBayesClassifier') ORDER BY name", "AIGenerate\t0\taiGenerate\t\naiGenerate\t0\t\tAI\nnaiveBayesClassifier\t0\t\tMachine Learning\nregionToName\t0\t\tEmbedded Dictionary"},
            {"SELECT bitmapToArray(bitmapSubsetInRange(bitmapBuild([1, 2, 3, 4, 5]), 2, 5)), bitmapToArray(bitmapSubsetInRange(bitmapBuild([1, 2, 3, 4, 5]), 5, 2)), bitmapToArray(bitmapSubsetLimit(bitmapBuild([1, 5, 3, 2, 8]), 3, 2)), bitmapToArray(subBitmap(bitmapBuild([1, 2, 3, 4, 5]), 2, 2)), bitmapToArray(subBitmap(bitmapBuild([1, 2, 3, 4, 5]), 10, 2)), toTypeName(subBitmap(bitmapBuild([1::UInt16]), 0, 1))", "[2,3,4]\t[]\t[5,3]\t[3,4]\t[]\tAggregateFunction(groupBitmap, UInt16)"},
            {"SELECT bitmapSubsetInRange(bitmapBuild([1]), -1, 5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT bitmapSubsetLimit(bitmapBuild([1]), 'a', 5)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT bitmapToArray(bitmapSubsetInRange(bitmapBuild([1, 2, 3]), toUInt64(1), toUInt8(3))), bitmapToArray(bitmapSubsetLimit(bitmapBuild([1, 5, 3, 2, 8]), 0, 0)), bitmapToArray(subBitmap(bitmapBuild([1, 2, 3]), 1, 0))", "[1,2]\t[]\t[]"},
            {"SELECT bitmapToArray(bitmapTransform(bitmapBuild([1, 2, 3, 4, 5]), [2, 4], [20, 40])), bitmapToArray(bitmapTransform(bitmapBuild([1, 2, 3]), [1, 2], [2, 1])), bitmapToArray(bitmapTransform(bitmapBuild([1, 2, 3]), [1, 1], [7, 8])), bitmapToArray(bitmapTransform(bitmapBuild([1::UInt8, 2]), [1], [300]))", "[1,3,5,20,40]\t[1,3]\t[2,3,7]\t[2,44]"},
            {"SELECT bitmapTransform(bitmapBuild([1, 2, 3]), [1], [2, 3])", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT bitmapTransform(bitmapBuild([1, 2, 3]), [1], ['a'])", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT bitmapToArray(bitmapSubsetInRange(groupBitmapState(number), 10, 15)) FROM numbers(100)", "[10,11,12,13,14]"},
            {"SELECT mergeTreePartInfo('all_12_25_7_4'), mergeTreePartInfo('tmp_all_1_1_0'), mergeTreePartInfo('all_1_1_0_try1'), mergeTreePartInfo('covered-by-broken_a-b_01_2_3'), mergeTreePartInfo('all_1_1_0').partition_id", "('all','','',12,25,7,4)\t('all','tmp','',1,1,0,0)\t('all','','try1',1,1,0,0)\t('a-b','covered-by-broken','',1,2,3,0)\tall"},
            {"SELECT mergeTreePartInfo('delete_tmp_all_1_1_0')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT mergeTreePartInfo('all_2_1_0')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT mergeTreePartInfo('all_1_1')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT mergeTreePartInfo('all_1_1_0_0_0')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT mergeTreePartInfo('all_1_1_1000000000000')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT mergeTreePartInfo(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isMergeTreePartCoveredBy('all_1_1_0', 'all_1_5_2'), isMergeTreePartCoveredBy('all_1_1_0', 'x_1_5_2'), isMergeTreePartCoveredBy('all_1_1_0_9', 'all_1_5_2_3'), isMergeTreePartCoveredBy('all_1_1_0', 'all_1_1_0'), isMergeTreePartCoveredBy('all_0_9_1', 'all_1_5_2')", "1\t0\t0\t1\t0"},
            {"SELECT isMergeTreePartCoveredBy('a', 'all_1_1_0')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT isMergeTreePartCoveredBy('all_1_1_0', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT logTrace('x'), toTypeName(logTrace('x'))", "0\tUInt8"},
            {"SELECT logTrace(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
        };
    }
}

