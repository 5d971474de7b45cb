package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;
import java.util.regex.Pattern;

/**
 * LIKE and ILIKE with their negations (ClickHouse's like, notLike, ilike, notILike of the String Search category): the
 * pattern's % is any run and _ one code point, the escape character (a backslash, or the ESCAPE clause's third argument)
 * makes the next character literal; the whole value must match.
 */
final class FunctionsLike {
    private FunctionsLike() {
    }

    static void register(FunctionFactory f) {
        for (String name : new String[] {"like", "notLike", "ilike", "notILike"}) {
            f.register(name, FunctionsStringSearch.CATEGORY, (args, ctx) -> like(name, args));
        }
    }

    private static Evaluator like(String name, List<Evaluator> args) {
        if (args.size() != 2 && args.size() != 3) {
            Functions.arity(name, args, 2);
        }
        char escape = args.size() == 3 ? likeEscape(name, args.get(2)) : '\\';
        for (int i = 0; i < 2; i++) {
            DataType t = args.get(i).type();
            if (!Functions.isString(t) && !(t.unwrap() instanceof dev.chdedup.stub.types.NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
            }
        }
        boolean negate = name.startsWith("not");
        boolean ci = name.toLowerCase().contains("ilike");
        Evaluator pat = args.get(1);
        Object constant = pat.constant() ? pat.eval(new Object[0]) : null;
        // as in ClickHouse, matching is by UTF-8 code point (_ is one code point); invalid UTF-8 is undefined there
        Pattern fixed = constant instanceof String ? likePattern(ByteStrings.toText((String) constant), ci, escape) : null;
        return Functions.strict(DataTypes.UINT8, args.subList(0, 2), v -> {
            Pattern p = fixed != null ? fixed : likePattern(ByteStrings.toText((String) v[1]), ci, escape);
            return p.matcher(ByteStrings.toText((String) v[0])).matches() != negate ? 1L : 0L;
        });
    }

    /** The ESCAPE argument of LIKE: a constant String of one ASCII character. */
    private static char likeEscape(String name, Evaluator e) {
        if (!Functions.isString(e.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + e.type().name() + " of the ESCAPE argument of function " + name);
        }
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index 2 for function " + name + " must be constant");
        }
        Object v = e.eval(new Object[0]);
        if (!(v instanceof String) || ((String) v).length() != 1 || ((String) v).charAt(0) > 127) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The ESCAPE argument of function " + name + " must be a single ASCII character, got '"
                + v + "'");
        }
        return ((String) v).charAt(0);
    }

    static Pattern likePattern(String like, boolean ci) {
        return likePattern(like, ci, '\\');
    }

    /** A LIKE pattern as a regular expression: % any run, _ one code point, {@code escape} makes the next character literal. */
    static Pattern likePattern(String like, boolean ci, char escape) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < like.length(); i++) {
            char c = like.charAt(i);
            if (c == escape && i + 1 < like.length()) {
                sb.append(Pattern.quote(String.valueOf(like.charAt(++i))));
            } else if (c == '%') {
                sb.append(".*");
            } else if (c == '_') {
                sb.append('.');
            } else {
                sb.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(sb.toString(), Pattern.DOTALL | (ci ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0));
    }
}
