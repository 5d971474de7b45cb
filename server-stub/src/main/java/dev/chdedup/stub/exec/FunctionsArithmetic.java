package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.NothingType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Arithmetic functions of ClickHouse beyond the operators: lcm, min2 and max2, avg2 and midpoint, sqr, byteSwap,
 * ifNotFinite, and divideDecimal and multiplyDecimal (exact, in Decimal(76, scale)).
 */
final class FunctionsArithmetic {
    private static final String CATEGORY = "Arithmetic";
    private static final DataType INT256 = DataTypes.parse("Int256");

    private FunctionsArithmetic() {
    }

    static void register(FunctionFactory f) {
        f.register("lcm", CATEGORY, (args, ctx) -> lcm(args));
        f.registerCaseInsensitive("min2", CATEGORY, (args, ctx) -> minMax("min2", args, true));
        f.registerCaseInsensitive("max2", CATEGORY, (args, ctx) -> minMax("max2", args, false));
        f.registerCaseInsensitive("avg2", CATEGORY, (args, ctx) -> {
            Functions.arity("avg2", args, 2);
            return midpoint("avg2", args);
        });
        f.registerCaseInsensitive("midpoint", CATEGORY, (args, ctx) -> midpoint("midpoint", args));
        f.registerCaseInsensitive("sqr", CATEGORY, (args, ctx) -> {
            Functions.arity("sqr", args, 1);
            return ArithmeticFunctions.compile("multiply", List.of(args.get(0), args.get(0)));
        });
        f.registerCaseInsensitive("byteSwap", CATEGORY, (args, ctx) -> byteSwap(args));
        f.register("ifNotFinite", CATEGORY, (args, ctx) -> ifNotFinite(args));
        f.register("divideDecimal", CATEGORY, (args, ctx) -> decimalOp("divideDecimal", args, true));
        f.register("multiplyDecimal", CATEGORY, (args, ctx) -> decimalOp("multiplyDecimal", args, false));
    }

    /** lcm(a, b) of two integers, in the type a sum of them has (twice the wider width up to 64 bits, signed when either is). */
    private static Evaluator lcm(List<Evaluator> args) {
        Functions.arity("lcm", args, 2);
        for (Evaluator a : args) {
            if (!TypeRules.isInteger(a.type()) && !Functions.isNothing(a)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types " + args.get(0).type().unwrap().name() + " and "
                    + args.get(1).type().unwrap().name() + " of arguments of function lcm");
            }
        }
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        int bits = Math.max(TypeRules.bits(ta), TypeRules.bits(tb));
        DataType rt = TypeRules.intType(bits >= 64 ? bits : Math.min(64, bits * 2), TypeRules.signed(ta) || TypeRules.signed(tb));
        return Functions.defaultForNulls(rt, args, v -> {
            BigInteger x = FunctionsBit.big(v[0], ta);
            BigInteger y = FunctionsBit.big(v[1], tb);
            if (x.signum() == 0 || y.signum() == 0) {
                throw FunctionsDivision.divisionByZero();
            }
            if (isSmallestByMinusOne(x, ta, y) || isSmallestByMinusOne(y, tb, x)) {
                throw new ChException(ErrorCode.ILLEGAL_DIVISION, "Division of minimal signed number by minus one");
            }
            BigInteger r = x.abs().divide(x.gcd(y)).multiply(y.abs());
            return rt.convert(r, INT256);
        });
    }

    private static boolean isSmallestByMinusOne(BigInteger x, DataType t, BigInteger other) {
        return TypeRules.signed(t) && other.equals(BigInteger.ONE.negate()) && x.equals(BigInteger.ONE.shiftLeft(TypeRules.bits(t) - 1).negate());
    }

    /** min2 and max2 of two numbers as Float64: the second unless the first compares less (greater), so NaN first loses. */
    private static Evaluator minMax(String name, List<Evaluator> args, boolean min) {
        Functions.arity(name, args, 2);
        for (Evaluator a : args) {
            DataType u = a.type().unwrap();
            if (!FunctionsMath.isNumber(u) && !(u instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + u.name() + " of argument of function " + name);
            }
        }
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        return Functions.defaultForNulls(DataTypes.FLOAT64, args, v -> {
            double x = FunctionsMath.toDouble(v[0], ta);
            double y = FunctionsMath.toDouble(v[1], tb);
            return min ? (x < y ? x : y) : (x > y ? x : y);
        });
    }

    private static boolean temporal(DataType u) {
        return TypeRules.isTimeLike(u) || u instanceof dev.chdedup.stub.types.TimeType;
    }

    /**
     * midpoint (and avg2, of two): the mean of the arguments in their common type, numbers or dates and times; integers,
     * dates and times truncated toward zero, decimals to their scale.
     */
    private static Evaluator midpoint(String name, List<Evaluator> args) {
        if (args.isEmpty()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " cannot be called without arguments");
        }
        List<DataType> types = new ArrayList<>();
        for (Evaluator a : args) {
            DataType u = a.type().unwrap();
            if (!FunctionsMath.isNumber(u) && !temporal(u) && !(u instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " supports only numeric/temporal types, got "
                    + u.name());
            }
            types.add(a.type());
        }
        DataType common = TypeRules.stripNullable(TypeRules.common(types));
        DataType u = common.unwrap();
        List<Evaluator> conv = Functions.casts(args, common);
        int n = args.size();
        return Functions.defaultForNulls(u, conv, v -> {
            if (Functions.isFloat(u)) {
                double s = 0;
                for (Object o : v) {
                    s += ((Number) o).doubleValue();
                }
                return u.convert(s / n, DataTypes.FLOAT64);
            }
            if (u instanceof DecimalType d) {
                BigDecimal s = BigDecimal.ZERO;
                for (Object o : v) {
                    s = s.add((BigDecimal) o);
                }
                return s.divide(BigDecimal.valueOf(n), d.scale, RoundingMode.DOWN);
            }
            BigInteger s = BigInteger.ZERO;
            for (Object o : v) {
                s = s.add(u instanceof BoolType ? FunctionsBit.big(o, u) : temporal(u) ? BigInteger.valueOf((Long) o) : FunctionsBit.big(o, u));
            }
            BigInteger q = s.divide(BigInteger.valueOf(n));
            if (u instanceof BoolType) {
                return q.signum() != 0;
            }
            return u instanceof BigIntType ? q : (Object) q.longValue();
        });
    }

    /** byteSwap(n): an integer with its bytes in reverse order, in its type. */
    private static Evaluator byteSwap(List<Evaluator> args) {
        Functions.arity("byteSwap", args, 1);
        DataType t = args.get(0).type();
        DataType u = t.unwrap();
        if (Functions.isFloat(u)) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "byteSwap is not implemented for " + (((dev.chdedup.stub.types.FloatType) u).is64
                ? "double" : "float") + " datatype");
        }
        if (!FunctionsBit.isIntegerOrBool(u) && !(u instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + u.name() + " of argument of function byteSwap");
        }
        if (u instanceof BigIntType b) {
            int bytes = b.bits / 8;
            return Functions.defaultForNulls(u, args, v -> {
                byte[] be = FunctionsBit.big(v[0], t).toByteArray();
                byte[] le = new byte[bytes];
                byte fill = (byte) (be[0] < 0 ? -1 : 0);
                for (int i = 0; i < bytes; i++) {
                    le[i] = i < be.length ? be[be.length - 1 - i] : fill;
                }
                return u.convert(new BigInteger(le), INT256);
            });
        }
        IntType rt = u instanceof IntType i ? i : DataTypes.UINT8;
        return Functions.defaultForNulls(rt, args, v -> rt.wrap(Long.reverseBytes(FunctionsBit.longOf(v[0])) >> (64 - rt.bits)));
    }

    /** ifNotFinite(x, y): x unless it is infinite or NaN (or NULL), then y; in the common type of the two. */
    private static Evaluator ifNotFinite(List<Evaluator> args) {
        Functions.arity("ifNotFinite", args, 2);
        DataType tx = args.get(0).type();
        DataType ux = tx.unwrap();
        if (!FunctionsMath.isNumber(ux) && !(ux instanceof NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function isFinite must be a number");
        }
        DataType common = TypeRules.common(List.of(tx, args.get(1).type()));
        List<Evaluator> conv = Functions.casts(args, TypeRules.stripNullable(common));
        Evaluator x = conv.get(0);
        Evaluator y = conv.get(1);
        Evaluator raw = args.get(0);
        return Evaluator.of(common, r -> {
            Object v = raw.eval(r);
            boolean finite = v != null && (!(v instanceof Double || v instanceof Float) || Double.isFinite(((Number) v).doubleValue()));
            return finite ? x.eval(r) : y.eval(r);
        });
    }

    /**
     * divideDecimal and multiplyDecimal(a, b[, scale]): the exact quotient (product) of two decimals truncated to scale
     * digits (the larger of their scales when absent), a Decimal(76, scale).
     */
    private static Evaluator decimalOp(String name, List<Evaluator> args, boolean divide) {
        Functions.argumentCount(name, args, 2, 1);
        for (int i = 0; i < 2; i++) {
            DataType u = args.get(i).type().unwrap();
            if (!(u instanceof DecimalType) && !(u instanceof NothingType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Arguments for " + name + " function must be Decimal");
            }
        }
        int sa = args.get(0).type().unwrap() instanceof DecimalType d ? d.scale : 0;
        int sb = args.get(1).type().unwrap() instanceof DecimalType d ? d.scale : 0;
        int scale = Math.max(sa, sb);
        if (args.size() > 2) {
            Evaluator s = args.get(2);
            DataType st = s.type().unwrap();
            if (!(st instanceof IntType it && !it.signed) || !s.constant()) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + st.name() + " of third argument of function " + name
                    + ". Should be constant UInt8 from range[0, 76]");
            }
            long value = (Long) s.eval(new Object[0]);
            if (value < 0 || value > 76) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal value of third argument of function " + name
                    + ": must be integer in range [0, 76]");
            }
            scale = (int) value;
        }
        int resultScale = scale;
        DataType rt = DataTypes.decimal(76, resultScale);
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        return Functions.defaultForNulls(rt, args.subList(0, 2), v -> {
            BigDecimal x = Functions.decimalOf(v[0], ta);
            BigDecimal y = Functions.decimalOf(v[1], tb);
            if (divide) {
                if (y.signum() == 0) {
                    throw FunctionsDivision.divisionByZero();
                }
                return x.divide(y, resultScale, RoundingMode.DOWN);
            }
            return x.multiply(y).setScale(resultScale, RoundingMode.DOWN);
        });
    }

    /** Whether a decimal value's unscaled integer fits the integer width of a decimal of that precision, as ClickHouse checks. */
    static boolean fitsDecimal(BigDecimal value, DecimalType t) {
        int bits = t.precision <= 9 ? 32 : t.precision <= 18 ? 64 : t.precision <= 38 ? 128 : 256;
        return value.setScale(t.scale, RoundingMode.DOWN).unscaledValue().bitLength() < bits;
    }
}
