package dev.chdedup.stub.types;

import java.io.IOException;
import java.math.BigInteger;

/** Int128, UInt128, Int256 and UInt256, held as {@code BigInteger}. */
public final class BigIntType extends DataType {
    public final int bits;
    public final boolean signed;
    private final String name;
    private final BigInteger modulus;

    BigIntType(int bits, boolean signed) {
        this.bits = bits;
        this.signed = signed;
        this.name = (signed ? "Int" : "UInt") + bits;
        this.modulus = BigInteger.ONE.shiftLeft(bits);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Object defaultValue() {
        return BigInteger.ZERO;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append(v);
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.skipSpaces();
        boolean q = quoted && (r.peek() == '\'' || r.peek() == '"');
        String tok = q ? r.readQuoted() : quoted ? r.readBare() : r.readRest();
        try {
            BigInteger b = new BigInteger(tok.startsWith("+") ? tok.substring(1) : tok);
            if (signed ? b.bitLength() >= bits : b.signum() < 0 || b.bitLength() > bits) {
                throw TextReader.cannotParse(this, tok);
            }
            return b;
        } catch (NumberFormatException e) {
            throw TextReader.cannotParse(this, tok);
        }
    }

    BigInteger wrap(BigInteger b) {
        BigInteger m = b.mod(modulus);
        if (signed && m.testBit(bits - 1)) {
            m = m.subtract(modulus);
        }
        return m;
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        BigInteger b = (BigInteger) v;
        for (int i = 0; i < bits / 64; i++) {
            out.writeLongLE(b.shiftRight(64 * i).longValue(), 8);
        }
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        BigInteger b = BigInteger.ZERO;
        for (int i = 0; i < bits / 64; i++) {
            BigInteger word = new BigInteger(Long.toUnsignedString(in.readLongLE(8)));
            b = b.or(word.shiftLeft(64 * i));
        }
        return wrap(b);
    }

    @Override
    public int compare(Object a, Object b) {
        return ((BigInteger) a).compareTo((BigInteger) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof String) {
            return parseText((String) v);
        }
        return wrap(Values.toBigInteger(Values.toNumber(v, from)));
    }

    @Override
    public int byteSize(Object v) {
        return bits / 8;
    }
}
