package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import java.io.InputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Reads JSONEachRow (alias JSONLines, NDJSON): a stream of JSON objects, one per row, separated by whitespace
 * and optionally commas, or wrapped in one top-level array. Keys name columns; a column an object leaves out is
 * {@link RowReader#DEFAULT}, an unknown key is skipped (input_format_skip_unknown_fields) or an error, a
 * repeated key an error.
 */
final class JsonEachRowReader extends TextRowReader {
    private final ByteInput in;
    private final JsonInput json;
    private final List<Column> columns;
    private final FormatSettings s;
    private final Map<String, Integer> index;
    private final boolean[] seen;
    private boolean started;
    private boolean array;
    private boolean done;
    private long row;

    JsonEachRowReader(InputStream is, List<Column> columns, FormatSettings s) {
        this.in = new ByteInput(is);
        this.json = new JsonInput(in, s);
        this.columns = columns;
        this.s = s;
        this.index = TextFields.index(columns);
        this.seen = new boolean[columns.size()];
    }

    @Override
    Object[] readRow() {
        if (done) {
            return null;
        }
        if (!started) {
            started = true;
            in.skipBom();
            in.skipWhitespace();
            array = in.tryByte('[');
        }
        in.skipWhitespace();
        while (in.tryByte(',')) {
            in.skipWhitespace();
        }
        int c = in.peek();
        if (array && c == ']') {
            in.pos++;
            in.skipWhitespace();
            if (!in.atEnd()) {
                throw in.expected("end of data after the closing ']'");
            }
            done = true;
            return null;
        }
        if (c < 0) {
            if (array) {
                throw in.expected("']'");
            }
            done = true;
            return null;
        }
        row++;
        if (c != '{') {
            throw TextFields.atRow(in.expected("'{'"), row);
        }
        in.pos++;
        Object[] out = new Object[columns.size()];
        Arrays.fill(out, DEFAULT);
        Arrays.fill(seen, false);
        if (json.end('}')) {
            return out;
        }
        do {
            in.skipWhitespace();
            String key;
            try {
                key = ByteStrings.toText(json.string());
                json.expect(':');
            } catch (RuntimeException e) {
                throw TextFields.atRow(e, row);
            }
            Integer t = index.get(key);
            if (t == null) {
                if (!s.skipUnknownFields) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Unknown field found while parsing JSONEachRow "
                        + "format: " + key + ": (at row " + row + ")");
                }
                json.raw();
            } else {
                if (seen[t]) {
                    throw new ChException(ErrorCode.INCORRECT_DATA, "Duplicate field found while parsing "
                        + "JSONEachRow format: " + key + ": (at row " + row + ")");
                }
                seen[t] = true;
                try {
                    out[t] = json.read(columns.get(t).type(), true);
                } catch (RuntimeException e) {
                    ChException ce = TextFields.asCh(e);
                    throw new ChException(ce.code(), ce.getMessage() + ": (while reading the value of key " + key
                        + "): (at row " + row + ")", e);
                }
            }
        } while (nextField());
        return out;
    }

    private boolean nextField() {
        try {
            return json.next('}');
        } catch (RuntimeException e) {
            throw TextFields.atRow(e, row);
        }
    }
}
