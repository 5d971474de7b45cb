package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.math.BigInteger;
import java.util.List;
import java.util.function.DoubleBinaryOperator;
import java.util.function.DoubleUnaryOperator;

/**
 * The Mathematical functions, as ClickHouse's FunctionMathUnary, FunctionMathBinaryFloat64 and FunctionMathConstFloat64
 * families and its intExp2, intExp10, factorial, isPrime, isProbablePrime and widthBucket: a function of numbers
 * (integers, floats, decimals, Bool) is a Float64, computed on the argument converted to Float64.
 */
final class FunctionsMath {
    static final String CATEGORY = "Mathematical";

    private FunctionsMath() {
    }

    static void register(FunctionFactory f) {
        unary(f, "acos", true, Math::acos);
        unary(f, "acosh", false, MathSpecial::acosh);
        unary(f, "asin", true, Math::asin);
        unary(f, "asinh", false, MathSpecial::asinh);
        unary(f, "atan", true, Math::atan);
        unary(f, "atanh", false, MathSpecial::atanh);
        unary(f, "cbrt", false, Math::cbrt);
        unary(f, "cos", true, Math::cos);
        unary(f, "cosh", false, Math::cosh);
        unary(f, "degrees", true, x -> x * (180 / Math.PI));
        unary(f, "erf", false, MathSpecial::erf);
        unary(f, "erfc", false, MathSpecial::erfc);
        unary(f, "exp", true, Math::exp);
        unary(f, "exp10", false, x -> Math.pow(10, x));
        unary(f, "exp2", false, x -> Math.pow(2, x));
        unary(f, "lgamma", false, MathSpecial::lgamma);
        unary(f, "log", true, Math::log);
        unary(f, "log10", true, Math::log10);
        unary(f, "log1p", false, MathSpecial::log1p);
        unary(f, "log2", true, MathSpecial::log2);
        unary(f, "radians", true, x -> x * (Math.PI / 180));
        unary(f, "sigmoid", false, x -> 1 / (1 + Math.exp(-x)));
        unary(f, "sin", true, Math::sin);
        unary(f, "sinh", false, Math::sinh);
        unary(f, "sqrt", true, Math::sqrt);
        unary(f, "tan", true, Math::tan);
        unary(f, "tanh", true, Math::tanh);
        unary(f, "tgamma", false, MathSpecial::tgamma);
        f.registerAlias("ln", "log", true);
        binary(f, "atan2", Math::atan2);
        binary(f, "hypot", Math::hypot);
        binary(f, "pow", Math::pow);
        f.registerAlias("power", "pow", true);
        f.register("e", CATEGORY, (args, ctx) -> constant("e", args, Math.E));
        f.registerCaseInsensitive("pi", CATEGORY, (args, ctx) -> constant("pi", args, Math.PI));
        f.register("intExp2", CATEGORY, (args, ctx) -> intExp("intExp2", args, 63, 2));
        f.register("intExp10", CATEGORY, (args, ctx) -> intExp("intExp10", args, 19, 10));
        f.registerCaseInsensitive("factorial", CATEGORY, (args, ctx) -> factorial(args));
        FunctionsPrime.register(f);
        f.register("widthBucket", CATEGORY, (args, ctx) -> widthBucket(args));
        f.registerAlias("width_bucket", "widthBucket", true);
    }

    /** Whether ClickHouse's isNumber holds: an integer of any width, a float, a decimal or a Bool. */
    static boolean isNumber(DataType t) {
        DataType u = t.unwrap();
        return TypeRules.isNumeric(u) || u instanceof BFloat16Type;
    }

    /** Whether ClickHouse's isNativeNumber holds: an integer up to 64 bits (Bool too) or a float. */
    static boolean isNativeNumber(DataType t) {
        DataType u = t.unwrap();
        return u instanceof IntType || Functions.isFloat(u) || u instanceof BFloat16Type || u instanceof dev.chdedup.stub.types.BoolType;
    }

    static double toDouble(Object v, DataType t) {
        return Values.toNumber(v, t).doubleValue();
    }

    private static void requireNumbers(String name, List<Evaluator> args) {
        for (Evaluator a : args) {
            DataType t = a.type().unwrap();
            if (!isNumber(t) && !(t instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
            }
        }
    }

    private static void unary(FunctionFactory f, String name, boolean caseInsensitive, DoubleUnaryOperator op) {
        FunctionFactory.Builder b = (args, ctx) -> {
            Functions.arity(name, args, 1);
            requireNumbers(name, args);
            DataType t = args.get(0).type();
            return Functions.defaultForNulls(DataTypes.FLOAT64, args, v -> op.applyAsDouble(toDouble(v[0], t)));
        };
        if (caseInsensitive) {
            f.registerCaseInsensitive(name, CATEGORY, b);
        } else {
            f.register(name, CATEGORY, b);
        }
    }

    private static void binary(FunctionFactory f, String name, DoubleBinaryOperator op) {
        f.registerCaseInsensitive(name, CATEGORY, (args, ctx) -> {
            Functions.arity(name, args, 2);
            requireNumbers(name, args);
            DataType ta = args.get(0).type();
            DataType tb = args.get(1).type();
            return Functions.defaultForNulls(DataTypes.FLOAT64, args, v -> op.applyAsDouble(toDouble(v[0], ta), toDouble(v[1], tb)));
        });
    }

    private static Evaluator constant(String name, List<Evaluator> args, double value) {
        Functions.arity(name, args, 0);
        return Evaluator.constant(DataTypes.FLOAT64, value);
    }

    /**
     * intExp2 and intExp10: base to the power of the argument (truncated toward zero) as a UInt64, 0 below 0 and the
     * largest UInt64 above the largest power it holds.
     */
    private static Evaluator intExp(String name, List<Evaluator> args, int maxPower, int base) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type().unwrap();
        if (t instanceof BigIntType) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, name + " not implemented for big integers");
        }
        if (!isNativeNumber(t) && !(t instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function " + name);
        }
        DataType at = args.get(0).type();
        boolean unsigned64 = t instanceof IntType && !((IntType) t).signed && ((IntType) t).bits == 64;
        return Functions.defaultForNulls(DataTypes.UINT64, args, v -> {
            double p;
            if (v[0] instanceof Long) {
                long x = (Long) v[0];
                p = unsigned64 && x < 0 ? Double.MAX_VALUE : x;
            } else {
                p = toDouble(v[0], at);
                if (Double.isNaN(p)) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, name + " must not be called with nan");
                }
            }
            if (p < 0) {
                return 0L;
            }
            if ((long) p > maxPower) {
                return -1L;
            }
            long r = 1;
            for (int i = 0; i < (int) p; i++) {
                r *= base;
            }
            return r;
        });
    }

    /** factorial(n) of an integer up to 64 bits: a UInt64, 1 for n below 2, BAD_ARGUMENTS above 20. */
    private static Evaluator factorial(List<Evaluator> args) {
        Functions.arity("factorial", args, 1);
        DataType t = args.get(0).type().unwrap();
        if (Functions.isFloat(t) || t instanceof BFloat16Type || t instanceof BigIntType) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT,
                "Illegal type of argument of function factorial, should not be floating point or big int");
        }
        if (!TypeRules.isInteger(t) && !(t instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + t.name() + " of argument of function factorial");
        }
        boolean unsigned64 = t instanceof IntType && !((IntType) t).signed && ((IntType) t).bits == 64;
        DataType at = args.get(0).type();
        return Functions.defaultForNulls(DataTypes.UINT64, args, v -> {
            long n = Values.toLong(Values.toNumber(v[0], at));
            if (n > 20 || unsigned64 && n < 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The maximum value for the input argument of function factorial is 20");
            }
            long r = 1;
            for (long i = 2; i <= n; i++) {
                r *= i;
            }
            return r;
        });
    }

    /**
     * widthBucket(operand, low, high, count): the bucket of operand among count equal buckets of [low, high), 0 below
     * and count + 1 at or above; in the unsigned type twice count's width (UInt64 from UInt32 up).
     */
    private static Evaluator widthBucket(List<Evaluator> args) {
        Functions.arity("widthBucket", args, 4);
        String[] names = {"operand", "low", "high"};
        for (int i = 0; i < 3; i++) {
            DataType t = args.get(i).type().unwrap();
            if (!isNativeNumber(t) && !(t instanceof NothingType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, names[i], "widthBucket", "native numeric",
                    args.get(i).type());
            }
        }
        DataType ct = args.get(3).type().unwrap();
        if (!(ct instanceof IntType && !((IntType) ct).signed) && !(ct instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 3, "num_buckets", "widthBucket",
                "UInt8, UInt16, UInt32 or UInt64", args.get(3).type());
        }
        int countBits = ct instanceof IntType ? ((IntType) ct).bits : 8;
        DataType rt = countBits == 8 ? DataTypes.UINT16 : countBits == 16 ? DataTypes.UINT32 : DataTypes.UINT64;
        DataType t0 = args.get(0).type();
        DataType t1 = args.get(1).type();
        DataType t2 = args.get(2).type();
        return Functions.defaultForNulls(rt, args, v -> {
            double operand = toDouble(v[0], t0);
            double low = toDouble(v[1], t1);
            double high = toDouble(v[2], t2);
            long count = (Long) v[3];
            if (count == 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Last argument (count) for function widthBucket cannot be 0.");
            }
            if (Double.isNaN(operand) || Double.isNaN(low) || Double.isNaN(high)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS,
                    "The first three arguments (operand, low, high) cannot be NaN in function widthBucket");
            }
            if (Double.isInfinite(low) || Double.isInfinite(high)) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The second and third arguments (low, high) cannot be Inf function widthBucket");
            }
            if (operand < low || low >= high) {
                return 0L;
            }
            if (operand >= high) {
                return count + 1;
            }
            double c = countBits == 64 && count < 0 ? new BigInteger(Long.toUnsignedString(count)).doubleValue() : count;
            return Values.toLong(c * ((operand - low) / (high - low)) + 1);
        });
    }
}
