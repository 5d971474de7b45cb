package dev.chdedup.it.chaos;

import java.util.ArrayList;
import java.util.List;

/** What one driver's writers saw: batches acknowledged (and after a retry), failed for good by outcome, first errors. */
final class Tally {
    private long acknowledged;
    private long rows;
    private long retried;
    private long failedUnknown;
    private long failedKnown;
    private final List<String> firstErrors = new ArrayList<>();

    synchronized void acknowledged(int batchRows, boolean afterRetry) {
        acknowledged++;
        rows += batchRows;
        if (afterRetry) {
            retried++;
        }
    }

    synchronized void failed(boolean outcomeUnknown, String message) {
        if (outcomeUnknown) {
            failedUnknown++;
        } else {
            failedKnown++;
        }
        if (firstErrors.size() < 5) {
            firstErrors.add(message);
        }
    }

    synchronized long acknowledged() {
        return acknowledged;
    }

    synchronized long rows() {
        return rows;
    }

    synchronized long retried() {
        return retried;
    }

    synchronized long failed() {
        return failedUnknown + failedKnown;
    }

    synchronized long failedUnknown() {
        return failedUnknown;
    }

    synchronized List<String> firstErrors() {
        return List.copyOf(firstErrors);
    }

    @Override
    public synchronized String toString() {
        return "acked " + acknowledged + " (" + rows + " rows), retried " + retried + ", failed " + (failedUnknown + failedKnown)
            + " (" + failedUnknown + " outcome unknown)";
    }
}
