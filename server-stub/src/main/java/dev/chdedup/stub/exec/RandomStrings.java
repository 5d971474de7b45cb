package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * randomString(n) and randomPrintableASCII(n), a String of n random bytes (printable ASCII, space to tilde, for the
 * latter) for each row, and randomFixedString(n), a FixedString(n) of them for a constant unsigned n. The optional
 * second argument of the first two only keeps calls apart. Mirrors ClickHouse's randomString.cpp,
 * randomPrintableASCII.cpp and randomFixedString.cpp, with their errors.
 */
final class RandomStrings {
    private RandomStrings() {
    }

    /** Above this randomString refuses a length (TOO_LARGE_STRING_SIZE), as the engine does. */
    private static final long MAX_STRING_SIZE = 1L << 30;
    /** The longest FixedString the engine makes. */
    private static final long MAX_FIXED_STRING_SIZE = 0xFFFFFF;

    static boolean handles(String n) {
        return n.equals("randomString") || n.equals("randomFixedString") || n.equals("randomPrintableASCII");
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        if (name.equals("randomFixedString")) {
            return fixed(args);
        }
        Functions.argumentCount(name, args, 1, 1);
        Evaluator n = args.get(0);
        DataType t = n.type().unwrap();
        if (!TypeRules.isInteger(t) && !Functions.isFloat(t) && !Functions.isNothing(n)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "length", name, "(U)Int*", n.type());
        }
        boolean printable = name.equals("randomPrintableASCII");
        return Functions.defaultForNulls(DataTypes.STRING, args.subList(0, 1), v -> {
            long len = Values.toLong(Values.toNumber(v[0], t));
            if (len < 0 || len > MAX_STRING_SIZE) {
                throw new ChException(ErrorCode.TOO_LARGE_STRING_SIZE, "Too large string size in function " + name);
            }
            return randomBytes((int) len, printable);
        });
    }

    private static Evaluator fixed(List<Evaluator> args) {
        Functions.arity("randomFixedString", args, 1);
        Evaluator n = args.get(0);
        if (Functions.isNothing(n)) {
            return Functions.defaultForNulls(DataTypes.NOTHING, args, v -> null);
        }
        DataType t = n.type().unwrap();
        if (!(t instanceof IntType) || ((IntType) t).signed) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function randomFixedString must be unsigned integer");
        }
        if (!n.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "First argument for function randomFixedString must be constant");
        }
        long len = (Long) n.eval(new Object[0]);
        if (len == 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "FixedString size must be positive");
        }
        if (Long.compareUnsigned(len, MAX_FIXED_STRING_SIZE) > 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "FixedString size is too large");
        }
        return Functions.strict(DataTypes.parse("FixedString(" + len + ")"), args, v -> randomBytes((int) len, false));
    }

    private static String randomBytes(int len, boolean printable) {
        byte[] b = new byte[len];
        ThreadLocalRandom r = ThreadLocalRandom.current();
        if (printable) {
            for (int i = 0; i < len; i++) {
                b[i] = (byte) (' ' + r.nextInt('~' - ' ' + 1));
            }
        } else {
            r.nextBytes(b);
        }
        return ByteStrings.of(b);
    }
}
