package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnString;
import dev.chdedup.stub.data.ColumnVector;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the TabSeparated family (TabSeparated, TabSeparatedRaw and their WithNames / WithNamesAndTypes forms):
 * one row per line, fields split on tabs, values unescaped (except in Raw) and parsed by their column types,
 * {@code \N} as NULL. A header line maps input fields onto the target columns; a types line is checked. Fields
 * are cut straight out of the input buffer, so a row costs its array and values only.
 */
final class TsvReader extends TextRowReader {
    private final ByteInput in;
    private final List<Column> columns;
    private final FormatSettings s;
    private final boolean raw;
    private final boolean withNames;
    private final boolean withTypes;
    private final byte[] nullBytes;
    private int[] map;
    private DataType[] types;
    private DataType[] bases;
    private boolean[] composite;
    /** A DateTime column whose values are in UTC: its canonical text is its value without a zone's rules. */
    private boolean[] utcZone;
    private int[] missing;
    private boolean started;
    private long row;
    private int fStart;
    private int fEnd;
    private boolean fEscaped;
    /** How {@link #readFast} reads each input field: {@link #SLOW} leaves it to {@link #scanField} and the type. */
    private byte[] fast;
    private final DateTimeType.CanonicalParser dateTimes = new DateTimeType.CanonicalParser();
    private static final byte SLOW = 0;
    private static final byte INT = 1;
    private static final byte DATE_TIME = 2;
    private static final byte STRING = 3;

    TsvReader(InputStream is, List<Column> columns, FormatSettings s, boolean raw, boolean withNames, boolean withTypes) {
        this.in = new ByteInput(is);
        this.columns = columns;
        this.s = s;
        this.raw = raw;
        this.withNames = withNames;
        this.withTypes = withTypes;
        this.nullBytes = s.tsvNullRepresentation.getBytes(StandardCharsets.UTF_8);
    }

    private void start() {
        started = true;
        in.skipBom();
        map = TextFields.identity(columns.size());
        if (withNames && !in.atEnd()) {
            List<String> names = readHeaderLine();
            if (s.withNamesUseHeader) {
                map = TextFields.mapHeader(names, columns, s, "TSV");
            }
            if (withTypes && !in.atEnd()) {
                List<String> typeNames = readHeaderLine();
                if (s.withTypesUseHeader) {
                    TextFields.checkTypes(typeNames, map, columns, "TSV");
                }
            }
        }
        int n = map.length;
        types = new DataType[n];
        bases = new DataType[n];
        composite = new boolean[n];
        for (int i = 0; i < n; i++) {
            if (map[i] >= 0) {
                types[i] = columns.get(map[i]).type();
                bases[i] = types[i].unwrap();
                composite[i] = TextFields.isComposite(types[i]);
            }
        }
        missing = TextFields.missing(map, columns.size());
        fast = new byte[n];
        for (int i = 0; i < n; i++) {
            fast[i] = map[i] < 0 || types[i] != bases[i] ? SLOW
                : bases[i] instanceof IntType ? INT
                : bases[i] instanceof DateTimeType ? DATE_TIME
                : bases[i] instanceof StringType ? STRING : SLOW;
        }
        utcZone = new boolean[n];
        for (int i = 0; i < n; i++) {
            utcZone[i] = bases[i] instanceof DateTimeType && ((DateTimeType) bases[i]).isUtc(); // the session's zone is the query's
        }
    }

    private List<String> readHeaderLine() {
        List<String> out = new ArrayList<>();
        while (true) {
            int term = scanField();
            out.add(ByteStrings.toText(fEscaped && !raw ? TextFields.unescape(in.buf, fStart, fEnd)
                : in.bytes(fStart, fEnd)));
            if (term < 0) {
                return out;
            }
            in.pos++;
            if (term == '\n') {
                return out;
            }
        }
    }

    @Override
    Object[] readRow() {
        if (!started) {
            start();
        }
        if (in.atEnd() || s.tsvSkipTrailingEmptyLines && onlyEmptyLinesLeft()) {
            return null;
        }
        row++;
        Object[] out = TextFields.newRow(columns.size(), missing);
        readFields(out, null);
        return out;
    }

    /** Reads one line's fields and their terminators, each field that maps to a column into {@code rowOut} or {@code columnsOut}. */
    private void readFields(Object[] rowOut, IColumn.Mutable[] columnsOut) {
        int fields = map.length;
        for (int i = 0; i < fields; i++) {
            int t = map[i];
            if (columnsOut != null && fast[i] != SLOW && readFast(i, columnsOut[t], i < fields - 1 ? '\t' : s.tsvCrlfInput ? 0 : '\n')) {
                continue;
            }
            int term = scanField();
            if (t >= 0) {
                try {
                    if (columnsOut != null) {
                        convertInto(i, columnsOut[t]);
                    } else {
                        rowOut[t] = convert(i);
                    }
                } catch (RuntimeException e) {
                    throw TextFields.fieldError(e, columns.get(t), row);
                }
            }
            if (i < fields - 1) {
                if (term != '\t') {
                    throw columnCount(i + 1, term);
                }
                in.pos++;
            } else if (term == '\t') {
                throw columnCount(-1, term);
            } else if (term == '\n') {
                in.pos++;
            }
        }
    }

    @Override
    public boolean readsColumns() throws IOException {
        try {
            if (!started) {
                start();
            }
            return missing.length == 0;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * {@link #next} into columns: integers, DateTime in its canonical form and unescaped strings go from the input
     * buffer into the column without a value object; a value left out (an empty field or {@code \N} read as the
     * default) is the type's default, as the insert completes it for a table without DEFAULT expressions.
     */
    @Override
    public boolean readInto(IColumn.Mutable[] out) throws IOException {
        try {
            return readRowInto(out);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private boolean readRowInto(IColumn.Mutable[] out) {
        if (!started) {
            start();
        }
        if (in.atEnd() || s.tsvSkipTrailingEmptyLines && onlyEmptyLinesLeft()) {
            return false;
        }
        row++;
        readFields(null, out);
        return true;
    }

    /**
     * Reads field {@code i} straight from the buffer into {@code col} when it is in its plain form and ends with
     * {@code term} in the buffer (0: none, for the last field of lines that may end in CR LF): an integer of up to 18 digits in range, a canonical DateTime, a non-empty string
     * without escapes. Otherwise (and at a buffer boundary) leaves the input where it was and returns false, for
     * {@link #scanField} and the type's parser to read the field, and to report what is wrong with it.
     */
    private boolean readFast(int i, IColumn.Mutable col, char term) {
        byte[] b = in.buf;
        int p = in.pos;
        int lim = in.lim;
        int q;
        byte kind = fast[i];
        if (kind == STRING ? !(col instanceof ColumnString.Mutable) : !(col instanceof ColumnVector.Mutable)) {
            return false;
        }
        switch (kind) {
            case INT -> {
                boolean neg = p < lim && b[p] == '-';
                int st = neg ? p + 1 : p;
                long x = 0;
                q = st;
                long w = st + 8 <= lim ? ByteWords.word(b, st) : 0;
                int n = st + 8 <= lim ? ByteWords.leadingDigits(w) : 8;
                if (n < 8) {
                    // the whole number in the first eight bytes: read at once
                    if (n > 0) {
                        x = ByteWords.digits(w, n);
                    }
                    q = st + n;
                } else {
                    int stop = Math.min(lim, st + 19);
                    for (; q < stop; q++) {
                        int d = b[q] - '0';
                        if (d < 0 || d > 9) {
                            break;
                        }
                        x = x * 10 + d;
                    }
                }
                if (q == st || q >= lim || b[q] != term || q - st > 18) {
                    return false;
                }
                IntType t = (IntType) bases[i];
                if (neg) {
                    x = -x;
                }
                if (!t.holdsDecimal(x)) {
                    return false;
                }
                ((ColumnVector.Mutable) col).add(x);
            }
            case DATE_TIME -> {
                q = p + 19;
                if (q >= lim || b[q] != term) {
                    return false;
                }
                long v = dateTimes.parse(b, p);
                if (v == Long.MIN_VALUE) {
                    return false;
                }
                ((ColumnVector.Mutable) col).add(utcZone[i] ? v : ((DateTimeType) bases[i]).toEpoch(v));
            }
            case STRING -> {
                q = skipPlain(b, p, lim);
                if (q == p || q >= lim || b[q] != term || isNull(b, p, q)) {
                    return false;
                }
                ((ColumnString.Mutable) col).add(b, p, q - p);
            }
            default -> {
                return false;
            }
        }
        in.pos = q + 1;
        return true;
    }

    private void convertInto(int i, IColumn.Mutable col) {
        byte[] b = in.buf;
        if (!fEscaped && fEnd > fStart) {
            DataType base = bases[i];
            if (col instanceof ColumnString.Mutable && base == types[i] && !isNull(b)) {
                ((ColumnString.Mutable) col).add(b, fStart, fEnd - fStart);
                return;
            }
            if (col instanceof ColumnVector.Mutable && base == types[i]) {
                if (base instanceof IntType) {
                    Long v = fastInt((IntType) base, b, fStart, fEnd);
                    if (v != null) {
                        ((ColumnVector.Mutable) col).add(v);
                        return;
                    }
                } else if (base instanceof DateTimeType) {
                    long v = DateTimeType.parseCanonicalLocal(b, fStart, fEnd - fStart);
                    if (v != Long.MIN_VALUE) {
                        ((ColumnVector.Mutable) col).add(utcZone[i] ? v : ((DateTimeType) base).toEpoch(v));
                        return;
                    }
                }
            }
        }
        Object v = convert(i);
        if (v == DEFAULT || v == null && !types[i].isNullable()) {
            v = types[i].defaultValue();
        }
        col.append(v);
    }

    /**
     * Finds the end of the field at the input position: the next tab or line feed not escaped by a backslash
     * (any byte in Raw mode), keeping the field in the buffer. Returns the terminator, or -1 at the end.
     */
    /** Tab, line feed and backslash: the bytes {@link #scanField} stops at. */
    private static final boolean[] SPECIAL = new boolean[256];

    static {
        SPECIAL['\t'] = true;
        SPECIAL['\n'] = true;
        SPECIAL['\\'] = true;
    }

    private static final long TABS = ByteWords.repeat('\t');
    private static final long LINE_FEEDS = ByteWords.repeat('\n');
    private static final long BACKSLASHES = ByteWords.repeat('\\');

    /** The first position from {@code i} before {@code lim} that holds a tab, a line feed or a backslash, or {@code lim}. */
    static int skipPlain(byte[] b, int i, int lim) {
        for (; i + 8 <= lim; i += 8) {
            long w = ByteWords.word(b, i);
            long m = ByteWords.equal(w, TABS) | ByteWords.equal(w, LINE_FEEDS) | ByteWords.equal(w, BACKSLASHES);
            if (m != 0) {
                return i + (Long.numberOfTrailingZeros(m) >>> 3); // the lowest flag of each is exact, so of all three
            }
        }
        while (i < lim && !SPECIAL[b[i] & 0xFF]) {
            i++;
        }
        return i;
    }

    private int scanField() {
        int start = in.pos;
        int i = start;
        boolean esc = false;
        int term;
        byte[] buf = in.buf;
        int lim = in.lim;
        while (true) {
            // the bytes that end a field or escape one are rare: skip the others eight at a time
            i = skipPlain(buf, i, lim);
            if (i >= lim) {
                int sh = in.more(start);
                buf = in.buf;
                lim = in.lim;
                if (sh < 0) {
                    term = -1;
                    break;
                }
                start -= sh;
                i -= sh;
                continue;
            }
            byte c = buf[i];
            if (c == '\t' || c == '\n') {
                term = c;
                break;
            }
            if (c == '\\' && !raw) {
                esc = true;
                if (i + 1 >= in.lim) {
                    int sh = in.more(start);
                    buf = in.buf;
                    lim = in.lim;
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
        if (term == '\n' && s.tsvCrlfInput && fEnd > fStart && in.buf[fEnd - 1] == '\r') {
            fEnd--;
        }
        return term;
    }

    private Object convert(int i) {
        byte[] b = in.buf;
        if (isNull(b)) {
            if (types[i].isNullable()) {
                return null;
            }
            if (s.nullAsDefault) {
                return DEFAULT;
            }
        }
        if (fEnd == fStart && s.tsvEmptyAsDefault) {
            return DEFAULT;
        }
        DataType base = bases[i];
        if (!fEscaped && base instanceof IntType) {
            Long v = fastInt((IntType) base, b, fStart, fEnd);
            if (v != null) {
                return v;
            }
        }
        String text = fEscaped && !raw && !composite[i] ? TextFields.unescape(b, fStart, fEnd) : in.bytes(fStart, fEnd);
        return TextFields.parse(types[i], text, s);
    }

    private boolean isNull(byte[] b) {
        return isNull(b, fStart, fEnd);
    }

    private boolean isNull(byte[] b, int from, int to) {
        return to - from == nullBytes.length && Arrays.equals(b, from, to, nullBytes, 0, nullBytes.length);
    }

    /** Plain decimal integers of up to 18 digits, range-checked; null leaves the rest to the type's parser. */
    static Long fastInt(IntType t, byte[] b, int st, int en) {
        boolean neg = st < en && b[st] == '-';
        int i = neg ? st + 1 : st;
        if (i == en || en - i > 18) {
            return null;
        }
        long x = 0;
        for (; i < en; i++) {
            int d = b[i] - '0';
            if (d < 0 || d > 9) {
                return null;
            }
            x = x * 10 + d;
        }
        if (neg) {
            x = -x;
        }
        return t.holdsDecimal(x) ? x : null;
    }

    private boolean onlyEmptyLinesLeft() {
        int k = 0;
        while (true) {
            int c = in.peekAt(k);
            if (c < 0) {
                return true;
            }
            if (c != '\n' && c != '\r') {
                return false;
            }
            k++;
        }
    }

    /** A row with too few ({@code fewerAt} the first missing field) or too many (-1) fields. */
    private ChException columnCount(int fewerAt, int term) {
        String msg;
        if (fewerAt >= 0) {
            int t = map[fewerAt];
            String col = t >= 0 ? "column " + columns.get(t).name() + " of type " + columns.get(t).type().name()
                : "field " + (fewerAt + 1);
            msg = "Cannot parse input: expected '\\t' before: " + in.quoteExcerpt() + ": "
                + (term < 0 ? "End of data" : "Line feed") + " found where tab is expected, before " + col
                + ". It's like your file has less columns than expected";
        } else {
            msg = "Cannot parse input: expected '\\n' before: " + in.quoteExcerpt()
                + ": Tab found where line feed is expected. It's like your file has more columns than expected";
        }
        return new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, msg + ": (at row " + row + ")");
    }
}
