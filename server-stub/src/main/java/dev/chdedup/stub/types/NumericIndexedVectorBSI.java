package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A NumericIndexedVector as ClickHouse's BSINumericIndexedVector (AggregateFunctionGroupNumericIndexedVectorDataBSI.h)
 * holds it: a sparse vector from an index (an integer of up to 32 bits) to a value kept in fixed point, with
 * {@code integerBits} integer and {@code fractionBits} fraction bits (an integer value type: its width and no
 * fraction; Float32/Float64: 40 and 24), wrapping modulo 2^(integerBits + fractionBits), read back as a two's
 * complement number for signed and float value types. An index whose value is zero is kept apart from those whose
 * value is not (ClickHouse's zero_indexes); an index present in neither has no value. Serialized as ClickHouse does:
 * the two UInt32 bit counts, an is-empty byte and the roaring bitmap of the zero indexes, then per bit, from the
 * least significant, an is-empty byte and the bitmap of the indexes with that bit set.
 */
public final class NumericIndexedVectorBSI {
    public final IntType indexType;
    public final DataType valueType;
    private int integerBits;
    private int fractionBits;
    /** The indexes with a non-zero value, to that value's bits (masked to the total width), in the order they came. */
    private final LinkedHashMap<Long, Long> nonZero = new LinkedHashMap<>();
    private final LinkedHashSet<Long> zeros = new LinkedHashSet<>();

    public NumericIndexedVectorBSI(IntType indexType, DataType valueType) {
        this.indexType = indexType;
        this.valueType = valueType;
        if (valueType instanceof IntType it) {
            integerBits = it.bits;
            fractionBits = 0;
        } else {
            integerBits = 40;
            fractionBits = 24;
        }
    }

    private NumericIndexedVectorBSI(NumericIndexedVectorBSI like, int integerBits, int fractionBits) {
        this.indexType = like.indexType;
        this.valueType = like.valueType;
        this.integerBits = integerBits;
        this.fractionBits = fractionBits;
    }

    public int integerBits() {
        return integerBits;
    }

    public int fractionBits() {
        return fractionBits;
    }

    private int totalBits() {
        return integerBits + fractionBits;
    }

    private long mask() {
        return totalBits() >= 64 ? -1L : (1L << totalBits()) - 1;
    }

    private boolean signedValues() {
        return !(valueType instanceof IntType it) || it.signed;
    }

    /** The bits of {@code raw} read as a number: sign-extended from the total width for signed and float values. */
    private long signedRaw(long raw) {
        int total = totalBits();
        if (!signedValues() || total >= 64 || total == 0) {
            return raw;
        }
        return raw << (64 - total) >> (64 - total);
    }

    /** Adds {@code value} (of the value type) at {@code index}, as ClickHouse's addValue: a zero marks the index zero. */
    public void addValue(long index, Object value) {
        double d = value instanceof Number n && !(value instanceof Long) ? n.doubleValue() : 0;
        boolean isZero = value instanceof Long l ? l == 0 : d == 0;
        if (value instanceof Double || value instanceof Float) {
            if (Double.isNaN(d)) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "NumericIndexedVector does not support NaN");
            }
            if (Double.isInfinite(d)) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "NumericIndexedVector does not support Inf");
            }
        }
        if (isZero) {
            zeros.add(index);
            return;
        }
        long scaled;
        if (value instanceof Long l) {
            if (valueType instanceof IntType it && !it.signed && it.bits == 64 && l < 0) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Value " + Long.toUnsignedString(l) + " does not fit in Int64. It should, even when using UInt64.");
            }
            scaled = l;
        } else {
            double scaling = Math.scalb(1.0, fractionBits);
            if (Math.abs(d) > 9.223372036854775807E18 / scaling) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Value " + d + " is out of range for BSI with integer_bit_num=" + integerBits
                    + " and fraction_bit_num=" + fractionBits);
            }
            scaled = (long) (d * scaling);
        }
        // ClickHouse's bit-serial addition, which sets the bits whose sum is 1 and never clears one
        long old = nonZero.getOrDefault(index, 0L);
        long bits = old;
        int carry = 0;
        for (int j = 0; j < totalBits(); j++) {
            int augend = (int) (old >>> j & 1);
            int addend = (int) (scaled >>> j & 1);
            if ((augend ^ addend ^ carry) == 1) {
                bits |= 1L << j;
            }
            carry = carry & (augend ^ addend) | augend & addend;
        }
        if (bits != 0) {
            nonZero.put(index, bits);
        }
    }

    /** Every index with a value, zero or not. */
    public Set<Long> indexes() {
        Set<Long> all = new LinkedHashSet<>(nonZero.keySet());
        all.addAll(zeros);
        return all;
    }

    public long cardinality() {
        return indexes().size();
    }

    /** The value at {@code index} as its fixed-point number (sign-extended), 0 for a zero or absent index. */
    private long scaledAt(long index) {
        return zeros.contains(index) ? 0 : signedRaw(nonZero.getOrDefault(index, 0L));
    }

    /** The value at {@code index} in the value type (Long, Float or Double), 0 when it has none. */
    public Object valueAt(long index) {
        return toValue(zeros.contains(index) ? 0 : nonZero.getOrDefault(index, 0L));
    }

    private Object toValue(long raw) {
        if (valueType instanceof IntType it) {
            long v = signedRaw(raw);
            return it.bits == 64 ? v : it.signed ? v << (64 - it.bits) >> (64 - it.bits) : v & ((1L << it.bits) - 1);
        }
        double d = signedRaw(raw) / Math.scalb(1.0, fractionBits);
        return valueType.name().equals("Float32") ? (Object) (float) d : (Object) d;
    }

    /** The sum of the values, as ClickHouse's getAllValueSum: a Float64 of the bit slices' contributions. */
    public double allValueSum() {
        double sum = 0;
        for (long raw : nonZero.values()) {
            long v = signedRaw(raw);
            sum += signedValues() ? v / Math.scalb(1.0, fractionBits) : unsignedDouble(v) / Math.scalb(1.0, fractionBits);
        }
        return sum;
    }

    private static double unsignedDouble(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
    }

    /** The index-to-value map, ascending by index (as the index type orders them). */
    public Map<Object, Object> toMap() {
        TreeSet<Long> sorted = new TreeSet<>(indexes());
        Map<Object, Object> out = new LinkedHashMap<>();
        for (long i : sorted) {
            out.put(i, toValue(nonZero.getOrDefault(i, 0L)));
        }
        return out;
    }

    /** The bit-slice cardinalities, as shortDebugString shows them. */
    public long[] bitCardinalities() {
        long[] c = new long[totalBits()];
        for (long raw : nonZero.values()) {
            for (int b = 0; b < c.length; b++) {
                if ((raw >>> b & 1) != 0) {
                    c[b]++;
                }
            }
        }
        return c;
    }

    public long zeroCardinality() {
        return zeros.size();
    }

    /** The arithmetic operations between two vectors over the union of their indexes, a missing value being 0. */
    public enum Arithmetic { ADD, SUBTRACT, MULTIPLY, DIVIDE }

    /** The comparisons: the result holds 1 at the indexes where the comparison holds. */
    public enum Comparison { EQUAL, NOT_EQUAL, LESS, LESS_EQUAL, GREATER, GREATER_EQUAL }

    /** A vector over this one's indexes, each with {@code value}, as ClickHouse's initializeFromVectorAndValue. */
    public NumericIndexedVectorBSI filledWith(Object value) {
        NumericIndexedVectorBSI r = new NumericIndexedVectorBSI(this, integerBits, fractionBits);
        double d = value instanceof Long ? 0 : ((Number) value).doubleValue();
        long scaled = value instanceof Long l ? l : (long) (d * Math.scalb(1.0, fractionBits));
        boolean zero = value instanceof Long l ? l == 0 : d == 0;
        for (long i : new TreeSet<>(indexes())) {
            if (zero) {
                r.zeros.add(i);
            } else if ((scaled & r.mask()) != 0) {
                r.nonZero.put(i, scaled & r.mask());
            }
        }
        return r;
    }

    /** {@code a op b} at each index of either, in the wider of the two bit layouts. */
    public static NumericIndexedVectorBSI arithmetic(NumericIndexedVectorBSI a, NumericIndexedVectorBSI b, Arithmetic op) {
        int ib = Math.max(a.integerBits, b.integerBits);
        int fb = Math.max(a.fractionBits, b.fractionBits);
        NumericIndexedVectorBSI r = new NumericIndexedVectorBSI(a, ib, fb);
        TreeSet<Long> all = new TreeSet<>(a.indexes());
        all.addAll(b.indexes());
        BigInteger m = BigInteger.ONE.shiftLeft(ib + fb);
        for (long i : all) {
            BigInteger x = BigInteger.valueOf(a.scaledAt(i)).shiftLeft(fb - a.fractionBits);
            BigInteger y = BigInteger.valueOf(b.scaledAt(i)).shiftLeft(fb - b.fractionBits);
            BigInteger z = switch (op) {
                case ADD -> x.add(y);
                case SUBTRACT -> x.subtract(y);
                case MULTIPLY -> x.multiply(y).divide(BigInteger.ONE.shiftLeft(fb));
                case DIVIDE -> y.signum() == 0 ? BigInteger.ZERO : x.shiftLeft(fb).divide(y);
            };
            long raw = z.mod(m).longValue() & r.mask();
            if (raw == 0) {
                r.zeros.add(i);
            } else {
                r.nonZero.put(i, raw);
            }
        }
        return r;
    }

    /** 1 at each index of either vector where {@code a op b} holds, in a layout of 2 integer bits. */
    public static NumericIndexedVectorBSI compare(NumericIndexedVectorBSI a, NumericIndexedVectorBSI b, Comparison op) {
        int fb = Math.max(a.fractionBits, b.fractionBits);
        NumericIndexedVectorBSI r = new NumericIndexedVectorBSI(a, 2, 0);
        TreeSet<Long> all = new TreeSet<>(a.indexes());
        all.addAll(b.indexes());
        boolean unsigned = !a.signedValues();
        for (long i : all) {
            long x = a.scaledAt(i) << (fb - a.fractionBits);
            long y = b.scaledAt(i) << (fb - b.fractionBits);
            int c = unsigned ? Long.compareUnsigned(x, y) : Long.compare(x, y);
            boolean holds = switch (op) {
                case EQUAL -> c == 0;
                case NOT_EQUAL -> c != 0;
                case LESS -> c < 0;
                case LESS_EQUAL -> c <= 0;
                case GREATER -> c > 0;
                case GREATER_EQUAL -> c >= 0;
            };
            if (holds) {
                r.nonZero.put(i, 1L);
            }
        }
        return r;
    }

    /** Adds every value of {@code other} (same types) into this vector, as merging two states does. */
    public void mergeFrom(NumericIndexedVectorBSI other) {
        NumericIndexedVectorBSI sum = arithmetic(this, other, Arithmetic.ADD);
        integerBits = sum.integerBits;
        fractionBits = sum.fractionBits;
        Set<Long> before = indexes();
        nonZero.clear();
        zeros.clear();
        for (long i : before) {
            put(sum, i);
        }
        for (long i : other.indexes()) {
            if (!before.contains(i)) {
                put(sum, i);
            }
        }
    }

    private void put(NumericIndexedVectorBSI from, long i) {
        Long raw = from.nonZero.get(i);
        if (raw != null) {
            nonZero.put(i, raw);
        } else if (from.zeros.contains(i)) {
            zeros.add(i);
        }
    }

    public NumericIndexedVectorBSI copy() {
        NumericIndexedVectorBSI c = new NumericIndexedVectorBSI(this, integerBits, fractionBits);
        c.nonZero.putAll(nonZero);
        c.zeros.addAll(zeros);
        return c;
    }

    private int width() {
        return indexType.bits / 8;
    }

    private boolean wide() {
        return indexType.bits == 64 || indexType.signed;
    }

    public void write(BinaryOut out) {
        out.writeLongLE(integerBits, 4);
        out.writeLongLE(fractionBits, 4);
        out.write(zeros.isEmpty() ? 1 : 0);
        if (!zeros.isEmpty()) {
            RoaringBitmapWithSmallSet z = new RoaringBitmapWithSmallSet();
            zeros.forEach(z::add);
            z.write(out, width(), wide());
        }
        for (int b = 0; b < totalBits(); b++) {
            RoaringBitmapWithSmallSet s = new RoaringBitmapWithSmallSet();
            for (Map.Entry<Long, Long> e : nonZero.entrySet()) {
                if ((e.getValue() >>> b & 1) != 0) {
                    s.add(e.getKey());
                }
            }
            out.write(s.cardinality() == 0 ? 1 : 0);
            if (s.cardinality() > 0) {
                s.write(out, width(), wide());
            }
        }
    }

    public static NumericIndexedVectorBSI read(BinaryIn in, IntType indexType, DataType valueType) throws IOException {
        NumericIndexedVectorBSI v = new NumericIndexedVectorBSI(indexType, valueType);
        v.integerBits = (int) in.readLongLE(4);
        v.fractionBits = (int) in.readLongLE(4);
        if (v.integerBits > 64 || v.fractionBits > 24 || v.totalBits() > 64) {
            throw new IOException("integer_bit_num(" + v.integerBits + ") and fraction_bit_num(" + v.fractionBits + ") out of range");
        }
        boolean signed = indexType.signed;
        if (in.readByte() == 0) {
            v.zeros.addAll(RoaringBitmapWithSmallSet.read(in, v.width(), signed, v.wide()).toList());
        }
        List<Long> order = new ArrayList<>();
        for (int b = 0; b < v.totalBits(); b++) {
            int empty = in.readByte();
            if (empty == 1) {
                continue;
            }
            if (empty != 0) {
                throw new IOException("Unknown value of is_empty: " + empty);
            }
            for (long i : RoaringBitmapWithSmallSet.read(in, v.width(), signed, v.wide()).toList()) {
                if (!v.nonZero.containsKey(i)) {
                    order.add(i);
                }
                v.nonZero.merge(i, 1L << b, (x, y) -> x | y);
            }
        }
        return v;
    }

    /** Whether a state of {@code args} is one: an index of up to 32 bits and a value of a number of up to 64 bits. */
    public static boolean accepts(List<DataType> args) {
        return args.size() == 2 && args.get(0) instanceof IntType it && it.bits <= 32 && !it.name().equals("Bool")
            && (args.get(1) instanceof IntType v && v.bits <= 64 && !v.name().equals("Bool") || args.get(1) instanceof FloatType);
    }

    /** groupNumericIndexedVector's states: a vector fed addValue(index, value) per row; its result is the sum of its values. */
    static AggregateFunctionStates.Ops ops(List<DataType> args) {
        IntType index = (IntType) args.get(0);
        DataType value = args.get(1);
        return new AggregateFunctionStates.Ops() {
            @Override
            public Object create() {
                return new NumericIndexedVectorBSI(index, value);
            }

            @Override
            public void add(Object acc, Object[] row) {
                if (row[0] != null && row[1] != null) {
                    ((NumericIndexedVectorBSI) acc).addValue((Long) row[0], row[1]);
                }
            }

            @Override
            public void mergeInto(Object acc, Object other) {
                ((NumericIndexedVectorBSI) acc).mergeFrom((NumericIndexedVectorBSI) other);
            }

            @Override
            public Object finish(Object acc) {
                return ((NumericIndexedVectorBSI) acc).allValueSum();
            }

            @Override
            public void write(Object acc, BinaryOut out) {
                ((NumericIndexedVectorBSI) acc).write(out);
            }

            @Override
            public Object read(BinaryIn in) throws IOException {
                return NumericIndexedVectorBSI.read(in, index, value);
            }
        };
    }
}
