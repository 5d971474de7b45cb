package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.MapType;
import dev.chdedup.stub.types.TupleType;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The Map functions of a lambda, after ClickHouse's FunctionsMapMiscellaneous.cpp, which runs the array function of the
 * same kind over the map's pairs: mapFilter, mapApply (the lambda gives a tuple of the new key and value), mapExists and
 * mapAll (UInt8), mapSort and mapReverseSort (by the lambda's result, or by key and value without a lambda; stable, NULL
 * last), mapPartialSort and mapPartialReverseSort (a limit first; only that many pairs are sorted, the rest left as
 * miniselect's Floyd-Rivest selection leaves them, as the engine's partial sort does). A lambda of two parameters sees the
 * key and the value, one of one parameter the pair as a tuple.
 */
final class MapHigherOrderFunctions {
    private MapHigherOrderFunctions() {
    }

    static boolean handles(String n) {
        switch (n) {
            case "mapFilter": case "mapApply": case "mapExists": case "mapAll": case "mapSort": case "mapReverseSort": case "mapPartialSort":
            case "mapPartialReverseSort":
                return true;
            default:
                return false;
        }
    }

    /** A compiled call: the map's pairs of a row, and the lambda's result for each pair (null without a lambda). */
    private interface Pairs {
        List<Map.Entry<Object, Object>> of(Object[] row);
    }

    static Evaluator compile(Expr.Call call, ExprCompiler outer) {
        String name = call.name();
        List<Expr> args = call.args();
        Expr.Lambda lambda = !args.isEmpty() && args.get(0) instanceof Expr.Lambda ? (Expr.Lambda) args.get(0) : null;
        int at = lambda != null ? 1 : 0;
        Evaluator limit = null;
        if (name.startsWith("mapPartial")) {
            if (args.size() < at + 2) {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " needs a limit and a map");
            }
            limit = outer.compileArgument(args.get(at));
            at++;
        }
        if (args.size() <= at) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " needs at least one argument of type Map");
        }
        Evaluator map = outer.compileArgument(args.get(at));
        if (!(map.type().unwrap() instanceof MapType) || map.type().isNullable()) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " requires at least one argument of type Map");
        }
        if (args.size() > at + 1) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " takes one map");
        }
        MapType mt = (MapType) map.type().unwrap();
        boolean sort = name.contains("Sort");
        if (lambda == null && !sort) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The 1st and only argument for function " + name
                + " must be a lambda over the map's keys and values");
        }
        Evaluator body = null;
        int width = outer.inputWidth();
        if (lambda != null) {
            List<Column> params = new ArrayList<>();
            if (lambda.params().size() == 2) {
                params.add(new Column(lambda.params().get(0), mt.key));
                params.add(new Column(lambda.params().get(1), mt.value));
            } else if (lambda.params().size() == 1) {
                params.add(new Column(lambda.params().get(0), DataTypes.tuple(List.of(mt.key, mt.value))));
            } else {
                throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Lambda for function " + name + " takes "
                    + lambda.params().size() + " arguments, but the map gives keys and values");
            }
            body = outer.withParameters(params).compile(lambda.body());
        }
        Evaluator fn = body;
        boolean pair = lambda != null && lambda.params().size() == 1;
        // the lambda's result for one pair of a row
        java.util.function.BiFunction<Object[], Map.Entry<Object, Object>, Object> apply = (row, e) -> {
            Object[] extended = Arrays.copyOf(row, width + (pair ? 1 : 2));
            if (pair) {
                extended[width] = Collections.unmodifiableList(Arrays.asList(e.getKey(), e.getValue()));
            } else {
                extended[width] = e.getKey();
                extended[width + 1] = e.getValue();
            }
            return fn.eval(extended);
        };
        switch (name) {
            case "mapFilter":
                return Evaluator.of(mt, row -> {
                    List<Map.Entry<Object, Object>> out = new ArrayList<>();
                    for (Map.Entry<Object, Object> e : MapEntries.entries(map.eval(row))) {
                        if (Values.isTrue(apply.apply(row, e))) {
                            out.add(e);
                        }
                    }
                    return MapEntries.ofEntries(out);
                });
            case "mapApply": {
                DataType bt = fn.type().unwrap();
                if (!(bt instanceof TupleType) || ((TupleType) bt).elements.size() != 2) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Expected Array(Tuple(key, value)) type, got Array(" + fn.type().name() + ")");
                }
                DataType result = MapFunctions.mapOf(((TupleType) bt).elements.get(0), ((TupleType) bt).elements.get(1));
                return Evaluator.of(result, row -> {
                    List<Object> keys = new ArrayList<>();
                    List<Object> values = new ArrayList<>();
                    for (Map.Entry<Object, Object> e : MapEntries.entries(map.eval(row))) {
                        List<?> kv = (List<?>) apply.apply(row, e);
                        keys.add(kv.get(0));
                        values.add(kv.get(1));
                    }
                    return MapEntries.of(keys, values);
                });
            }
            case "mapExists": case "mapAll": {
                boolean all = name.equals("mapAll");
                return Evaluator.of(DataTypes.UINT8, row -> {
                    for (Map.Entry<Object, Object> e : MapEntries.entries(map.eval(row))) {
                        if (Values.isTrue(apply.apply(row, e)) != all) {
                            return all ? 0L : 1L;
                        }
                    }
                    return all ? 1L : 0L;
                });
            }
            default:
                return sorted(name, mt, map, limit, fn, apply);
        }
    }

    /** mapSort(map), mapPartialSort(limit, map) and the reverse ones without a lambda: by key, then value. */
    static Evaluator compileWithoutLambda(String name, List<Evaluator> args) {
        boolean partial = name.startsWith("mapPartial");
        if (!name.contains("Sort")) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "The 1st and only argument for function " + name
                + " must be a lambda over the map's keys and values");
        }
        Functions.argumentCount(name, args, partial ? 2 : 1, 0);
        Evaluator map = args.get(partial ? 1 : 0);
        MapType mt = MapFunctions.mapType(name, map);
        return sorted(name, mt, map, partial ? args.get(0) : null, null, null);
    }

    private static Evaluator sorted(String name, MapType mt, Evaluator map, Evaluator limit, Evaluator fn,
                                    java.util.function.BiFunction<Object[], Map.Entry<Object, Object>, Object> apply) {
        boolean reverse = name.contains("Reverse");
        DataType keyType = fn == null ? null : TypeRules.stripNullable(fn.type());
        java.util.Comparator<Object> byKey = (a, b) -> {
            int c;
            if (fn == null) {
                // the pairs themselves: by key, then by value, NULL last
                List<?> x = (List<?>) a;
                List<?> y = (List<?>) b;
                c = mt.key.compare(x.get(0), y.get(0));
                if (c == 0) {
                    c = SelectExecutor.compareNullsLast(TypeRules.stripNullable(mt.value), x.get(1), y.get(1));
                }
            } else {
                if (a == null || b == null) {
                    return a == b ? 0 : a == null ? 1 : -1;
                }
                c = keyType.compare(a, b);
            }
            return reverse ? -c : c;
        };
        return Evaluator.of(mt, row -> {
            List<Map.Entry<Object, Object>> entries = MapEntries.entries(map.eval(row));
            int n = entries.size();
            Object[] keys = new Object[n];
            Integer[] order = new Integer[n];
            for (int i = 0; i < n; i++) {
                Map.Entry<Object, Object> e = entries.get(i);
                keys[i] = fn == null ? Collections.unmodifiableList(Arrays.asList(e.getKey(), e.getValue())) : apply.apply(row, e);
                order[i] = i;
            }
            java.util.Comparator<Integer> cmp = (a, b) -> byKey.compare(keys[a], keys[b]);
            if (limit == null) {
                Arrays.sort(order, cmp);
            } else {
                long l = Values.toLong(Values.toNumber(limit.eval(row), limit.type()));
                // a limit of 0 (or none left out) sorts them all
                int mid = l <= 0 ? n : (int) Math.min(l, n);
                if (mid > 0 && n > 0) {
                    floydRivestSelect(order, 0, n - 1, mid - 1, cmp);
                    Arrays.sort(order, 0, mid, cmp);
                }
            }
            List<Map.Entry<Object, Object>> out = new ArrayList<>(n);
            for (Integer i : order) {
                out.add(entries.get(i));
            }
            return MapEntries.ofEntries(out);
        });
    }

    /**
     * miniselect's floyd_rivest_select_loop, which ClickHouse's partial sort runs before sorting the first elements: it
     * decides where the elements past the limit end up. Its pivot is a position, not a value, as in the original.
     */
    static void floydRivestSelect(Integer[] a, int left, int right, int k, java.util.Comparator<Integer> comp) {
        while (right > left) {
            if (right - left > 600) {
                int n = right - left + 1;
                int i = k - left + 1;
                double z = Math.log(n);
                double s = 0.5 * Math.exp(2 * z / 3);
                double sd = 0.5 * Math.sqrt(z * s * (n - s) / n);
                if (i < n / 2) {
                    sd *= -1.0;
                }
                int newLeft = Math.max(left, (int) (k - i * s / n + sd));
                int newRight = Math.min(right, (int) (k + (n - i) * s / n + sd));
                floydRivestSelect(a, newLeft, newRight, k, comp);
            }
            int i = left;
            int j = right;
            swap(a, left, k);
            boolean toSwap = comp.compare(a[left], a[right]) < 0;
            if (toSwap) {
                swap(a, left, right);
            }
            int t = toSwap ? left : right;
            while (i < j) {
                swap(a, i, j);
                i++;
                j--;
                while (comp.compare(a[i], a[t]) < 0) {
                    i++;
                }
                while (comp.compare(a[t], a[j]) < 0) {
                    j--;
                }
            }
            if (toSwap) {
                swap(a, left, j);
            } else {
                j++;
                swap(a, right, j);
            }
            if (j <= k) {
                left = j + 1;
            }
            if (k <= j) {
                right = j - 1;
            }
        }
    }

    private static void swap(Integer[] a, int i, int j) {
        Integer t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}
