package dev.chdedup.stub.types;

import dev.chdedup.stub.hash.SipHash;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Aggregation states held and serialized as ClickHouse holds them, for the common functions over plain (not
 * Nullable) arguments: count (a VarUInt), sum of integers or floats (the UInt64, Int64 or Float64 sum), avg (that
 * numerator, then a VarUInt count), min/max of numbers, dates and times (a has-value byte, then the value) and of
 * String (an Int32 length with the terminating zero, -1 for none, then the bytes and the zero), groupArray of
 * those types (a VarUInt count, then the elements), uniqExact of numbers (a VarUInt count, then the distinct values)
 * and of String (the count, then each string's 128-bit SipHash). Mirrors ClickHouse's AggregateFunctionCount,
 * AggregateFunctionSum, AggregateFunctionAvg, SingleValueData, GroupArrayNumericImpl/GroupArrayNodeString and
 * AggregateFunctionUniqExactData. Other functions (and these over other types) keep the stub's own argument-row
 * states ({@link AggregateFunctionType}).
 */
public final class AggregateFunctionStates {
    private AggregateFunctionStates() {
    }

    /** One function's states: a mutable accumulator per group; a stored state is never changed once made. */
    public interface Ops {
        Object create();

        void add(Object acc, Object[] args);

        /** Adds {@code other}'s contents to {@code acc}; {@code other} is left unchanged. */
        void mergeInto(Object acc, Object other);

        /** The function's result (what {@code fMerge} returns). */
        Object finish(Object acc);

        void write(Object acc, BinaryOut out);

        Object read(BinaryIn in) throws IOException;
    }

    /** The ClickHouse-shaped states of {@code function} over {@code args}, or null when the stub keeps its own. */
    public static Ops of(String function, List<DataType> args) {
        switch (function) {
            case "count":
                return args.size() <= 1 ? new Count() : null;
            case "sum":
                return args.size() == 1 && summable(args.get(0)) ? new Sum(args.get(0), false) : null;
            case "avg":
                return args.size() == 1 && summable(args.get(0)) ? new Sum(args.get(0), true) : null;
            case "min":
            case "max":
                return args.size() == 1 && (fixed(args.get(0)) || plainString(args.get(0))) ? new MinMax(args.get(0), function.equals("max")) : null;
            case "groupArray":
                return args.size() == 1 && (fixed(args.get(0)) || plainString(args.get(0))) ? new GroupArray(args.get(0)) : null;
            case "uniqExact":
                return args.size() == 1 && (fixed(args.get(0)) || plainString(args.get(0))) ? new UniqExact(args.get(0)) : null;
            case "groupBitmap":
                return args.size() == 1 && bitmapValue(args.get(0)) ? new GroupBitmap((IntType) args.get(0)) : null;
            case "groupNumericIndexedVector":
                return NumericIndexedVectorBSI.accepts(args) ? NumericIndexedVectorBSI.ops(args) : null;
            default:
                return null;
        }
    }

    private static boolean summable(DataType t) {
        return t instanceof IntType && ((IntType) t).bits <= 64 && !t.name().equals("Bool") || t instanceof FloatType;
    }

    /** A fixed-width value whose RowBinary form is ClickHouse's in-memory little-endian form. */
    private static boolean fixed(DataType t) {
        return summable(t) || t instanceof DateType || t instanceof DateTimeType || t instanceof DateTime64Type || t instanceof DecimalType;
    }

    /** Whether groupBitmap takes values of {@code t}: the integers of up to 64 bits. */
    public static boolean bitmapValue(DataType t) {
        return t instanceof IntType && ((IntType) t).bits <= 64 && !t.name().equals("Bool");
    }

    /** groupBitmap: a {@link RoaringBitmapWithSmallSet} of the values; its result is their count. */
    private static final class GroupBitmap implements Ops {
        private final int width;
        private final boolean signed;
        private final boolean wide;

        GroupBitmap(IntType t) {
            this.width = t.bits / 8;
            this.signed = t.signed;
            this.wide = t.bits == 64 || t.signed;
        }

        @Override
        public Object create() {
            return new RoaringBitmapWithSmallSet();
        }

        @Override
        public void add(Object acc, Object[] args) {
            if (args[0] != null) {
                ((RoaringBitmapWithSmallSet) acc).add((Long) args[0]);
            }
        }

        @Override
        public void mergeInto(Object acc, Object other) {
            ((RoaringBitmapWithSmallSet) acc).addAll((RoaringBitmapWithSmallSet) other);
        }

        @Override
        public Object finish(Object acc) {
            return ((RoaringBitmapWithSmallSet) acc).cardinality();
        }

        @Override
        public void write(Object acc, BinaryOut out) {
            ((RoaringBitmapWithSmallSet) acc).write(out, width, wide);
        }

        @Override
        public Object read(BinaryIn in) throws IOException {
            return RoaringBitmapWithSmallSet.read(in, width, signed, wide);
        }
    }

    private static boolean plainString(DataType t) {
        return t instanceof StringType && ((StringType) t).fixedLength == 0;
    }

    private interface ElementWriter {
        void write(Object v, BinaryOut out);
    }

    private interface ElementReader {
        Object read(BinaryIn in) throws IOException;
    }

    /** A VarUInt count, then each element: how groupArray and uniqExact states are laid out. */
    private static void writeElements(java.util.Collection<Object> elements, BinaryOut out, ElementWriter w) {
        out.writeVarUInt(elements.size());
        for (Object v : elements) {
            w.write(v, out);
        }
    }

    private static <C extends java.util.Collection<Object>> C readElements(C into, BinaryIn in, ElementReader r) throws IOException {
        long n = in.readVarUInt();
        if (n > BinaryIn.MAX_STRING_BYTES) {
            throw new IOException("too many elements: " + n);
        }
        for (long i = 0; i < n; i++) {
            into.add(r.read(in));
        }
        return into;
    }

    private static final class Count implements Ops {
        @Override
        public Object create() {
            return new long[1];
        }

        @Override
        public void add(Object acc, Object[] args) {
            if (args.length == 0 || args[0] != null) {
                ((long[]) acc)[0]++;
            }
        }

        @Override
        public void mergeInto(Object acc, Object other) {
            ((long[]) acc)[0] += ((long[]) other)[0];
        }

        @Override
        public Object finish(Object acc) {
            return ((long[]) acc)[0];
        }

        @Override
        public void write(Object acc, BinaryOut out) {
            out.writeVarUInt(((long[]) acc)[0]);
        }

        @Override
        public Object read(BinaryIn in) throws IOException {
            return new long[] {in.readVarUInt()};
        }
    }

    /** sum (and avg, which also counts): a long sum (wrapping, as ClickHouse's) or a double one. */
    private static final class Sum implements Ops {
        private final boolean floating;
        private final boolean avg;

        Sum(DataType t, boolean avg) {
            this.floating = t instanceof FloatType;
            this.avg = avg;
        }

        /** {sum as long or double bits, count} */
        @Override
        public Object create() {
            return new long[2];
        }

        @Override
        public void add(Object acc, Object[] args) {
            if (args[0] == null) {
                return;
            }
            long[] a = (long[]) acc;
            a[0] = floating ? Double.doubleToRawLongBits(Double.longBitsToDouble(a[0]) + ((Number) args[0]).doubleValue())
                : a[0] + ((Number) args[0]).longValue();
            a[1]++;
        }

        @Override
        public void mergeInto(Object acc, Object other) {
            long[] a = (long[]) acc;
            long[] b = (long[]) other;
            a[0] = floating ? Double.doubleToRawLongBits(Double.longBitsToDouble(a[0]) + Double.longBitsToDouble(b[0])) : a[0] + b[0];
            a[1] += b[1];
        }

        @Override
        public Object finish(Object acc) {
            long[] a = (long[]) acc;
            double sum = floating ? Double.longBitsToDouble(a[0]) : (double) a[0];
            if (avg) {
                return a[1] == 0 ? Double.NaN : sum / a[1];
            }
            return floating ? (Object) sum : (Object) a[0];
        }

        @Override
        public void write(Object acc, BinaryOut out) {
            long[] a = (long[]) acc;
            out.writeLongLE(a[0], 8);
            if (avg) {
                out.writeVarUInt(a[1]);
            }
        }

        @Override
        public Object read(BinaryIn in) throws IOException {
            long sum = in.readLongLE(8);
            return new long[] {sum, avg ? in.readVarUInt() : 0};
        }
    }

    /** min / max: the best value so far, or none. */
    private static final class MinMax implements Ops {
        private final DataType type;
        private final boolean max;

        MinMax(DataType type, boolean max) {
            this.type = type;
            this.max = max;
        }

        @Override
        public Object create() {
            return new Object[1];
        }

        @Override
        public void add(Object acc, Object[] args) {
            Object[] a = (Object[]) acc;
            Object v = args[0];
            if (v != null && (a[0] == null || (max ? type.compare(v, a[0]) > 0 : type.compare(v, a[0]) < 0))) {
                a[0] = v;
            }
        }

        @Override
        public void mergeInto(Object acc, Object other) {
            add(acc, (Object[]) other);
        }

        @Override
        public Object finish(Object acc) {
            Object v = ((Object[]) acc)[0];
            return v == null ? type.defaultValue() : v;
        }

        @Override
        public void write(Object acc, BinaryOut out) {
            Object v = ((Object[]) acc)[0];
            if (type instanceof StringType) {
                if (v == null) {
                    out.writeLongLE(-1, 4);
                    return;
                }
                byte[] b = ByteStrings.bytes((String) v);
                out.writeLongLE(b.length + 1, 4);
                out.write(b, 0, b.length);
                out.write(0);
                return;
            }
            out.write(v == null ? 0 : 1);
            if (v != null) {
                type.writeBinary(v, out);
            }
        }

        @Override
        public Object read(BinaryIn in) throws IOException {
            if (type instanceof StringType) {
                int n = (int) in.readLongLE(4);
                if (n < 0) {
                    return new Object[1];
                }
                if (n == 0 || n > BinaryIn.MAX_STRING_BYTES) {
                    throw new IOException("bad string size " + n);
                }
                byte[] b = in.readBytes(n);
                return new Object[] {ByteStrings.of(java.util.Arrays.copyOf(b, n - 1))};
            }
            return new Object[] {in.readByte() == 0 ? null : type.readBinary(in)};
        }
    }

    /** groupArray: the values in order. */
    private static final class GroupArray implements Ops {
        private final DataType type;

        GroupArray(DataType type) {
            this.type = type;
        }

        @Override
        public Object create() {
            return new ArrayList<Object>();
        }

        @Override
        @SuppressWarnings("unchecked")
        public void add(Object acc, Object[] args) {
            if (args[0] != null) {
                ((List<Object>) acc).add(args[0]);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void mergeInto(Object acc, Object other) {
            ((List<Object>) acc).addAll((List<Object>) other);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Object finish(Object acc) {
            return Collections.unmodifiableList(new ArrayList<>((List<Object>) acc));
        }

        @Override
        @SuppressWarnings("unchecked")
        public void write(Object acc, BinaryOut out) {
            writeElements((List<Object>) acc, out, type::writeBinary);
        }

        @Override
        public Object read(BinaryIn in) throws IOException {
            return readElements(new ArrayList<>(), in, type::readBinary);
        }
    }

    /** uniqExact: the distinct values (of a String, its SipHash-128 as {low, high}). */
    private static final class UniqExact implements Ops {
        private final DataType type;
        private final boolean hashed;

        UniqExact(DataType type) {
            this.type = type;
            this.hashed = type instanceof StringType;
        }

        @Override
        public Object create() {
            return new LinkedHashSet<Object>();
        }

        @Override
        @SuppressWarnings("unchecked")
        public void add(Object acc, Object[] args) {
            if (args[0] != null) {
                Object v = args[0];
                if (hashed) {
                    long[] h = new SipHash().update(ByteStrings.bytes((String) v)).get128();
                    v = List.of(h[0], h[1]);
                } else if (v instanceof Double && (Double) v == 0.0) {
                    v = 0.0d; // -0.0 and 0.0 are one value
                }
                ((Set<Object>) acc).add(v);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void mergeInto(Object acc, Object other) {
            ((Set<Object>) acc).addAll((Set<Object>) other);
        }

        @Override
        @SuppressWarnings("unchecked")
        public Object finish(Object acc) {
            return (long) ((Set<Object>) acc).size();
        }

        @Override
        @SuppressWarnings("unchecked")
        public void write(Object acc, BinaryOut out) {
            writeElements((Set<Object>) acc, out, (v, o) -> {
                if (hashed) {
                    o.writeLongLE((Long) ((List<?>) v).get(0), 8);
                    o.writeLongLE((Long) ((List<?>) v).get(1), 8);
                } else {
                    type.writeBinary(v, o);
                }
            });
        }

        @Override
        public Object read(BinaryIn in) throws IOException {
            return readElements(new LinkedHashSet<>(), in, i -> hashed ? List.of(i.readLongLE(8), i.readLongLE(8)) : type.readBinary(i));
        }
    }
}
