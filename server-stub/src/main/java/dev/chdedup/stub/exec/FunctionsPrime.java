package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.math.BigInteger;
import java.util.List;

/**
 * ClickHouse's isPrime (exact, for unsigned integers up to 64 bits) and isProbablePrime (Miller-Rabin with a constant
 * number of rounds, for unsigned integers up to 256 bits): a UInt8.
 */
final class FunctionsPrime {
    private FunctionsPrime() {
    }

    static void register(FunctionFactory f) {
        f.register("isPrime", FunctionsMath.CATEGORY, (args, ctx) -> isPrime(args));
        f.register("isProbablePrime", FunctionsMath.CATEGORY, (args, ctx) -> isProbablePrime(args));
    }

    private static boolean unsigned(DataType t, boolean big) {
        DataType u = t.unwrap();
        return u instanceof IntType && !((IntType) u).signed || u instanceof BoolType || u instanceof NothingType
            || big && u instanceof BigIntType && !((BigIntType) u).signed;
    }

    private static Evaluator isPrime(List<Evaluator> args) {
        Functions.arity("isPrime", args, 1);
        if (!unsigned(args.get(0).type(), false)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "n", "isPrime", "UInt8/UInt16/UInt32/UInt64",
                args.get(0).type());
        }
        DataType t = args.get(0).type();
        // Miller-Rabin of certainty 100: a composite passes with a probability below 2^-100
        return Functions.defaultForNulls(DataTypes.UINT8, args,
            v -> Values.toBigInteger(Values.toNumber(v[0], t)).isProbablePrime(100) ? 1L : 0L);
    }

    private static Evaluator isProbablePrime(List<Evaluator> args) {
        Functions.argumentCount("isProbablePrime", args, 1, 1);
        if (!unsigned(args.get(0).type(), true)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "n", "isProbablePrime",
                "UInt8/UInt16/UInt32/UInt64/UInt128/UInt256", args.get(0).type());
        }
        if (args.size() > 1) {
            Evaluator rounds = args.get(1);
            DataType rt = rounds.type().unwrap();
            String expected = "UInt8/UInt16/UInt32/UInt64 (constant)";
            if (!(rt instanceof IntType && !((IntType) rt).signed)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "rounds", "isProbablePrime", expected, rounds.type());
            }
            if (!rounds.constant()) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, 2, "rounds", "isProbablePrime", expected, rounds.type());
            }
            Object r = rounds.eval(new Object[0]);
            if (r == null || (Long) r == 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Second argument of function isProbablePrime must be a positive integer constant");
            }
        }
        DataType t = args.get(0).type();
        List<Evaluator> n = args.subList(0, 1);
        return Functions.defaultForNulls(DataTypes.UINT8, n, v -> {
            BigInteger x = Values.toBigInteger(Values.toNumber(v[0], t));
            return x.isProbablePrime(100) ? 1L : 0L;
        });
    }
}
