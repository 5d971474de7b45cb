package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Block;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * joinGet(table, 'column', key...) and joinGetOrNull, of ClickHouse's "Other" category: the column's value in the row
 * of a Join table ({@link JoinTable}) whose key columns equal the keys, of exactly the key columns' types; the first row
 * inserted for a key. A key not found gives the column type's default, or NULL for joinGetOrNull. The table is an
 * identifier or a constant string {@code [db.]table}; the compiler builds the function with the catalog
 * ({@link #handles}).
 */
final class FunctionJoinGet {
    private static final String CATEGORY = "Other";

    private FunctionJoinGet() {
    }

    static void register(FunctionFactory f) {
        for (String name : List.of("joinGet", "joinGetOrNull")) {
            f.register(name, CATEGORY, (args, ctx) -> {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " first argument expected table identifier");
            });
        }
    }

    static boolean handles(String name) {
        return name.equals("joinGet") || name.equals("joinGetOrNull");
    }

    static Evaluator compile(Expr.Call c, ExprCompiler comp, Catalog catalog, QueryContext ctx) {
        String name = c.name();
        boolean orNull = name.equals("joinGetOrNull");
        if (c.args().size() < 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function " + name
                + " doesn't match: passed " + c.args().size() + ", should be greater or equal to 3");
        }
        Expr first = c.args().get(0);
        String qualified = first instanceof Expr.Ident id ? String.join(".", id.parts()) : Functions.constString(comp.compileArgument(first));
        int dot = qualified.indexOf('.');
        String db = dot < 0 ? ctx.database() : qualified.substring(0, dot);
        String table = dot < 0 ? qualified : qualified.substring(dot + 1);
        TableSource source;
        try {
            source = catalog == null ? null : catalog.table(db, table, ctx);
        } catch (ChException e) {
            if (e.code() != ErrorCode.UNKNOWN_TABLE) {
                throw e;
            }
            source = null;
        }
        if (!(source instanceof JoinTable join)) {
            throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, "Function " + name + " first argument expected table identifier '"
                + qualified + "'");
        }
        String column = Functions.constString(comp.compileArgument(c.args().get(1)));
        List<Column> columns = join.columns();
        int at = indexOf(columns, column);
        if (at < 0 || join.joinKeys().contains(column)) {
            throw new ChException(ErrorCode.NO_SUCH_COLUMN_IN_TABLE, "StorageJoin doesn't contain column " + column);
        }
        List<Evaluator> keys = new ArrayList<>();
        for (Expr k : c.args().subList(2, c.args().size())) {
            keys.add(comp.compileArgument(k));
        }
        if (keys.size() != join.joinKeys().size()) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of join_keys and number of right table key columns"
                + " for function " + name + " don't match: passed " + keys.size() + ", should be equal to " + join.joinKeys().size());
        }
        int[] keyAt = new int[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            keyAt[i] = indexOf(columns, join.joinKeys().get(i));
            DataType needed = columns.get(keyAt[i]).type();
            if (!keys.get(i).type().equals(needed)) {
                throw new ChException(ErrorCode.TYPE_MISMATCH, "Type mismatch in " + name + " key " + i + ": found type "
                    + keys.get(i).type().name() + ", while the needed type is " + needed.name());
            }
        }
        Map<List<Object>, Object> index = new HashMap<>();
        Iterator<Block> blocks = join.read(Integer.MAX_VALUE, false);
        while (blocks.hasNext()) {
            for (Object[] row : blocks.next().rows()) {
                Object[] key = new Object[keyAt.length];
                for (int i = 0; i < key.length; i++) {
                    key[i] = row[keyAt[i]];
                }
                index.putIfAbsent(Arrays.asList(key), row[at]);
            }
        }
        DataType type = columns.get(at).type();
        DataType result = orNull ? DataTypes.nullable(type) : type;
        Object missing = orNull || type.isNullable() ? null : type.defaultValue();
        return Evaluator.of(result, r -> {
            Object[] key = new Object[keys.size()];
            for (int i = 0; i < key.length; i++) {
                key[i] = keys.get(i).eval(r);
            }
            List<Object> k = Arrays.asList(key);
            return index.containsKey(k) ? index.get(k) : missing;
        });
    }

    private static int indexOf(List<Column> columns, String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}
