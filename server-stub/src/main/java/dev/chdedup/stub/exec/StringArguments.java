package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.List;

/**
 * Argument checks shared by the string function families: the type an argument must have (ILLEGAL_TYPE_OF_ARGUMENT
 * otherwise, the literal NULL always passing), and the constants some arguments must be (ILLEGAL_COLUMN otherwise).
 */
final class StringArguments {
    private StringArguments() {
    }

    static boolean isNull(DataType t) {
        return t.unwrap() instanceof NothingType;
    }

    /** Argument {@code i} (0-based) is a String or FixedString. */
    static void string(String fn, List<Evaluator> args, int i) {
        DataType t = args.get(i).type();
        if (!Functions.isString(t) && !isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument " + (i + 1)
                + " of function " + fn + ", expected String");
        }
    }

    /** Argument {@code i} is a String, not a FixedString. */
    static void plainString(String fn, List<Evaluator> args, int i) {
        DataType t = args.get(i).type().unwrap();
        if (!(t instanceof StringType && ((StringType) t).fixedLength == 0) && !isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(i).type().name() + " of argument "
                + (i + 1) + " of function " + fn + ", expected String");
        }
    }

    /** Arguments {@code from} to the last are Strings or FixedStrings. */
    static void strings(String fn, List<Evaluator> args, int from) {
        for (int i = from; i < args.size(); i++) {
            string(fn, args, i);
        }
    }

    /** Argument {@code i} is an integer (or a Bool). */
    static void integer(String fn, List<Evaluator> args, int i) {
        DataType t = args.get(i).type();
        if (!TypeRules.isInteger(t) && !isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument " + (i + 1)
                + " of function " + fn + ", expected an integer");
        }
    }

    /** Argument {@code i} is a number. */
    static void number(String fn, List<Evaluator> args, int i) {
        DataType t = args.get(i).type();
        if (!TypeRules.isNumeric(t) && !isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument " + (i + 1)
                + " of function " + fn + ", expected a number");
        }
    }

    /** The value of argument {@code i}, which must be a constant (a literal or a function of literals). */
    static Object constant(String fn, List<Evaluator> args, int i) {
        Evaluator e = args.get(i);
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Argument at index " + i + " for function " + fn + " must be constant");
        }
        return e.eval(new Object[0]);
    }

    /** A numeric value as a long (UInt64 above Long.MAX_VALUE wraps, as a C++ cast does). */
    static long toLong(Object v, DataType t) {
        return v instanceof Long ? (Long) v : Values.toLong(Values.toNumber(v, t));
    }
}
