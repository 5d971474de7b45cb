package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.NullableType;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * ClickHouse's nested (category Internal): nested(names, a1, ..., an) zips the arrays a1..an, which must have equal
 * sizes on each row, into an Array of Tuples whose elements are named by the constant array of strings {@code names}
 * (one unique, non-empty name per array). A NULL argument makes the row NULL.
 */
final class FunctionNested {
    private static final String NAME = "nested";

    private FunctionNested() {
    }

    static void register(FunctionFactory f) {
        f.register(NAME, "Internal", (args, ctx) -> compile(args));
    }

    private static Evaluator compile(List<Evaluator> args) {
        if (args.isEmpty()) {
            Functions.arity(NAME, args, 1);
        }
        Evaluator first = args.get(0);
        DataType ft = first.type();
        if (!(ft instanceof ArrayType) || !(((ArrayType) ft).element instanceof StringType)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "First argument for function nested must be constant array of strings, got "
                + ft.name());
        }
        if (!first.constant()) {
            throw Functions.illegalArgument(ErrorCode.ILLEGAL_COLUMN, 1, "column_names", NAME, "const Array(String)", ft);
        }
        List<Evaluator> arrays = args.subList(1, args.size());
        List<DataType> elements = new ArrayList<>();
        boolean anyNull = false;
        for (int i = 0; i < arrays.size(); i++) {
            DataType t = arrays.get(i).type();
            if (Functions.isNothing(arrays.get(i))) {
                anyNull = true;
                continue;
            }
            if (t instanceof NullableType && ((NullableType) t).unwrap() instanceof ArrayType) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Nested type " + t.unwrap().name() + " cannot be inside Nullable type");
            }
            if (!(t instanceof ArrayType)) {
                throw Functions.illegalArgument(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, i + 2, "value", NAME, "Any", t);
            }
            elements.add(((ArrayType) t).element);
        }
        @SuppressWarnings("unchecked")
        List<Object> names = (List<Object>) first.eval(new Object[0]);
        if (names.size() != arrays.size()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Size of nested names array for function nested does not match arrays arguments size. Actual "
                + names.size() + ". Expected " + arrays.size());
        }
        if (anyNull) {
            return Evaluator.of(DataTypes.nullable(DataTypes.NOTHING), r -> null);
        }
        List<String> texts = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Object n : names) {
            String s = ByteStrings.toText((String) n);
            if (s.isEmpty()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Names of tuple elements cannot be empty");
            }
            if (!seen.add(s)) {
                throw new ChException(ErrorCode.DUPLICATE_COLUMN, "Names of tuple elements must be unique. Duplicate name: " + s);
            }
            texts.add(s);
        }
        DataType result = DataTypes.array(DataTypes.tuple(elements, texts));
        int n = arrays.size();
        return Evaluator.of(result, r -> {
            List<List<?>> values = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                List<?> a = (List<?>) arrays.get(i).eval(r);
                if (i > 0 && a.size() != values.get(0).size()) {
                    throw new ChException(ErrorCode.SIZES_OF_ARRAYS_DONT_MATCH, "The argument 1 and argument " + (i + 1)
                        + " of function nested have different array offsets");
                }
                values.add(a);
            }
            int size = n == 0 ? 0 : values.get(0).size();
            List<Object> rows = new ArrayList<>(size);
            for (int j = 0; j < size; j++) {
                List<Object> tuple = new ArrayList<>(n);
                for (List<?> a : values) {
                    tuple.add(a.get(j));
                }
                rows.add(java.util.Collections.unmodifiableList(tuple));
            }
            return rows;
        });
    }
}
