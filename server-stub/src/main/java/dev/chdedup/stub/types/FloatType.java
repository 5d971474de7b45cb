package dev.chdedup.stub.types;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

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
        appendText(v, sb);
    }

    /**
     * A float as ClickHouse writes it: its shortest digits (Java's {@code toString}), in fixed notation when the
     * decimal exponent is from -6 to 20 ({@code 100000000000000000000}, {@code 0.000001}) and in scientific notation
     * otherwise, without a plus sign ({@code 1e21}, {@code 1.5e-7}); {@code nan}, {@code inf}, {@code -inf}, {@code -0}.
     */
    public static void appendText(Object v, StringBuilder sb) {
        double d = ((Number) v).doubleValue();
        if (Double.isNaN(d)) {
            sb.append("nan");
            return;
        }
        if (Double.isInfinite(d)) {
            sb.append(d > 0 ? "inf" : "-inf");
            return;
        }
        if (d == 0) {
            sb.append(1 / d < 0 ? "-0" : "0");
            return;
        }
        String s = v instanceof Float ? Float.toString((Float) v) : Double.toString(d);
        int at = 0;
        if (s.charAt(0) == '-') {
            sb.append('-');
            at = 1;
        }
        // s is [-]I.F or [-]I.FE[-]X: gather the significant digits and the position of the decimal point
        int e = s.indexOf('E');
        int end = e < 0 ? s.length() : e;
        int dot = s.indexOf('.', at);
        StringBuilder digits = new StringBuilder(20);
        digits.append(s, at, dot).append(s, dot + 1, end);
        int point = dot - at + (e < 0 ? 0 : Integer.parseInt(s.substring(e + 1)));
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
        }
        digits.delete(0, lead);
        point -= lead;
        int last = digits.length();
        while (last > 1 && digits.charAt(last - 1) == '0') {
            last--;
        }
        digits.setLength(last);
        if (digits.length() >= (v instanceof Float ? 8 : 16) || Math.abs(d) < (v instanceof Float ? Float.MIN_NORMAL : Double.MIN_NORMAL)) {
            // Java 17's toString can give a digit more than the shortest form that reads back (2^128 is
            // 3.4028236692093846E38 for 3.402823669209385e38, and subnormals, 4.9E-324 for 5e-324): try the closest shorter forms
            BigDecimal exact = v instanceof Float ? new BigDecimal(((Float) v).floatValue()) : new BigDecimal(d);
            String shorter = null;
            for (int p = digits.length() - 1; p > 0; p--) {
                BigDecimal r = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
                boolean same = v instanceof Float ? r.floatValue() == ((Float) v).floatValue() : r.doubleValue() == d;
                if (!same) {
                    break;
                }
                shorter = r.abs().unscaledValue().toString();
                point = shorter.length() - r.scale();
            }
            if (shorter != null) {
                int end2 = shorter.length();
                while (end2 > 1 && shorter.charAt(end2 - 1) == '0') {
                    end2--;
                }
                digits.setLength(0);
                digits.append(shorter, 0, end2);
            }
        }
        int exponent = point - 1;
        if (exponent >= -6 && exponent < 21) {
            if (point <= 0) {
                sb.append("0.");
                sb.append("0".repeat(-point)).append(digits);
            } else if (point >= digits.length()) {
                sb.append(digits).append("0".repeat(point - digits.length()));
            } else {
                sb.append(digits, 0, point).append('.').append(digits, point, digits.length());
            }
        } else {
            sb.append(digits.charAt(0));
            if (digits.length() > 1) {
                sb.append('.').append(digits, 1, digits.length());
            }
            sb.append('e').append(exponent);
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
