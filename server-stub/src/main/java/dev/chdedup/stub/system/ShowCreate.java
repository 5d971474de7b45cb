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
                    sb.append(' ').append(formatted(c.defaultSql()));
                }
            }
            String comment = t.definition().clauseSql().get(dev.chdedup.stub.sql.Statement.COLUMN_COMMENT + c.name());
            if (comment != null) {
                sb.append(" COMMENT ");
                dev.chdedup.stub.types.StringType.quote(comment, sb);
            }
            String codec = t.definition().clauseSql().get(dev.chdedup.stub.sql.Statement.COLUMN_CODEC + c.name());
            if (codec != null) {
                sb.append(' ').append(codec);
            }
            String ttl = t.definition().clauseSql().get(dev.chdedup.stub.sql.Statement.COLUMN_TTL + c.name());
            if (ttl != null) {
                sb.append(" TTL ").append(formatted(ttl));
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
            sb.append("PARTITION BY ").append(formatted(cl.get("PARTITION BY"))).append('\n');
        }
        if (cl.containsKey("PRIMARY KEY")) {
            sb.append("PRIMARY KEY ").append(formatted(cl.get("PRIMARY KEY"))).append('\n');
        }
        sb.append("ORDER BY ").append(formatted(cl.getOrDefault("ORDER BY", cl.getOrDefault("PRIMARY KEY", "tuple()")))).append('\n');
        if (cl.containsKey("TTL")) {
            sb.append("TTL ").append(dev.chdedup.stub.sql.ExpressionFormatter.formatTtl(cl.get("TTL"))).append('\n');
        }
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

    /**
     * SHOW CREATE TABLE of a table that is not of the MergeTree family (Memory, Null, the Log family, Buffer), from the
     * statement that created it, laid out as the engine lays it out: the columns one a line, then the engine and the
     * clauses it has.
     */
    public static String of(String database, String table, dev.chdedup.stub.sql.Statement.CreateTable ct) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ").append(quote(database)).append('.').append(quote(table)).append("\n(\n");
        for (int i = 0; i < ct.columns().size(); i++) {
            dev.chdedup.stub.sql.Statement.ColumnDef c = ct.columns().get(i);
            sb.append("    ").append(backQuote(c.name()));
            if (c.type() != null) {
                sb.append(' ').append(dev.chdedup.stub.types.DataTypes.parse(c.type()).name());
            }
            if (c.defaultKind() != null) {
                sb.append(' ').append(c.defaultKind());
                if (c.defaultSql() != null) {
                    sb.append(' ').append(formatted(c.defaultSql()));
                }
            }
            if (c.comment() != null) {
                sb.append(" COMMENT ");
                dev.chdedup.stub.types.StringType.quote(c.comment(), sb);
            }
            if (c.codec() != null) {
                sb.append(' ').append(c.codec());
            }
            sb.append(i + 1 < ct.columns().size() ? ",\n" : "\n");
        }
        sb.append(")\nENGINE = ").append(ct.clauseSql().getOrDefault("ENGINE", ct.engine()));
        for (String clause : java.util.List.of("PARTITION BY", "PRIMARY KEY", "ORDER BY")) {
            if (ct.clauseSql().containsKey(clause)) {
                sb.append('\n').append(clause).append(' ').append(formatted(ct.clauseSql().get(clause)));
            }
        }
        if (!ct.settings().isEmpty()) {
            sb.append("\nSETTINGS ");
            int i = 0;
            for (Map.Entry<String, String> e : ct.settings().entrySet()) {
                sb.append(i++ > 0 ? ", " : "").append(e.getKey()).append(" = ").append(e.getValue());
            }
        }
        if (ct.clauseSql().containsKey("COMMENT")) {
            sb.append("\nCOMMENT ");
            dev.chdedup.stub.types.StringType.quote(ct.clauseSql().get("COMMENT"), sb);
        }
        return sb.toString();
    }

    /**
     * An expression's text as the engine's formatter writes it ({@code a*2+1} as {@code (a * 2) + 1}); parentheses
     * around the whole expression stay, as the engine keeps them.
     */
    public static String formatted(String sql) {
        try {
            String f = dev.chdedup.stub.sql.ExpressionFormatter.format(sql);
            String t = sql.strip();
            return t.startsWith("(") && t.endsWith(")") && !(f.startsWith("(") && f.endsWith(")")) ? "(" + f + ")" : f;
        } catch (RuntimeException e) { // a subquery: the statement's own text
            return sql;
        }
    }

    /** A database or table name as SHOW CREATE writes it: back-quoted only where it must be. */
    public static String quoteName(String n) {
        return quote(n);
    }

    static String quote(String n) {
        return dev.chdedup.stub.sql.ExpressionFormatter.backQuoteIfNeed(n);
    }

    public static String backQuote(String name) {
        return dev.chdedup.stub.sql.ExpressionFormatter.backQuote(name);
    }
}
