package dev.chdedup.stub.types;

import java.io.IOException;

/**
 * One ClickHouse data type: its canonical name and how its values are compared, converted, written and read
 * in the text and RowBinary encodings. Values are plain Java objects whose representation each subclass fixes
 * (for example every integer up to 64 bits is a {@code Long}, UInt64 keeping the unsigned bits); formats and
 * the SQL engine only ever go through these methods. Mirrors ClickHouse's {@code IDataType} plus its
 * serializations.
 */
public abstract class DataType {

    /** The canonical ClickHouse spelling, e.g. {@code Nullable(DateTime64(3, 'UTC'))}. */
    public abstract String name();

    /** The value a column of this type takes when no value is given (0, '', 1970-01-01, NULL). */
    public abstract Object defaultValue();

    /** Appends the plain text form (as TabSeparated shows it, before escaping). */
    public abstract void formatText(Object v, StringBuilder sb);

    /** Appends the form used inside arrays, tuples and the Values format: strings and dates quoted. */
    public void formatQuoted(Object v, StringBuilder sb) {
        formatText(v, sb);
    }

    /** Appends the plain text form in single quotes, as dates, times and addresses are quoted (no escapes needed). */
    protected final void formatInQuotes(Object v, StringBuilder sb) {
        sb.append('\'');
        formatText(v, sb);
        sb.append('\'');
    }

    /** Parses the whole of {@code s} as the plain text form. */
    public Object parseText(String s) {
        TextReader r = new TextReader(s);
        Object v = parseText(r, false);
        if (!r.atEnd()) {
            throw TextReader.cannotParse(this, s);
        }
        return v;
    }

    /**
     * Reads a value from {@code r}. With {@code quoted} true the value stands inside an array, tuple or the
     * Values format, where strings and dates are quoted; otherwise it is a whole unquoted text field.
     */
    public abstract Object parseText(TextReader r, boolean quoted);

    public abstract void writeBinary(Object v, BinaryOut out);

    public abstract Object readBinary(BinaryIn in) throws IOException;

    /** Total order consistent with ClickHouse's sort order for this type; nulls are handled by Nullable. */
    public abstract int compare(Object a, Object b);

    /**
     * Converts a value of {@code from} to this type, as CAST does. Throws a ClickHouse error when it cannot.
     */
    public abstract Object convert(Object v, DataType from);

    /** A rough byte size of a value, for block squashing by bytes. */
    public int byteSize(Object v) {
        return 8;
    }

    public boolean isNullable() {
        return false;
    }

    /** The type without Nullable and LowCardinality wrappers. */
    public DataType unwrap() {
        return this;
    }

    @Override
    public String toString() {
        return name();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DataType && ((DataType) o).name().equals(name());
    }

    @Override
    public int hashCode() {
        return name().hashCode();
    }
}
