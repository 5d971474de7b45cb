package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The Rounding functions, as ClickHouse's FunctionsRound computes them: round, roundBankers, floor, ceil and trunc to
 * N decimal places (negative N rounds to tens, hundreds, ...) in the argument's own type; roundDown to an array of
 * boundaries; roundToExp2, roundDuration and roundAge.
 */
final class FunctionsRound {
    private static final String CATEGORY = "Rounding";
    private static final DataType INT256 = DataTypes.parse("Int256");
    private static final long[] DURATIONS = {1, 10, 30, 60, 120, 180, 240, 300, 600, 1200, 1800, 3600, 7200, 18000, 36000};
    private static final long[] AGES = {1, 18, 25, 35, 45, 55};
    private static final long[] AGE_VALUES = {17, 18, 25, 35, 45, 55};

    /** The rounding of a value to a whole number. */
    enum Mode { ROUND, BANKERS, FLOOR, CEIL, TRUNC }

    private FunctionsRound() {
    }

    static void register(FunctionFactory f) {
        f.registerCaseInsensitive("round", CATEGORY, (args, ctx) -> round("round", args, Mode.ROUND));
        f.register("roundBankers", CATEGORY, (args, ctx) -> round("roundBankers", args, Mode.BANKERS));
        f.registerCaseInsensitive("floor", CATEGORY, (args, ctx) -> round("floor", args, Mode.FLOOR));
        f.registerCaseInsensitive("ceil", CATEGORY, (args, ctx) -> round("ceil", args, Mode.CEIL));
        f.registerAlias("ceiling", "ceil", true);
        f.registerCaseInsensitive("trunc", CATEGORY, (args, ctx) -> round("trunc", args, Mode.TRUNC));
        f.registerAlias("truncate", "trunc", true);
        f.register("roundDown", CATEGORY, (args, ctx) -> roundDown(args));
        f.register("roundToExp2", CATEGORY, (args, ctx) -> roundToExp2(args));
        f.register("roundDuration", CATEGORY, (args, ctx) -> table("roundDuration", args, DataTypes.UINT16, DURATIONS, DURATIONS));
        f.register("roundAge", CATEGORY, (args, ctx) -> table("roundAge", args, DataTypes.UINT8, AGES, AGE_VALUES));
    }

    /** round and the others: x to N decimal places (0 when absent), in x's type. */
    private static Evaluator round(String name, List<Evaluator> args, Mode mode) {
        Functions.argumentCount(name, args, 1, 1);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        if (!FunctionsMath.isNumber(u) && !(u instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 1, "x", name, "A number to round", t);
        }
        Evaluator scaleArg = args.size() > 1 ? args.get(1) : Evaluator.constant(DataTypes.INT8, 0L);
        DataType st = scaleArg.type().unwrap();
        if (!(st instanceof IntType) && !(st instanceof NothingType)) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, 2, "N", name, "The number of decimal places to round to",
                scaleArg.type());
        }
        List<Evaluator> both = List.of(args.get(0), scaleArg);
        return Functions.defaultForNulls(u, both, v -> {
            long n = (Long) v[1];
            if (n > Short.MAX_VALUE || n < Short.MIN_VALUE) {
                throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Scale argument for rounding function is too large");
            }
            return roundValue(v[0], u, (int) n, mode);
        });
    }

    /** 10^p as ClickHouse's intExp10 gives it: the largest UInt64 from 10^20 up, as an unsigned long. */
    private static long intExp10(int p) {
        if (p > 19) {
            return -1L;
        }
        long r = 1;
        for (int i = 0; i < p; i++) {
            r *= 10;
        }
        return r;
    }

    static Object roundValue(Object v, DataType u, int n, Mode mode) {
        if (u instanceof FloatType ft) {
            double x = ((Number) v).doubleValue();
            double scale = n == 0 ? 1 : unsignedToDouble(intExp10(Math.abs(n)));
            if (!ft.is64) {
                float fx = ((Number) v).floatValue();
                float fs = (float) scale;
                float r = n > 0 ? (float) whole((double) (fx * fs), mode) / fs : n < 0 ? (float) whole((double) (fx / fs), mode) * fs
                    : (float) whole(fx, mode);
                return r;
            }
            return n > 0 ? whole(x * scale, mode) / scale : n < 0 ? whole(x / scale, mode) * scale : whole(x, mode);
        }
        if (u instanceof DecimalType d) {
            int digits = d.scale - n;
            if (digits <= 0) {
                return v;
            }
            BigDecimal x = (BigDecimal) v;
            int bits = d.precision <= 9 ? 32 : d.precision <= 18 ? 64 : d.precision <= 38 ? 128 : 256;
            BigInteger r = roundInteger(x.unscaledValue(), BigInteger.TEN.pow(digits), mode, bits, true);
            return new BigDecimal(r, d.scale);
        }
        if (n >= 0) {
            return v;
        }
        int bits = FunctionsBit.bits(u);
        boolean signed = TypeRules.signed(u);
        BigInteger scale = new BigInteger(Long.toUnsignedString(intExp10(-n)));
        BigInteger max = signed ? BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE) : BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
        if (scale.compareTo(max) > 0) {
            return u instanceof BigIntType ? BigInteger.ZERO : (Object) 0L;
        }
        BigInteger r = roundInteger(FunctionsBit.big(v, u), scale, mode, bits, signed);
        return u instanceof BigIntType ? r : u.convert(r, INT256);
    }

    private static double unsignedToDouble(long x) {
        return x < 0 ? new BigInteger(Long.toUnsignedString(x)).doubleValue() : x;
    }

    private static double whole(double x, Mode mode) {
        return switch (mode) {
            case ROUND, BANKERS -> Math.rint(x);
            case FLOOR -> Math.floor(x);
            case CEIL -> Math.ceil(x);
            case TRUNC -> x < 0 ? Math.ceil(x) : Math.floor(x);
        };
    }

    /** x wrapped to the integer width, as C arithmetic in that type wraps. */
    private static BigInteger wrap(BigInteger x, int bits, boolean signed) {
        BigInteger m = x.mod(BigInteger.ONE.shiftLeft(bits));
        return signed && m.testBit(bits - 1) ? m.subtract(BigInteger.ONE.shiftLeft(bits)) : m;
    }

    /**
     * x rounded to a multiple of scale in an integer type of the width, each step wrapping as ClickHouse's
     * IntegerRoundingComputation's does (round halves away from zero, roundBankers to the even multiple).
     */
    private static BigInteger roundInteger(BigInteger x, BigInteger scale, Mode mode, int bits, boolean signed) {
        BigInteger half = scale.shiftRight(1);
        switch (mode) {
            case TRUNC:
                return wrap(x.divide(scale).multiply(scale), bits, signed);
            case FLOOR:
                if (x.signum() < 0) {
                    x = wrap(x.subtract(scale.subtract(BigInteger.ONE)), bits, signed);
                }
                return wrap(x.divide(scale).multiply(scale), bits, signed);
            case CEIL:
                if (x.signum() >= 0) {
                    x = wrap(x.add(scale.subtract(BigInteger.ONE)), bits, signed);
                }
                return wrap(x.divide(scale).multiply(scale), bits, signed);
            default:
                boolean negative = x.signum() < 0;
                if (negative) {
                    x = wrap(x.subtract(scale), bits, signed);
                }
                BigInteger shifted = wrap(x.add(half), bits, signed);
                BigInteger quotient = shifted.divide(scale);
                if (mode == Mode.BANKERS && quotient.multiply(scale).equals(shifted)) {
                    BigInteger q = quotient.add(x.signum() < 0 ? BigInteger.ONE : BigInteger.ZERO);
                    return wrap(q.clearBit(0).multiply(scale), bits, signed);
                }
                return wrap(quotient.multiply(scale), bits, signed);
        }
    }

    /**
     * roundDown(x, boundaries): the largest boundary not above x (the first when x is below them all), in the common
     * type of x and the boundaries.
     */
    private static Evaluator roundDown(List<Evaluator> args) {
        Functions.arity("roundDown", args, 2);
        DataType tx = args.get(0).type();
        if (!FunctionsMath.isNumber(tx.unwrap()) && !(tx.unwrap() instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Unsupported type " + tx.unwrap().name()
                + " of first argument of function roundDown, must be numeric type");
        }
        if (!(args.get(1).type().unwrap() instanceof ArrayType at)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Second argument of function roundDown, must be array of boundaries to round to");
        }
        DataType et = at.element;
        if (!FunctionsMath.isNumber(et.unwrap())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Elements of array of second argument of function roundDown must be numeric type");
        }
        DataType common = TypeRules.stripNullable(TypeRules.common(List.of(tx, et)));
        return Functions.defaultForNulls(common, args, v -> {
            Object x = common.convert(v[0], tx);
            List<?> boundaries = (List<?>) v[1];
            List<Object> b = new ArrayList<>(boundaries.size());
            for (Object o : boundaries) {
                b.add(o == null ? common.defaultValue() : common.convert(o, et));
            }
            if (b.isEmpty()) {
                return common.defaultValue();
            }
            for (int i = b.size() - 1; i >= 0; i--) {
                if (common.compare(b.get(i), x) <= 0) {
                    return b.get(i);
                }
            }
            return b.get(0);
        });
    }

    /** roundToExp2(x): the largest power of two not above x (0 below 1) for integers; for floats by magnitude, sign kept. */
    private static Evaluator roundToExp2(List<Evaluator> args) {
        Functions.arity("roundToExp2", args, 1);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        if (u instanceof FloatType ft) {
            return Functions.defaultForNulls(u, args, v -> {
                double x = ((Number) v[0]).doubleValue();
                double r = x == 0 || Double.isNaN(x) || Double.isInfinite(x) ? x : Math.copySign(Math.pow(2, Math.getExponent(x)), x);
                return ft.is64 ? (Object) r : (Object) (float) r;
            });
        }
        if (!FunctionsBit.isIntegerOrBool(u) && !(u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + u.name() + " of argument of function roundToExp2");
        }
        return Functions.defaultForNulls(u, args, v -> {
            BigInteger x = FunctionsBit.big(v[0], t);
            if (x.signum() <= 0) {
                return u instanceof BigIntType ? BigInteger.ZERO : u.defaultValue();
            }
            BigInteger r = BigInteger.ONE.shiftLeft(x.bitLength() - 1);
            return u.convert(r, INT256);
        });
    }

    /** roundDuration and roundAge: the value of the last of the ascending bounds not above x, 0 below the first. */
    private static Evaluator table(String name, List<Evaluator> args, DataType rt, long[] bounds, long[] values) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        if (u instanceof DecimalType || !FunctionsMath.isNumber(u) && !(u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + u.name() + " of argument of function " + name);
        }
        boolean unsigned64 = u instanceof IntType i && !i.signed && i.bits == 64;
        return Functions.defaultForNulls(rt, args, v -> {
            double x = unsigned64 && (Long) v[0] < 0 ? Double.MAX_VALUE : FunctionsMath.toDouble(v[0], t);
            long r = 0;
            for (int i = 0; i < bounds.length && x >= bounds[i]; i++) {
                r = values[i];
            }
            return r;
        });
    }
}
