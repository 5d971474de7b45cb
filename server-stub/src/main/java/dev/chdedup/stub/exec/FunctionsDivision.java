package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.List;
import java.util.function.Function;
import java.util.function.LongBinaryOperator;

/**
 * The divisions of ClickHouse's DivisionUtils beyond divide and modulo: intDiv with its OrZero and OrNull forms,
 * moduloOrZero, moduloOrNull, moduloLegacy, positiveModulo and positiveModuloOrNull, and divideOrNull. A division by
 * zero (and of the smallest signed number by -1) is ILLEGAL_DIVISION, 0 for the OrZero forms and NULL for the OrNull
 * forms, whose results are Nullable.
 */
final class FunctionsDivision {
    private static final String CATEGORY = "Arithmetic";

    /** What a division by zero gives. */
    enum OnZero { THROW, ZERO, NULL }

    private FunctionsDivision() {
    }

    static void register(FunctionFactory f) {
        f.register("intDiv", CATEGORY, (args, ctx) -> intDiv("intDiv", args, OnZero.THROW));
        f.register("intDivOrZero", CATEGORY, (args, ctx) -> intDiv("intDivOrZero", args, OnZero.ZERO));
        f.register("intDivOrNull", CATEGORY, (args, ctx) -> intDiv("intDivOrNull", args, OnZero.NULL));
        f.register("moduloOrZero", CATEGORY, (args, ctx) -> moduloOr("moduloOrZero", args, OnZero.ZERO));
        f.register("moduloOrNull", CATEGORY, (args, ctx) -> moduloOr("moduloOrNull", args, OnZero.NULL));
        f.registerAlias("modOrNull", "moduloOrNull", true);
        f.register("moduloLegacy", CATEGORY, (args, ctx) -> moduloLegacy(args));
        f.registerCaseInsensitive("positiveModulo", CATEGORY, (args, ctx) -> positiveModulo("positiveModulo", args, OnZero.THROW));
        f.registerAlias("positive_modulo", "positiveModulo", true);
        f.registerAlias("pmod", "positiveModulo", true);
        f.registerCaseInsensitive("positiveModuloOrNull", CATEGORY, (args, ctx) -> positiveModulo("positiveModuloOrNull", args, OnZero.NULL));
        f.registerAlias("positive_modulo_or_null", "positiveModuloOrNull", true);
        f.registerAlias("pmodOrNull", "positiveModuloOrNull", true);
        f.register("divideOrNull", CATEGORY, (args, ctx) -> divideOrNull(args));
    }

    static ChException divisionByZero() {
        return new ChException(ErrorCode.ILLEGAL_DIVISION, "Division by zero");
    }

    private static ChException minByMinusOne() {
        return new ChException(ErrorCode.ILLEGAL_DIVISION, "Division of minimal signed number by minus one");
    }

    private static ChException tooLarge() {
        return new ChException(ErrorCode.ILLEGAL_DIVISION, "Cannot perform integer division, because it will produce infinite or too large number");
    }

    /** Two numbers (Bool included) or ILLEGAL_TYPE_OF_ARGUMENT naming both types. */
    static void requireNumbers(String name, List<Evaluator> args, boolean decimals) {
        Functions.arity(name, args, 2);
        for (Evaluator a : args) {
            DataType u = a.type().unwrap();
            if (!FunctionsMath.isNumber(u) && !(u instanceof NothingType) || !decimals && u instanceof DecimalType) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types " + args.get(0).type().unwrap().name() + " and "
                    + args.get(1).type().unwrap().name() + " of arguments of function " + name);
            }
        }
    }

    /** {@code fn} as the OrNull forms apply it: Nullable, and NULL where fn gives null. */
    private static Evaluator build(DataType rt, List<Evaluator> args, OnZero onZero, Function<Object[], Object> fn) {
        Evaluator e = Functions.defaultForNulls(rt, args, fn);
        return onZero == OnZero.NULL && !e.type().isNullable() ? Evaluator.of(DataTypes.nullable(rt), e::eval) : e;
    }

    /** The signed integer type of a decimal's or a float's width, as ClickHouse's ResultOfIntegerDivision takes A's size. */
    private static DataType intDivType(DataType ta, DataType tb) {
        if (ta instanceof FloatType ft) {
            return ft.is64 ? DataTypes.INT64 : DataTypes.INT32;
        }
        if (ta instanceof DecimalType dt) {
            return TypeRules.intType(dt.precision <= 9 ? 32 : dt.precision <= 18 ? 64 : dt.precision <= 38 ? 128 : 256, true);
        }
        if (ta instanceof dev.chdedup.stub.types.BFloat16Type) {
            return DataTypes.INT16;
        }
        boolean signed = TypeRules.signed(ta) || TypeRules.signed(tb) || !TypeRules.isInteger(tb) && !(tb instanceof NothingType);
        return TypeRules.intType(TypeRules.bits(ta), signed);
    }

    /**
     * intDiv(a, b): the quotient truncated toward zero, in the integer type of a's width (signed when either is signed or
     * b is not an integer). Two integers are divided as ClickHouse's DivideIntegralImpl divides them: each converted to
     * the result type first (a UInt8 200 by an Int64 is the Int8 -56 divided); otherwise the exact quotient, which must
     * fit the result type.
     */
    static Evaluator intDiv(String name, List<Evaluator> args, OnZero onZero) {
        requireNumbers(name, args, true);
        DataType ta = args.get(0).type().unwrap();
        DataType tb = args.get(1).type().unwrap();
        DataType rt = intDivType(ta, tb);
        boolean signed = TypeRules.signed(rt);
        if (ta instanceof IntType && tb instanceof IntType && rt instanceof IntType to) {
            long smallest = signed ? to.bits == 64 ? Long.MIN_VALUE : -(1L << (to.bits - 1)) : 1;
            Function<Object[], Object> fn = v -> {
                long a = to.wrap((Long) v[0]);
                long b = to.wrap((Long) v[1]);
                if (b == 0 || signed && b == -1 && a == smallest) {
                    if (onZero == OnZero.THROW) {
                        throw b == 0 ? divisionByZero() : minByMinusOne();
                    }
                    return onZero == OnZero.ZERO ? 0L : null;
                }
                return signed ? a / b : Long.divideUnsigned(a, b);
            };
            if (onZero == OnZero.NULL) {
                return build(rt, args, onZero, fn);
            }
            LongBinaryOperator op = (x, y) -> (Long) fn.apply(new Object[] {x, y});
            return Functions.strictLongs(rt, args, fn, op);
        }
        boolean exact = !(ta instanceof FloatType) && !(tb instanceof FloatType) && !(ta instanceof dev.chdedup.stub.types.BFloat16Type)
            && !(tb instanceof dev.chdedup.stub.types.BFloat16Type);
        DataType at = args.get(0).type();
        DataType bt = args.get(1).type();
        return build(rt, args, onZero, v -> {
            BigInteger q;
            if (exact) {
                BigDecimal y = Values.toBigDecimal(Values.toNumber(v[1], bt));
                if (y.signum() == 0) {
                    return zero(onZero);
                }
                q = Values.toBigDecimal(Values.toNumber(v[0], at)).divide(y, 0, RoundingMode.DOWN).toBigInteger();
            } else {
                double x = FunctionsMath.toDouble(v[0], at);
                double y = FunctionsMath.toDouble(v[1], bt);
                if (!Double.isFinite(x) || !Double.isFinite(y)) {
                    throw new ChException(ErrorCode.ILLEGAL_DIVISION,
                        "Cannot perform integer division on infinite or too large floating point numbers");
                }
                if (y == 0) {
                    return zero(onZero);
                }
                double d = x / y;
                if (!Double.isFinite(d)) {
                    throw tooLarge();
                }
                q = new BigDecimal(d).toBigInteger();
            }
            if (!fits(q, rt)) {
                if (signed && q.equals(BigInteger.ONE.shiftLeft(FunctionsBit.bits(rt) - 1)) && onZero != OnZero.THROW) {
                    return onZero == OnZero.ZERO ? 0L : null;
                }
                throw tooLarge();
            }
            return rt instanceof BigIntType ? q : (Object) q.longValue();
        });
    }

    private static Object zero(OnZero onZero) {
        if (onZero == OnZero.THROW) {
            throw divisionByZero();
        }
        return onZero == OnZero.ZERO ? 0L : null;
    }

    /** Whether {@code q} is a value of the integer type {@code t}. */
    static boolean fits(BigInteger q, DataType t) {
        int bits = FunctionsBit.bits(t);
        return TypeRules.signed(t) ? q.bitLength() < bits : q.signum() >= 0 && q.bitLength() <= bits;
    }

    /** moduloOrZero and moduloOrNull: modulo, with 0 or NULL for a zero divisor (and the smallest signed number by -1). */
    private static Evaluator moduloOr(String name, List<Evaluator> args, OnZero onZero) {
        requireNumbers(name, args, true);
        DataType ta = args.get(0).type().unwrap();
        DataType tb = args.get(1).type().unwrap();
        ArithmeticFunctions.Modulo m = ArithmeticFunctions.moduloOf(ta, tb);
        boolean floats = Functions.isFloat(ta) || Functions.isFloat(tb);
        DataType bt = args.get(1).type();
        return build(m.type(), args, onZero, v -> {
            if (floats && onZero == OnZero.NULL && FunctionsMath.toDouble(v[1], bt) == 0) {
                return null;
            }
            try {
                return m.fn().apply(v);
            } catch (ChException e) {
                if (e.code() != ErrorCode.ILLEGAL_DIVISION) {
                    throw e;
                }
                return onZero == OnZero.ZERO ? 0L : null;
            }
        });
    }

    /** moduloLegacy(a, b): the remainder in the integer type of b's width, signed when either is (floats: Float64). */
    private static Evaluator moduloLegacy(List<Evaluator> args) {
        requireNumbers("moduloLegacy", args, true);
        DataType ta = args.get(0).type().unwrap();
        DataType tb = args.get(1).type().unwrap();
        ArithmeticFunctions.Modulo m = ArithmeticFunctions.moduloOf(ta, tb);
        if (!TypeRules.isInteger(ta) || !TypeRules.isInteger(tb)) {
            return Functions.defaultForNulls(m.type(), args, m.fn());
        }
        DataType rt = TypeRules.intType(TypeRules.bits(tb), TypeRules.signed(ta) || TypeRules.signed(tb));
        return Functions.defaultForNulls(rt, args, v -> rt.convert(m.fn().apply(v), m.type()));
    }

    /**
     * positiveModulo(a, b): the remainder made non-negative by adding |b|; of integers in the unsigned type of b's
     * width, of floats a Float64.
     */
    private static Evaluator positiveModulo(String name, List<Evaluator> args, OnZero onZero) {
        requireNumbers(name, args, true);
        DataType ta = args.get(0).type().unwrap();
        DataType tb = args.get(1).type().unwrap();
        ArithmeticFunctions.Modulo m = ArithmeticFunctions.moduloOf(ta, tb);
        DataType at = args.get(0).type();
        DataType bt = args.get(1).type();
        if (!TypeRules.isInteger(ta) || !TypeRules.isInteger(tb)) {
            return build(m.type(), args, onZero, v -> {
                double y = FunctionsMath.toDouble(v[1], bt);
                if (y == 0 && onZero == OnZero.NULL) {
                    return null;
                }
                Object r = m.fn().apply(v);
                if (r instanceof Double d && d < 0) {
                    return d + Math.abs(y);
                }
                if (r instanceof BigDecimal d && d.signum() < 0) {
                    return d.add(Values.toBigDecimal(Values.toNumber(v[1], bt)).abs());
                }
                return r;
            });
        }
        DataType rt = TypeRules.intType(TypeRules.bits(tb), false);
        return build(rt, args, onZero, v -> {
            BigInteger x = FunctionsBit.big(v[0], at);
            BigInteger y = FunctionsBit.big(v[1], bt);
            if (y.signum() == 0 || y.equals(BigInteger.ONE.negate()) && TypeRules.signed(ta)
                && x.equals(BigInteger.ONE.shiftLeft(TypeRules.bits(ta) - 1).negate())) {
                if (onZero == OnZero.THROW) {
                    throw y.signum() == 0 ? divisionByZero() : minByMinusOne();
                }
                return null;
            }
            BigInteger r = x.remainder(y);
            if (r.signum() < 0) {
                r = r.add(y.abs());
            }
            return rt.convert(r, DataTypes.parse("Int256"));
        });
    }

    /** divideOrNull(a, b): a / b as a Nullable(Float64), NULL when b is zero; numbers other than decimals. */
    private static Evaluator divideOrNull(List<Evaluator> args) {
        requireNumbers("divideOrNull", args, false);
        DataType at = args.get(0).type();
        DataType bt = args.get(1).type();
        return build(DataTypes.FLOAT64, args, OnZero.NULL, v -> {
            double y = FunctionsMath.toDouble(v[1], bt);
            return y == 0 ? null : FunctionsMath.toDouble(v[0], at) / y;
        });
    }
}
