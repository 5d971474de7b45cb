package dev.chdedup.stub.types;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.roaringbitmap.RoaringBitmap;

/**
 * A groupBitmap state, as ClickHouse's RoaringBitmapWithSmallSet holds and writes it: up to 32 values a small set in
 * the order they came (a 0 byte, a VarUInt count, then each value in the argument type's width), more a roaring bitmap
 * (a 1 byte, a VarUInt size, then the bitmap run-optimized in the portable format CRoaring and RoaringBitmap share).
 * Values of 32 or fewer unsigned bits go into a 32-bit bitmap; 64-bit and signed values, sign-extended to 64 bits,
 * into a 64-bit one (a little-endian UInt64 count of 32-bit buckets, then each bucket's high half and its bitmap), as
 * Roaring64Map writes it. The values are held as {@code long}s, a signed type's sign-extended.
 */
public final class RoaringBitmapWithSmallSet {
    /** The small set's capacity: a 33rd value makes the state a bitmap. */
    static final int SMALL_CAPACITY = 32;

    private final LinkedHashSet<Long> values = new LinkedHashSet<>();
    private boolean large;

    public void add(long v) {
        values.add(v);
        if (values.size() > SMALL_CAPACITY) {
            large = true;
        }
    }

    /** Adds every value of {@code other}; {@code other} is left unchanged. */
    public void addAll(RoaringBitmapWithSmallSet other) {
        for (long v : other.values) {
            add(v);
        }
        large |= other.large;
    }

    /** Makes the state a bitmap whatever its size, as ClickHouse's toLarge before an operation that needs one. */
    public void toLarge() {
        large = true;
    }

    public long cardinality() {
        return values.size();
    }

    public boolean contains(long v) {
        return values.contains(v);
    }

    /** The values in ascending order, unsigned (as the bitmap orders them). */
    public List<Long> sorted() {
        List<Long> out = new ArrayList<>(values);
        out.sort(Comparator.comparing(Long::longValue, Long::compareUnsigned));
        return out;
    }

    /** The values as bitmapToArray lists them: a small set's in the order they came, a bitmap's ascending. */
    public List<Long> toList() {
        return large ? sorted() : new ArrayList<>(values);
    }

    /** A copy holding the values {@code keep} accepts, as a bitmap operation's result. */
    public RoaringBitmapWithSmallSet filtered(java.util.function.LongPredicate keep) {
        RoaringBitmapWithSmallSet r = new RoaringBitmapWithSmallSet();
        for (long v : toList()) {
            if (keep.test(v)) {
                r.add(v);
            }
        }
        return r;
    }

    /** The state's bytes for values {@code width} bytes wide, in a 64-bit bitmap when {@code wide}. */
    void write(BinaryOut out, int width, boolean wide) {
        if (!large) {
            out.write(0);
            out.writeVarUInt(values.size());
            for (long v : values) {
                out.writeLongLE(v, width);
            }
            return;
        }
        out.write(1);
        byte[] bitmap = wide ? wide() : narrow(values);
        out.writeVarUInt(bitmap.length);
        out.write(bitmap, 0, bitmap.length);
    }

    private static byte[] narrow(Iterable<Long> values) {
        RoaringBitmap rb = new RoaringBitmap();
        for (long v : values) {
            rb.add((int) v);
        }
        return bytes(rb);
    }

    private static byte[] bytes(RoaringBitmap rb) {
        rb.runOptimize();
        ByteBuffer b = ByteBuffer.allocate(rb.serializedSizeInBytes()).order(ByteOrder.LITTLE_ENDIAN);
        rb.serialize(b);
        return b.array();
    }

    private byte[] wide() {
        TreeMap<Long, RoaringBitmap> buckets = new TreeMap<>();
        for (long v : values) {
            buckets.computeIfAbsent(v >>> 32, k -> new RoaringBitmap()).add((int) v);
        }
        BinaryOut out = new BinaryOut(64);
        out.writeLongLE(buckets.size(), 8);
        for (Map.Entry<Long, RoaringBitmap> e : buckets.entrySet()) {
            out.writeLongLE(e.getKey(), 4);
            byte[] b = bytes(e.getValue());
            out.write(b, 0, b.length);
        }
        return out.toByteArray();
    }

    /** Reads a state written by {@link #write} (or by ClickHouse) for values {@code width} bytes wide, signed or not. */
    static RoaringBitmapWithSmallSet read(BinaryIn in, int width, boolean signed, boolean wide) throws IOException {
        RoaringBitmapWithSmallSet s = new RoaringBitmapWithSmallSet();
        int kind = in.readByte();
        if (kind == 0) {
            long n = in.readVarUInt();
            if (n > SMALL_CAPACITY) {
                throw new IOException("a small set of " + n + " values");
            }
            for (long i = 0; i < n; i++) {
                long v = in.readLongLE(width);
                s.values.add(signed && width < 8 ? v << (64 - 8 * width) >> (64 - 8 * width) : v);
            }
            return s;
        }
        if (kind != 1) {
            throw new IOException("unknown bitmap kind " + kind);
        }
        long size = in.readVarUInt();
        if (size > BinaryIn.MAX_STRING_BYTES) {
            throw new IOException("a bitmap of " + size + " bytes");
        }
        ByteBuffer b = ByteBuffer.wrap(in.readBytes((int) size)).order(ByteOrder.LITTLE_ENDIAN);
        try {
            if (!wide) {
                readInto(s, b, 0, false, width);
            } else {
                long buckets = b.getLong();
                for (long i = 0; i < buckets; i++) {
                    long high = b.getInt() & 0xFFFFFFFFL;
                    readInto(s, b, high, true, width);
                }
            }
        } catch (RuntimeException e) {
            throw new IOException("a malformed bitmap", e);
        }
        s.large = true;
        return s;
    }

    private static void readInto(RoaringBitmapWithSmallSet s, ByteBuffer b, long high, boolean wide, int width) throws IOException {
        RoaringBitmap rb = new RoaringBitmap();
        ByteBuffer slice = b.slice().order(ByteOrder.LITTLE_ENDIAN);
        rb.deserialize(slice);
        b.position(b.position() + rb.serializedSizeInBytes());
        rb.forEach((int low) -> s.values.add(wide ? high << 32 | (low & 0xFFFFFFFFL) : low & 0xFFFFFFFFL));
    }
}
