package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.TupleType;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Helpers shared by the text input formats: turning one field's text into a value of a column type (with
 * ClickHouse's leniencies such as an empty integer field reading as 0), mapping a *WithNames header onto the
 * target columns, checking a *WithNamesAndTypes types line, and decorating parse errors with the column and
 * row they happened at.
 */
final class TextFields {
    private TextFields() {
    }

    /** Array, Map and Tuple: their text form is written and read as a whole, without field escaping. */
    static boolean isComposite(DataType t) {
        DataType b = t.unwrap();
        return b instanceof ArrayType || b instanceof MapType || b instanceof TupleType;
    }

    /** Parses the whole of {@code text} (already unescaped) as a value of {@code t}, which is not NULL here. */
    static Object parse(DataType t, String text, FormatSettings s) {
        DataType b = t.unwrap();
        if (b instanceof StringType && ((StringType) b).fixedLength == 0) {
            return text;
        }
        if (text.isEmpty() && (b instanceof IntType || b instanceof BigIntType)) {
            return b.defaultValue();
        }
        if (b instanceof IntType) {
            return ((IntType) b).parse(text);
        }
        if (s.bestEffortDateTime() && (b instanceof DateTimeType || b instanceof DateTime64Type)) {
            return BestEffortDateTime.parse(b, text);
        }
        return b.parseText(text);
    }

    /** Wraps a failure to read a value with the column and row, as ClickHouse's "(at row N)" messages do. */
    static ChException fieldError(RuntimeException e, Column c, long row) {
        ChException ce = asCh(e);
        String msg = ce.getMessage() + ": (while reading column " + c.name() + " of type " + c.type().name()
            + "): (at row " + row + ")";
        return new ChException(ce.code(), msg, e);
    }

    /** Adds "(at row N)" to an error that already names its cause. */
    static ChException atRow(RuntimeException e, long row) {
        ChException ce = asCh(e);
        if (ce.getMessage().endsWith("(at row " + row + ")")) {
            return ce;
        }
        return new ChException(ce.code(), ce.getMessage() + ": (at row " + row + ")", e);
    }

    /** The error as a ChException; a failed read of the input stream is passed on as it is. */
    static ChException asCh(RuntimeException e) {
        if (e instanceof java.io.UncheckedIOException) {
            throw e;
        }
        if (e instanceof ChException) {
            return (ChException) e;
        }
        // the message reaches the client: the value's problem, never a Java class name
        return new ChException(ErrorCode.CANNOT_PARSE_TEXT, "Cannot parse input: " + (e.getMessage() == null ? "malformed value" : e.getMessage()), e);
    }

    /** The column names to positions of {@code columns}. */
    static Map<String, Integer> index(List<Column> columns) {
        Map<String, Integer> m = new HashMap<>(columns.size() * 2);
        for (int i = 0; i < columns.size(); i++) {
            m.putIfAbsent(columns.get(i).name(), i);
        }
        return m;
    }

    /**
     * Maps header names to target column positions (-1: a column the table lacks, skipped when
     * input_format_skip_unknown_fields allows it). {@code what} names the format in messages.
     */
    static int[] mapHeader(List<String> names, List<Column> columns, FormatSettings s, String what) {
        Map<String, Integer> index = index(columns);
        boolean[] used = new boolean[columns.size()];
        int[] map = new int[names.size()];
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            Integer t = index.get(n);
            if (t == null) {
                if (!s.skipUnknownFields) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Unknown field found in " + what + " header: '" + n
                        + "' at position " + i + "\nSet the 'input_format_skip_unknown_fields' parameter explicitly"
                        + " to ignore and proceed");
                }
                map[i] = -1;
                continue;
            }
            if (used[t]) {
                throw new ChException(ErrorCode.INCORRECT_DATA,
                    "Duplicate field found while parsing " + what + " header: " + n);
            }
            used[t] = true;
            map[i] = t;
        }
        return map;
    }

    /** Positions 0..n-1: fields map to columns in order. */
    static int[] identity(int n) {
        int[] m = new int[n];
        for (int i = 0; i < n; i++) {
            m[i] = i;
        }
        return m;
    }

    /** The target columns no input field maps to: they read as {@link RowReader#DEFAULT}. */
    static int[] missing(int[] map, int columns) {
        boolean[] seen = new boolean[columns];
        int n = columns;
        for (int t : map) {
            if (t >= 0 && !seen[t]) {
                seen[t] = true;
                n--;
            }
        }
        int[] out = new int[n];
        int k = 0;
        for (int i = 0; i < columns; i++) {
            if (!seen[i]) {
                out[k++] = i;
            }
        }
        return out;
    }

    /** Checks a types header line against the mapped columns, as input_format_with_types_use_header does. */
    static void checkTypes(List<String> typeNames, int[] map, List<Column> columns, String what) {
        if (typeNames.size() != map.length) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "The number of types (" + typeNames.size()
                + ") in the " + what + " header differs from the number of names (" + map.length + ")");
        }
        for (int i = 0; i < map.length; i++) {
            if (map[i] < 0) {
                continue;
            }
            Column c = columns.get(map[i]);
            DataType given = DataTypes.parse(typeNames.get(i).trim());
            if (!given.equals(c.type())) {
                throw new ChException(ErrorCode.INCORRECT_DATA,
                    "Type of '" + c.name() + "' must be " + c.type().name() + ", not " + given.name());
            }
        }
    }

    /**
     * Decodes a TabSeparated-escaped byte span into a byte string as ClickHouse's readEscapedString does: the
     * usual one-letter escapes, {@code \xHH}, {@code \N} as nothing, and a backslash kept before a character that
     * needs no escaping (so {@code 100\%} stays as written).
     */
    static String unescape(byte[] b, int st, int en) {
        return unescape(b, st, en, true);
    }

    /** As {@link #unescape(byte[], int, int)}; {@code keepBackslash} false drops it before any character. */
    static String unescape(byte[] b, int st, int en, boolean keepBackslash) {
        byte[] out = new byte[en - st];
        int k = 0;
        for (int i = st; i < en; i++) {
            byte c = b[i];
            if (c != '\\' || i + 1 >= en) {
                out[k++] = c;
                continue;
            }
            byte e = b[++i];
            if (e == 'x' && i + 2 < en && hex(b[i + 1]) >= 0 && hex(b[i + 2]) >= 0) {
                out[k++] = (byte) (hex(b[i + 1]) * 16 + hex(b[i + 2]));
                i += 2;
                continue;
            }
            if (e == 'N') {
                continue;
            }
            byte d = decodeEscape(e);
            if (keepBackslash && d != '\\' && d != '\'' && d != '"' && d != '`' && d != '/' && (d & 0xFF) > 31) {
                out[k++] = '\\';
            }
            out[k++] = d;
        }
        return ByteStrings.of(out, 0, k);
    }

    static byte decodeEscape(byte e) {
        switch (e) {
            case 'a': return 7;
            case 'b': return '\b';
            case 'e': return 27;
            case 'f': return '\f';
            case 'n': return '\n';
            case 'r': return '\r';
            case 't': return '\t';
            case 'v': return 11;
            case '0': return 0;
            default: return e;
        }
    }

    static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /** A new row with {@link RowReader#DEFAULT} in the columns the input does not give. */
    static Object[] newRow(int columns, int[] missing) {
        Object[] row = new Object[columns];
        for (int m : missing) {
            row[m] = RowReader.DEFAULT;
        }
        return row;
    }
}
