package dev.chdedup.stub.types;

import java.io.IOException;

/** Float32 (held as {@code Float}) and Float64 (held as {@code Double}). */
public final class FloatType extends DataType {
    public final boolean is64;

    FloatType(boolean is64) {
        this.is64 = is64;
    }

    @Override
    public String name() {
        return is64 ? "Float64" : "Float32";
    }

    @Override
    public Object defaultValue() {
        return is64 ? (Object) 0.0d : (Object) 0.0f;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        double d = ((Number) v).doubleValue();
        if (Double.isNaN(d)) {
            sb.append("nan");
        } else if (Double.isInfinite(d)) {
            sb.append(d > 0 ? "inf" : "-inf");
        } else if (d == Math.rint(d) && Math.abs(d) < (v instanceof Float ? 1e15 : 9007199254740992.0)) {
            // ClickHouse prints integral Float64 values below 2^53 as integers (itoa), e.g. 1700000000000000
            sb.append((long) d);
            if (d == 0 && 1 / d < 0) {
                sb.setLength(sb.length() - 1);
                sb.append("-0");
            }
        } else {
            String s = v instanceof Float ? Float.toString((Float) v) : Double.toString(d);
            int e = s.indexOf('E');
            if (e >= 0) {
                String mant = s.substring(0, e);
                if (mant.endsWith(".0")) {
                    mant = mant.substring(0, mant.length() - 2);
                }
                String exp = s.substring(e + 1);
                sb.append(mant).append('e').append(exp.startsWith("-") ? exp : "+" + exp);
            } else {
                sb.append(s);
            }
        }
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        String tok = r.readScalar(quoted);
        try {
            double d = Values.parseDouble(tok);
            return is64 ? (Object) d : (Object) (float) d;
        } catch (NumberFormatException e) {
            throw TextReader.cannotParse(this, tok);
        }
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        if (is64) {
            out.writeLongLE(Double.doubleToRawLongBits(((Number) v).doubleValue()), 8);
        } else {
            out.writeLongLE(Float.floatToRawIntBits(((Number) v).floatValue()), 4);
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        if (is64) {
            return Double.longBitsToDouble(in.readLongLE(8));
        }
        return Float.intBitsToFloat((int) in.readLongLE(4));
    }

    @Override
    public int compare(Object a, Object b) {
        return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parseText((String) v);
        }
        double d = Values.toNumber(v, from).doubleValue();
        return is64 ? (Object) d : (Object) (float) d;
    }

    @Override
    public int byteSize(Object v) {
        return is64 ? 8 : 4;
    }
}
