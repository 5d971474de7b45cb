package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * timeSlots(start, duration[, size]), after ClickHouse's timeSlots.cpp: the starts of the slots of {@code size} seconds
 * (1800 unless given) that the span from {@code start} for {@code duration} seconds touches. A DateTime takes a UInt32
 * duration and an unsigned integer size; a DateTime64 a Decimal64 duration and size, all brought to the finest of their
 * scales, and gives DateTime64 of the finer of its own and the duration's scale (the engine keeps the values in the finest
 * scale, so a finer size shows as is). The size must be a constant above zero.
 */
final class FunctionTimeSlots {
    private FunctionTimeSlots() {
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        if (args.size() != 2 && args.size() != 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + args.size() + ", should be 2 or 3");
        }
        DataType st = args.get(0).type().unwrap();
        DataType dt = args.get(1).type().unwrap();
        DataType zt = args.size() == 3 ? args.get(2).type().unwrap() : null;
        if (st instanceof DateTimeType) {
            if (!(dt instanceof IntType) || ((IntType) dt).bits != 32 || ((IntType) dt).signed) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + dt.name() + " of second argument of function " + name
                    + ". Must be UInt32 when first argument is DateTime.");
            }
            if (zt != null && (!(zt instanceof IntType) || ((IntType) zt).signed || ((IntType) zt).bits > 64)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + zt.name() + " of third argument of function " + name
                    + ". Must be UInt32 when first argument is DateTime.");
            }
            long size = zt == null ? 1800 : constSize(name, args.get(2)) & 0xFFFFFFFFL;
            if (size == 0) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Third argument for function " + name + " must be greater than zero");
            }
            return Functions.strict(DataTypes.array(st), args.subList(0, 2), v -> slots((Long) v[0], (Long) v[1], size));
        }
        if (st instanceof DateTime64Type) {
            if (!decimal64(dt)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + dt.name() + " of second argument of function " + name
                    + ". Must be Decimal64 when first argument is DateTime64.");
            }
            if (zt != null && !decimal64(zt)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + zt.name() + " of third argument of function " + name
                    + ". Must be Decimal64 when first argument is DateTime64.");
            }
            int ss = ((DateTime64Type) st).precision;
            int ds = ((DecimalType) dt).scale;
            int zs = zt == null ? 0 : ((DecimalType) zt).scale;
            BigDecimal sizeValue = zt == null ? BigDecimal.valueOf(1800) : (BigDecimal) constant(name, args.get(2));
            long sizeTicks = sizeValue.movePointRight(zs).longValue();
            if (sizeTicks == 0) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Third argument for function " + name + " must be greater than zero");
            }
            int max = Math.max(ss, Math.max(ds, zs));
            long size = sizeTicks * Functions.pow10(max - zs);
            DataType result = DataTypes.array(DataTypes.dateTime64(Math.max(ss, ds), ((DateTime64Type) st).tz));
            return Functions.strict(result, args.subList(0, 2), v -> {
                long start = (Long) v[0] * Functions.pow10(max - ss);
                long duration = ((BigDecimal) v[1]).movePointRight(ds).longValue() * Functions.pow10(max - ds);
                return slots(start, duration, size);
            });
        }
        throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal type " + args.get(0).type().name() + " of first argument of function "
            + name + ". Must be DateTime or DateTime64.");
    }

    private static boolean decimal64(DataType t) {
        return t instanceof DecimalType && ((DecimalType) t).precision > 9 && ((DecimalType) t).precision <= 18;
    }

    private static Object constant(String name, Evaluator e) {
        if (!e.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Third argument for function " + name + " must be constant");
        }
        return e.eval(new Object[0]);
    }

    private static long constSize(String name, Evaluator e) {
        return Values.toLong(Values.toNumber(constant(name, e), e.type()));
    }

    private static List<Object> slots(long start, long duration, long size) {
        List<Object> out = new ArrayList<>();
        for (long v = start / size, end = (start + duration) / size; v <= end; v++) {
            out.add(v * size);
        }
        return Collections.unmodifiableList(out);
    }
}
