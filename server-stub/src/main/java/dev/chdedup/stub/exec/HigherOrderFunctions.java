package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.Values;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Array functions that take a lambda as their first argument: arrayMap, arrayFilter, arrayExists, arrayAll,
 * arrayCount, arraySum, arrayFirst and arraySort. The lambda's body is compiled over the outer row with its
 * parameters appended as columns, and evaluated once per element (several arrays are walked in step).
 */
final class HigherOrderFunctions {
    private HigherOrderFunctions() {
    }

    static Evaluator compile(Expr.Call call, ExprCompiler outer) {
        if (MapHigherOrderFunctions.handles(call.name())) {
            return MapHigherOrderFunctions.compile(call, outer);
        }
        Expr.Lambda lambda = (Expr.Lambda) call.args().get(0);
        List<Evaluator> arrays = new ArrayList<>();
        for (Expr a : call.args().subList(1, call.args().size())) {
            Evaluator ev = outer.compileArgument(a);
            if (!(ev.type().unwrap() instanceof ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument of function " + call.name() + " must be an array, got "
                    + ev.type().name());
            }
            arrays.add(ev);
        }
        if (arrays.isEmpty() || arrays.size() != lambda.params().size()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Lambda of function " + call.name() + " takes "
                + lambda.params().size() + " arguments, but " + arrays.size() + " arrays were given");
        }
        List<Column> params = new ArrayList<>();
        for (int i = 0; i < arrays.size(); i++) {
            params.add(new Column(lambda.params().get(i), ((ArrayType) arrays.get(i).type().unwrap()).element));
        }
        ExprCompiler inner = outer.withParameters(params);
        Evaluator body = inner.compile(lambda.body());
        int width = outer.inputWidth();
        int n = arrays.size();
        DataType first = params.get(0).type();
        Walker walk = (row, visitor) -> {
            List<?>[] lists = new List<?>[n];
            int len = -1;
            for (int i = 0; i < n; i++) {
                Object v = arrays.get(i).eval(row);
                lists[i] = v == null ? List.of() : (List<?>) v;
                if (len >= 0 && lists[i].size() != len) {
                    throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Arrays passed to " + call.name() + " must have equal size");
                }
                len = lists[i].size();
            }
            Object[] extended = java.util.Arrays.copyOf(row, width + n);
            for (int k = 0; k < len; k++) {
                for (int i = 0; i < n; i++) {
                    extended[width + i] = lists[i].get(k);
                }
                if (!visitor.visit(lists[0].get(k), body.eval(extended))) {
                    break;
                }
            }
        };
        switch (call.name()) {
            case "arrayMap":
                return Evaluator.of(DataTypes.array(body.type()), row -> {
                    List<Object> out = new ArrayList<>();
                    walk.run(row, (el, r) -> out.add(r));
                    return Collections.unmodifiableList(out);
                });
            case "arrayFilter":
                return Evaluator.of(DataTypes.array(first), row -> {
                    List<Object> out = new ArrayList<>();
                    walk.run(row, (el, r) -> Values.isTrue(r) ? out.add(el) || true : true);
                    return Collections.unmodifiableList(out);
                });
            case "arrayExists":
                return Evaluator.of(DataTypes.UINT8, row -> {
                    boolean[] any = {false};
                    walk.run(row, (el, r) -> !(any[0] = Values.isTrue(r)));
                    return any[0] ? 1L : 0L;
                });
            case "arrayAll":
                return Evaluator.of(DataTypes.UINT8, row -> {
                    boolean[] all = {true};
                    walk.run(row, (el, r) -> all[0] = Values.isTrue(r));
                    return all[0] ? 1L : 0L;
                });
            case "arrayCount":
                return Evaluator.of(DataTypes.UINT32, row -> {
                    long[] c = {0};
                    walk.run(row, (el, r) -> {
                        if (Values.isTrue(r)) {
                            c[0]++;
                        }
                        return true;
                    });
                    return c[0];
                });
            case "arraySum": {
                boolean floating = body.type().unwrap() instanceof dev.chdedup.stub.types.FloatType;
                return Evaluator.of(floating ? DataTypes.FLOAT64 : DataTypes.INT64, row -> {
                    double[] d = {0};
                    long[] l = {0};
                    walk.run(row, (el, r) -> {
                        if (r != null) {
                            Number num = Values.toNumber(r, body.type());
                            if (floating) {
                                d[0] += num.doubleValue();
                            } else {
                                l[0] += Values.toLong(num);
                            }
                        }
                        return true;
                    });
                    return floating ? (Object) d[0] : (Object) l[0];
                });
            }
            case "arrayFirst":
                return Evaluator.of(first, row -> {
                    Object[] found = {null};
                    boolean[] hit = {false};
                    walk.run(row, (el, r) -> {
                        if (Values.isTrue(r)) {
                            found[0] = el;
                            hit[0] = true;
                            return false;
                        }
                        return true;
                    });
                    return hit[0] ? found[0] : first.defaultValue();
                });
            case "arraySort":
                return Evaluator.of(DataTypes.array(first), row -> {
                    List<Object[]> pairs = new ArrayList<>();
                    walk.run(row, (el, r) -> pairs.add(new Object[] {el, r}));
                    DataType key = TypeRules.stripNullable(body.type());
                    pairs.sort((x, y) -> SelectExecutor.compareNullsLast(key, x[1], y[1]));
                    List<Object> out = new ArrayList<>();
                    for (Object[] p : pairs) {
                        out.add(p[0]);
                    }
                    return Collections.unmodifiableList(out);
                });
            default:
                throw new ChException(ErrorCode.UNKNOWN_FUNCTION, "Function " + call.name() + " does not take a lambda in the stub");
        }
    }

    /** Walks the arrays of a row, element by element, until the visitor says stop. */
    @FunctionalInterface
    private interface Walker {
        void run(Object[] row, Visitor v);
    }

    @FunctionalInterface
    private interface Visitor {
        boolean visit(Object element, Object result);
    }
}
