package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BigIntType;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.DecimalType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.UuidType;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads RowBinary, RowBinaryWithNames, RowBinaryWithNamesAndTypes and RowBinaryWithDefaults: values back to
 * back in each type's binary encoding, after an optional header (varint column count, names, types). A stream
 * that ends exactly between rows is the end; one that ends inside a row fails with CANNOT_READ_ALL_DATA and how
 * many bytes the value had against how many it needed, or, inside a varint (a length or a size), with
 * ATTEMPT_TO_READ_AFTER_EOF. In RowBinaryWithDefaults each value follows a byte that is not 0 when the column's DEFAULT
 * applies instead ({@link RowReader#DEFAULT_OR_ZERO}). Values are not checked beyond their encoding: an Enum code
 * outside the enum is kept, as ClickHouse keeps it.
 */
final class RowBinaryReader implements RowReader {
    private final BinaryIn in;
    private final List<Column> columns;
    private final FormatSettings s;
    private final boolean withNames;
    private final boolean withTypes;
    private final boolean withDefaults;
    private int[] map;
    private DataType[] types;
    private boolean[] plainString;
    private int[] missing;
    private boolean started;
    private long row;

    RowBinaryReader(InputStream is, List<Column> columns, FormatSettings s, boolean withNames, boolean withTypes,
                    boolean withDefaults) {
        this.in = new BinaryIn(is);
        in.jsonAsString(s.binaryReadJsonAsString);
        this.columns = columns;
        this.s = s;
        this.withNames = withNames;
        this.withTypes = withTypes;
        this.withDefaults = withDefaults;
    }

    private void start() throws IOException {
        started = true;
        int n = columns.size();
        map = TextFields.identity(n);
        types = new DataType[n];
        for (int i = 0; i < n; i++) {
            types[i] = columns.get(i).type();
        }
        if (withNames && !in.atEnd()) {
            try {
                header();
            } catch (BinaryIn.AfterEof e) {
                throw new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof: the RowBinary header ends early (at byte "
                    + in.position() + ")");
            } catch (EOFException e) {
                throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA,
                    "Cannot read all data: the RowBinary header ends early (at byte " + in.position() + ")");
            }
        }
        plainString = new boolean[types.length];
        for (int i = 0; i < types.length; i++) {
            plainString[i] = types[i] instanceof StringType && ((StringType) types[i]).fixedLength == 0;
        }
        missing = TextFields.missing(map, n);
    }

    private void header() throws IOException {
        long count = in.readVarUInt();
        if (count > 100_000) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "Too many columns in the RowBinary header: " + count);
        }
        List<String> names = new ArrayList<>();
        for (long i = 0; i < count; i++) {
            names.add(ByteStrings.toText(in.readString()));
        }
        List<String> typeNames = new ArrayList<>();
        if (withTypes) {
            for (long i = 0; i < count; i++) {
                typeNames.add(ByteStrings.toText(in.readString()));
            }
        }
        if (s.withNamesUseHeader) {
            map = TextFields.mapHeader(names, columns, s, "RowBinary");
        } else if (count != columns.size()) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "The RowBinary header has " + count
                + " columns, but " + columns.size() + " are expected");
        }
        types = new DataType[names.size()];
        for (int i = 0; i < types.length; i++) {
            if (map[i] >= 0) {
                types[i] = columns.get(map[i]).type();
            } else if (withTypes) {
                types[i] = DataTypes.parse(typeNames.get(i));
            } else {
                throw new ChException(ErrorCode.INCORRECT_DATA, "Cannot skip unknown field '" + names.get(i)
                    + "' in RowBinaryWithNames format, because its type is unknown");
            }
        }
        if (withTypes && s.withTypesUseHeader) {
            TextFields.checkTypes(typeNames, map, columns, "RowBinary");
        }
    }

    @Override
    public Object[] next() throws IOException {
        if (!started) {
            start();
        }
        if (in.atEnd()) {
            return null;
        }
        row++;
        Object[] out = TextFields.newRow(columns.size(), missing);
        for (int i = 0; i < types.length; i++) {
            long st = in.position();
            long expected = -1;
            int t = map[i];
            try {
                if (withDefaults) {
                    expected = 1;
                    if (in.readByte() != 0) {
                        if (t >= 0) {
                            out[t] = DEFAULT_OR_ZERO;
                        }
                        continue;
                    }
                    st = in.position();
                }
                Object v;
                if (plainString[i]) {
                    expected = -1;
                    long len = in.readVarUInt();
                    st = in.position();
                    expected = len;
                    v = ByteStrings.of(in.readBytes((int) Math.min(len, Integer.MAX_VALUE)));
                } else {
                    expected = fixedWidth(types[i]);
                    v = types[i].readBinary(in);
                }
                if (t >= 0) {
                    out[t] = v;
                }
            } catch (BinaryIn.AfterEof e) {
                throw afterEof(i);
            } catch (EOFException e) {
                throw cannotReadAll(i, st, expected);
            } catch (RuntimeException e) {
                ChException ce = TextFields.asCh(e);
                throw new ChException(ce.code(), ce.getMessage() + ": (while reading column " + name(i)
                    + "): (at row " + row + ")", e);
            }
        }
        return out;
    }

    @Override
    public boolean readsColumns() throws IOException {
        if (!started) {
            start();
        }
        return !withDefaults && missing.length == 0;
    }

    @Override
    public boolean readInto(IColumn.Mutable[] out) throws IOException {
        if (!started) {
            start();
        }
        if (in.atEnd()) {
            return false;
        }
        row++;
        for (int i = 0; i < types.length; i++) {
            long st = in.position();
            int t = map[i];
            try {
                if (t >= 0) {
                    out[t].readBinary(in);
                } else {
                    types[i].readBinary(in);
                }
            } catch (BinaryIn.ShortRead e) {
                throw cannotReadAll(i, in.position() - e.read, e.expected);
            } catch (BinaryIn.AfterEof e) {
                throw afterEof(i);
            } catch (EOFException e) {
                throw cannotReadAll(i, st, fixedWidth(types[i]));
            } catch (RuntimeException e) {
                ChException ce = TextFields.asCh(e);
                throw new ChException(ce.code(), ce.getMessage() + ": (while reading column " + name(i)
                    + "): (at row " + row + ")", e);
            }
        }
        return true;
    }

    private ChException cannotReadAll(int column, long start, long expected) {
        long got = in.position() - start;
        String need = expected >= 0 ? Long.toString(expected) : "at least " + (got + 1);
        return new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read all data. Bytes read: " + got
            + ". Bytes expected: " + need + ".: (while reading column " + name(column) + "): (at row " + row + ")");
    }

    /** A varint (a String's length, an Array's or Map's size) the input ends in: ClickHouse's readVarUInt error. */
    private ChException afterEof(int column) {
        return new ChException(ErrorCode.ATTEMPT_TO_READ_AFTER_EOF, "Attempt to read after eof: (while reading column " + name(column)
            + "): (at row " + row + ")");
    }

    private String name(int i) {
        return map[i] >= 0 ? columns.get(map[i]).name() : "#" + (i + 1);
    }

    /** The encoded size of a fixed-width type, or -1 (strings, Nullable, arrays, maps, tuples). */
    static long fixedWidth(DataType t) {
        if (t instanceof LowCardinalityType) {
            t = ((LowCardinalityType) t).inner;
        }
        if (t instanceof IntType || t instanceof BigIntType || t instanceof FloatType || t instanceof BoolType
            || t instanceof DateType || t instanceof DateTimeType || t instanceof DateTime64Type || t instanceof dev.chdedup.stub.types.TimeType
            || t instanceof UuidType || t instanceof DecimalType || t instanceof EnumType) {
            return t.byteSize(null);
        }
        if (t instanceof StringType && ((StringType) t).fixedLength > 0) {
            return ((StringType) t).fixedLength;
        }
        return -1;
    }
}
