package dev.chdedup.stub.exec.timeseries;

/**
 * What a timeSeries*ToGrid aggregate computes at one grid point from the samples of its window
 * {@code (t - window, t]} (ClickHouse's AggregateFunctionTimeseries*, after Prometheus' functions): each returns
 * the value in Float64, or null; {@code f32} computes as ClickHouse does over Float32 values, rounding where it
 * holds a Float32.
 */
enum TimeSeriesGridKind {
    RATE("timeSeriesRateToGrid"),
    INCREASE("timeSeriesIncreaseToGrid"),
    DELTA("timeSeriesDeltaToGrid"),
    INSTANT_RATE("timeSeriesInstantRateToGrid"),
    INSTANT_DELTA("timeSeriesInstantDeltaToGrid"),
    DERIV("timeSeriesDerivToGrid"),
    PREDICT_LINEAR("timeSeriesPredictLinearToGrid"),
    CHANGES("timeSeriesChangesToGrid"),
    RESETS("timeSeriesResetsToGrid"),
    RESAMPLE("timeSeriesResampleToGridWithStaleness");

    final String function;

    TimeSeriesGridKind(String function) {
        this.function = function;
    }

    /**
     * The value at grid point {@code t} of the samples {@code ts[from, to)} (those in its window, in time order), for a
     * window of {@code window} and timestamps of {@code multiplier} units a second; {@code offset} is predict_linear's,
     * in timestamp units.
     */
    Double at(long t, long[] ts, double[] vs, int from, int to, long window, long multiplier, double offset, boolean f32) {
        int n = to - from;
        switch (this) {
            case RESAMPLE:
                return n == 0 ? null : vs[to - 1];
            case CHANGES:
            case RESETS: {
                if (n == 0) {
                    return null;
                }
                long count = 0;
                for (int i = from + 1; i < to; i++) {
                    count += this == RESETS ? (vs[i] < vs[i - 1] ? 1 : 0) : (vs[i] != vs[i - 1] ? 1 : 0);
                }
                return (double) count;
            }
            case INSTANT_RATE:
            case INSTANT_DELTA:
                return n < 2 ? null : instant(ts[to - 1], vs[to - 1], ts[to - 2], vs[to - 2], multiplier, f32);
            case DERIV:
            case PREDICT_LINEAR:
                return n < 2 || ts[to - 1] == ts[from] ? null : regression(t, ts, vs, from, to, offset, f32);
            default:
                return n < 2 ? null : extrapolated(t, ts, vs, from, to, window, multiplier, f32);
        }
    }

    private static double round(double v, boolean f32) {
        return f32 ? (double) (float) v : v;
    }

    private Double instant(long t1, double v1, long t0, double v0, long multiplier, boolean f32) {
        double dt = round(t1 - t0, f32);
        if (dt == 0) {
            return null;
        }
        boolean rate = this == INSTANT_RATE;
        double diff = rate && v1 < v0 ? v1 : round(v1 - v0, f32);
        if (!rate) {
            return diff;
        }
        return round(round(diff * multiplier, f32) / dt, f32);
    }

    private Double regression(long t, long[] ts, double[] vs, int from, int to, double offset, boolean f32) {
        double intercept = this == PREDICT_LINEAR ? t : ts[from];
        double[] x = new double[2];
        double[] y = new double[2];
        double[] xy = new double[2];
        double[] xx = new double[2];
        for (int i = from; i < to; i++) {
            double dx = (double) ts[i] - intercept;
            double dy = vs[i];
            kahan(x, dx);
            kahan(y, dy);
            kahan(xy, dx * dy);
            kahan(xx, dx * dx);
        }
        int n = to - from;
        double sumX = x[0] + x[1];
        double sumY = y[0] + y[1];
        double sumXY = xy[0] + xy[1];
        double sumXX = xx[0] + xx[1];
        double cov = sumXY - sumX * sumY / n;
        double var = sumXX - sumX * sumX / n;
        double slope = cov / var;
        if (this == DERIV) {
            return round(slope, f32);
        }
        double b = sumY / n - slope * sumX / n;
        return round(slope * offset + b, f32);
    }

    /** Adds {@code inc} to the sum {@code s[0]} with Neumaier's compensation in {@code s[1]}. */
    private static void kahan(double[] s, double inc) {
        double sum = s[0];
        double next = sum + inc;
        if (Math.abs(sum) >= Math.abs(inc)) {
            s[1] += (sum - next) + inc;
        } else {
            s[1] += (inc - next) + sum;
        }
        s[0] = next;
    }

    private Double extrapolated(long t, long[] ts, double[] vs, int from, int to, long window, long multiplier, boolean f32) {
        boolean resets = this != DELTA;
        double totalResets = 0;
        for (int i = from + 1; i < to; i++) {
            if (resets && vs[i - 1] > vs[i]) {
                totalResets += vs[i - 1];
            }
        }
        long first = ts[from];
        long last = ts[to - 1];
        double firstValue = vs[from];
        long sampled = last - first;
        if (sampled == 0) {
            return null;
        }
        double difference = round(vs[to - 1] - firstValue, f32) + totalResets;
        double toStart = (double) (first - t + window);
        double toEnd = (double) (t - last);
        double average = (double) sampled / (to - from - 1);
        double threshold = average * 1.1;
        double interval = sampled;
        if (toStart >= threshold) {
            toStart = average / 2;
        }
        if (resets && difference > 0 && firstValue >= 0) {
            toStart = Math.min(sampled * (firstValue / difference), toStart);
        }
        interval += toStart;
        if (toEnd >= threshold) {
            toEnd = average / 2;
        }
        interval += toEnd;
        double factor = interval / sampled;
        if (this == RATE) {
            factor = factor * multiplier / window;
        }
        return round(difference * factor, f32);
    }
}
