package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;

/**
 * The calls whose first argument is a lambda, as ClickHouse's FunctionArrayMapped: the lambda is applied to the
 * elements of the arrays walked in step (its body compiled over the outer row with its parameters appended as
 * columns), and the function then works on the array of its results and on the first array
 * ({@link FunctionsArrayMapped}). arrayPartialSort, arrayTopK and their kin take their limit between the lambda and
 * the arrays; arrayFold takes its accumulator after them and feeds it back to the lambda (first parameter).
 */
final class HigherOrderFunctions {
    private HigherOrderFunctions() {
    }

    static Evaluator compile(Expr.Call call, ExprCompiler outer) {
        if (MapHigherOrderFunctions.handles(call.name())) {
            return MapHigherOrderFunctions.compile(call, outer);
        }
        String name = call.name();
        Expr.Lambda lambda = (Expr.Lambda) call.args().get(0);
        List<Evaluator> rest = new ArrayList<>();
        for (Expr a : call.args().subList(1, call.args().size())) {
            rest.add(outer.compileArgument(a));
        }
        boolean fold = name.equals("arrayFold");
        int lead = FunctionsArrayMapped.takesLimit(name) ? 1 : 0;
        int trail = fold ? 1 : 0;
        if (rest.size() < lead + trail + 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Function " + name + " needs at least "
                + (lead + trail + 2) + " arguments, passed " + (rest.size() + 1));
        }
        List<Evaluator> params = rest.subList(0, lead);
        List<Evaluator> arrays = rest.subList(lead, rest.size() - trail);
        for (int i = 0; i < arrays.size(); i++) {
            if (!(arrays.get(i).type().unwrap() instanceof ArrayType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Argument " + (lead + i + 2) + " of function " + name
                    + " must be Array. Found " + arrays.get(i).type().name() + " instead.");
            }
        }
        int wanted = arrays.size() + trail;
        if (lambda.params().size() != wanted) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for this overload of " + name
                + " must be a function with " + wanted + " arguments, found Function(" + "? ".repeat(lambda.params().size()).trim()
                .replace(" ", ", ") + " -> ?) instead.");
        }
        List<Column> columns = new ArrayList<>();
        if (fold) {
            columns.add(new Column(lambda.params().get(0), rest.get(rest.size() - 1).type()));
        }
        for (int i = 0; i < arrays.size(); i++) {
            columns.add(new Column(lambda.params().get(trail + i), ((ArrayType) arrays.get(i).type().unwrap()).element));
        }
        Evaluator body = outer.withParameters(columns).compile(lambda.body());
        int width = outer.inputWidth();
        if (fold) {
            return fold(body, arrays, rest.get(rest.size() - 1), width);
        }
        Evaluator mapped = Evaluator.of(DataTypes.array(body.type()), row -> {
            List<?>[] lists = lists(name, arrays, row);
            int len = lists[0].size();
            Object[] extended = java.util.Arrays.copyOf(row, width + lists.length);
            List<Object> out = new ArrayList<>(len);
            for (int k = 0; k < len; k++) {
                for (int i = 0; i < lists.length; i++) {
                    extended[width + i] = lists[i].get(k);
                }
                out.add(body.eval(extended));
            }
            return ArrayArgs.frozen(out);
        });
        return FunctionsArrayMapped.withLambda(name, mapped, arrays, params);
    }

    /** The arrays of a row, of one size (SIZES_OF_ARRAYS_DONT_MATCH otherwise); NULL is an empty array. */
    private static List<?>[] lists(String name, List<Evaluator> arrays, Object[] row) {
        List<?>[] lists = new List<?>[arrays.size()];
        for (int i = 0; i < lists.length; i++) {
            Object v = arrays.get(i).eval(row);
            lists[i] = v == null ? List.of() : (List<?>) v;
            if (i > 0 && lists[i].size() != lists[0].size()) {
                throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "Arrays passed to " + name + " must have equal size. Argument "
                    + (i + 2) + " has size " + lists[i].size() + " which differs with the size of another argument, " + lists[0].size());
            }
        }
        return lists;
    }

    /**
     * arrayFold(lambda, arr1, ..., acc): the lambda over the accumulator and each step's elements, its result the next
     * accumulator; the lambda must return the accumulator's type (TYPE_MISMATCH).
     */
    private static Evaluator fold(Evaluator body, List<Evaluator> arrays, Evaluator initial, int width) {
        if (!body.type().equals(initial.type())) {
            throw new ChException(ErrorCode.TYPE_MISMATCH, "Return type of lambda function must be the same as the accumulator type, "
                + "inferred return type of lambda: " + body.type().name() + ", inferred type of accumulator: " + initial.type().name());
        }
        return Evaluator.of(initial.type(), row -> {
            List<?>[] lists = lists("arrayFold", arrays, row);
            Object acc = initial.eval(row);
            Object[] extended = java.util.Arrays.copyOf(row, width + 1 + lists.length);
            for (int k = 0; k < lists[0].size(); k++) {
                extended[width] = acc;
                for (int i = 0; i < lists.length; i++) {
                    extended[width + 1 + i] = lists[i].get(k);
                }
                acc = body.eval(extended);
            }
            return acc;
        });
    }
}
