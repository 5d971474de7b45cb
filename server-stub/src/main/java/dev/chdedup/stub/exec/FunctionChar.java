package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import java.util.List;

/** char(n, ...) (ClickHouse's FunctionChar): the string of the bytes of its numeric arguments, each taken modulo 256. */
final class FunctionChar {
    private FunctionChar() {
    }

    static void register(FunctionFactory f) {
        f.registerCaseInsensitive("char", "Encoding", (args, ctx) -> build(args));
    }

    private static Evaluator build(List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.TOO_FEW_ARGUMENTS_FOR_FUNCTION, "Number of arguments for function char can't be 0, should be at least 1");
        }
        for (Evaluator a : args) {
            DataType t = TypeRules.stripNullable(a.type());
            if (t instanceof dev.chdedup.stub.types.BigIntType) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column " + t.name() + " of first argument of function char");
            }
            boolean ok = t instanceof dev.chdedup.stub.types.IntType || t instanceof FloatType;
            if (!ok && !StringArguments.isNull(t)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name()
                    + " of argument of function char, must be Int, UInt or Float number");
            }
        }
        return Functions.strict(DataTypes.STRING, args, v -> {
            byte[] out = new byte[v.length];
            for (int i = 0; i < v.length; i++) {
                out[i] = (byte) StringArguments.toLong(v[i], args.get(i).type());
            }
            return ByteStrings.of(out);
        });
    }
}
