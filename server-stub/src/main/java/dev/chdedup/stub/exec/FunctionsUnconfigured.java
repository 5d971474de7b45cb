package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.StringType;
import java.util.List;
import java.util.Map;

/**
 * The functions that read what a server's configuration provides, which the stub's configuration never does, as a
 * ClickHouse server without it answers them: the embedded dictionaries of regions (no geobase: every region function
 * is DICTIONARIES_WAS_NOT_LOADED), the AI functions (SUPPORT_IS_DISABLED unless {@code allow_experimental_ai_functions};
 * then no provider credentials: BAD_ARGUMENTS, or NAMED_COLLECTION_DOESNT_EXIST for the collection named) and the
 * naive Bayes classifiers (no {@code nb_models}: the model is not found). Their argument checks come first, as in the
 * engine.
 */
final class FunctionsUnconfigured {
    private static final List<String> REGION_FUNCTIONS = List.of("regionHierarchy", "regionIn", "regionToArea",
        "regionToCity", "regionToContinent", "regionToCountry", "regionToDistrict", "regionToName", "regionToPopulation",
        "regionToTopContinent");
    /** Each AI function and the name of its first argument, as the engine's type errors call it. */
    private static final Map<String, String> AI_FUNCTIONS = Map.of("aiClassify", "text", "aiEmbed", "text",
        "aiExtract", "text", "aiGenerate", "prompt", "aiTranslate", "text");

    private FunctionsUnconfigured() {
    }

    static void register(FunctionFactory f) {
        for (String name : REGION_FUNCTIONS) {
            f.register(name, "Embedded Dictionary", (args, ctx) -> {
                throw new ChException(ErrorCode.DICTIONARIES_WAS_NOT_LOADED,
                    "Embedded dictionaries were not loaded. You need to check configuration file.");
            });
        }
        for (Map.Entry<String, String> ai : AI_FUNCTIONS.entrySet()) {
            f.register(ai.getKey(), "AI", (args, ctx) -> ai(ai.getKey(), ai.getValue(), args, ctx));
        }
        // the upper-case spellings the engine lists as aliases (there is no AIEmbed)
        for (String name : List.of("aiClassify", "aiExtract", "aiGenerate", "aiTranslate")) {
            f.registerAlias("AI" + name.substring(2), name, false);
        }
        for (String name : List.of("naiveBayesClassifier", "naiveBayesClassifierWithAllProbs", "naiveBayesClassifierWithProb")) {
            f.register(name, "Machine Learning", (args, ctx) -> naiveBayes(name, args));
        }
    }

    private static boolean isString(DataType t) {
        return t.unwrap() instanceof StringType;
    }

    private static Evaluator ai(String name, String firstArgument, List<Evaluator> args, QueryContext ctx) {
        if (!ctx.settings().getBool("allow_experimental_ai_functions")) {
            throw new ChException(ErrorCode.SUPPORT_IS_DISABLED,
                "AI functions are experimental. Set `allow_experimental_ai_functions` setting to enable it.");
        }
        if (args.isEmpty() || !isString(args.get(0).type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as 1st argument '"
                + firstArgument + "' to function '" + name + "'. Expected: String or Nullable(String), got: "
                + (args.isEmpty() ? "nothing" : args.get(0).type().name()));
        }
        for (Evaluator a : args) {
            if (a.type().unwrap() instanceof MapType && a.constant() && a.eval(new Object[0]) instanceof Map<?, ?> m
                    && m.get("credentials") != null) {
                throw new ChException(ErrorCode.NAMED_COLLECTION_DOESNT_EXIST,
                    "There is no named collection `" + m.get("credentials") + "`");
            }
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "AI function requires credentials: pass 'credentials' in the parameter "
            + "map or set the default-credentials setting");
    }

    private static Evaluator naiveBayes(String name, List<Evaluator> args) {
        Functions.arity(name, args, 2);
        Evaluator model = args.get(0);
        if (!isString(model.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as 1st argument "
                + "'dictionary_name' to function '" + name + "'. Expected: const String, got: " + model.type().name());
        }
        if (!model.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "A value of illegal type was provided as 1st argument "
                + "'dictionary_name' to function '" + name + "'. Expected: const String, got: " + model.type().name());
        }
        if (!isString(args.get(1).type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as 2nd argument "
                + "'input_text' to function '" + name + "'. Expected: String or Nullable(String), got: " + args.get(1).type().name());
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Dictionary (`" + model.eval(new Object[0]) + "`) not found");
    }
}
