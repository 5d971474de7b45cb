package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import java.math.BigInteger;
import java.util.List;

/**
 * proportionsZTest(successes_x, successes_y, trials_x, trials_y, confidence_level, 'pooled' | 'unpooled'), as
 * ClickHouse's FunctionTwoSampleProportionsZTest: the two-sided z-test of two proportions, answering (z statistic,
 * p-value, confidence interval of their difference). The z statistic divides the difference by the unpooled standard
 * error, or by the pooled one for 'pooled'; the interval always takes the unpooled one. The p-value is
 * {@code 2 * (1 - Phi(|z|))} and the interval's half width {@code -quantile((1 - level) / 2) * se} of the standard normal
 * distribution, computed as Boost computes them (Phi through erfc, the quantile through a correctly rounded erfc_inv,
 * {@link FunctionsMiscellaneous#normalQuantile}). A row without successes on a side, with more successes than trials,
 * without trials or with a level outside [0, 1] answers NaN four times.
 */
final class FunctionProportionsZTest {
    private static final String NAME = "proportionsZTest";
    private static final DataType RESULT = DataTypes.parse(
        "Tuple(z_statistic Float64, p_value Float64, confidence_interval_low Float64, confidence_interval_high Float64)");
    private static final List<Object> NAN = List.of(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    private static final BigInteger UINT64_MASK = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private FunctionProportionsZTest() {
    }

    static void register(FunctionFactory f) {
        f.register(NAME, "Mathematical", (args, ctx) -> build(args));
    }

    private static Evaluator build(List<Evaluator> args) {
        if (args.size() != 6) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + NAME
                + " doesn't match: passed " + args.size() + ", should be 6");
        }
        for (int i = 0; i < 4; i++) {
            if (!(args.get(i).type() instanceof IntType t) || t.signed) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The " + (i + 1) + "th Argument of function " + NAME
                    + " must be an unsigned integer");
            }
        }
        if (!(args.get(4).type() instanceof FloatType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The fifth argument " + args.get(4).type().name()
                + " of function " + NAME + " should be a float,");
        }
        if (!args.get(5).type().equals(DataTypes.STRING) || !args.get(5).constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The sixth argument " + args.get(5).type().name()
                + " of function " + NAME + " should be a constant string");
        }
        String usevar = Functions.constString(args.get(5));
        if (!usevar.equals("pooled") && !usevar.equals("unpooled")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The sixth argument String of function " + NAME
                + " must be equal to `pooled` or `unpooled`");
        }
        boolean pooled = usevar.equals("pooled");
        Evaluator sx = args.get(0);
        Evaluator sy = args.get(1);
        Evaluator tx = args.get(2);
        Evaluator ty = args.get(3);
        Evaluator level = args.get(4);
        return Evaluator.of(RESULT, r -> test(unsigned(sx.eval(r)), unsigned(sy.eval(r)), unsigned(tx.eval(r)), unsigned(ty.eval(r)),
            FunctionsMath.toDouble(level.eval(r), level.type()), pooled));
    }

    /** An unsigned integer argument's value as the engine casts it to UInt64, held in a long's bits. */
    private static long unsigned(Object v) {
        return v instanceof BigInteger b ? b.and(UINT64_MASK).longValue() : ((Number) v).longValue();
    }

    private static double toDouble(long unsigned) {
        return unsigned >= 0 ? unsigned : (double) (unsigned >>> 1) * 2.0 + (unsigned & 1);
    }

    static List<Object> test(long successesX, long successesY, long trialsX, long trialsY, double level, boolean pooled) {
        long trialsTotal = trialsX + trialsY;
        if (successesX == 0 || successesY == 0 || Long.compareUnsigned(successesX, trialsX) > 0 || Long.compareUnsigned(successesY, trialsY) > 0
            || trialsTotal == 0 || !Double.isFinite(level) || level < 0.0 || level > 1.0) {
            return NAN;
        }
        double propsX = toDouble(successesX) / toDouble(trialsX);
        double propsY = toDouble(successesY) / toDouble(trialsY);
        double diff = propsX - propsY;
        double se = Math.sqrt(propsX * (1.0 - propsX) / toDouble(trialsX) + propsY * (1.0 - propsY) / toDouble(trialsY));
        double z;
        if (pooled) {
            double p = toDouble(successesX + successesY) / toDouble(trialsTotal);
            z = diff / Math.sqrt(p * (1.0 - p) * (1.0 / toDouble(trialsX) + 1.0 / toDouble(trialsY)));
        } else {
            z = diff / se;
        }
        if (!Double.isFinite(z)) {
            return NAN;
        }
        double oneSide = 1 - 0.5 * MathSpecial.erfc(-Math.abs(z) / Math.sqrt(2));
        double tail = (1.0 - level) / 2.0;
        if (tail == 0.0) {
            // a level of 1 asks for the quantile at 0, which Boost's erfc_inv refuses
            throw new ChException(ErrorCode.STD_EXCEPTION, "boost::wrapexcept<std::overflow_error>: Error in function"
                + " boost::math::erfc_inv<double>(double, double): Overflow Error");
        }
        double critical = -FunctionsMiscellaneous.normalQuantile(tail);
        double dist = critical * se;
        return List.of(z, oneSide * 2, diff - dist, diff + dist);
    }
}
