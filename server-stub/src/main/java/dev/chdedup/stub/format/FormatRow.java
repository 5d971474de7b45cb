package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.FunctionFormatRow;
import dev.chdedup.stub.types.ByteStrings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The writer formatRow uses: one row in a row output format, with the format's header and footer, as a fresh
 * {@link RowWriter} writes it. CustomSeparated is written as TabSeparated (its default escaping and delimiters)
 * between {@code format_custom_result_before_delimiter} and {@code format_custom_result_after_delimiter}.
 */
public final class FormatRow implements FunctionFormatRow.RowFormatter {
    /** The formats that write whole blocks, which formatRow refuses. */
    private static final Set<String> BLOCK_FORMATS = Set.of("Native", "Pretty", "PrettyCompact", "PrettySpace", "Null");

    /** CustomSeparated, which only formatRow writes here. */
    private static boolean custom(String format) {
        return format.equalsIgnoreCase("CustomSeparated");
    }

    @Override
    public void check(String format) {
        if (custom(format)) {
            return;
        }
        String name = Formats.canonicalName(format);
        if (BLOCK_FORMATS.contains(name) || !Formats.isOutput(name)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot turn rows into a " + name
                + " format strings. formatRow function supports only row output formats");
        }
    }

    @Override
    public byte[] format(String format, List<Column> columns, Object[] row, Map<String, String> settings) {
        boolean custom = custom(format);
        String name = custom ? "TabSeparated" : Formats.canonicalName(format);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            if (custom) {
                out.write(ByteStrings.bytes(ByteStrings.fromText(settings.getOrDefault("format_custom_result_before_delimiter", ""))));
            }
            RowWriter w = Formats.openOutput(name, out, columns, FormatSettings.of(settings));
            w.writeRow(row);
            w.finish();
            if (custom) {
                out.write(ByteStrings.bytes(ByteStrings.fromText(settings.getOrDefault("format_custom_result_after_delimiter", ""))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
