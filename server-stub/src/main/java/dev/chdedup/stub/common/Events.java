package dev.chdedup.stub.common;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** Server-wide event counters, as {@code system.events} shows them (only events that happened are listed). */
public final class Events {
    private static final Map<String, String> DESCRIPTIONS = Map.of(
        "Query", "Number of queries to be interpreted and potentially executed.",
        "SelectQuery", "Same as Query, but only for SELECT queries.",
        "InsertQuery", "Same as Query, but only for INSERT queries.",
        "InsertedRows", "Number of rows INSERTed to all tables.",
        "InsertedBytes", "Number of bytes INSERTed to all tables.",
        "FailedQuery", "Number of failed queries.",
        "DuplicatedInsertedBlocks", "Number of the synchronously inserted blocks to a MergeTree table was deduplicated.",
        "DuplicatedAsyncInserts", "Number of async inserts in the INSERTed block to a MergeTree table was deduplicated.",
        "SelfDuplicatedAsyncInserts", "Number of async inserts in the INSERTed block to a MergeTree table was self deduplicated.",
        "MergedRows", "Rows read for background merges.");

    private final Map<String, LongAdder> counters = new ConcurrentHashMap<>();

    public void increment(String event, long by) {
        counters.computeIfAbsent(event, k -> new LongAdder()).add(by);
    }

    public void increment(String event) {
        increment(event, 1);
    }

    public long get(String event) {
        LongAdder a = counters.get(event);
        return a == null ? 0 : a.sum();
    }

    public Map<String, Long> snapshot() {
        Map<String, Long> m = new TreeMap<>();
        counters.forEach((k, v) -> m.put(k, v.sum()));
        return m;
    }

    public static String describe(String event) {
        return DESCRIPTIONS.getOrDefault(event, "");
    }
}
