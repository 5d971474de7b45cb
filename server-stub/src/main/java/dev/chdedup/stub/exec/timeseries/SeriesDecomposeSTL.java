package dev.chdedup.stub.exec.timeseries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.List;

/**
 * seriesDecomposeSTL(series, period), as ClickHouse's: STL (Cleveland et al. 1990, the netlib Fortran as ankane's
 * stl-cpp ports it, which the engine embeds) with that port's defaults (seasonal length the period, made odd and at
 * least 3; trend length the odd ceil(1.5 period / (1 - 1.5 / seasonal length)); low-pass length the period made odd;
 * seasonal degree 0, trend and low-pass degree 1; jumps a tenth of each length, rounded up; two inner loops, no robust
 * ones), over the series as Float32, computing in Float32 and Float64 where the port does. The result is
 * [seasonal, trend, remainder, seasonal + trend], each an Array(Float32).
 */
final class SeriesDecomposeSTL {
    private static final String NAME = "seriesDecomposeSTL";

    private SeriesDecomposeSTL() {
    }

    static Evaluator build(List<Evaluator> args) {
        dev.chdedup.stub.exec.Functions.arity(NAME, args, 2);
        if (FunctionsTimeSeriesGrid.anyNothing(args)) {
            return TimeSeriesTagsArguments.withNulls(DataTypes.NOTHING, args, v -> null);
        }
        DataType series = args.get(0).type();
        if (!(series instanceof ArrayType a)) {
            throw illegal(1, "time_series", "Array", series);
        }
        DataType period = args.get(1).type();
        if (!(period instanceof IntType it && !it.signed)) {
            throw illegal(2, "period", "Unsigned Integer", period);
        }
        DataType element = a.element;
        if (!FunctionsTimeSeriesGrid.isNativeNumber(element)) {
            throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Illegal column " + series.name() + " of first argument of function " + NAME);
        }
        Evaluator s = args.get(0);
        Evaluator p = args.get(1);
        return Evaluator.of(DataTypes.array(DataTypes.array(DataTypes.FLOAT32)), r -> {
            List<?> values = (List<?>) s.eval(r);
            long np = ((Number) p.eval(r)).longValue();
            int n = values.size();
            if (n < 4) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "At least four data points are needed for function " + NAME);
            }
            if (Long.compareUnsigned(np, n / 2) > 0) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "The series should have data of at least two period lengths for function "
                    + NAME);
            }
            float[] y = new float[n];
            for (int i = 0; i < n; i++) {
                y[i] = Values.toNumber(values.get(i), element).floatValue();
            }
            return decompose(y, (int) np);
        });
    }

    private static ChException illegal(int position, String argument, String expected, DataType got) {
        return new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "A value of illegal type was provided as " + (position == 1 ? "1st" : "2nd")
            + " argument '" + argument + "' to function '" + NAME + "'. Expected: " + expected + ", got: " + got.name());
    }

    private static List<Object> decompose(float[] y, int period) {
        int n = y.length;
        int np = Math.max(period, 2);
        int ns = Math.max(period, 3);
        if (ns % 2 == 0) {
            ns++;
        }
        int nt = (int) Math.ceil((1.5 * np) / (1.0 - 1.5 / (float) ns));
        nt = Math.max(nt, 3);
        if (nt % 2 == 0) {
            nt++;
        }
        int nl = np % 2 == 0 ? np + 1 : np;
        int nsjump = (int) Math.ceil((float) ns / 10.0);
        int ntjump = (int) Math.ceil((float) nt / 10.0);
        int nljump = (int) Math.ceil((float) nl / 10.0);
        float[] season = new float[n + 2 * np];
        float[] trend = new float[n + 2 * np];
        float[][] work = new float[5][n + 2 * np];
        for (int inner = 0; inner < 2; inner++) {
            step(y, n, np, ns, nt, nl, nsjump, ntjump, nljump, season, trend, work);
        }
        List<Object> seasonal = new ArrayList<>(n);
        List<Object> trendList = new ArrayList<>(n);
        List<Object> remainder = new ArrayList<>(n);
        List<Object> baseline = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            seasonal.add(season[i]);
            trendList.add(trend[i]);
            remainder.add(y[i] - season[i] - trend[i]);
            baseline.add(season[i] + trend[i]);
        }
        return List.of(seasonal, trendList, remainder, baseline);
    }

    /** One inner loop of STL (the port's onestp): the seasonal, its low-pass, then the trend. */
    private static void step(float[] y, int n, int np, int ns, int nt, int nl, int nsjump, int ntjump, int nljump, float[] season,
                             float[] trend, float[][] work) {
        float[] w1 = work[0];
        float[] w2 = work[1];
        float[] w3 = work[2];
        float[] w4 = work[3];
        float[] w5 = work[4];
        for (int i = 0; i < n; i++) {
            w1[i] = y[i] - trend[i];
        }
        cycleSubseries(w1, n, np, ns, nsjump, w2, w3, w4, season);
        movingAverages(w2, n + 2 * np, np, w3, w1);
        smooth(w3, 0, n, nl, 1, nljump, w1, 0, w5);
        for (int i = 0; i < n; i++) {
            season[i] = w2[np + i] - w1[i];
        }
        for (int i = 0; i < n; i++) {
            w1[i] = y[i] - season[i];
        }
        smooth(w1, 0, n, nt, 1, ntjump, trend, 0, w3);
    }

    /** The port's ss: each cycle-subseries smoothed (degree 0) and extended by one value at each end, into {@code season}. */
    private static void cycleSubseries(float[] y, int n, int np, int ns, int nsjump, float[] season, float[] w1, float[] w2, float[] w4) {
        for (int j = 1; j <= np; j++) {
            int k = (n - j) / np + 1;
            for (int i = 1; i <= k; i++) {
                w1[i - 1] = y[(i - 1) * np + j - 1];
            }
            smooth(w1, 0, k, ns, 0, nsjump, w2, 1, w4);
            int nright = Math.min(ns, k);
            Float v = estimate(w1, k, ns, 0, 0.0f, 1, nright, w4);
            w2[0] = v != null ? v : w2[1];
            int nleft = Math.max(1, k - ns + 1);
            v = estimate(w1, k, ns, 0, (float) (k + 1), nleft, k, w4);
            w2[k + 1] = v != null ? v : w2[k];
            for (int m = 1; m <= k + 2; m++) {
                season[(m - 1) * np + j - 1] = w2[m - 1];
            }
        }
    }

    /** The port's fts: moving averages of lengths np, np and 3. */
    private static void movingAverages(float[] x, int n, int np, float[] trend, float[] work) {
        movingAverage(x, n, np, trend);
        movingAverage(trend, n - np + 1, np, work);
        movingAverage(work, n - 2 * np + 2, 3, trend);
    }

    private static void movingAverage(float[] x, int n, int len, float[] ave) {
        int newn = n - len + 1;
        float flen = len;
        double v = 0.0;
        for (int i = 0; i < len; i++) {
            v += x[i];
        }
        ave[0] = (float) (v / flen);
        int k = len;
        int m = 0;
        for (int j = 1; j < newn; j++) {
            v = v - x[m] + x[k];
            ave[j] = (float) (v / flen);
            k++;
            m++;
        }
    }

    /**
     * The port's ess: the loess smooth of {@code y[0, n)} with window {@code len} and degree {@code ideg}, computed every
     * {@code njump} points and interpolated between, into {@code ys} from {@code ysFrom}; {@code res} is scratch.
     */
    private static void smooth(float[] y, int yFrom, int n, int len, int ideg, int njump, float[] ys, int ysFrom, float[] res) {
        if (n < 2) {
            ys[ysFrom] = y[yFrom];
            return;
        }
        int nleft = 0;
        int nright = 0;
        int newnj = Math.min(njump, n - 1);
        if (len >= n) {
            nleft = 1;
            nright = n;
            for (int i = 1; i <= n; i += newnj) {
                fit(y, n, len, ideg, i, ys, ysFrom, nleft, nright, res);
            }
        } else if (newnj == 1) {
            int nsh = (len + 1) / 2;
            nleft = 1;
            nright = len;
            for (int i = 1; i <= n; i++) {
                if (i > nsh && nright != n) {
                    nleft++;
                    nright++;
                }
                fit(y, n, len, ideg, i, ys, ysFrom, nleft, nright, res);
            }
        } else {
            int nsh = (len + 1) / 2;
            for (int i = 1; i <= n; i += newnj) {
                if (i < nsh) {
                    nleft = 1;
                    nright = len;
                } else if (i >= n - nsh + 1) {
                    nleft = n - len + 1;
                    nright = n;
                } else {
                    nleft = i - nsh + 1;
                    nright = len + i - nsh;
                }
                fit(y, n, len, ideg, i, ys, ysFrom, nleft, nright, res);
            }
        }
        if (newnj != 1) {
            for (int i = 1; i <= n - newnj; i += newnj) {
                float delta = (ys[ysFrom + i + newnj - 1] - ys[ysFrom + i - 1]) / (float) newnj;
                for (int j = i + 1; j <= i + newnj - 1; j++) {
                    ys[ysFrom + j - 1] = ys[ysFrom + i - 1] + delta * (float) (j - i);
                }
            }
            int k = ((n - 1) / newnj) * newnj + 1;
            if (k != n) {
                fit(y, n, len, ideg, n, ys, ysFrom, nleft, nright, res);
                if (k != n - 1) {
                    float delta = (ys[ysFrom + n - 1] - ys[ysFrom + k - 1]) / (float) (n - k);
                    for (int j = k + 1; j <= n - 1; j++) {
                        ys[ysFrom + j - 1] = ys[ysFrom + k - 1] + delta * (float) (j - k);
                    }
                }
            }
        }
    }

    /** The fitted value at {@code i} into {@code ys[ysFrom + i - 1]}, or y's own value when the fit has no weight. */
    private static void fit(float[] y, int n, int len, int ideg, int i, float[] ys, int ysFrom, int nleft, int nright, float[] res) {
        Float v = estimate(y, n, len, ideg, (float) i, nleft, nright, res);
        ys[ysFrom + i - 1] = v != null ? v : y[i - 1];
    }

    /** The port's est: the local weighted (tricube) fit at {@code xs} of {@code y[nleft - 1, nright)}, or null without weight. */
    private static Float estimate(float[] y, int n, int len, int ideg, float xs, int nleft, int nright, float[] w) {
        double range = (float) n - 1.0;
        float h = Math.max(xs - (float) nleft, (float) nright - xs);
        if (len > n) {
            h += (float) ((len - n) / 2);
        }
        double h9 = 0.999 * h;
        double h1 = 0.001 * h;
        double a = 0.0;
        for (int j = nleft; j <= nright; j++) {
            w[j - 1] = 0.0f;
            float r = Math.abs((float) j - xs);
            if (r <= h9) {
                if (r <= h1) {
                    w[j - 1] = 1.0f;
                } else {
                    w[j - 1] = (float) Math.pow(1.0 - Math.pow(r / h, 3), 3);
                }
                a += w[j - 1];
            }
        }
        if (a <= 0.0) {
            return null;
        }
        for (int j = nleft; j <= nright; j++) {
            w[j - 1] = (float) (w[j - 1] / a);
        }
        if (h > 0.0 && ideg > 0) {
            double center = 0.0;
            for (int j = nleft; j <= nright; j++) {
                center += w[j - 1] * (float) j;
            }
            double b = xs - center;
            double c = 0.0;
            for (int j = nleft; j <= nright; j++) {
                c += w[j - 1] * Math.pow((float) j - center, 2);
            }
            if (Math.sqrt(c) > 0.001 * range) {
                b /= c;
                for (int j = nleft; j <= nright; j++) {
                    w[j - 1] = (float) (w[j - 1] * (b * ((float) j - center) + 1.0));
                }
            }
        }
        float ys = 0.0f;
        for (int j = nleft; j <= nright; j++) {
            ys += w[j - 1] * y[j - 1];
        }
        return ys;
    }
}
