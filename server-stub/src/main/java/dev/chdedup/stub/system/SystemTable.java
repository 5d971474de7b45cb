package dev.chdedup.stub.system;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.exec.TableSource;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.ArrayType;
import dev.chdedup.stub.types.BoolType;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.EnumType;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One snapshot of a system table with the engine's columns ({@link SystemTableSchema}): each row starts with every
 * column at its type's default, and the table fills in, by name, the values it knows; ALIAS columns are the engine's
 * expressions over the others and MATERIALIZED ones are read only by name. So the columns are written down once, as
 * recorded, and a table's code says only what it knows. Mirrors the way ClickHouse's IStorageSystemOneBlock fills
 * the columns of getColumnsDescription.
 */
public final class SystemTable {
    private static final Map<String, Layout> LAYOUTS = new ConcurrentHashMap<>();

    /** The stored columns of a table, their positions by name, the star columns and the alias expressions. */
    private record Layout(List<Column> stored, Map<String, Integer> index, List<Column> star, Map<String, Expr> aliases) {
    }

    private final Layout layout;
    private final List<Object[]> rows = new ArrayList<>();

    private SystemTable(Layout layout) {
        this.layout = layout;
    }

    /** A new, empty snapshot of system table {@code name}, which the schema must hold. */
    public static SystemTable of(String name) {
        return new SystemTable(LAYOUTS.computeIfAbsent(name, SystemTable::layout));
    }

    /** A new, empty snapshot of system table {@code name} with the columns the release {@code compat} plays has. */
    public static SystemTable of(String name, dev.chdedup.stub.compat.CompatibilityProfile compat) {
        if (!SystemTableSchema.differs(name, compat)) {
            return of(name);
        }
        return new SystemTable(LAYOUTS.computeIfAbsent(compat.name() + "/" + name, k -> layout(SystemTableSchema.of(name, compat))));
    }

    /** The columns of system table {@code name} as its TableSource has them (stored ones, MATERIALIZED too). */
    public static List<Column> columns(String name) {
        return LAYOUTS.computeIfAbsent(name, SystemTable::layout).stored;
    }

    private static Layout layout(String name) {
        List<SystemTableSchema.ColumnDef> defs = SystemTableSchema.of(name);
        if (defs == null) {
            throw new IllegalArgumentException("no recorded columns for system." + name);
        }
        return layout(defs);
    }

    private static Layout layout(List<SystemTableSchema.ColumnDef> defs) {
        List<Column> stored = new ArrayList<>();
        List<Column> star = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        Map<String, Expr> aliases = new LinkedHashMap<>();
        for (SystemTableSchema.ColumnDef d : defs) {
            Column c = new Column(d.name(), d.type());
            if (d.isAlias()) {
                aliases.put(d.name(), new Expr.Cast(expression(d.defaultExpression()), d.type().name()));
                continue;
            }
            index.put(d.name(), stored.size());
            stored.add(c);
            if (!d.isMaterialized()) {
                star.add(c);
            }
        }
        return new Layout(List.copyOf(stored), Map.copyOf(index), List.copyOf(star), Collections.unmodifiableMap(aliases));
    }

    private static Expr expression(String sql) {
        Statement st = Parser.parse("SELECT " + sql);
        return ((Statement.SelectStmt) st).query().selects().get(0).items().get(0).expr();
    }

    /** Adds a row, every column at its default, to fill with {@link Row#set}. */
    public Row add() {
        Object[] values = new Object[layout.stored.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = layout.stored.get(i).type().defaultValue();
        }
        rows.add(values);
        return new Row(values);
    }

    /** The snapshot as a table source. */
    public TableSource source() {
        Layout l = layout;
        List<Object[]> snapshot = List.copyOf(rows);
        return new TableSource() {
            @Override
            public List<Column> columns() {
                return l.stored;
            }

            @Override
            public List<Column> starColumns() {
                return l.star;
            }

            @Override
            public Map<String, Expr> aliasColumns() {
                return l.aliases;
            }

            @Override
            public Iterator<dev.chdedup.stub.data.Block> read(int maxBlockSize, boolean withVirtuals) {
                return TableSource.of(l.stored, snapshot).read(maxBlockSize, withVirtuals);
            }
        };
    }

    /** One row being filled. */
    public final class Row {
        private final Object[] values;

        private Row(Object[] values) {
            this.values = values;
        }

        /**
         * Sets column {@code name} to {@code value}, in the column type's representation (a byte string for a String,
         * a Long for an integer, an enum's code or its name); a name the table does not have is a bug and throws.
         */
        public Row set(String name, Object value) {
            Integer i = layout.index.get(name);
            if (i == null) {
                throw new IllegalArgumentException("system table has no column " + name);
            }
            values[i] = convert(value, layout.stored.get(i).type());
            return this;
        }
    }

    /** {@code v} in the representation of {@code t}: an enum's name as its code, an Integer or Boolean as a Long. */
    private static Object convert(Object v, DataType t) {
        DataType u = t.unwrap();
        if (v instanceof String && u instanceof EnumType) {
            Long code = ((EnumType) u).codeOf((String) v);
            if (code == null) {
                throw new IllegalArgumentException("no value " + v + " in " + t.name());
            }
            return code;
        }
        if (v instanceof List<?> && u instanceof ArrayType) {
            List<Object> out = new ArrayList<>();
            for (Object e : (List<?>) v) {
                out.add(convert(e, ((ArrayType) u).element));
            }
            return Collections.unmodifiableList(out);
        }
        if (v instanceof Integer) {
            return ((Integer) v).longValue();
        }
        if (v instanceof Boolean && !(u instanceof BoolType)) {
            return (Boolean) v ? 1L : 0L;
        }
        return v;
    }
}
