package dev.chdedup.stub.mv;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.DataTypes;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain view ({@code CREATE VIEW v [(columns)] AS SELECT ...}): reading it runs {@code select}; it stores nothing.
 * A view with a column list has those {@code columns}, and its {@code select} reads the SELECT's output columns by
 * name, each cast to its declared type, as ClickHouse's StorageView converts its query's header to the view's columns;
 * {@code selectSql} is the SELECT as written (system.tables' as_select).
 */
public record PlainView(String database, String name, Query select, String createSql, List<Column> columns, String selectSql) {
    /** A view without a column list whose SELECT text is not kept. */
    public PlainView(String database, String name, Query select, String createSql) {
        this(database, name, select, createSql, List.of(), "");
    }

    /** The view {@code v} defines in database {@code database}, stored as {@code createSql}. */
    public static PlainView of(String database, Statement.CreateView v, String createSql) {
        List<Statement.ColumnDef> declared = v.inner() == null ? List.of() : v.inner().columns();
        if (declared.isEmpty()) {
            return new PlainView(database, v.name(), v.select(), createSql, List.of(), v.selectSql());
        }
        List<Column> columns = new ArrayList<>();
        StringBuilder sql = new StringBuilder("SELECT ");
        for (Statement.ColumnDef c : declared) {
            Column col = new Column(c.name(), DataTypes.parse(c.type()));
            String quoted = "`" + c.name().replace("\\", "\\\\").replace("`", "\\`") + "`";
            sql.append(columns.isEmpty() ? "" : ", ").append("CAST(").append(quoted).append(" AS ").append(col.type().name())
                .append(") AS ").append(quoted);
            columns.add(col);
        }
        sql.append(" FROM (").append(v.selectSql()).append(')');
        Query converted = ((Statement.SelectStmt) Parser.parse(sql.toString())).query();
        return new PlainView(database, v.name(), converted, createSql, List.copyOf(columns), v.selectSql());
    }

    /** This view under another name, stored as {@code createSql} (RENAME TABLE). */
    public PlainView renamed(String toDatabase, String toName, String createSql) {
        return new PlainView(toDatabase, toName, select, createSql, columns, selectSql);
    }
}
