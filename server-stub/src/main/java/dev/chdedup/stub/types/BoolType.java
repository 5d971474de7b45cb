package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;

/** Bool, held as {@code Boolean}; text {@code true}/{@code false}, one byte in RowBinary. */
public final class BoolType extends DataType {
    @Override
    public String name() {
        return "Bool";
    }

    @Override
    public Object defaultValue() {
        return Boolean.FALSE;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        sb.append(((Boolean) v) ? "true" : "false");
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        r.skipSpaces();
        boolean q = quoted && (r.peek() == '\'' || r.peek() == '"');
        String tok = q ? r.readQuoted() : quoted ? r.readBare() : r.readRest();
        return parse(tok);
    }

    private Boolean parse(String tok) {
        switch (tok.trim().toLowerCase()) {
            case "true": case "1": case "t": case "y": case "yes": case "on": case "enable": case "enabled":
                return Boolean.TRUE;
            case "false": case "0": case "f": case "n": case "no": case "off": case "disable": case "disabled":
                return Boolean.FALSE;
            default:
                throw new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse boolean value here: '" + tok + "'");
        }
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        out.write(((Boolean) v) ? 1 : 0);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        return in.readByte() != 0;
    }

    @Override
    public int compare(Object a, Object b) {
        return Boolean.compare((Boolean) a, (Boolean) b);
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v instanceof Boolean) {
            return v;
        }
        if (v instanceof String) {
            return parse((String) v);
        }
        return Values.toNumber(v, from).doubleValue() != 0;
    }

    @Override
    public int byteSize(Object v) {
        return 1;
    }
}
