package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.FloatType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.StringType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The array functions that measure arrays (ClickHouse's arrayLevenshtein.cpp, arrayAutocorrelation.cpp, arrayAUC,
 * arrayPrAUC and arrayNormalizedGini.cpp): arrayLevenshteinDistance (UInt32; elements of different kinds of type are
 * never equal, as ClickHouse compares Fields), arrayLevenshteinDistanceWeighted and arraySimilarity (Float64; an edit
 * costs the weights of the elements it deletes, inserts or replaces, where each edit costs 1 unweighted), arrayAutocorrelation, arrayROCAUC and arrayAUCPR
 * (the area under the ROC and precision-recall curves, thresholds at each distinct score) and arrayNormalizedGini.
 */
final class FunctionsArrayStats {
    private FunctionsArrayStats() {
    }

    static void register(FunctionFactory f) {
        String c = FunctionsArray.CATEGORY;
        f.register("arrayLevenshteinDistance", c, (args, ctx) -> levenshtein("arrayLevenshteinDistance", args));
        f.register("arrayLevenshteinDistanceWeighted", c, (args, ctx) -> levenshtein("arrayLevenshteinDistanceWeighted", args));
        f.register("arraySimilarity", c, (args, ctx) -> levenshtein("arraySimilarity", args));
        f.register("arrayAutocorrelation", c, (args, ctx) -> autocorrelation(args));
        f.register("arrayROCAUC", c, (args, ctx) -> auc("arrayROCAUC", args));
        f.registerAlias("arrayAUC", "arrayROCAUC", false);
        f.register("arrayAUCPR", c, (args, ctx) -> auc("arrayAUCPR", args));
        f.registerAlias("arrayPRAUC", "arrayAUCPR", false);
        f.register("arrayNormalizedGini", c, (args, ctx) -> gini(args));
    }

    private static final String[] LEVENSHTEIN_ARGUMENTS = {"from", "to", "from_weights", "to_weights"};

    /** The kind of value ClickHouse's Field holds for a type: elements of different kinds never compare equal. */
    private static String kind(DataType t) {
        DataType u = TypeRules.stripNullable(t).unwrap();
        if (u instanceof IntType i) {
            return i.signed ? "Int64" : "UInt64";
        }
        if (u instanceof FloatType) {
            return "Float64";
        }
        return u instanceof StringType ? "String" : u.name();
    }

    private static Evaluator levenshtein(String name, List<Evaluator> args) {
        boolean weighted = !name.equals("arrayLevenshteinDistance");
        Functions.argumentCount(name, args, weighted ? 4 : 2, 0);
        for (int i = 0; i < args.size(); i++) {
            if (!(args.get(i).type().unwrap() instanceof ArrayType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 1, LEVENSHTEIN_ARGUMENTS[i], name, "Array",
                    args.get(i).type());
            }
        }
        DataType from = ((ArrayType) args.get(0).type().unwrap()).element;
        DataType to = ((ArrayType) args.get(1).type().unwrap()).element;
        boolean comparable = kind(from).equals(kind(to));
        if (weighted) {
            DataType w1 = ((ArrayType) args.get(2).type().unwrap()).element;
            DataType w2 = ((ArrayType) args.get(3).type().unwrap()).element;
            for (int i = 2; i < 4; i++) {
                DataType w = i == 2 ? w1 : w2;
                if (!(w instanceof IntType || w instanceof FloatType)) {
                    throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + (i + 1) + " of function " + name
                        + " must be a numeric array. Found " + w.name() + " instead.");
                }
            }
            if (!w1.name().equals(w2.name())) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Arguments 3 and 4 of function " + name
                    + " must be arrays of the same types. Found " + w1.name() + " and " + w2.name() + " instead.");
            }
        }
        return Functions.strict(weighted ? DataTypes.FLOAT64 : DataTypes.UINT32, args, v -> {
            List<?> a = (List<?>) v[0];
            List<?> b = (List<?>) v[1];
            double[] wa = new double[a.size()];
            double[] wb = new double[b.size()];
            Arrays.fill(wa, 1);
            Arrays.fill(wb, 1);
            if (weighted) {
                wa = weights(name, v, args, 0, 2);
                wb = weights(name, v, args, 1, 3);
            }
            double[] prev = new double[b.size() + 1];
            double[] cur = new double[b.size() + 1];
            for (int j = 1; j <= b.size(); j++) {
                prev[j] = prev[j - 1] + wb[j - 1];
            }
            for (int i = 1; i <= a.size(); i++) {
                cur[0] = prev[0] + wa[i - 1];
                for (int j = 1; j <= b.size(); j++) {
                    boolean equal = comparable && ArrayArgs.same(a.get(i - 1), from, b.get(j - 1), to);
                    double replace = prev[j - 1] + (equal ? 0 : weighted ? wa[i - 1] + wb[j - 1] : 1);
                    cur[j] = Math.min(replace, Math.min(prev[j] + wa[i - 1], cur[j - 1] + wb[j - 1]));
                }
                double[] t = prev;
                prev = cur;
                cur = t;
            }
            double distance = prev[b.size()];
            if (!weighted) {
                return (long) distance;
            }
            if (!name.equals("arraySimilarity")) {
                return distance;
            }
            double total = Arrays.stream(wa).sum() + Arrays.stream(wb).sum();
            return distance == 0 || total == 0 ? 1.0 : 1.0 - distance / total;
        });
    }

    private static double[] weights(String name, Object[] v, List<Evaluator> args, int array, int weights) {
        List<?> a = (List<?>) v[array];
        List<?> w = (List<?>) v[weights];
        if (a.size() != w.size()) {
            throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Arguments " + (array + 1) + " (" + args.get(array).type().name()
                + ", size " + a.size() + ") and " + (weights + 1) + " (" + args.get(weights).type().name() + ", size " + w.size()
                + ") of function " + name + " must be arrays of the same size");
        }
        return numbers(w, ((ArrayType) args.get(weights).type().unwrap()).element);
    }

    private static double[] numbers(List<?> l, DataType t) {
        double[] out = new double[l.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = Values.toNumber(l.get(i), t).doubleValue();
        }
        return out;
    }

    private static DataType numericElement(String name, List<Evaluator> args, int i, String which) {
        DataType t = args.get(i).type().unwrap();
        if (!(t instanceof ArrayType at) || !TypeRules.isNumeric(at.element) || at.element.isNullable()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, which + " argument for function " + name
                + " must be an Array of numeric type, got " + args.get(i).type().name());
        }
        return at.element;
    }

    /** arrayAutocorrelation(arr[, max_lag]): the correlation of the array with itself shifted by 0, 1, ... lags. */
    private static Evaluator autocorrelation(List<Evaluator> args) {
        Functions.argumentCount("arrayAutocorrelation", args, 1, 1);
        DataType el = numericElement("arrayAutocorrelation", args, 0, "First");
        if (args.size() == 2) {
            ArrayArgs.integer("arrayAutocorrelation", args, 1);
        }
        return Functions.strict(DataTypes.array(DataTypes.FLOAT64), args, v -> {
            double[] x = numbers((List<?>) v[0], el);
            int n = x.length;
            long lags = v.length > 1 ? Math.max(0, Math.min(n, ArrayArgs.longOf(v[1], args, 1))) : n;
            double mean = 0;
            for (double d : x) {
                mean += d;
            }
            mean /= n;
            double[] dev = new double[n];
            double variance = 0;
            for (int i = 0; i < n; i++) {
                dev[i] = x[i] - mean;
                variance += dev[i] * dev[i];
            }
            List<Object> out = new ArrayList<>();
            for (int k = 0; k < lags; k++) {
                double s = 0;
                for (int i = 0; i + k < n; i++) {
                    s += dev[i] * dev[i + k];
                }
                out.add(s / variance);
            }
            return ArrayArgs.frozen(out);
        });
    }

    /**
     * arrayROCAUC(scores, labels[, scale]) and arrayAUCPR(scores, labels): labels above 0 are positives; the scores
     * taken from the highest down, each distinct score a threshold. ROC sums trapezoids (scaled by the counts of
     * positives and negatives unless scale is false), PR sums the recall gained times the precision at each threshold.
     */
    private static Evaluator auc(String name, List<Evaluator> args) {
        boolean roc = name.equals("arrayROCAUC");
        Functions.argumentCount(name, args, 2, roc ? 1 : 0);
        DataType scores = numericElement(name, args, 0, "First");
        DataType labels = ((ArrayType) args.get(1).type().unwrap()).element;
        return Functions.strict(DataTypes.FLOAT64, args, v -> {
            double[] s = numbers((List<?>) v[0], scores);
            List<?> l = (List<?>) v[1];
            if (s.length != l.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Array arguments of function " + name + " must have the same size");
            }
            boolean scale = v.length < 3 || dev.chdedup.stub.types.Values.isTrue(v[2]);
            Integer[] order = new Integer[s.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (x, y) -> Double.compare(s[y], s[x]));
            double tp = 0;
            double fp = 0;
            double area = 0;
            double prevTp = 0;
            double prevFp = 0;
            double positives = 0;
            for (Object o : l) {
                positives += Values.toNumber(o, labels).doubleValue() > 0 ? 1 : 0;
            }
            for (int k = 0; k < order.length; k++) {
                int i = order[k];
                if (Values.toNumber(l.get(i), labels).doubleValue() > 0) {
                    tp++;
                } else {
                    fp++;
                }
                if (k + 1 < order.length && s[order[k + 1]] == s[i]) {
                    continue;
                }
                if (roc) {
                    area += (fp - prevFp) * (tp + prevTp) / 2;
                } else if (positives > 0) {
                    area += (tp - prevTp) / positives * (tp / (tp + fp));
                }
                prevTp = tp;
                prevFp = fp;
            }
            return roc && scale ? area / (tp * fp) : area;
        });
    }

    /** arrayNormalizedGini(predicted, label): the Gini of the labels ordered by prediction, of the labels, and their ratio. */
    private static Evaluator gini(List<Evaluator> args) {
        Functions.arity("arrayNormalizedGini", args, 2);
        DataType p = numericElement("arrayNormalizedGini", args, 0, "First");
        DataType t = numericElement("arrayNormalizedGini", args, 1, "Second");
        return Functions.strict(DataTypes.tuple(List.of(DataTypes.FLOAT64, DataTypes.FLOAT64, DataTypes.FLOAT64)), args, v -> {
            double[] pred = numbers((List<?>) v[0], p);
            double[] label = numbers((List<?>) v[1], t);
            if (pred.length != label.length) {
                throw new ChException(ErrorCode.ILLEGAL_COLUMN, "All array in function arrayNormalizedGini should have same size");
            }
            int n = pred.length;
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (x, y) -> Double.compare(pred[x], pred[y]));
            double total = 0;
            for (double d : label) {
                total += d;
            }
            double predRatios = 0;
            double cum = 0;
            for (Integer i : order) {
                cum += label[i] / total;
                predRatios += cum;
            }
            double[] sorted = label.clone();
            Arrays.sort(sorted);
            double labelRatios = 0;
            cum = 0;
            for (double d : sorted) {
                cum += d / total;
                labelRatios += cum;
            }
            double random = 0.5 * (n + 1);
            double predGini = (random - predRatios) / n;
            double labelGini = (random - labelRatios) / n;
            return List.of(predGini, labelGini, predGini / labelGini);
        });
    }
}
