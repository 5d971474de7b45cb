package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;

/**
 * groupFormat(format)(x1, ..., xn), after ClickHouse's AggregateFunctionGroupFormat: the group's rows written in the
 * output format named by the parameter, as columns c1 ... cn of the arguments' types, into one String (empty for no
 * rows).
 */
public final class AggregateFunctionGroupFormat {
    /** Writes rows of columns in an output format, as the format layer does; attached by the server (exec cannot see it). */
    public interface Writer {
        /** Whether {@code format} is a known format name. */
        boolean isKnown(String format);

        /** The rows in {@code format}'s output; checks the format can output when {@code rows} is empty. */
        byte[] write(String format, List<Column> columns, List<Object[]> rows);
    }

    private static volatile Writer writer;

    private AggregateFunctionGroupFormat() {
    }

    /** Attaches the writer of output formats that groupFormat uses. */
    public static void attachWriter(Writer w) {
        writer = w;
    }

    static void register() {
        AggregateFunctionFactory.register("groupFormat", AggregateFunctionGroupFormat::create);
    }

    private static Aggregates.Aggregate create(String name, List<DataType> args, AggregateParameters p) {
        if (p.size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Aggregate function " + name
                + " requires exactly one parameter: format name");
        }
        String format = p.asString(0);
        if (format == null) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First parameter for aggregate function " + name
                + " should be a string format name");
        }
        Writer formats = writer;
        if (formats == null) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "No output formats are attached for aggregate function " + name);
        }
        if (!formats.isKnown(format)) {
            throw new ChException(ErrorCode.UNKNOWN_FORMAT, "Unknown format " + format);
        }
        List<Column> columns = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            columns.add(new Column("c" + (i + 1), args.get(i)));
        }
        formats.write(format, columns, List.of()); // an input-only format fails here
        return new Aggregates.Aggregate(DataTypes.STRING, () -> new Aggregates.State() {
            final List<Object[]> rows = new ArrayList<>();

            @Override
            public void add(Object[] row) {
                rows.add(row.clone());
            }

            @Override
            public Object result() {
                if (rows.isEmpty()) {
                    return "";
                }
                return ByteStrings.of(formats.write(format, columns, rows));
            }
        });
    }
}
