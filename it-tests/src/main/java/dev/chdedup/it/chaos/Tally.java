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
    private final java.util.Map<String, Integer> reasons = new java.util.TreeMap<>();

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
        reasons.merge((outcomeUnknown ? "outcome unknown, " : "nothing written, ") + reason(message), 1, Integer::sum);
    }

    /** A failure's message without what differs between two of its kind (tokens, query ids, numbers): its last error. */
    static String reason(String message) {
        String m = message == null ? "" : message;
        int last = m.indexOf("Last error: ");
        String r = last >= 0 ? m.substring(last + "Last error: ".length()) : m;
        r = r.replaceAll("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}", "<id>").replaceAll("\\d+", "N");
        return r.length() > 120 ? r.substring(0, 120) + "..." : r;
    }

    /** How many failures for good had each {@link #reason}, by reason. */
    synchronized java.util.Map<String, Integer> reasons() {
        return java.util.Map.copyOf(reasons);
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
