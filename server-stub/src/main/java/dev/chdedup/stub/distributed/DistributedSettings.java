package dev.chdedup.stub.distributed;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Map;

/**
 * A Distributed table's own settings (its {@code SETTINGS} clause), as ClickHouse's {@code DistributedSettings}: how its
 * queues send ({@code background_insert_batch}, {@code background_insert_split_batch_on_failure}, the sleep and its
 * bound, the server's {@code distributed_background_insert_*} defaults where the table sets none). The older
 * names ({@code monitor_batch_inserts}, {@code monitor_sleep_time_ms}, ...) are aliases, as in the engine.
 */
record DistributedSettings(boolean batch, boolean splitBatchOnFailure, long sleepTimeMs, long maxSleepTimeMs) {
    /** The server's defaults of the sleep and its bound, as the settings' defaults are. */
    static final long DEFAULT_SLEEP_TIME_MS = 100;
    static final long DEFAULT_MAX_SLEEP_TIME_MS = 30000;

    static DistributedSettings of(Map<String, String> clause) {
        boolean batch = false;
        boolean split = false;
        long sleep = DEFAULT_SLEEP_TIME_MS;
        long maxSleep = DEFAULT_MAX_SLEEP_TIME_MS;
        for (Map.Entry<String, String> e : clause.entrySet()) {
            String v = e.getValue().trim();
            switch (e.getKey()) {
                case "background_insert_batch", "monitor_batch_inserts" -> batch = bool(v);
                case "background_insert_split_batch_on_failure", "monitor_split_batch_on_failure" -> split = bool(v);
                case "background_insert_sleep_time_ms", "monitor_sleep_time_ms" -> sleep = number(e.getKey(), v);
                case "background_insert_max_sleep_time_ms", "monitor_max_sleep_time_ms" -> maxSleep = number(e.getKey(), v);
                case dev.chdedup.stub.mergetree.TableDefinition.FLATTEN_NESTED -> { } // the query's flatten_nested, for the columns
                // accepted and checked, not applied: files are always synced; no limit on pending bytes
                case "fsync_after_insert", "fsync_directories", "skip_unavailable_shards", "bytes_to_throw_insert", "bytes_to_delay_insert",
                    "max_delay_to_insert",
                    "flush_on_detach" -> number(e.getKey(), bool(v) ? "1" : v.equalsIgnoreCase("false") ? "0" : v);
                default -> throw new ChException(ErrorCode.UNKNOWN_SETTING, "Unknown setting '" + e.getKey() + "': for storage Distributed");
            }
        }
        return new DistributedSettings(batch, split, sleep, maxSleep);
    }

    private static boolean bool(String v) {
        return v.equals("1") || v.equalsIgnoreCase("true");
    }

    private static long number(String name, String v) {
        try {
            return Long.parseLong(v.replace("'", ""));
        } catch (NumberFormatException e) {
            throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Cannot parse setting " + name + " value '" + v + "' as a number");
        }
    }
}
