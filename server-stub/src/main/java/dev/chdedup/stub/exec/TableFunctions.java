package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.TupleType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The table functions besides {@code numbers}: {@code values(['structure',] row, ...)}, {@code generate_series}
 * (alias {@code generateSeries}), {@code zeros} / {@code zeros_mt} and {@code generateRandom} (see
 * {@link RandomValues}). Each gives a header and its blocks, generated lazily where the table is large or endless.
 * Mirrors ClickHouse's TableFunctionValues, TableFunctionGenerateSeries, TableFunctionZeros and
 * TableFunctionGenerateRandom.
 */
final class TableFunctions {
    private TableFunctions() {
    }

    static boolean handles(String name) {
        switch (name) {
            case "values": case "generate_series": case "generateseries": case "zeros": case "zeros_mt": case "generaterandom":
                return true;
            default:
                return false;
        }
    }

    /** The rows of table function {@code tf}; its arguments are constant expressions compiled by {@code c}. */
    static SelectExecutor.Stream source(Query.TableFunction tf, ExprCompiler c, int maxBlock) {
        List<Expr> args = tf.args();
        switch (tf.name()) {
            case "values":
                return values(args, c, maxBlock);
            case "generate_series": case "generateseries": {
                if (args.size() < 2 || args.size() > 3) {
                    throw arguments(tf.name(), "2 or 3");
                }
                long start = constLong(c, args.get(0));
                long stop = constLong(c, args.get(1));
                long step = args.size() > 2 ? constLong(c, args.get(2)) : 1;
                if (step <= 0) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table function '" + tf.name() + "' requires step to be a positive number");
                }
                long count = Long.compareUnsigned(stop, start) < 0 ? 0 : Long.divideUnsigned(stop - start, step) + 1;
                List<Column> cols = List.of(new Column("generate_series", DataTypes.UINT64));
                return new SelectExecutor.Stream(cols, NumbersSource.blocks(start, count, step, maxBlock, cols));
            }
            case "zeros": case "zeros_mt": {
                if (args.size() != 1) {
                    throw arguments(tf.name(), "1");
                }
                long count = constLong(c, args.get(0));
                List<Column> cols = List.of(new Column("zero", DataTypes.UINT8));
                Iterator<Block> numbers = NumbersSource.blocks(0, count, 0, maxBlock, cols);
                return new SelectExecutor.Stream(cols, numbers);
            }
            default:
                return generateRandom(args, c, maxBlock);
        }
    }

    private static SelectExecutor.Stream values(List<Expr> args, ExprCompiler c, int maxBlock) {
        if (args.isEmpty()) {
            throw arguments("values", "at least 1");
        }
        List<Column> cols;
        List<Evaluator> rows = new ArrayList<>();
        Evaluator first = c.compile(args.get(0));
        boolean structured = args.size() > 1 && Functions.isString(first.type()) && first.constant();
        for (Expr e : structured ? args.subList(1, args.size()) : args) {
            Evaluator ev = c.compile(e);
            if (!ev.constant()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table function 'values' requires constant arguments");
            }
            rows.add(ev);
        }
        if (structured) {
            cols = structure(Functions.constString(first));
        } else {
            // no structure: columns c1..cN of the types common to all rows
            DataType t0 = rows.get(0).type();
            int n = t0 instanceof TupleType ? ((TupleType) t0).elements.size() : 1;
            cols = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                List<DataType> ts = new ArrayList<>();
                for (Evaluator r : rows) {
                    ts.add(n == 1 ? r.type() : element(r.type(), i, n));
                }
                cols.add(new Column("c" + (i + 1), TypeRules.common(ts)));
            }
        }
        int n = cols.size();
        List<Object[]> out = new ArrayList<>();
        for (Evaluator r : rows) {
            Object v = r.eval(new Object[0]);
            Object[] row = new Object[n];
            if (n == 1) {
                row[0] = convert(v, r.type(), cols.get(0).type());
            } else {
                DataType t = r.type();
                List<?> l = (List<?>) v;
                for (int i = 0; i < n; i++) {
                    row[i] = convert(l.get(i), element(t, i, n), cols.get(i).type());
                }
            }
            out.add(row);
        }
        return new SelectExecutor.Stream(cols, BlockStreams.chunk(cols, out, maxBlock));
    }

    private static DataType element(DataType rowType, int i, int n) {
        if (!(rowType instanceof TupleType) || ((TupleType) rowType).elements.size() != n) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table function 'values' expects a tuple of " + n
                + " elements in every row, got " + rowType.name());
        }
        return ((TupleType) rowType).elements.get(i);
    }

    private static Object convert(Object v, DataType from, DataType to) {
        if (v == null) {
            return to.isNullable() ? null : to.defaultValue();
        }
        return from.equals(to) ? v : TypeRules.stripNullable(to).convert(v, from);
    }

    private static SelectExecutor.Stream generateRandom(List<Expr> args, ExprCompiler c, int maxBlock) {
        if (args.isEmpty() || args.size() > 4) {
            throw arguments("generateRandom", "1 to 4");
        }
        List<Column> cols = structure(Functions.constString(c.compile(args.get(0))));
        Long seed = args.size() > 1 && !isNull(c, args.get(1)) ? constLong(c, args.get(1)) : null;
        int maxString = args.size() > 2 ? (int) constLong(c, args.get(2)) : 10;
        int maxArray = args.size() > 3 ? (int) constLong(c, args.get(3)) : 10;
        RandomValues random = new RandomValues(seed == null ? System.nanoTime() : seed, maxString, maxArray);
        return new SelectExecutor.Stream(cols, new Iterator<>() {
            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Block next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                List<Object[]> rows = new ArrayList<>(maxBlock);
                for (int i = 0; i < maxBlock; i++) {
                    Object[] r = new Object[cols.size()];
                    for (int k = 0; k < r.length; k++) {
                        r[k] = random.value(cols.get(k).type());
                    }
                    rows.add(r);
                }
                return new Block(cols, rows);
            }
        });
    }

    /**
     * {@code dictionary('name')} or {@code dictionary(db.name)}: the dictionary read as a table (its keys, range bounds
     * and attributes), as ClickHouse's TableFunctionDictionary; BAD_ARGUMENTS when no dictionary has the name.
     */
    static Query.TableRef dictionary(Query.TableFunction tf, Catalog catalog, QueryContext ctx) {
        if (tf.args().size() != 1) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Table function 'dictionary' requires argument dictionary_name");
        }
        Expr a = tf.args().get(0);
        String name = nameArg(a, new ExprCompiler(ctx, List.of(), java.util.Map.of(), null));
        IDictionary d = catalog.dictionary(name, ctx);
        int dot = d.getFullName().indexOf('.');
        return new Query.TableRef(d.getFullName().substring(0, dot), d.getFullName().substring(dot + 1), tf.alias(), false);
    }

    /** A name given as an identifier or a string literal. */
    private static String nameArg(Expr e, ExprCompiler c) {
        if (e instanceof Expr.Ident) {
            return ((Expr.Ident) e).joined();
        }
        return Functions.constString(c.compile(e));
    }

    /** A structure string {@code 'a UInt8, b Array(String)'} as columns. */
    static List<Column> structure(String s) {
        List<Column> cols = new ArrayList<>();
        int depth = 0;
        int st = 0;
        for (int i = 0; i <= s.length(); i++) {
            char ch = i < s.length() ? s.charAt(i) : ',';
            if (ch == '(') {
                depth++;
            } else if (ch == ')') {
                depth--;
            } else if (ch == ',' && depth == 0) {
                String def = s.substring(st, i).strip();
                st = i + 1;
                int sp = def.indexOf(' ');
                if (sp <= 0) {
                    throw new ChException(ErrorCode.SYNTAX_ERROR, "Cannot parse structure '" + s + "': expected a name and a type");
                }
                String name = def.substring(0, sp);
                if (name.length() > 1 && (name.charAt(0) == '`' || name.charAt(0) == '"')) {
                    name = name.substring(1, name.length() - 1);
                }
                cols.add(new Column(name, DataTypes.parse(def.substring(sp + 1).strip())));
            }
        }
        return cols;
    }

    private static boolean isNull(ExprCompiler c, Expr e) {
        Evaluator ev = c.compile(e);
        return ev.constant() && ev.eval(new Object[0]) == null;
    }

    private static long constLong(ExprCompiler c, Expr e) {
        return Functions.constLong(c.compile(e));
    }

    private static ChException arguments(String fn, String expected) {
        return new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Table function '" + fn + "' requires " + expected + " arguments");
    }
}
