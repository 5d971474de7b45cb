package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;

/**
 * The tokenizers of ClickHouse's text index and the functions over them: tokens(value[, tokenizer[, parameter]]),
 * tokensForLikePattern(pattern[, tokenizer[, parameter]]), hasPhrase(input, phrase[, 'tokenizer(parameters)']) and
 * hasAllTokens/hasAnyTokens(input, needles[, 'tokenizer(parameters)']) as the engine answers them over a column without
 * a text index (with one, ClickHouse tokenizes with the index's tokenizer, which the stub does not keep).
 * splitByNonAlpha (the default) splits at ASCII bytes that are not letters or digits, splitByString at any of its
 * separators (' ' by default), array takes the value whole, ngrams(N) takes the N-grams of code points (3 by default).
 * The sparseGrams tokenizer is not implemented here (NOT_IMPLEMENTED).
 */
final class Tokenizers {
    private Tokenizers() {
    }

    /** A tokenizer and its parameters. */
    record Tokenizer(String name, int ngram, List<String> separators) {
        List<Object> tokens(String s) {
            switch (name) {
                case "array":
                    return s.isEmpty() ? new ArrayList<>() : new ArrayList<>(List.of(s));
                case "ngrams":
                    return FunctionsStringSplitting.ngramsOf(s, ngram);
                case "splitByString":
                    return splitByAny(s, separators);
                default:
                    return FunctionsStringSplitting.runs(s, FunctionsStringSplitting::nonAlphaSeparator);
            }
        }
    }

    static void register(FunctionFactory f) {
        f.register("tokens", FunctionsStringSplitting.CATEGORY, (args, ctx) -> tokens("tokens", args, false));
        f.register("tokensForLikePattern", FunctionsStringSplitting.CATEGORY, (args, ctx) -> tokens("tokensForLikePattern", args, true));
        f.register("hasPhrase", FunctionsStringSearch.CATEGORY, (args, ctx) -> hasPhrase(args));
        f.registerAlias("matchPhrase", "hasPhrase", false);
        f.register("hasAllTokens", FunctionsStringSearch.CATEGORY, (args, ctx) -> hasTokens("hasAllTokens", args, true));
        f.registerAlias("hasAllToken", "hasAllTokens", false);
        f.register("hasAnyTokens", FunctionsStringSearch.CATEGORY, (args, ctx) -> hasTokens("hasAnyTokens", args, false));
        f.registerAlias("hasAnyToken", "hasAnyTokens", false);
    }

    /** The pieces of {@code s} between any of the separators (the first that matches at a place), empty pieces left out. */
    static List<Object> splitByAny(String s, List<String> separators) {
        List<Object> out = new ArrayList<>();
        int start = 0;
        int i = 0;
        while (i < s.length()) {
            String matched = null;
            for (String sep : separators) {
                if (s.startsWith(sep, i)) {
                    matched = sep;
                    break;
                }
            }
            if (matched == null) {
                i++;
                continue;
            }
            if (i > start) {
                out.add(s.substring(start, i));
            }
            i += matched.length();
            start = i;
        }
        if (s.length() > start) {
            out.add(s.substring(start));
        }
        return out;
    }

    /** The N of ngrams: a constant unsigned integer (UInt8 for tokens) of at least 1. */
    static int ngramLength(String name, Evaluator a, int position) {
        DataType t = a.type().unwrap();
        if (!(t instanceof IntType) || !t.name().startsWith("UInt")) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, position, "N", name, "const UInt8/16/32/64", a.type());
        }
        if (!a.constant()) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, position, "N", name, "const UInt8/16/32/64", a.type());
        }
        long n = FunctionsStringSplitting.unsignedConstant(a);
        if (n < 1) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Incorrect parameter of tokenizer 'ngrams': ngram length must be at least 1, but got " + n);
        }
        return (int) Math.min(n, Integer.MAX_VALUE);
    }

    private static Tokenizer tokenizer(String function, String name, Evaluator parameter) {
        switch (name) {
            case "splitByNonAlpha": case "array":
                return new Tokenizer(name, 0, List.of());
            case "ngrams": {
                if (parameter == null) {
                    return new Tokenizer(name, 3, List.of());
                }
                if (!parameter.type().name().equals("UInt8")) {
                    throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 3, "ngrams", function, "const UInt8", parameter.type());
                }
                return new Tokenizer(name, ngramLength(function, parameter, 3), List.of());
            }
            case "splitByString": {
                if (parameter == null) {
                    return new Tokenizer(name, 0, List.of(" "));
                }
                if (!(parameter.type().unwrap() instanceof ArrayType) || !parameter.constant()) {
                    throw Functions.illegalArgument(parameter.type().unwrap() instanceof ArrayType ? ErrorCode.ILLEGAL_COLUMN
                        : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 3, "separators", function, "const Array", parameter.type());
                }
                List<String> separators = new ArrayList<>();
                for (Object o : (List<?>) parameter.eval(new Object[0])) {
                    separators.add((String) o);
                }
                return splitByString(separators);
            }
            case "sparseGrams":
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The sparseGrams tokenizer is not supported by this server");
            default:
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unknown tokenizer: '" + name + "'");
        }
    }

    private static Tokenizer splitByString(List<String> separators) {
        for (String s : separators) {
            if (s.isEmpty()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS,
                    "Incorrect parameter of tokenizer 'splitByString': the empty string cannot be used as a separator");
            }
        }
        return new Tokenizer("splitByString", 0, List.copyOf(separators));
    }

    /** The tokenizer of arguments {@code from} on (name, then its parameter), splitByNonAlpha when there are none. */
    private static Tokenizer tokenizerArguments(String function, List<Evaluator> args, int from) {
        if (args.size() <= from) {
            return new Tokenizer("splitByNonAlpha", 0, List.of());
        }
        Evaluator nameArg = args.get(from);
        if (!(nameArg.type().unwrap() instanceof StringType) || !nameArg.constant()) {
            throw Functions.illegalArgument(nameArg.type().unwrap() instanceof StringType ? ErrorCode.ILLEGAL_COLUMN
                : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, from + 1, "tokenizer", function, "const String", nameArg.type());
        }
        String name = ByteStrings.toText((String) nameArg.eval(new Object[0]));
        boolean takesParameter = name.equals("ngrams") || name.equals("splitByString") || name.equals("sparseGrams");
        if (args.size() > from + 1 && !takesParameter || args.size() > from + 2) {
            Functions.argumentCount(function, args, 1, 1);
        }
        return tokenizer(function, name, args.size() > from + 1 ? args.get(from + 1) : null);
    }

    private static Evaluator tokens(String name, List<Evaluator> args, boolean likePattern) {
        Functions.argumentCount(name, args, 1, 2);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType) && !(t instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "value", name, "String or FixedString", args.get(0).type());
        }
        Tokenizer tokenizer = tokenizerArguments(name, args, 1);
        if (likePattern && (tokenizer.name().equals("array") || tokenizer.name().equals("splitByString"))) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Tokenizer '" + tokenizer.name() + "' does not support LIKE pattern tokenization");
        }
        return FunctionsStringSplitting.arrayOfStrings(args.subList(0, 1),
            v -> likePattern ? likeTokens((String) v[0], tokenizer) : tokenizer.tokens((String) v[0]));
    }

    /**
     * The tokens every string matching a LIKE pattern holds: the n-grams of each literal run between wildcards, or the
     * splitByNonAlpha tokens bounded on both sides by a separator or the pattern's own ends (not by a wildcard).
     */
    static List<Object> likeTokens(String pattern, Tokenizer tokenizer) {
        // the pattern as literal bytes, a wildcard ('%' or '_', unescaped) standing as -1
        List<Integer> items = new ArrayList<>();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                items.add((int) pattern.charAt(++i));
            } else {
                items.add(c == '%' || c == '_' ? -1 : (int) c);
            }
        }
        List<Object> out = new ArrayList<>();
        int i = 0;
        while (i < items.size()) {
            if (items.get(i) < 0) {
                i++;
                continue;
            }
            int start = i;
            StringBuilder run = new StringBuilder();
            while (i < items.size() && items.get(i) >= 0) {
                run.append((char) (int) items.get(i++));
            }
            if (tokenizer.name().equals("ngrams")) {
                out.addAll(tokenizer.tokens(run.toString()));
                continue;
            }
            boolean openLeft = start > 0;
            boolean openRight = i < items.size();
            String literal = run.toString();
            int k = 0;
            while (k < literal.length()) {
                int tokenStart = k;
                while (k < literal.length() && !FunctionsStringSplitting.nonAlphaSeparator(literal.charAt(k))) {
                    k++;
                }
                if (k > tokenStart && !(tokenStart == 0 && openLeft) && !(k == literal.length() && openRight)) {
                    out.add(literal.substring(tokenStart, k));
                }
                k++;
            }
        }
        return out;
    }

    /** The tokenizer of hasPhrase's third argument: 'name' or 'name(parameter)', the parameter a number or ['s', ...]. */
    private static Tokenizer parseTokenizer(String spec) {
        String s = spec.strip();
        int open = s.indexOf('(');
        String name = open < 0 ? s : s.substring(0, open).strip();
        String parameter = open < 0 ? "" : s.substring(open + 1, s.lastIndexOf(')') > open ? s.lastIndexOf(')') : s.length()).strip();
        if (parameter.isEmpty()) {
            return tokenizer("hasPhrase", name, null);
        }
        if (name.equals("ngrams")) {
            Evaluator n = Evaluator.constant(DataTypes.UINT8, Long.parseLong(parameter));
            return new Tokenizer(name, ngramLength("hasPhrase", n, 3), List.of());
        }
        if (name.equals("splitByString")) {
            List<String> separators = new ArrayList<>();
            int i = 0;
            while ((i = parameter.indexOf('\'', i)) >= 0) {
                StringBuilder sb = new StringBuilder();
                i++;
                while (i < parameter.length() && parameter.charAt(i) != '\'') {
                    char c = parameter.charAt(i++);
                    sb.append(c == '\\' && i < parameter.length() ? parameter.charAt(i++) : c);
                }
                separators.add(sb.toString());
                i++;
            }
            return splitByString(separators);
        }
        return tokenizer("hasPhrase", name, null);
    }

    /** hasPhrase(input, phrase[, tokenizer]): whether the phrase's tokens occur in the input's tokens, together and in order. */
    private static Evaluator hasPhrase(List<Evaluator> args) {
        Functions.argumentCount("hasPhrase", args, 2, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(t instanceof StringType) && !(t instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "input", "hasPhrase", "String or FixedString", args.get(0).type());
        }
        Evaluator phraseArg = args.get(1);
        if (!(phraseArg.type().unwrap() instanceof StringType) || !phraseArg.constant()) {
            throw Functions.illegalArgument(phraseArg.type().unwrap() instanceof StringType ? ErrorCode.ILLEGAL_COLUMN
                : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "phrase", "hasPhrase", "const String", phraseArg.type());
        }
        Tokenizer tokenizer = new Tokenizer("splitByNonAlpha", 0, List.of());
        if (args.size() == 3) {
            tokenizer = parseTokenizer(Functions.constString(args.get(2)));
            if (tokenizer.name().equals("array")) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Function 'hasPhrase' does not support the 'array' tokenizer");
            }
        }
        Object pv = phraseArg.eval(new Object[0]);
        List<Object> phrase = tokenizer.tokens(pv == null ? "" : (String) pv);
        Tokenizer inputTokenizer = tokenizer;
        return Functions.defaultForNulls(DataTypes.UINT8, args.subList(0, 1), v -> {
            if (phrase.isEmpty()) {
                return 0L;
            }
            List<Object> tokens = inputTokenizer.tokens((String) v[0]);
            for (int i = 0; i + phrase.size() <= tokens.size(); i++) {
                if (tokens.subList(i, i + phrase.size()).equals(phrase)) {
                    return 1L;
                }
            }
            return 0L;
        });
    }

    /**
     * hasAllTokens and hasAnyTokens: whether all (any) of the needles are among the input's tokens (an array's
     * elements' tokens); needles are a constant array of tokens, or a constant string the tokenizer splits; none is 0.
     */
    private static Evaluator hasTokens(String name, List<Evaluator> args, boolean all) {
        Functions.argumentCount(name, args, 2, 1);
        Evaluator input = args.get(0);
        DataType t = input.type().unwrap();
        boolean array = t instanceof ArrayType at && at.element.unwrap() instanceof StringType;
        if (!(t instanceof StringType) && !array && !(t instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "input", name,
                "String, FixedString, Array(String) or Array(FixedString)", input.type());
        }
        Evaluator needlesArg = args.get(1);
        DataType nt = needlesArg.type().unwrap();
        boolean needleArray = nt instanceof ArrayType at && !at.element.isNullable()
            && (at.element.unwrap() instanceof StringType || at.element.unwrap() instanceof NothingType);
        if (!(nt instanceof StringType) && !needleArray) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "needles", name, "const String or const Array(String)",
                needlesArg.type());
        }
        if (!needlesArg.constant()) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, 2, "needles", name, "const String or const Array(String)",
                needlesArg.type());
        }
        Tokenizer tokenizer = new Tokenizer("splitByNonAlpha", 0, List.of());
        if (args.size() == 3) {
            Evaluator spec = args.get(2);
            if (!(spec.type().unwrap() instanceof StringType) || !spec.constant()) {
                throw Functions.illegalArgument(spec.type().unwrap() instanceof StringType ? ErrorCode.ILLEGAL_COLUMN
                    : ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 3, "tokenizer", name, "const String", spec.type());
            }
            tokenizer = parseTokenizer(Functions.constString(spec));
        }
        Object nv = needlesArg.eval(new Object[0]);
        List<Object> needles = needleArray ? new ArrayList<>((List<?>) nv) : tokenizer.tokens(nv == null ? "" : (String) nv);
        Tokenizer inputTokenizer = tokenizer;
        return Functions.defaultForNulls(DataTypes.UINT8, args.subList(0, 1), v -> {
            if (needles.isEmpty()) {
                return 0L;
            }
            java.util.Set<Object> tokens = new java.util.HashSet<>();
            if (v[0] instanceof List<?> values) {
                for (Object o : values) {
                    if (o != null) {
                        tokens.addAll(inputTokenizer.tokens((String) o));
                    }
                }
            } else {
                tokens.addAll(inputTokenizer.tokens((String) v[0]));
            }
            boolean result = all ? tokens.containsAll(needles) : needles.stream().anyMatch(tokens::contains);
            return result ? 1L : 0L;
        });
    }
}
