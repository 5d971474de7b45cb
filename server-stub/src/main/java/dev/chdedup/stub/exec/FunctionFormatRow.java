package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * ClickHouse's formatRow and formatRowNoNewline (category Type Conversion): each row of the arguments after the first
 * written alone in the output format the first names (its header and footer included, a row format only), the
 * arguments named as the select list would name them; formatRowNoNewline drops one final newline. The formats live
 * above this layer, so the server installs the writer ({@link #install}).
 */
public final class FunctionFormatRow {
    /** Writes one row in a format: (format, columns, row, the query's changed settings) to its bytes. */
    public interface RowFormatter {
        /** Refuses an unknown format (UNKNOWN_FORMAT) and one that is not a row format (BAD_ARGUMENTS). */
        void check(String format);

        byte[] format(String format, List<Column> columns, Object[] row, Map<String, String> settings);
    }

    private static volatile RowFormatter formatter;

    private FunctionFormatRow() {
    }

    /** Installs the writer of rows in an output format. */
    public static void install(RowFormatter f) {
        formatter = f;
    }

    static void register(FunctionFactory f) {
        f.register("formatRow", "Type Conversion", (args, ctx) -> compile("formatRow", args, null, ctx));
        f.register("formatRowNoNewline", "Type Conversion", (args, ctx) -> compile("formatRowNoNewline", args, null, ctx));
    }

    static boolean handles(String name) {
        return name.equals("formatRow") || name.equals("formatRowNoNewline");
    }

    /** The function over {@code args}, whose columns are named {@code names} (null: by position). */
    static Evaluator compile(String name, List<Evaluator> args, List<String> names, QueryContext ctx) {
        if (args.size() < 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name
                + " requires at least two arguments: the format name and its output expression(s)");
        }
        Evaluator first = args.get(0);
        if (!(first.type() instanceof StringType) || !first.constant()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument to " + name + " must be a format name");
        }
        String format = ByteStrings.toText((String) first.eval(new Object[0]));
        RowFormatter writer = formatter;
        if (writer == null) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Function " + name + " needs the server's output formats");
        }
        List<Column> columns = new ArrayList<>();
        for (int i = 1; i < args.size(); i++) {
            columns.add(new Column(names != null ? names.get(i) : String.valueOf(i), args.get(i).type()));
        }
        Map<String, String> settings = ctx.settings().changed();
        writer.check(format);
        boolean noNewline = name.equals("formatRowNoNewline");
        List<Evaluator> values = args.subList(1, args.size());
        return Evaluator.of(DataTypes.STRING, r -> {
            Object[] row = new Object[values.size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = values.get(i).eval(r);
            }
            byte[] b = writer.format(format, columns, row, settings);
            int n = noNewline && b.length > 0 && b[b.length - 1] == '\n' ? b.length - 1 : b.length;
            return ByteStrings.of(java.util.Arrays.copyOf(b, n));
        });
    }
}
