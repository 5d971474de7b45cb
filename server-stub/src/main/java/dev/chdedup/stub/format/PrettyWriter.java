package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.TypeRules;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the Pretty family for people reading a result: {@code Pretty} (heavy header frame, a rule between rows),
 * {@code PrettyCompact} (names in the top border) and {@code PrettySpace} (no frame), each with row numbers
 * (output_format_pretty_row_numbers is on by default), numbers right-aligned and other values left-aligned, widths
 * in UTF-8 code points, NULL as {@code ᴺᵁᴸᴸ}. Rows are buffered into one table, up to
 * output_format_pretty_max_rows (10000), as the MonoBlock variants do; the NoEscapes variants are the same, since
 * this writer never colours. Mirrors ClickHouse's PrettyBlockOutputFormat and its Compact and Space subclasses.
 */
final class PrettyWriter implements RowWriter {
    static final int MAX_ROWS = 10_000;

    enum Style { FULL, COMPACT, SPACE }

    private final ByteSink out;
    private final List<Column> columns;
    private final Style style;
    private final List<String[]> cells = new ArrayList<>();
    private final StringBuilder sb = new StringBuilder();
    private long total;

    PrettyWriter(OutputStream os, List<Column> columns, Style style) {
        this.out = new ByteSink(os);
        this.columns = columns;
        this.style = style;
    }

    @Override
    public void writeRow(Object[] row) {
        total++;
        if (cells.size() >= MAX_ROWS) {
            return;
        }
        String[] r = new String[row.length];
        for (int i = 0; i < row.length; i++) {
            r[i] = JsonCompactEachRowWriter.plainText(columns.get(i).type(), row[i], sb);
        }
        cells.add(r);
    }

    @Override
    public void finish() throws IOException {
        int n = columns.size();
        int[] width = new int[n];
        boolean[] right = new boolean[n];
        String[] names = new String[n];
        for (int i = 0; i < n; i++) {
            names[i] = ByteStrings.fromText(columns.get(i).name());
            width[i] = (int) ByteStrings.codePoints(names[i]);
            DataType t = columns.get(i).type();
            right[i] = TypeRules.alignsRight(t);
        }
        for (String[] r : cells) {
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], (int) ByteStrings.codePoints(r[i]));
            }
        }
        int numberWidth = Long.toString(cells.size()).length() + 2;
        String indent = " ".repeat(numberWidth);
        if (style == Style.COMPACT) {
            line(indent, "┌", "┬", "┐", width, names, right, '─');
            for (int k = 0; k < cells.size(); k++) {
                row(k, numberWidth, "│", width, right);
            }
            line(indent, "└", "┴", "┘", width, null, right, '─');
        } else if (style == Style.FULL) {
            line(indent, "┏", "┳", "┓", width, null, right, '━');
            out.writeUtf8(indent);
            out.writeUtf8("┃");
            for (int i = 0; i < n; i++) {
                out.write(' ');
                pad(names[i], width[i], right[i]);
                out.writeUtf8(" ┃");
            }
            out.write('\n');
            line(indent, "┡", "╇", "┩", width, null, right, '━');
            for (int k = 0; k < cells.size(); k++) {
                if (k > 0) {
                    line(indent, "├", "┼", "┤", width, null, right, '─');
                }
                row(k, numberWidth, "│", width, right);
            }
            line(indent, "└", "┴", "┘", width, null, right, '─');
        } else {
            out.writeUtf8(indent);
            for (int i = 0; i < n; i++) {
                out.writeUtf8(i == 0 ? " " : "   ");
                pad(names[i], width[i], right[i]);
            }
            out.writeUtf8("\n\n");
            for (int k = 0; k < cells.size(); k++) {
                rowNumber(k, numberWidth);
                for (int i = 0; i < n; i++) {
                    out.writeUtf8(i == 0 ? " " : "   ");
                    pad(cells.get(k)[i], width[i], right[i]);
                }
                out.write('\n');
            }
        }
        if (total > cells.size()) {
            out.writeUtf8("  Showed first " + cells.size() + ".\n");
        }
        out.flush();
    }

    /** A border line; with {@code names}, the names are set into it (PrettyCompact's header). */
    private void line(String indent, String left, String mid, String rightEnd, int[] width, String[] names,
                      boolean[] right, char rule) throws IOException {
        String r = String.valueOf(rule);
        out.writeUtf8(indent);
        out.writeUtf8(left);
        for (int i = 0; i < width.length; i++) {
            if (i > 0) {
                out.writeUtf8(mid);
            }
            if (names == null) {
                out.writeUtf8(r.repeat(width[i] + 2));
            } else {
                int fill = width[i] - (int) ByteStrings.codePoints(names[i]);
                out.writeUtf8(r.repeat(right[i] ? fill + 1 : 1));
                out.writeBytes(names[i]);
                out.writeUtf8(r.repeat(right[i] ? 1 : fill + 1));
            }
        }
        out.writeUtf8(rightEnd);
        out.write('\n');
    }

    private void row(int k, int numberWidth, String bar, int[] width, boolean[] right) throws IOException {
        rowNumber(k, numberWidth);
        out.writeUtf8(bar);
        for (int i = 0; i < width.length; i++) {
            out.write(' ');
            pad(cells.get(k)[i], width[i], right[i]);
            out.write(' ');
            out.writeUtf8(bar);
        }
        out.write('\n');
    }

    private void rowNumber(int k, int numberWidth) throws IOException {
        String num = (k + 1) + ". ";
        out.writeUtf8(" ".repeat(numberWidth - num.length()) + num);
    }

    private void pad(String value, int width, boolean right) throws IOException {
        int fill = width - (int) ByteStrings.codePoints(value);
        if (right) {
            out.writeUtf8(" ".repeat(fill));
        }
        out.writeBytes(value);
        if (!right) {
            out.writeUtf8(" ".repeat(fill));
        }
    }
}
