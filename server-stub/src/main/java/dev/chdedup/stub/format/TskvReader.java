package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Reads TSKV: one row per line of tab-separated {@code name=value} pairs in any order, names and values
 * TabSeparated-escaped ({@code \=} in names). Columns a line leaves out are {@link RowReader#DEFAULT}, an empty
 * line is a row of defaults, a bare {@code tskv} field is ignored, unknown names are skipped or rejected per
 * input_format_skip_unknown_fields.
 */
final class TskvReader extends TextRowReader {
    private final ByteInput in;
    private final List<Column> columns;
    private final FormatSettings s;
    private final Map<String, Integer> index;
    private final boolean[] seen;
    private final byte[] nullBytes;
    private boolean started;
    private long row;
    private int fStart;
    private int fEnd;
    private boolean fEscaped;

    TskvReader(InputStream is, List<Column> columns, FormatSettings s) {
        this.in = new ByteInput(is);
        this.columns = columns;
        this.s = s;
        this.index = TextFields.index(columns);
        this.seen = new boolean[columns.size()];
        this.nullBytes = s.tsvNullRepresentation.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    Object[] readRow() {
        if (!started) {
            started = true;
            in.skipBom();
        }
        if (in.atEnd()) {
            return null;
        }
        row++;
        Object[] out = new Object[columns.size()];
        Arrays.fill(out, DEFAULT);
        Arrays.fill(seen, false);
        while (true) {
            int term = scan(true);
            String name = ByteStrings.toText(fEscaped ? TextFields.unescape(in.buf, fStart, fEnd, false)
                : in.bytes(fStart, fEnd));
            if (term == '=') {
                in.pos++;
                term = scan(false);
                field(name, out);
            } else if (!name.isEmpty() && !name.equals("tskv")) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Found field without value while parsing TSKV format: "
                    + name + ": (at row " + row + ")");
            }
            if (term < 0) {
                return out;
            }
            in.pos++;
            if (term == '\n') {
                return out;
            }
        }
    }

    private void field(String name, Object[] out) {
        Integer t = index.get(name);
        if (t == null) {
            if (!s.skipUnknownFields) {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Unknown field found while parsing TSKV format: "
                    + name + ": (at row " + row + ")");
            }
            return;
        }
        if (seen[t]) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "Duplicate field found while parsing TSKV format: "
                + name + ": (at row " + row + ")");
        }
        seen[t] = true;
        DataType type = columns.get(t).type();
        try {
            out[t] = value(type);
        } catch (RuntimeException e) {
            throw TextFields.fieldError(e, columns.get(t), row);
        }
    }

    private Object value(DataType type) {
        if (fEnd - fStart == nullBytes.length && Arrays.equals(in.buf, fStart, fEnd, nullBytes, 0, nullBytes.length)) {
            if (type.isNullable()) {
                return null;
            }
            if (s.nullAsDefault) {
                return DEFAULT;
            }
        }
        if (fEnd == fStart && s.tsvEmptyAsDefault) {
            return DEFAULT;
        }
        boolean unescape = fEscaped && !TextFields.isComposite(type);
        String text = unescape ? TextFields.unescape(in.buf, fStart, fEnd) : in.bytes(fStart, fEnd);
        return TextFields.parse(type, text, s);
    }

    /** Scans a name (stopping at '=' too) or a value up to a tab or line feed; escapes skip the next byte. */
    private int scan(boolean name) {
        int start = in.pos;
        int i = start;
        boolean esc = false;
        int term;
        while (true) {
            if (i >= in.lim) {
                int sh = in.more(start);
                if (sh < 0) {
                    term = -1;
                    break;
                }
                start -= sh;
                i -= sh;
                continue;
            }
            byte c = in.buf[i];
            if (c == '\t' || c == '\n' || name && c == '=') {
                term = c;
                break;
            }
            if (c == '\\') {
                esc = true;
                if (i + 1 >= in.lim) {
                    int sh = in.more(start);
                    if (sh < 0) {
                        i++;
                        term = -1;
                        break;
                    }
                    start -= sh;
                    i -= sh;
                }
                i += 2;
                continue;
            }
            i++;
        }
        in.pos = i;
        fStart = start;
        fEnd = i;
        fEscaped = esc;
        return term;
    }
}
