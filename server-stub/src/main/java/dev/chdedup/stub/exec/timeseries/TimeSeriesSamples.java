package dev.chdedup.stub.exec.timeseries;

import java.util.Map;
import java.util.TreeMap;

/**
 * The samples a time series aggregate has seen, by timestamp (in the timestamp type's units): of several samples at
 * one timestamp the greatest value is kept (a value replaces the kept one only when greater, so a NaN loses to a
 * number seen before it and wins over one seen after it), as ClickHouse's buckets keep them.
 */
final class TimeSeriesSamples {
    final TreeMap<Long, Double> byTimestamp = new TreeMap<>();

    void add(long timestamp, double value) {
        byTimestamp.merge(timestamp, value, (kept, added) -> kept < added ? added : kept);
    }

    /** The timestamps in order, and their values. */
    long[] timestamps() {
        long[] t = new long[byTimestamp.size()];
        int i = 0;
        for (Long k : byTimestamp.keySet()) {
            t[i++] = k;
        }
        return t;
    }

    double[] values() {
        double[] v = new double[byTimestamp.size()];
        int i = 0;
        for (Map.Entry<Long, Double> e : byTimestamp.entrySet()) {
            v[i++] = e.getValue();
        }
        return v;
    }
}
