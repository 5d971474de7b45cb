package dev.chdedup.stub.system;

import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableColumn;
import java.util.Map;

/** Renders a table's CREATE statement as {@code SHOW CREATE TABLE} prints it. */
public final class ShowCreate {
    private ShowCreate() {
    }

    public static String of(StorageMergeTree t) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(quote(t.database())).append('.').append(quote(t.name())).append("\n(\n");
        int i = 0;
        for (TableColumn c : t.definition().allColumns()) {
            sb.append("    ").append(backQuote(c.name())).append(' ').append(c.type().name());
            if (c.defaultKind() != null) {
                sb.append(' ').append(c.defaultKind());
                if (c.defaultSql() != null) {
                    sb.append(' ').append(c.defaultSql());
                }
            }
            String comment = t.definition().clauseSql().get(dev.chdedup.stub.sql.Statement.COLUMN_COMMENT + c.name());
            if (comment != null) {
                sb.append(" COMMENT ");
                dev.chdedup.stub.types.StringType.quote(comment, sb);
            }
            if (++i < t.definition().allColumns().size()) {
                sb.append(',');
            }
            sb.append('\n');
        }
        for (Map.Entry<String, String> e : t.definition().clauseSql().entrySet()) {
            int space = e.getKey().indexOf(' ');
            if (space > 0 && dev.chdedup.stub.sql.Statement.TABLE_ELEMENTS.contains(e.getKey().substring(0, space))) {
                sb.setLength(sb.length() - 1);
                sb.append(",\n    ").append(e.getKey(), 0, space).append(' ').append(quote(e.getKey().substring(space + 1)))
                    .append(' ').append(e.getValue()).append('\n');
            }
        }
        sb.append(")\n");
        Map<String, String> cl = t.definition().clauseSql();
        String engine = cl.getOrDefault("ENGINE", t.definition().engine());
        sb.append("ENGINE = ").append(engine.contains("(") ? engine : engine).append('\n');
        if (cl.containsKey("PARTITION BY")) {
            sb.append("PARTITION BY ").append(cl.get("PARTITION BY")).append('\n');
        }
        if (cl.containsKey("PRIMARY KEY")) {
            sb.append("PRIMARY KEY ").append(cl.get("PRIMARY KEY")).append('\n');
        }
        sb.append("ORDER BY ").append(cl.getOrDefault("ORDER BY", cl.getOrDefault("PRIMARY KEY", "tuple()"))).append('\n');
        sb.append("SETTINGS index_granularity = ").append(t.settings().getOrDefault("index_granularity", "8192"));
        for (Map.Entry<String, String> e : t.settings().entrySet()) {
            if (!e.getKey().equals("index_granularity")) {
                sb.append(", ").append(e.getKey()).append(" = ").append(e.getValue());
            }
        }
        if (cl.containsKey("COMMENT")) {
            sb.append("\nCOMMENT ");
            dev.chdedup.stub.types.StringType.quote(cl.get("COMMENT"), sb);
        }
        return sb.toString();
    }

    static String quote(String n) {
        return n.matches("[A-Za-z_][A-Za-z0-9_]*") ? n : backQuote(n);
    }

    public static String backQuote(String name) {
        return "`" + name.replace("\\", "\\\\").replace("`", "\\`") + "`";
    }
}
