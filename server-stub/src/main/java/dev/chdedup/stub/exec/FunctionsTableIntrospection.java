package dev.chdedup.stub.exec;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.util.List;

/**
 * hasColumnInTable(database, table, column), of ClickHouse's "Other" category: 1 when the table has a column of that
 * exact name (its stored and ALIAS columns, no virtual one), 0 otherwise; an unknown database or table is an error.
 * It reads the catalog, so the expression compiler builds it with one ({@link #handles}).
 */
final class FunctionsTableIntrospection {
    private static final String CATEGORY = "Other";
    private static final String[] ORDINALS = {"First", "Second", "Third"};

    private FunctionsTableIntrospection() {
    }

    static void register(FunctionFactory f) {
        f.register("hasColumnInTable", CATEGORY, (args, ctx) -> compile("hasColumnInTable", args, null, ctx));
    }

    /** Whether {@code name} needs the catalog, which {@link #compile} then takes. */
    static boolean handles(String name) {
        return name.equals("hasColumnInTable");
    }

    static Evaluator compile(String name, List<Evaluator> args, Catalog catalog, QueryContext ctx) {
        if (args.size() != 3) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Number of arguments for function hasColumnInTable doesn't"
                + " match: passed " + args.size() + ", should be 3");
        }
        String[] names = new String[3];
        for (int i = 0; i < 3; i++) {
            Evaluator a = args.get(i);
            if (!a.constant() || !(a.type() instanceof StringType)) {
                throw new ChException(ErrorCode.ILLEGAL_TYPE_OF_ARGUMENT, ORDINALS[i] + " argument for function hasColumnInTable must be"
                    + " const String");
            }
            names[i] = Functions.constString(a);
        }
        if (catalog == null) {
            throw new ChException(ErrorCode.UNKNOWN_TABLE, "Table " + names[0] + "." + names[1] + " does not exist");
        }
        TableSource t = catalog.table(names[0], names[1], ctx);
        boolean has = false;
        for (Column c : t.columns()) {
            has |= c.name().equals(names[2]);
        }
        return Evaluator.constant(DataTypes.UINT8, has ? 1L : 0L);
    }
}
