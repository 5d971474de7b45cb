package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.DynamicType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.NothingType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.TypedValue;
import dev.chdedup.stub.types.Values;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongBinaryOperator;

/**
 * Arithmetic, comparison, rounding, array/tuple construction and access, and LIKE.
 * Integer arithmetic widens as ClickHouse does (UInt8 + UInt8 is UInt16, a difference is signed, a quotient is
 * Float64) and wraps at 64 bits.
 */
final class ArithmeticFunctions {
    private ArithmeticFunctions() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "plus": case "minus": case "multiply": case "divide": case "modulo": case "negate":
            case "abs": case "equals": case "notEquals": case "less": case "greater": case "lessOrEquals":
            case "greaterOrEquals":
            case "gcd": case "bitAnd": case "bitOr": case "bitXor": case "sign": case "isNaN": case "isFinite":
            case "isInfinite":
                return true;
            default:
                return false;
        }
    }

    static Evaluator compile(String name, List<Evaluator> args) {
        switch (name) {
            case "plus": case "minus": case "multiply": return arith(name, args);
            case "divide": return divide(args);
            case "modulo": return modulo(args);
            case "negate": {
                Functions.arity(name, args, 1);
                DataType t = args.get(0).type().unwrap();
                DataType rt = t instanceof IntType && !((IntType) t).signed ? TypeRules.intType(Math.min(64, ((IntType) t).bits * 2), true) : t;
                return Functions.strict(rt, args, v -> {
                    if (v[0] instanceof Long) {
                        return -(Long) v[0];
                    }
                    if (v[0] instanceof BigDecimal) {
                        return ((BigDecimal) v[0]).negate();
                    }
                    if (v[0] instanceof BigInteger) {
                        return ((BigInteger) v[0]).negate();
                    }
                    return rt.convert(-((Number) v[0]).doubleValue(), DataTypes.FLOAT64);
                });
            }
            case "abs": {
                DataType t = args.get(0).type().unwrap();
                DataType rt = t instanceof IntType ? TypeRules.intType(((IntType) t).bits, false) : t;
                return Functions.strict(rt, args, v -> {
                    if (v[0] instanceof Long) {
                        return Math.abs((Long) v[0]);
                    }
                    if (v[0] instanceof BigDecimal) {
                        return ((BigDecimal) v[0]).abs();
                    }
                    if (v[0] instanceof BigInteger) {
                        return ((BigInteger) v[0]).abs();
                    }
                    return rt.convert(Math.abs(((Number) v[0]).doubleValue()), DataTypes.FLOAT64);
                });
            }
            case "isNaN": case "isFinite": case "isInfinite": return floatClass(name, args);
            case "sign": return Functions.strict(DataTypes.INT8, args, v -> (long) Math.signum(Values.toNumber(v[0], args.get(0).type()).doubleValue()));
            case "equals": return cmp(args, c -> c == 0);
            case "notEquals": return cmp(args, c -> c != 0);
            case "less": return cmp(args, c -> c < 0);
            case "greater": return cmp(args, c -> c > 0);
            case "lessOrEquals": return cmp(args, c -> c <= 0);
            case "greaterOrEquals": return cmp(args, c -> c >= 0);
            case "gcd": return Functions.strict(args.get(0).type().unwrap(), args, v -> BigInteger.valueOf((Long) v[0]).gcd(BigInteger.valueOf((Long) v[1])).longValue());
            case "bitAnd": return Functions.strictLongs(args.get(0).type().unwrap(), args, v -> (Long) v[0] & (Long) v[1], (x, y) -> x & y);
            case "bitOr": return Functions.strictLongs(args.get(0).type().unwrap(), args, v -> (Long) v[0] | (Long) v[1], (x, y) -> x | y);
            case "bitXor": return Functions.strictLongs(args.get(0).type().unwrap(), args, v -> (Long) v[0] ^ (Long) v[1], (x, y) -> x ^ y);
            case "tuple": {
                List<DataType> ts = new ArrayList<>();
                args.forEach(a -> ts.add(a.type()));
                return Evaluator.of(DataTypes.tuple(ts), r -> {
                    List<Object> l = new ArrayList<>(args.size());
                    for (Evaluator a : args) {
                        l.add(a.eval(r));
                    }
                    return Collections.unmodifiableList(l);
                });
            }
            case "array": {
                List<DataType> ts = new ArrayList<>();
                args.forEach(a -> ts.add(a.type()));
                DataType el = args.isEmpty() ? DataTypes.NOTHING : commonOrVariant(ts);
                List<Evaluator> conv = Functions.casts(args, TypeRules.stripNullable(el));
                return Evaluator.of(DataTypes.array(el), r -> {
                    List<Object> l = new ArrayList<>(conv.size());
                    for (Evaluator a : conv) {
                        l.add(a.eval(r));
                    }
                    return Collections.unmodifiableList(l);
                });
            }
            case "arrayElement": return arrayElement(args);
            case "tupleElement": return tupleElement(args);
            default: throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Function with name `" + name + "` does not exist");
        }
    }

    static double d(Object v, Evaluator e) {
        return Values.toNumber(v, e.type()).doubleValue();
    }

    private static Evaluator cmp(List<Evaluator> args, java.util.function.IntPredicate p) {
        Functions.arity("comparison", args, 2);
        DataType ta = args.get(0).type();
        DataType tb = args.get(1).type();
        if (ta.unwrap() instanceof IntType && tb.unwrap() instanceof IntType) {
            boolean ua = ((IntType) ta.unwrap()).bits == 64 && !((IntType) ta.unwrap()).signed;
            boolean ub = ((IntType) tb.unwrap()).bits == 64 && !((IntType) tb.unwrap()).signed;
            Evaluator rowwise = Functions.strict(DataTypes.UINT8, args,
                v -> p.test(ColumnFunctions.compare((Long) v[0], (Long) v[1], ua, ub)) ? 1L : 0L);
            return ColumnFunctions.compareLongs(rowwise, args.get(0), args.get(1), p, ua, ub);
        }
        if (Functions.isFloat(ta) || Functions.isFloat(tb)) {
            // IEEE comparisons: NaN is unordered, so only notEquals holds (the one predicate of both -1 and 1 and not 0)
            long unordered = p.test(-1) && p.test(1) ? 1L : 0L;
            return Functions.strict(DataTypes.UINT8, args, v -> isNaN(v[0]) || isNaN(v[1]) ? unordered
                : p.test(TypeRules.compare(v[0], ta, v[1], tb)) ? 1L : 0L);
        }
        return Functions.strict(DataTypes.UINT8, args, v -> p.test(TypeRules.compare(v[0], ta, v[1], tb)) ? 1L : 0L);
    }

    private static boolean isNaN(Object v) {
        return v instanceof Double && ((Double) v).isNaN() || v instanceof Float && ((Float) v).isNaN();
    }

    /** isNaN, isFinite and isInfinite of a number (UInt8; an integer is finite); of another type ILLEGAL_TYPE_OF_ARGUMENT. */
    private static Evaluator floatClass(String name, List<Evaluator> args) {
        Functions.arity(name, args, 1);
        DataType t = args.get(0).type().unwrap();
        if (!(TypeRules.isInteger(t) || Functions.isFloat(t) || t instanceof dev.chdedup.stub.types.NothingType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument for function " + name + " must be a number");
        }
        return Functions.strict(DataTypes.UINT8, args, v -> {
            double d = v[0] instanceof Number && Functions.isFloat(t) ? ((Number) v[0]).doubleValue() : 0;
            boolean r = switch (name) {
                case "isNaN" -> Double.isNaN(d);
                case "isFinite" -> Double.isFinite(d);
                default -> Double.isInfinite(d);
            };
            return r ? 1L : 0L;
        });
    }

    private static Evaluator arith(String op, List<Evaluator> args) {
        Functions.arity(op, args, 2);
        DataType ta = args.get(0).type().unwrap();
        DataType tb = args.get(1).type().unwrap();
        if (Functions.isNothing(args.get(0)) || Functions.isNothing(args.get(1))) {
            return Functions.defaultForNulls(DataTypes.NOTHING, args, v -> null);
        }
        Evaluator withTime = TimeArithmetic.arith(op, args, ta, tb);
        if (withTime != null) {
            return withTime;
        }
        Evaluator withInterval = DateOrDateTimeAddInterval.arith(op, args);
        if (withInterval != null) {
            return withInterval;
        }
        if (TypeRules.isTimeLike(ta) && TypeRules.isInteger(tb) && !op.equals("multiply")) {
            boolean minus = op.equals("minus");
            DataType rt = ta;
            long unit = ta instanceof DateTime64Type ? ((DateTime64Type) ta).scale() : 1;
            return Functions.strict(rt, args, v -> (Long) v[0] + (minus ? -1 : 1) * (Long) v[1] * unit);
        }
        if (TypeRules.isTimeLike(ta) && TypeRules.isTimeLike(tb) && op.equals("minus")) {
            return DateOrDateTimeAddInterval.difference(args, ta, tb);
        }
        if (!TypeRules.isNumeric(ta) || !TypeRules.isNumeric(tb)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Illegal types " + ta.name() + " and " + tb.name()
                + " of arguments of function " + op);
        }
        if (Functions.isFloat(ta) || Functions.isFloat(tb)) {
            return Functions.strict(DataTypes.FLOAT64, args, v -> {
                double x = ((Number) Values.toNumber(v[0], ta)).doubleValue();
                double y = ((Number) Values.toNumber(v[1], tb)).doubleValue();
                return op.equals("plus") ? x + y : op.equals("minus") ? x - y : x * y;
            });
        }
        if (Functions.isDecimal(ta) || Functions.isDecimal(tb)) {
            int sa = ta instanceof DecimalType ? ((DecimalType) ta).scale : 0;
            int sb = tb instanceof DecimalType ? ((DecimalType) tb).scale : 0;
            int scale = op.equals("multiply") ? sa + sb : Math.max(sa, sb);
            // an integer operand keeps the decimal's width (Decimal(9, 2) * Int64 is a Decimal(9, 2))
            int pa = ta instanceof DecimalType ? ((DecimalType) ta).precision : 0;
            int pb = tb instanceof DecimalType ? ((DecimalType) tb).precision : 0;
            int prec = Math.max(pa, pb) <= 9 ? 9 : Math.max(pa, pb) <= 18 ? 18 : Math.max(pa, pb) <= 38 ? 38 : 76;
            DataType rt = DataTypes.decimal(Math.max(prec, scale), scale);
            return Functions.strict(rt, args, v -> {
                BigDecimal x = Functions.decimalOf(v[0], ta);
                BigDecimal y = Functions.decimalOf(v[1], tb);
                BigDecimal z = op.equals("plus") ? x.add(y) : op.equals("minus") ? x.subtract(y) : x.multiply(y);
                if (!FunctionsArithmetic.fitsDecimal(z, (DecimalType) rt)) {
                    throw new ChException(ErrorCode.DECIMAL_OVERFLOW, "Decimal math overflow");
                }
                return z.setScale(scale, RoundingMode.DOWN);
            });
        }
        int bits = Math.max(TypeRules.bits(ta), TypeRules.bits(tb));
        boolean signed = TypeRules.signed(ta) || TypeRules.signed(tb) || op.equals("minus");
        int rbits = Math.min(bits * 2, bits >= 64 ? bits : 64);
        rbits = bits >= 64 ? bits : Math.min(64, bits * 2);
        DataType rt = TypeRules.intType(rbits, signed);
        if (rbits > 64 || Functions.isBig(ta) || Functions.isBig(tb)) {
            return Functions.strict(rt, args, v -> {
                BigInteger x = Functions.bigOf(v[0], ta);
                BigInteger y = Functions.bigOf(v[1], tb);
                BigInteger z = op.equals("plus") ? x.add(y) : op.equals("minus") ? x.subtract(y) : x.multiply(y);
                return rt.convert(z, DataTypes.parse("Int256"));
            });
        }
        switch (op) {
            case "plus": return Functions.strictLongs(rt, args, v -> (Long) v[0] + (Long) v[1], Long::sum);
            case "minus": return Functions.strictLongs(rt, args, v -> (Long) v[0] - (Long) v[1], (x, y) -> x - y);
            default: return Functions.strictLongs(rt, args, v -> (Long) v[0] * (Long) v[1], (x, y) -> x * y);
        }
    }

    private static Evaluator divide(List<Evaluator> args) {
        Functions.arity("divide", args, 2);
        DataType ta = args.get(0).type().unwrap();
        DataType tb = args.get(1).type().unwrap();
        if (Functions.isDecimal(ta)) {
            int scale = ((DecimalType) ta).scale;
            return Functions.strict(ta, args, v -> {
                BigDecimal y = Functions.decimalOf(v[1], tb);
                if (y.signum() == 0) {
                    throw new ChException(ErrorCode.ILLEGAL_DIVISION, "Division by zero");
                }
                return Functions.decimalOf(v[0], ta).divide(y, MathContext.DECIMAL128).setScale(scale, RoundingMode.DOWN);
            });
        }
        return Functions.strict(DataTypes.FLOAT64, args, v -> Values.toNumber(v[0], ta).doubleValue() / Values.toNumber(v[1], tb).doubleValue());
    }

    private static Evaluator modulo(List<Evaluator> args) {
        Modulo m = moduloOf(args.get(0).type().unwrap(), args.get(1).type().unwrap());
        return m.op() == null ? Functions.strict(m.type(), args, m.fn()) : Functions.strictLongs(m.type(), args, m.fn(), m.op());
    }

    /** The modulo of two values of the types: its result type and its function of the two values (and of two longs when integers). */
    record Modulo(DataType type, Function<Object[], Object> fn, LongBinaryOperator op) {
    }

    static Modulo moduloOf(DataType ta, DataType tb) {
        if (Functions.isFloat(ta) || Functions.isFloat(tb)) {
            return new Modulo(DataTypes.FLOAT64, v -> Values.toNumber(v[0], ta).doubleValue() % Values.toNumber(v[1], tb).doubleValue(), null);
        }
        // ClickHouse's ResultOfModulo: the divisor's size, signed when the dividend is, and then twice the size (up to 64 bits),
        // since a negative remainder can be beyond the divisor's type (Int32 -199 % UInt8 200 is -199, an Int16)
        int bits = TypeRules.isInteger(tb) ? TypeRules.bits(tb) : 0;
        DataType rt = TypeRules.isInteger(tb) && TypeRules.isInteger(ta)
            ? TypeRules.intType(TypeRules.signed(ta) && bits < 64 ? bits * 2 : bits, TypeRules.signed(ta)) : ta;
        LongBinaryOperator op;
        if (ta instanceof IntType && tb instanceof IntType && rt instanceof IntType) {
            // two integers: C++'s % after its usual arithmetic conversions, as ClickHouse's ModuloImpl computes it, then
            // the result type's width: unsigned 64-bit if either is a UInt64 (Int8 -7 % UInt64 max is -7), signed 64-bit
            // if either is an Int64, unsigned 32-bit if either is a UInt32, else on the values as they are
            IntType a = (IntType) ta;
            IntType b = (IntType) tb;
            IntType r = (IntType) rt;
            boolean u64 = !a.signed && a.bits == 64 || !b.signed && b.bits == 64;
            boolean s64 = !u64 && (a.bits == 64 || b.bits == 64);
            boolean u32 = !u64 && !s64 && (!a.signed && a.bits == 32 || !b.signed && b.bits == 32);
            long smallest = a.signed && b.signed ? Long.MIN_VALUE >> (64 - a.bits) : 0;
            op = (x, y) -> {
                if (y == 0) {
                    throw new ChException(ErrorCode.ILLEGAL_DIVISION, "Division by zero");
                }
                if (y == -1 && x == smallest && smallest != 0) {
                    throw new ChException(ErrorCode.ILLEGAL_DIVISION, "Division of minimal signed number by minus one");
                }
                if (u64 && (x | y) < 0) {
                    return r.wrap(Long.remainderUnsigned(x, y));
                }
                return r.wrap(u32 ? (x & 0xFFFFFFFFL) % (y & 0xFFFFFFFFL) : x % y); // below 2^63 both: % itself, and faster
            };
        } else {
            boolean signed = TypeRules.signed(ta);
            op = (x, y) -> {
                if (y == 0) {
                    throw new ChException(ErrorCode.ILLEGAL_DIVISION, "Division by zero");
                }
                return signed || (x | y) >= 0 ? x % y : Long.remainderUnsigned(x, y);
            };
        }
        return new Modulo(rt, v -> {
            if (v[0] instanceof Long && v[1] instanceof Long) {
                return op.applyAsLong((Long) v[0], (Long) v[1]);
            }
            return rt.convert(Values.toBigDecimal(Values.toNumber(v[0], ta)).remainder(Values.toBigDecimal(Values.toNumber(v[1], tb))), DataTypes.FLOAT64);
        }, op);
    }

    private static Evaluator arrayElement(List<Evaluator> args) {
        DataType t = args.get(0).type().unwrap();
        if (t instanceof MapType) {
            MapType mt = (MapType) t;
            return Functions.strict(mt.value, args, v -> {
                for (Map.Entry<?, ?> e : ((Map<?, ?>) v[0]).entrySet()) {
                    if (TypeRules.compare(e.getKey(), mt.key, v[1], args.get(1).type()) == 0) {
                        return e.getValue();
                    }
                }
                return mt.value.defaultValue();
            });
        }
        if (t instanceof DynamicType) {
            // over each type of the Dynamic: the element of an array (typed as its element), NULL for other types
            Evaluator index = args.get(1);
            return Evaluator.of(t, row -> {
                TypedValue v = (TypedValue) args.get(0).eval(row);
                Object i = index.eval(row);
                if (v == null || i == null) {
                    return null;
                }
                if (!(v.type() instanceof ArrayType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function 'arrayElement' must be array, got '"
                        + v.type().name() + "' instead");
                }
                Object e = arrayElement(List.of(Evaluator.constant(v.type(), v.value()), Evaluator.constant(index.type(), i))).eval(row);
                DataType et = TypeRules.stripNullable(((ArrayType) v.type()).element);
                return e == null ? null : new TypedValue(et, e);
            });
        }
        if (!(t instanceof ArrayType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function arrayElement must be an array, got " + t.name());
        }
        DataType el = ((ArrayType) t).element;
        return Functions.strict(el, args, v -> {
            List<?> l = (List<?>) v[0];
            long i = Values.toLong(Values.toNumber(v[1], args.get(1).type()));
            long idx = i > 0 ? i - 1 : l.size() + i;
            if (i == 0 || idx < 0 || idx >= l.size()) {
                return el.defaultValue();
            }
            return l.get((int) idx);
        });
    }

    /**
     * tupleElement(t, index or name[, default]): a negative index counts from the end; an index or name the tuple does
     * not have is the default when one is given (in its own type), else ARGUMENT_OUT_OF_BOUND (an index) or BAD_ARGUMENTS (a name).
     */
    /**
     * The common type of the elements of array(...), or, when they have none, the Variant of their types, as ClickHouse
     * makes it under use_variant_as_common_type (on by default).
     */
    private static DataType commonOrVariant(List<DataType> ts) {
        try {
            return TypeRules.common(ts);
        } catch (ChException e) {
            if (e.code() != ErrorCode.NO_COMMON_TYPE) {
                throw e;
            }
            java.util.TreeSet<String> names = new java.util.TreeSet<>();
            for (DataType t : ts) {
                DataType u = TypeRules.stripNullable(t);
                if (!(u.unwrap() instanceof dev.chdedup.stub.types.NothingType)) {
                    names.add(u.name());
                }
            }
            return DataTypes.parse("Variant(" + String.join(", ", names) + ")");
        }
    }

    private static Evaluator tupleElement(List<Evaluator> args) {
        if (args.size() < 2 || args.size() > 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function tupleElement doesn't match: passed "
                + args.size() + ", should be 2 or 3");
        }
        DataType t = args.get(0).type().unwrap();
        int depth = 0; // an array of tuples (of arrays of tuples...) gives the array of their elements
        while (t instanceof ArrayType a && !(a.element instanceof NothingType)) {
            t = a.element.unwrap();
            depth++;
        }
        if (!(t instanceof TupleType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function tupleElement must be a tuple");
        }
        TupleType tt = (TupleType) t;
        if (!args.get(1).constant()) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "The second argument of tupleElement must be a constant index or name");
        }
        Object key = args.get(1).eval(new Object[0]);
        int idx;
        if (key instanceof String) {
            idx = tt.names == null ? -1 : tt.names.indexOf(key);
        } else {
            long k = Values.toLong(Values.toNumber(key, args.get(1).type()));
            idx = k > 0 ? (int) Math.min(k - 1, Integer.MAX_VALUE) : k < 0 ? (int) Math.max(tt.elements.size() + k, -1) : -1;
        }
        if (idx < 0 || idx >= tt.elements.size()) {
            if (args.size() == 3) {
                return args.get(2);
            }
            if (key instanceof String) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Tuple doesn't have element with name '" + ByteStrings.toText((String) key) + "'");
            }
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, "Tuple doesn't have element with index '" + key + "'");
        }
        int fi = idx;
        DataType result = tt.elements.get(fi);
        for (int i = 0; i < depth; i++) {
            result = DataTypes.array(result);
        }
        int levels = depth;
        return Functions.strict(result, List.of(args.get(0)), v -> elementOf(v[0], fi, levels));
    }

    /** Element {@code index} of a tuple, or of each tuple of arrays {@code depth} deep. */
    private static Object elementOf(Object v, int index, int depth) {
        if (depth == 0) {
            return ((List<?>) v).get(index);
        }
        List<Object> out = new ArrayList<>();
        for (Object e : (List<?>) v) {
            out.add(elementOf(e, index, depth - 1));
        }
        return out;
    }
}
