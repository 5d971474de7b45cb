package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypeInterval;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.TimeType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.util.List;

/**
 * plus and minus over Time and Time64, as ClickHouse 26.7 has them: a Time plus or minus a number of seconds (a float
 * cut toward zero to the type's precision) or an interval of seconds, minutes or hours is a Time of its type, clamped
 * to the range; a Time minus a Time is the seconds between them, an Int32 for two Times and a Decimal(18, P) of the
 * finer precision when a Time64 is one of them; a Date plus a Time is a DateTime; any other arithmetic on a time is
 * ILLEGAL_TYPE_OF_ARGUMENT.
 */
final class TimeArithmetic {
    private TimeArithmetic() {
    }

    /** The operation when a Time is one of its arguments, else null. */
    static Evaluator arith(String op, List<Evaluator> args, DataType ta, DataType tb) {
        boolean timeA = ta instanceof TimeType;
        boolean timeB = tb instanceof TimeType;
        if (!timeA && !timeB) {
            return null;
        }
        if (op.equals("plus") && (timeA && tb instanceof DateType || timeB && ta instanceof DateType)) {
            return dateAndTime(args, timeA ? 1 : 0, timeA ? (TimeType) ta : (TimeType) tb);
        }
        if (timeA && timeB && op.equals("minus")) {
            TimeType a = (TimeType) ta;
            TimeType b = (TimeType) tb;
            if (!a.is64() && !b.is64()) {
                return Functions.strict(DataTypes.INT32, args, v -> (Long) v[0] - (Long) v[1]);
            }
            int scale = Math.max(Math.max(a.precision, b.precision), 0);
            return Functions.strict(DataTypes.decimal(18, scale), args,
                v -> seconds((Long) v[0], a).subtract(seconds((Long) v[1], b)).setScale(scale));
        }
        boolean plus = op.equals("plus");
        if (timeA && !timeB && (plus || op.equals("minus")) || timeB && !timeA && plus) {
            TimeType t = (TimeType) (timeA ? ta : tb);
            DataType other = timeA ? tb : ta;
            int timeArg = timeA ? 0 : 1;
            long perUnit = intervalSeconds(other);
            if (perUnit > 0 || TypeRules.isNumeric(other) && !(other instanceof dev.chdedup.stub.types.BoolType)) {
                int sign = op.equals("minus") ? -1 : 1;
                DataType ot = other;
                return Functions.strict(t, args, v -> {
                    BigDecimal shift = perUnit > 0 ? BigDecimal.valueOf((Long) v[1 - timeArg] * perUnit)
                        : Values.toBigDecimal(Values.toNumber(v[1 - timeArg], ot));
                    return t.ofSeconds(seconds((Long) v[timeArg], t).add(shift.multiply(BigDecimal.valueOf(sign))));
                });
            }
        }
        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types " + ta.name() + " and " + tb.name()
            + " of arguments of function " + op);
    }

    /**
     * A Date or Date32 plus a Time: the instant of that time of the day, a DateTime (a DateTime64 of the Time64's
     * precision, or of 0 for a Date32), in the session's zone.
     */
    private static Evaluator dateAndTime(List<Evaluator> args, int dateArg, TimeType time) {
        boolean date32 = args.get(dateArg).type().unwrap().name().equals("Date32");
        int precision = Math.max(time.precision, 0);
        DataType rt = time.is64() || date32 ? DataTypes.dateTime64(precision, null) : DataTypes.DATETIME;
        long scale = Functions.pow10(precision);
        return Functions.strict(rt, args, v -> {
            long start = DateLUT.fromDayNum((Long) v[dateArg], DateLUT.zoneOf(rt));
            return start * scale + (Long) v[1 - dateArg];
        });
    }

    private static BigDecimal seconds(long ticks, TimeType t) {
        return BigDecimal.valueOf(ticks, Math.max(t.precision, 0));
    }

    /** The seconds in one unit of an interval of seconds, minutes or hours; 0 for any other type. */
    private static long intervalSeconds(DataType t) {
        if (!(t instanceof DataTypeInterval)) {
            return 0;
        }
        switch (((DataTypeInterval) t).unit) {
            case "second": return 1;
            case "minute": return 60;
            case "hour": return 3600;
            default: return 0;
        }
    }
}
