package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.List;

/**
 * leftPad, rightPad, leftPadUTF8 and rightPadUTF8 (ClickHouse's padString): a string padded at its start or end to n
 * bytes (code points for the UTF-8 forms) with a pad string repeated (a space when it is absent or empty), or cut to
 * n when longer. n is an integer from 0 to 1,000,000.
 */
final class FunctionPadString {
    private static final long MAX_LENGTH = 1_000_000;

    private FunctionPadString() {
    }

    static void register(FunctionFactory f) {
        f.register("leftPad", FunctionsString.CATEGORY, (args, ctx) -> build("leftPad", args, true, false));
        f.register("rightPad", FunctionsString.CATEGORY, (args, ctx) -> build("rightPad", args, false, false));
        f.registerAlias("lpad", "leftPad", true);
        f.registerAlias("rpad", "rightPad", true);
        f.register("leftPadUTF8", FunctionsString.CATEGORY, (args, ctx) -> build("leftPadUTF8", args, true, true));
        f.register("rightPadUTF8", FunctionsString.CATEGORY, (args, ctx) -> build("rightPadUTF8", args, false, true));
    }

    private static Evaluator build(String name, List<Evaluator> args, boolean left, boolean utf8) {
        Functions.argumentCount(name, args, 2, 1);
        if (!Functions.isString(args.get(0).type()) && !Functions.isNothing(args.get(0))) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "string", name, "String or FixedString", args.get(0).type());
        }
        DataType lengthType = args.get(1).type();
        if (!TypeRules.isInteger(lengthType) && !Functions.isNothing(args.get(1))) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "length", name, "UInt*", lengthType);
        }
        if (args.size() == 3 && !StringArguments.isNull(args.get(2).type())
            && !(args.get(2).type().unwrap() instanceof dev.chdedup.stub.types.StringType st && st.fixedLength == 0)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 3, "pad_string", name, "String", args.get(2).type());
        }
        return Functions.defaultForNulls(DataTypes.STRING, args, v -> {
            long n = StringArguments.toLong(v[1], lengthType);
            if (n < 0) {
                throw new ChException(ErrorCode.INDEX_OF_POSITIONAL_ARGUMENT_IS_OUT_OF_RANGE, "New padded length (" + n + ") is negative");
            }
            if (n > MAX_LENGTH) {
                throw new ChException(ErrorCode.TOO_LARGE_STRING_SIZE, "New padded length (" + n + ") is too big, maximum is: " + MAX_LENGTH);
            }
            String pad = v.length > 2 && !((String) v[2]).isEmpty() ? (String) v[2] : " ";
            return utf8 ? padUtf8((String) v[0], (int) n, pad, left) : padBytes((String) v[0], (int) n, pad, left);
        });
    }

    private static String padBytes(String s, int n, String pad, boolean left) {
        if (s.length() >= n) {
            return s.substring(0, n);
        }
        StringBuilder p = new StringBuilder(n);
        while (p.length() < n - s.length()) {
            p.append(pad);
        }
        p.setLength(n - s.length());
        return left ? p + s : s + p;
    }

    private static String padUtf8(String s, int n, String pad, boolean left) {
        long have = ByteStrings.codePoints(s);
        if (have >= n) {
            return Utf8Functions.substring(s, 1, n);
        }
        long missing = n - have;
        long padPoints = ByteStrings.codePoints(pad);
        StringBuilder p = new StringBuilder();
        for (long k = missing; k > 0; k -= padPoints) {
            p.append(k >= padPoints ? pad : Utf8Functions.substring(pad, 1, k));
        }
        return left ? p + s : s + p;
    }
}
