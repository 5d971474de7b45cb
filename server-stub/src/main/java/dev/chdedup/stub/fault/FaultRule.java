package dev.chdedup.stub.fault;

/**
 * When a fault fires: its kind, optionally only for inserts into one table ({@code database.table}, or just
 * {@code table} for any database) and only for the next {@code times} matching inserts (0 = every one), with
 * the error code or delay it needs. Built with the static factories and the {@code on...}/{@code times} withers.
 */
public record FaultRule(FaultKind kind, String table, int times, int errorCode, long delayMillis) {

    public static FaultRule of(FaultKind kind) {
        return new FaultRule(kind, null, 0, kind == FaultKind.ERROR_AFTER_COMMIT ? 319 : 0, kind == FaultKind.DELAY_RESPONSE ? 5000 : 0);
    }

    public static FaultRule error(int code) {
        return new FaultRule(FaultKind.ERROR_CODE, null, 0, code, 0);
    }

    public static FaultRule errorAfterCommit(int code) {
        return new FaultRule(FaultKind.ERROR_AFTER_COMMIT, null, 0, code, 0);
    }

    public static FaultRule delay(long millis) {
        return new FaultRule(FaultKind.DELAY_RESPONSE, null, 0, 0, millis);
    }

    public FaultRule onTable(String t) {
        return new FaultRule(kind, t, times, errorCode, delayMillis);
    }

    public FaultRule times(int n) {
        return new FaultRule(kind, table, n, errorCode, delayMillis);
    }

    boolean matches(String database, String t) {
        if (table == null) {
            return true;
        }
        return table.equals(database + "." + t) || table.equals(t);
    }
}
