package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.TupleType;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reads CSV, CSVWithNames and CSVWithNamesAndTypes: fields separated by format_csv_delimiter, quoted with
 * {@code "} (a doubled quote inside) or bare, lines ended by LF, CRLF or CR. An unquoted {@code \N} is NULL, an
 * empty unquoted field the column default (input_format_csv_empty_as_default); a Tuple column spans one field
 * per element, as ClickHouse writes it. A header maps fields to columns like TabSeparatedWithNames.
 */
final class CsvReader extends TextRowReader {
    private final ByteInput in;
    private final List<Column> columns;
    private final FormatSettings s;
    private final boolean withNames;
    private final boolean withTypes;
    private final char delim;
    private int[] map;
    private int[] missing;
    private boolean started;
    private long row;
    private boolean quoted;

    CsvReader(InputStream is, List<Column> columns, FormatSettings s, boolean withNames, boolean withTypes) {
        this.in = new ByteInput(is);
        this.columns = columns;
        this.s = s;
        this.withNames = withNames;
        this.withTypes = withTypes;
        this.delim = s.csvDelimiter;
    }

    private void start() {
        started = true;
        in.skipBom();
        map = TextFields.identity(columns.size());
        if (withNames && !in.atEnd()) {
            List<String> names = readLine();
            if (s.withNamesUseHeader) {
                map = TextFields.mapHeader(names, columns, s, "CSV");
            }
            if (withTypes && !in.atEnd()) {
                List<String> typeNames = readLine();
                if (s.withTypesUseHeader) {
                    TextFields.checkTypes(typeNames, map, columns, "CSV");
                }
            }
        }
        missing = TextFields.missing(map, columns.size());
    }

    private List<String> readLine() {
        List<String> out = new ArrayList<>();
        while (true) {
            out.add(ByteStrings.toText(readField()));
            if (!in.tryByte(delim)) {
                endOfLine();
                return out;
            }
        }
    }

    @Override
    Object[] readRow() {
        if (!started) {
            start();
        }
        if (in.atEnd() || s.csvSkipTrailingEmptyLines && onlyEmptyLinesLeft()) {
            return null;
        }
        row++;
        Object[] out = TextFields.newRow(columns.size(), missing);
        for (int i = 0; i < map.length; i++) {
            if (i > 0) {
                delimiter(i);
            }
            int t = map[i];
            if (t < 0) {
                readField();
                continue;
            }
            try {
                out[t] = value(columns.get(t).type(), true);
            } catch (RuntimeException e) {
                throw e instanceof ChException && ((ChException) e).getMessage().endsWith("(at row " + row + ")")
                    ? e : TextFields.fieldError(e, columns.get(t), row);
            }
        }
        int c = in.peek();
        if (c == delim) {
            throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected "
                + "line end before: " + in.quoteExcerpt() + ": It's like your file has more columns than expected"
                + ": (at row " + row + ")");
        }
        endOfLine();
        return out;
    }

    private void delimiter(int before) {
        int c = in.peek();
        if (c == delim) {
            in.pos++;
            return;
        }
        throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected "
            + ByteInput.show(delim) + " before: " + in.quoteExcerpt() + ": " + (c < 0 ? "End of data" : "Line end")
            + " found where delimiter is expected, before field " + (before + 1) + ". It's like your file has less"
            + " columns than expected: (at row " + row + ")");
    }

    private void endOfLine() {
        int c = in.peek();
        if (c == '\r') {
            in.pos++;
            in.tryByte('\n');
        } else if (c == '\n') {
            in.pos++;
        } else if (c >= 0) {
            throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected line"
                + " end before: " + in.quoteExcerpt() + (row > 0 ? ": (at row " + row + ")" : ""));
        }
    }

    /** Reads one column's value: a Tuple spans one field per element unless written as one "(...)" field. */
    private Object value(DataType t, boolean top) {
        DataType b = t.unwrap();
        if (b instanceof TupleType) {
            TupleType tt = (TupleType) b;
            String first = readField();
            if (first.startsWith("(")) {
                return b.parseText(first);
            }
            List<Object> els = new ArrayList<>(tt.elements.size());
            els.add(fieldValue(tt.elements.get(0), first, false));
            for (int k = 1; k < tt.elements.size(); k++) {
                delimiter(k);
                els.add(value(tt.elements.get(k), false));
            }
            return Collections.unmodifiableList(els);
        }
        return fieldValue(t, readField(), top);
    }

    private Object fieldValue(DataType t, String text, boolean top) {
        if (!quoted) {
            boolean nullLiteral = text.equals(s.csvNullRepresentation)
                || s.csvUnquotedNullLiteralAsNull && text.equals("NULL");
            if (nullLiteral && t.isNullable()) {
                return null;
            }
            if (nullLiteral && s.nullAsDefault) {
                return top ? DEFAULT : t.defaultValue();
            }
            if (text.isEmpty() && s.csvEmptyAsDefault) {
                return top ? DEFAULT : t.defaultValue();
            }
        }
        return TextFields.parse(t, text, s);
    }

    /** Reads one field's text, unquoted; sets {@link #quoted}. Leaves the delimiter or line end unread. */
    private String readField() {
        boolean trim = s.csvTrimWhitespaces;
        if (trim) {
            skipBlanks();
        }
        int c = in.peek();
        quoted = c == '"' && s.csvAllowDoubleQuotes || c == '\'' && s.csvAllowSingleQuotes;
        if (quoted) {
            in.pos++;
            String v = readQuoted((byte) c);
            if (trim) {
                skipBlanks();
            }
            return v;
        }
        int start = in.pos;
        int i = start;
        while (true) {
            if (i >= in.lim) {
                int sh = in.more(start);
                if (sh < 0) {
                    break;
                }
                start -= sh;
                i -= sh;
                continue;
            }
            byte b = in.buf[i];
            if (b == delim || b == '\n' || b == '\r') {
                break;
            }
            i++;
        }
        in.pos = i;
        int end = i;
        while (trim && end > start && (in.buf[end - 1] == ' ' || in.buf[end - 1] == '\t') && in.buf[end - 1] != delim) {
            end--;
        }
        return in.bytes(start, end);
    }

    private String readQuoted(byte q) {
        int start = in.pos;
        int i = start;
        boolean doubled = false;
        while (true) {
            if (i >= in.lim) {
                int sh = in.more(start);
                if (sh < 0) {
                    throw new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                        "Cannot parse input: expected closing quote " + ByteInput.show(q) + " before: <EOF>"
                            + (row > 0 ? ": (at row " + row + ")" : ""));
                }
                start -= sh;
                i -= sh;
                continue;
            }
            if (in.buf[i] == q) {
                if (i + 1 >= in.lim) {
                    int sh = in.more(start);
                    if (sh < 0) {
                        break;
                    }
                    start -= sh;
                    i -= sh;
                }
                if (in.buf[i + 1] == q) {
                    doubled = true;
                    i += 2;
                    continue;
                }
                break;
            }
            i++;
        }
        in.pos = i + 1;
        if (!doubled) {
            return in.bytes(start, i);
        }
        byte[] out = new byte[i - start];
        int k = 0;
        for (int j = start; j < i; j++) {
            out[k++] = in.buf[j];
            if (in.buf[j] == q) {
                j++;
            }
        }
        return ByteStrings.of(out, 0, k);
    }

    private void skipBlanks() {
        while (true) {
            int c = in.peek();
            if ((c == ' ' || c == '\t') && c != delim) {
                in.pos++;
            } else {
                return;
            }
        }
    }

    private boolean onlyEmptyLinesLeft() {
        for (int k = 0; ; k++) {
            int c = in.peekAt(k);
            if (c < 0) {
                return true;
            }
            if (c != '\n' && c != '\r') {
                return false;
            }
        }
    }
}
