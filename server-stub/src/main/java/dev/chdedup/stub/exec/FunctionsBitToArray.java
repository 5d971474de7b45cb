package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * bitmaskToArray, bitmaskToList and bitPositionsToArray (ClickHouse's FunctionsBitToArray): the powers of two, or the
 * positions, of an integer's set bits in its type's two's complement, lowest first.
 */
final class FunctionsBitToArray {
    private static final String CATEGORY = "Encoding";

    private FunctionsBitToArray() {
    }

    static void register(FunctionFactory f) {
        f.register("bitmaskToArray", CATEGORY, (args, ctx) -> bitmask("bitmaskToArray", args, false));
        f.register("bitmaskToList", CATEGORY, (args, ctx) -> bitmask("bitmaskToList", args, true));
        f.register("bitPositionsToArray", CATEGORY, (args, ctx) -> positions(args));
    }

    private static int width(DataType t) {
        return t instanceof BoolType ? 1 : TypeRules.bits(t);
    }

    /** The set bits of an integer value in its type's width, lowest first. */
    private static List<Integer> setBits(Object v, DataType t) {
        BigInteger n = v instanceof Boolean ? (((Boolean) v) ? BigInteger.ONE : BigInteger.ZERO) : Values.toBigInteger(Values.toNumber(v, t));
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < width(t); i++) {
            if (n.testBit(i)) {
                out.add(i);
            }
        }
        return out;
    }

    /** Powers of two of the set bits, in the argument's type (an array) or as decimal text joined by commas (a list). */
    private static Evaluator bitmask(String name, List<Evaluator> args, boolean list) {
        Functions.arity(name, args, 1);
        DataType t = TypeRules.stripNullable(args.get(0).type());
        if (t instanceof BigIntType) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column " + t.name() + " of first argument of function " + name);
        }
        if (!(t instanceof IntType || t instanceof BoolType) && !StringArguments.isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        return Functions.strict(list ? DataTypes.STRING : DataTypes.array(t), args, v -> {
            List<Object> out = new ArrayList<>();
            StringBuilder sb = new StringBuilder();
            for (int bit : setBits(v[0], t)) {
                Object power = t instanceof BoolType ? (Object) Boolean.TRUE : (Object) (1L << bit);
                if (t instanceof IntType it && it.signed && bit == it.bits - 1) {
                    power = -(1L << bit);
                }
                out.add(power);
                if (sb.length() > 0) {
                    sb.append(',');
                }
                sb.append(Values.text(power, t));
            }
            return list ? sb.toString() : Collections.unmodifiableList(out);
        });
    }

    private static Evaluator positions(List<Evaluator> args) {
        Functions.arity("bitPositionsToArray", args, 1);
        DataType t = TypeRules.stripNullable(args.get(0).type());
        if (!TypeRules.isInteger(t) && !StringArguments.isNull(t)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type bitPositionsToArray of argument of function " + t.name());
        }
        return Functions.strict(DataTypes.array(DataTypes.UINT64), args, v -> {
            List<Object> out = new ArrayList<>();
            for (int bit : setBits(v[0], t)) {
                out.add((long) bit);
            }
            return Collections.unmodifiableList(out);
        });
    }
}
