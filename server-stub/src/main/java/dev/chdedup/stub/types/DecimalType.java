package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/** Decimal(P, S) and Decimal32/64/128/256(S), held as {@code BigDecimal} with scale S. */
public final class DecimalType extends DataType {
    public final int precision;
    public final int scale;
    private final int bytes;

    DecimalType(int precision, int scale) {
        if (precision < 1 || precision > 76 || scale < 0 || scale > precision) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND,
                "Decimal precision " + precision + " or scale " + scale + " is out of bounds");
        }
        this.precision = precision;
        this.scale = scale;
        this.bytes = precision <= 9 ? 4 : precision <= 18 ? 8 : precision <= 38 ? 16 : 32;
    }

    @Override
    public String name() {
        return "Decimal(" + precision + ", " + scale + ")";
    }

    @Override
    public Object defaultValue() {
        return BigDecimal.ZERO.setScale(scale);
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        // ClickHouse prints decimals without trailing zeros (output_format_decimal_trailing_zeros = 0): 1.5, 0
        BigDecimal d = (BigDecimal) v;
        sb.append(d.signum() == 0 ? "0" : d.stripTrailingZeros().toPlainString());
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.skipSpaces();
        boolean q = quoted && (r.peek() == '\'' || r.peek() == '"');
        String tok = q ? r.readQuoted() : quoted ? r.readBare() : r.readRest();
        try {
            return fit(new BigDecimal(tok.trim()), tok);
        } catch (NumberFormatException e) {
            throw TextReader.cannotParse(this, tok);
        }
    }

    private BigDecimal fit(BigDecimal d, String shown) {
        BigDecimal s = d.setScale(scale, RoundingMode.DOWN);
        if (s.precision() - s.scale() > precision - scale && s.signum() != 0) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND,
                "Decimal value " + shown + " is out of bounds for " + name());
        }
        return s;
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        if (bytes <= 8) {
            // scaleByPowerOfTen keeps a compact BigDecimal compact; unscaledValue() builds a BigInteger (10x slower)
            out.writeLongLE(((BigDecimal) v).scaleByPowerOfTen(scale).longValue(), bytes);
            return;
        }
        BigInteger u = ((BigDecimal) v).setScale(scale, RoundingMode.DOWN).unscaledValue();
        for (int i = 0; i < bytes / 8; i++) {
            out.writeLongLE(u.shiftRight(64 * i).longValue(), 8);
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        if (bytes == 4) {
            return BigDecimal.valueOf((int) in.readLongLE(4), scale);
        }
        if (bytes == 8) {
            return BigDecimal.valueOf(in.readLongLE(8), scale);
        }
        BigInteger b = BigInteger.ZERO;
        for (int i = 0; i < bytes / 8; i++) {
            b = b.or(new BigInteger(Long.toUnsignedString(in.readLongLE(8))).shiftLeft(64 * i));
        }
        if (b.testBit(bytes * 8 - 1)) {
            b = b.subtract(BigInteger.ONE.shiftLeft(bytes * 8));
        }
        return new BigDecimal(b, scale);
    }

    @Override
    public int compare(Object a, Object b) {
        return ((BigDecimal) a).compareTo((BigDecimal) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parseText((String) v);
        }
        Number n = Values.toNumber(v, from);
        BigDecimal s = Values.toBigDecimal(n).setScale(scale, RoundingMode.DOWN);
        // a number converts while its scaled value fits the native integer (Int32 for Decimal(9, S)), beyond the
        // precision; text is held to the precision (parseText)
        if (s.unscaledValue().bitLength() >= bytes * 8) {
            throw new ChException(ErrorCode.DECIMAL_OVERFLOW, n instanceof Double || n instanceof Float
                ? "Decimal convert overflow. Float is out of Decimal range"
                : "Decimal convert overflow: " + n + " is not in range of " + name());
        }
        return s;
    }

    @Override
    public int byteSize(Object v) {
        return bytes;
    }
}
