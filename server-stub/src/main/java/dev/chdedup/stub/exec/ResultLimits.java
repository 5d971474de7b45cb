package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Iterator;
import java.util.Locale;
import java.util.NoSuchElementException;

/**
 * The limits on a query's result, checked block by block as ClickHouse does: {@code max_result_rows} and
 * {@code max_result_bytes} (0: none), with {@code result_overflow_mode} {@code throw} (TOO_MANY_ROWS_OR_BYTES, 396)
 * or {@code break} (the result ends after the block that went over, so it may hold more rows than the limit).
 * Mirrors the result part of ClickHouse's SizeLimits / LimitsCheckingTransform.
 */
public final class ResultLimits {
    private ResultLimits() {
    }

    /** The final result's blocks under the limits of {@code ctx}; the same iterator when there are none. */
    public static Iterator<Block> apply(Iterator<Block> in, QueryContext ctx) {
        long maxRows = ctx.settings().getLong("max_result_rows");
        long maxBytes = ctx.settings().getLong("max_result_bytes");
        if (maxRows <= 0 && maxBytes <= 0) {
            return in;
        }
        String mode = ctx.settings().get("result_overflow_mode").trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("throw") && !mode.equals("break")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unexpected value of OverflowMode: '" + mode + "'");
        }
        boolean breaks = mode.equals("break");
        return new Iterator<>() {
            long rows;
            long bytes;
            boolean over;

            @Override
            public boolean hasNext() {
                return !over && in.hasNext();
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                Block b = in.next();
                rows += b.rowCount();
                for (Object[] r : b.rows()) {
                    for (int i = 0; i < r.length; i++) {
                        bytes += r[i] == null ? 1 : b.columns().get(i).type().byteSize(r[i]);
                    }
                }
                boolean rowsOver = maxRows > 0 && rows > maxRows;
                boolean bytesOver = maxBytes > 0 && bytes > maxBytes;
                if (rowsOver || bytesOver) {
                    if (!breaks) {
                        throw new ChException(ErrorCode.TOO_MANY_ROWS_OR_BYTES, rowsOver
                            ? "Limit for result exceeded, max rows: " + readable(maxRows) + ", current rows: " + readable(rows)
                            : "Limit for result exceeded, max bytes: " + readable(maxBytes) + ", current bytes: " + readable(bytes));
                    }
                    over = true;
                }
                return b;
            }
        };
    }

    private static final String[] QUANTITY_UNITS = {"", " thousand", " million", " billion", " trillion",
        " quadrillion", " quintillion", " sextillion", " septillion", " octillion", " nonillion", " decillion",
        " undecillion", " duodecillion", " tredecillion", " quattuordecillion", " quindecillion", " sexdecillion",
        " septendecillion", " octodecillion", " novemdecillion", " vigintillion"};

    /**
     * ClickHouse's formatReadableQuantity with two decimals: the value divided by 1000 per unit while it is at least
     * 1000, up to vigintillion ({@code 10.00}, {@code 65.41 thousand}, {@code 12.35 million}).
     */
    public static String readable(double value) {
        int unit = 0;
        while (unit + 1 < QUANTITY_UNITS.length && Math.abs(value) >= 1000) {
            value /= 1000;
            unit++;
        }
        String digits = Math.abs(value) < 1e60
            ? new BigDecimal(value).setScale(2, RoundingMode.HALF_UP).toPlainString()
            : Double.toString(value).replace("E", "e");
        return digits + QUANTITY_UNITS[unit];
    }
}
