package dev.chdedup.stub.format;

/**
 * A writer whose footer reports the query's figures (JSON's "statistics" and "rows_before_limit_at_least", the
 * progress line of the WithProgress formats): holds what the caller sets before {@link #finish()}.
 */
abstract class StatisticsWriter implements RowWriter {
    protected double elapsed;
    protected long rowsRead;
    protected long bytesRead;
    /** -1 when the query had no LIMIT. */
    protected long rowsBeforeLimit = -1;

    @Override
    public void setStatistics(double elapsedSeconds, long rowsRead, long bytesRead) {
        this.elapsed = elapsedSeconds;
        this.rowsRead = rowsRead;
        this.bytesRead = bytesRead;
    }

    @Override
    public void setRowsBeforeLimit(long rowsBeforeLimit) {
        this.rowsBeforeLimit = rowsBeforeLimit;
    }
}
