package dev.chdedup.stub.types;

import java.io.IOException;

/**
 * BFloat16, the upper 16 bits of a Float32 (sign, 8 exponent bits, 7 mantissa bits), held as the {@code Float}
 * it stands for so that arithmetic and comparison work as for Float32. A value converted to it keeps the upper
 * half of its Float32 bits (ClickHouse truncates); RowBinary writes those two bytes little-endian.
 */
public final class BFloat16Type extends DataType {
    BFloat16Type() {
    }

    /** {@code f} rounded toward zero to the nearest BFloat16 (NaN stays NaN). */
    public static float truncate(float f) {
        if (Float.isNaN(f)) {
            return Float.NaN;
        }
        return Float.intBitsToFloat(Float.floatToRawIntBits(f) & 0xFFFF0000);
    }

    @Override
    public String name() {
        return "BFloat16";
    }

    @Override
    public Object defaultValue() {
        return 0.0f;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        DataTypes.FLOAT32.formatText(v, sb);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        return truncate((Float) DataTypes.FLOAT32.parseText(r, quoted));
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.writeLongLE(Float.floatToRawIntBits(((Number) v).floatValue()) >>> 16, 2);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return Float.intBitsToFloat((int) (in.readLongLE(2) & 0xFFFF) << 16);
    }

    @Override
    public int compare(Object a, Object b) {
        return Float.compare(((Number) a).floatValue(), ((Number) b).floatValue());
    }

    @Override
    public Object convert(Object v, DataType from) {
        return truncate((Float) DataTypes.FLOAT32.convert(v, from));
    }

    @Override
    public int byteSize(Object v) {
        return 2;
    }
}
