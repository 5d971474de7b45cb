package dev.chdedup.stub.hash;

/**
 * SipHash-2-4 with ClickHouse's streaming finalization and 128-bit output ({@code v0^v1}, {@code v2^v3}), as
 * ClickHouse's {@code SipHash::get128} computes block ids and hash partition ids; keys are zero unless given (the
 * reference test vectors use a key). Feed bytes with the {@code update} methods, then call {@link #get128()} or
 * {@link #get64()} once; or, made by {@link #reference}, {@link #getReference128()} for the reference SipHash-2-4 with
 * 128-bit output (ClickHouse's sipHash128Reference).
 */
public final class SipHash {
    private static final java.lang.invoke.VarHandle LE_LONG =
        java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);

    private long v0 = 0x736f6d6570736575L;
    private long v1 = 0x646f72616e646f6dL;
    private long v2 = 0x6c7967656e657261L;
    private long v3 = 0x7465646279746573L;
    private long current;
    private int currentBytes;
    private long count;

    /** SipHash with zero keys, as ClickHouse hashes block ids and {@code sipHash64}. */
    public SipHash() {
        this(0, 0);
    }

    /** SipHash keyed with {@code k0}, {@code k1} (the key's two little-endian halves). */
    public SipHash(long k0, long k1) {
        v0 ^= k0;
        v1 ^= k1;
        v2 ^= k0;
        v3 ^= k1;
    }

    /** SipHash keyed with {@code k0}, {@code k1} for the reference 128-bit output ({@link #getReference128()}). */
    public static SipHash reference(long k0, long k1) {
        SipHash h = new SipHash(k0, k1);
        h.v1 ^= 0xee;
        return h;
    }

    private void round() {
        v0 += v1;
        v1 = Long.rotateLeft(v1, 13);
        v1 ^= v0;
        v0 = Long.rotateLeft(v0, 32);
        v2 += v3;
        v3 = Long.rotateLeft(v3, 16);
        v3 ^= v2;
        v0 += v3;
        v3 = Long.rotateLeft(v3, 21);
        v3 ^= v0;
        v2 += v1;
        v1 = Long.rotateLeft(v1, 17);
        v1 ^= v2;
        v2 = Long.rotateLeft(v2, 32);
    }

    private void word(long m) {
        v3 ^= m;
        round();
        round();
        v0 ^= m;
    }

    public SipHash update(byte[] data, int off, int len) {
        int i = off;
        int end = off + len;
        count += len;
        while (currentBytes != 0 && i < end) {
            current |= (data[i++] & 0xFFL) << (8 * currentBytes);
            if (++currentBytes == 8) {
                word(current);
                current = 0;
                currentBytes = 0;
            }
        }
        long a = v0;
        long b = v1;
        long c = v2;
        long d = v3;
        while (end - i >= 8) {
            long m = (long) LE_LONG.get(data, i);
            d ^= m;
            for (int r = 0; r < 2; r++) {
                a += b;
                b = Long.rotateLeft(b, 13);
                b ^= a;
                a = Long.rotateLeft(a, 32);
                c += d;
                d = Long.rotateLeft(d, 16);
                d ^= c;
                a += d;
                d = Long.rotateLeft(d, 21);
                d ^= a;
                c += b;
                b = Long.rotateLeft(b, 17);
                b ^= c;
                c = Long.rotateLeft(c, 32);
            }
            a ^= m;
            i += 8;
        }
        v0 = a;
        v1 = b;
        v2 = c;
        v3 = d;
        while (i < end) {
            current |= (data[i++] & 0xFFL) << (8 * currentBytes);
            currentBytes++;
        }
        return this;
    }

    public SipHash update(byte[] data) {
        return update(data, 0, data.length);
    }

    /** Feeds a little-endian 64-bit value, as ClickHouse's {@code hash.update(UInt64)} does. */
    public SipHash update(long v) {
        if (currentBytes == 0) {
            count += 8;
            word(v);
            return this;
        }
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return update(b, 0, 8);
    }

    /** Returns {low64, high64} of the 128-bit hash; the state is consumed. */
    public long[] get128() {
        long last = current | ((count & 0xFFL) << 56);
        word(last);
        v2 ^= 0xff;
        round();
        round();
        round();
        round();
        return new long[] {v0 ^ v1, v2 ^ v3};
    }

    /** The 64-bit form ({@code v0^v1^v2^v3}), ClickHouse's {@code sipHash64}. */
    public long get64() {
        long last = current | ((count & 0xFFL) << 56);
        word(last);
        v2 ^= 0xff;
        round();
        round();
        round();
        round();
        return v0 ^ v1 ^ v2 ^ v3;
    }

    /** Returns {low64, high64} of the reference SipHash-2-4-128 of a hash made by {@link #reference}; the state is consumed. */
    public long[] getReference128() {
        long last = current | ((count & 0xFFL) << 56);
        word(last);
        v2 ^= 0xee;
        for (int i = 0; i < 4; i++) {
            round();
        }
        long low = v0 ^ v1 ^ v2 ^ v3;
        v1 ^= 0xdd;
        for (int i = 0; i < 4; i++) {
            round();
        }
        return new long[] {low, v0 ^ v1 ^ v2 ^ v3};
    }
}
