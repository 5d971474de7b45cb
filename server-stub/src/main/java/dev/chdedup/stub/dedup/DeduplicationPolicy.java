package dev.chdedup.stub.dedup;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.sql.Query;

/**
 * Decides whether an insert is deduplicated, from the settings and their precedence as ClickHouse 26.2 defines
 * them: {@code deduplicate_insert} (enable | disable | backward_compatible_choice, which reads the legacy
 * {@code insert_deduplicate} or {@code async_insert_deduplicate}); for INSERT SELECT,
 * {@code deduplicate_insert_select} on top (disable | force_enable | enable_when_possible |
 * enable_even_for_bad_queries). {@code compatibility} earlier than 26.2 restores the old defaults.
 */
public final class DeduplicationPolicy {
    private DeduplicationPolicy() {
    }

    /** Whether the settings in force predate 26.2's deduplication settings. */
    static boolean legacy(Settings s) {
        String c = s.get("compatibility").trim();
        if (c.isEmpty()) {
            return false;
        }
        String[] v = c.split("\\.");
        try {
            int major = Integer.parseInt(v[0]);
            int minor = v.length > 1 ? Integer.parseInt(v[1]) : 0;
            return major < 26 || major == 26 && minor < 2;
        } catch (NumberFormatException e) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot parse compatibility version '" + c + "'");
        }
    }

    private static String setting(Settings s, String name, String legacyDefault) {
        if (legacy(s) && !s.isChanged(name)) {
            return legacyDefault;
        }
        return s.get(name).trim().toLowerCase();
    }

    /** Whether a plain (VALUES/FORMAT) insert, sync or async, is deduplicated. */
    public static boolean forInsert(Settings s, boolean async) {
        String mode = setting(s, "deduplicate_insert", "backward_compatible_choice");
        switch (mode) {
            case "enable": case "1": case "true": return true;
            case "disable": case "0": case "false": return false;
            case "backward_compatible_choice":
                return async ? s.getBool("async_insert_deduplicate") : s.getBool("insert_deduplicate");
            default:
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unexpected value of deduplicate_insert: '" + mode
                    + "'. Possible values: 'enable', 'disable', 'backward_compatible_choice'");
        }
    }

    /**
     * Whether an INSERT SELECT is deduplicated; throws {@code DEDUPLICATION_IS_NOT_POSSIBLE} for force_enable on
     * an unstable SELECT without a token. A non-empty token stands in for stability.
     */
    public static boolean forInsertSelect(Settings s, Query select, boolean hasToken) {
        boolean base = forInsert(s, false);
        String mode = setting(s, "deduplicate_insert_select", "enable_even_for_bad_queries");
        boolean stable = hasToken || isStable(select, s);
        switch (mode) {
            case "disable": return false;
            case "enable_even_for_bad_queries": return base;
            case "enable_when_possible": return base && stable;
            case "force_enable":
                if (!stable) {
                    throw new ChException(ErrorCode.DEDUPLICATION_IS_NOT_POSSIBLE, "Deduplication for INSERT SELECT with"
                        + " an unstable SELECT is not possible: the result of the SELECT can change between retries. Make the"
                        + " SELECT stable (ORDER BY ALL) or set insert_deduplication_token, or change deduplicate_insert_select");
                }
                return true;
            default:
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unexpected value of deduplicate_insert_select: '" + mode
                    + "'. Possible values: 'enable_when_possible', 'force_enable', 'enable_even_for_bad_queries', 'disable'");
        }
    }

    /**
     * A SELECT's result is stable (the same blocks on every retry) when it is a single stream, one SELECT with no
     * UNION and no subquery in FROM that is itself unstable, ending in a literal {@code ORDER BY ALL}.
     */
    public static boolean isStable(Query q, Settings s) {
        if (q.selects().size() != 1) {
            return false;
        }
        Query.Select sel = q.selects().get(0);
        return sel.orderByAll();
    }
}
