package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.util.List;

/**
 * left, right, leftUTF8 and rightUTF8 (ClickHouse's FunctionLeftRight): the first or last n bytes (code points for the
 * UTF-8 forms) of a string, or for a negative n all but the last or first |n|; n is an integer or a float (truncated).
 * The byte forms take a FixedString too. A literal NULL argument gives Nullable(Nothing).
 */
final class FunctionLeftRight {
    private FunctionLeftRight() {
    }

    static void register(FunctionFactory f) {
        f.registerCaseInsensitive("left", FunctionsString.CATEGORY, (args, ctx) -> build("left", args, true, false));
        f.registerCaseInsensitive("right", FunctionsString.CATEGORY, (args, ctx) -> build("right", args, false, false));
        f.register("leftUTF8", FunctionsString.CATEGORY, (args, ctx) -> build("leftUTF8", args, true, true));
        f.register("rightUTF8", FunctionsString.CATEGORY, (args, ctx) -> build("rightUTF8", args, false, true));
    }

    private static Evaluator build(String name, List<Evaluator> args, boolean left, boolean utf8) {
        Functions.arity(name, args, 2);
        DataType s = args.get(0).type().unwrap();
        boolean stringOk = s instanceof StringType && (!utf8 || ((StringType) s).fixedLength == 0);
        if (!stringOk && !StringArguments.isNull(s)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of argument of function " + name);
        }
        DataType n = args.get(1).type();
        boolean numberOk = TypeRules.isInteger(n) || n.unwrap() instanceof dev.chdedup.stub.types.FloatType;
        if (!numberOk && !StringArguments.isNull(n)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + n.name() + " of second argument of function " + name);
        }
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            String str = (String) v[0];
            long k = StringArguments.toLong(v[1], n);
            // left is substring(s, 1, n); right is substring(s, -n) for n > 0, substring(s, 1 - n) for n < 0
            long offset = left ? 1 : k > 0 ? -k : k == 0 ? Long.MAX_VALUE : 1 - k;
            long length = left ? k : Long.MAX_VALUE;
            return utf8 ? Utf8Functions.substring(str, offset, length) : StringFunctions.substring(Functions.bytes(str), offset, length);
        });
    }
}
