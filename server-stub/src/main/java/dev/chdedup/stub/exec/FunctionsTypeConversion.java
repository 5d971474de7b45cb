package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BFloat16Type;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IPv4Type;
import dev.chdedup.stub.types.IPv6Type;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.UuidType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * Type Conversion functions registered in the {@link FunctionFactory}: toLowCardinality (the value as
 * LowCardinality(T), for the types LowCardinality holds), toStringCutToZero (a String or FixedString up to its first
 * zero byte) and toDecimalString (a number's text with a constant count of fractional digits, as ClickHouse's
 * FunctionToDecimalString: floats and decimals rounded half away from zero, a decimal cut to no digits keeps its point).
 */
final class FunctionsTypeConversion {
    private static final String CATEGORY = "Type Conversion";
    private static final int MAX_DECIMAL_DIGITS = 77;

    private FunctionsTypeConversion() {
    }

    static void register(FunctionFactory f) {
        f.register("toLowCardinality", CATEGORY, (args, ctx) -> toLowCardinality(args));
        f.register("toStringCutToZero", CATEGORY, (args, ctx) -> toStringCutToZero(args));
        f.register("toDecimalString", CATEGORY, (args, ctx) -> toDecimalString(args));
    }

    private static Evaluator toLowCardinality(List<Evaluator> args) {
        Functions.arity("toLowCardinality", args, 1);
        Evaluator a = args.get(0);
        if (a.type() instanceof LowCardinalityType) {
            return a;
        }
        DataType u = a.type().unwrap();
        boolean held = u instanceof IntType || u instanceof BigIntType || u instanceof FloatType || u instanceof BFloat16Type
            || u instanceof StringType || u instanceof DateType || u instanceof DateTimeType || u instanceof UuidType
            || u instanceof IPv4Type || u instanceof IPv6Type || u instanceof BoolType;
        if (!held) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "DataTypeLowCardinality is supported only for numbers, strings, "
                + "Date or DateTime, but got " + a.type().name());
        }
        DataType t = DataTypes.parse("LowCardinality(" + a.type().name() + ")");
        return Evaluator.of(t, a::eval);
    }

    private static Evaluator toStringCutToZero(List<Evaluator> args) {
        Functions.arity("toStringCutToZero", args, 1);
        Evaluator a = args.get(0);
        if (!Functions.isString(a.type())) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + a.type().name()
                + " of argument of function toStringCutToZero");
        }
        return Functions.strict(DataTypes.STRING, args, v -> {
            String s = (String) v[0];
            int zero = s.indexOf('\0');
            return zero < 0 ? s : s.substring(0, zero);
        });
    }

    private static Evaluator toDecimalString(List<Evaluator> args) {
        Functions.arity("toDecimalString", args, 2);
        Evaluator value = args.get(0);
        Evaluator digits = args.get(1);
        DataType vt = value.type().unwrap();
        if (!TypeRules.isNumeric(vt) && !(vt instanceof dev.chdedup.stub.types.NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as 1st argument 'Value' to"
                + " function 'toDecimalString'. Expected: Number, got: " + value.type().name());
        }
        if (!digits.constant() || !TypeRules.isInteger(digits.type())) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "A value of illegal type was provided as 2nd argument 'precision' to"
                + " function 'toDecimalString'. Expected: const Integer, got: " + digits.type().name());
        }
        DataType dt = digits.type().unwrap();
        long n = Functions.constLong(digits);
        if (n < 0 || dt instanceof IntType && !((IntType) dt).signed && n < 0) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column " + digits.type().name()
                + " of second argument of function formatDecimal");
        }
        if (n > MAX_DECIMAL_DIGITS) {
            throw new ChException(ErrorCode.CANNOT_PRINT_FLOAT_OR_DOUBLE_NUMBER, "Too many fractional digits requested, shall not be"
                + " more than " + MAX_DECIMAL_DIGITS);
        }
        int scale = (int) n;
        return Functions.strict(DataTypes.STRING, List.of(value), v -> text(v[0], vt, scale));
    }

    private static String text(Object v, DataType t, int scale) {
        if (t instanceof FloatType || t instanceof BFloat16Type) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d)) {
                return "nan";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? "inf" : "-inf";
            }
            return new BigDecimal(d).setScale(scale, RoundingMode.HALF_UP).toPlainString();
        }
        if (t instanceof DecimalType) {
            BigDecimal d = (BigDecimal) v;
            return scale == 0 ? d.setScale(0, RoundingMode.DOWN).toPlainString() + "."
                : d.setScale(scale, RoundingMode.HALF_UP).toPlainString();
        }
        BigDecimal d = t instanceof BoolType ? ((Boolean) v ? BigDecimal.ONE : BigDecimal.ZERO) : Values.toBigDecimal(Values.toNumber(v, t));
        return d.setScale(scale, RoundingMode.UNNECESSARY).toPlainString();
    }
}
