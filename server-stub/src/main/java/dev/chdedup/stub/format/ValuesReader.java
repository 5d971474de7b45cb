package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.TextReader;
import java.io.InputStream;
import java.util.List;

/**
 * Reads the Values format: {@code (1,'a'),(2,'b');} - tuples separated by commas and whitespace, an optional
 * trailing semicolon. Each value first goes through its type's quoted-literal parser; anything that is not a
 * plain literal (a function call, arithmetic, a cast) is cut out up to the next top-level ',' or ')' and
 * handed to the {@link ValueExpressions} hook, as ClickHouse's input_format_values_interpret_expressions does.
 */
final class ValuesReader extends TextRowReader {
    private final ByteInput in;
    private final List<Column> columns;
    private final FormatSettings s;
    private final ValueExpressions expr;
    private boolean started;
    private boolean done;
    private long row;

    ValuesReader(InputStream is, List<Column> columns, FormatSettings s, ValueExpressions expr) {
        this.in = new ByteInput(is);
        this.columns = columns;
        this.s = s;
        this.expr = expr;
    }

    @Override
    Object[] readRow() {
        if (done) {
            return null;
        }
        if (!started) {
            started = true;
            in.skipBom();
        } else {
            in.skipWhitespace();
            in.tryByte(',');
        }
        in.skipWhitespace();
        int c = in.peek();
        if (c == ';') {
            in.pos++;
            in.skipWhitespace();
            if (!in.atEnd()) {
                throw in.expected("end of data after ';'");
            }
        }
        if (c == ';' || c < 0) {
            done = true;
            return null;
        }
        row++;
        if (c != '(') {
            throw TextFields.atRow(in.expected("'('"), row);
        }
        String text = rowText();
        TextReader r = new TextReader(text, 1, text.length() - 1);
        Object[] out = new Object[columns.size()];
        for (int i = 0; i < out.length; i++) {
            if (i > 0 && !r.tryChar(',')) {
                throw arity(r, "fewer values than the " + out.length + " columns (" + i + " found)");
            }
            r.skipSpaces();
            if (r.atEnd()) {
                throw arity(r, "fewer values than the " + out.length + " columns (" + i + " found)");
            }
            try {
                out[i] = value(text, r, columns.get(i).type());
            } catch (RuntimeException e) {
                throw TextFields.fieldError(e, columns.get(i), row);
            }
        }
        r.skipSpaces();
        if (!r.atEnd()) {
            throw arity(r, r.peek() == ',' ? "more values than the " + out.length + " columns" : "garbage after the "
                + "last value");
        }
        return out;
    }

    private ChException arity(TextReader r, String what) {
        return new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED, "Cannot parse input: expected "
            + (what.startsWith("fewer") ? "','" : "')'") + " before: '" + r.excerpt() + ")': the row has " + what
            + ": (at row " + row + ")");
    }

    private Object value(String text, TextReader r, DataType t) {
        int start = r.pos();
        int c = r.peek();
        boolean ident = Character.isLetter(c) || c == '_';
        if (ident) {
            int e = start;
            while (e < text.length() - 1 && (Character.isLetterOrDigit(text.charAt(e)) || text.charAt(e) == '_')) {
                e++;
            }
            String w = text.substring(start, e).toLowerCase();
            int after = e;
            while (after < text.length() - 1 && Character.isWhitespace(text.charAt(after))) {
                after++;
            }
            boolean alone = after == text.length() - 1 || text.charAt(after) == ',';
            if (w.equals("default") && alone) { // the column's DEFAULT, as ClickHouse's VALUES reads the keyword
                r.pos(e);
                return DEFAULT;
            }
            if (w.equals("null") && alone) {
                r.pos(e);
                if (t.isNullable()) {
                    return null;
                }
                if (s.nullAsDefault) {
                    return DEFAULT;
                }
                throw new ChException(ErrorCode.TYPE_MISMATCH, "Cannot insert NULL value into a column of type '"
                    + t.name() + "'");
            }
            boolean literal = alone && (w.equals("true") || w.equals("false") || w.equals("nan") || w.equals("inf"));
            if (!literal) {
                return expression(text, r, start, t, null);
            }
        }
        try {
            Object v = t.parseText(r, true);
            r.skipSpaces();
            if (r.atEnd() || r.peek() == ',') {
                return v;
            }
            return expression(text, r, start, t, null);
        } catch (RuntimeException e) {
            return expression(text, r, start, t, e);
        }
    }

    /** Evaluates the expression text from {@code start} to the next top-level ',' or the row end. */
    private Object expression(String text, TextReader r, int start, DataType t, RuntimeException literalError) {
        int end = expressionEnd(text, start, text.length() - 1);
        String sql = text.substring(start, end).trim();
        r.pos(end);
        if (expr != null && !s.valuesInterpretExpressions && !s.valuesDeduceTemplates) {
            throw new ChException(ErrorCode.SUPPORT_IS_DISABLED, "Interpreting expressions is disabled");
        }
        if (expr == null) {
            if (literalError != null) {
                throw literalError;
            }
            throw new ChException(ErrorCode.CANNOT_PARSE_TEXT,
                "Cannot parse expression of type " + t.name() + " here: " + sql);
        }
        return expr.evaluate(ByteStrings.toSqlText(sql), t);
    }

    /** The end of a value: the first ',' at nesting depth 0 outside quotes, or {@code limit}. */
    static int expressionEnd(String text, int from, int limit) {
        int depth = 0;
        char quote = 0;
        for (int i = from; i < limit; i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                if (c == '\\') {
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return limit;
    }

    /** Reads one parenthesised row, quotes and nesting respected, and decodes it. */
    private String rowText() {
        int start = in.pos;
        int i = start;
        int depth = 0;
        byte quote = 0;
        while (true) {
            if (i >= in.lim) {
                int sh = in.more(start);
                if (sh < 0) {
                    in.pos = i;
                    throw TextFields.atRow(new ChException(ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED,
                        "Cannot parse input: expected ')' before: <EOF>"), row);
                }
                start -= sh;
                i -= sh;
                continue;
            }
            byte c = in.buf[i];
            if (quote != 0) {
                if (c == '\\') {
                    if (i + 1 >= in.lim) {
                        int sh = in.more(start);
                        if (sh >= 0) {
                            start -= sh;
                            i -= sh;
                            continue;
                        }
                    }
                    i++;
                } else if (c == quote) {
                    quote = 0;
                }
            } else if (c == '\'' || c == '"' || c == '`') {
                quote = c;
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
                in.pos = i + 1;
                return in.bytes(start, i + 1);
            }
            i++;
        }
    }
}
