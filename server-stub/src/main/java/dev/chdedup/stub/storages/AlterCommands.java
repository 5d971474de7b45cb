package dev.chdedup.stub.storages;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.ColumnsUsed;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.StringType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The schema commands of an ALTER (ADD, DROP, MODIFY, RENAME, CLEAR and COMMENT COLUMN, ADD/DROP/MATERIALIZE/CLEAR
 * of an INDEX, PROJECTION or CONSTRAINT, MODIFY ORDER BY, MODIFY COMMENT) applied to a table's CREATE statement, as
 * ClickHouse's AlterCommands applies them to a table's metadata (src/Storages/AlterCommands.cpp): each is checked
 * against the columns as the commands before it left them, with the engine's errors, and nothing is changed when
 * one fails. The result tells which columns were renamed (the parts still name them as before until a mutation
 * rewrites them) and the mutation commands that rewrite the parts (a type change, a dropped, renamed or cleared column).
 */
public final class AlterCommands {
    /** The new CREATE statement, the renames (new name to old), and the command texts a mutation must apply to the parts. */
    public record Result(Statement.CreateTable create, Map<String, String> renamedFrom, List<String> mutations,
                         List<Statement.ClearColumn> clears) {
    }

    private AlterCommands() {
    }

    /** Whether {@code c} changes the table's metadata (handled here) rather than its data or settings. */
    public static boolean isSchemaCommand(Statement.AlterCommand c) {
        return c instanceof Statement.AddColumn || c instanceof Statement.DropColumn || c instanceof Statement.ModifyColumn
            || c instanceof Statement.RenameColumn || c instanceof Statement.ClearColumn || c instanceof Statement.CommentColumn
            || c instanceof Statement.ModifyComment || c instanceof Statement.ModifyOrderBy
            || c instanceof Statement.AddTableElement || c instanceof Statement.TableElementCommand
            || c instanceof Statement.ModifyTtl || c instanceof Statement.RemoveTtl || c instanceof Statement.MaterializeTtl;
    }

    public static Result apply(Statement.CreateTable ct, List<Statement.AlterCommand> commands) {
        validateRenames(commands);
        List<Statement.ColumnDef> cols = new ArrayList<>(ct.columns());
        Map<String, String> clauses = new LinkedHashMap<>(ct.clauseSql());
        Expr orderBy = ct.orderBy();
        Expr primaryKey = ct.primaryKey();
        Map<String, String> renamedFrom = new LinkedHashMap<>();
        List<String> mutations = new ArrayList<>();
        List<Statement.ClearColumn> clears = new ArrayList<>();
        Set<String> added = new HashSet<>();
        for (Statement.AlterCommand c : commands) {
            Set<String> keys = keyColumns(orderBy, primaryKey, ct.partitionBy());
            if (c instanceof Statement.AddColumn) {
                Statement.AddColumn a = (Statement.AddColumn) c;
                if (indexOf(cols, a.column().name()) >= 0) {
                    if (a.ifNotExists()) {
                        continue;
                    }
                    throw new ChException(ErrorCode.DUPLICATE_COLUMN, "Cannot add column " + backQuote(a.column().name())
                        + ": column with this name already exists");
                }
                if (a.column().type() != null) {
                    DataTypes.parse(a.column().type());
                }
                cols.add(insertAt(cols, a.after()), a.column());
                added.add(a.column().name());
            } else if (c instanceof Statement.DropColumn) {
                Statement.DropColumn d = (Statement.DropColumn) c;
                int i = indexOf(cols, d.name());
                if (i < 0) {
                    if (d.ifExists()) {
                        continue;
                    }
                    throw new ChException(ErrorCode.NOT_FOUND_COLUMN_IN_BLOCK, "Wrong column name. Cannot find column "
                        + backQuote(d.name()) + " to drop");
                }
                for (Statement.ColumnDef other : cols) {
                    Set<String> used = other.defaultExpr() == null || other.name().equals(d.name()) ? null : ColumnsUsed.names(other.defaultExpr());
                    if (used != null && used.contains(d.name())) {
                        throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Cannot drop column " + backQuote(d.name()) + ", because column "
                            + backQuote(other.name()) + " depends on it");
                    }
                }
                if (keys.contains(d.name())) {
                    throw new ChException(ErrorCode.UNKNOWN_IDENTIFIER, "Missing columns: '" + d.name() + "' while processing: '"
                        + d.name() + "', required columns: '" + d.name() + "'");
                }
                if (cols.size() == 1) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot drop or clear column " + backQuote(d.name())
                        + " because table must have at least one column");
                }
                cols.remove(i);
                clauses.remove(Statement.COLUMN_COMMENT + d.name());
                clauses.remove(Statement.COLUMN_CODEC + d.name());
                clauses.remove(Statement.COLUMN_TTL + d.name());
                mutations.add("DROP COLUMN " + backQuote(d.name()));
            } else if (c instanceof Statement.ModifyColumn) {
                Statement.ModifyColumn m = (Statement.ModifyColumn) c;
                int i = indexOf(cols, m.column().name());
                if (i < 0) {
                    if (m.ifExists()) {
                        continue;
                    }
                    throw new ChException(ErrorCode.NOT_FOUND_COLUMN_IN_BLOCK, "Wrong column. Cannot find column "
                        + backQuote(m.column().name()) + " to modify");
                }
                Statement.ColumnDef old = cols.get(i);
                Statement.ColumnDef mod = modified(old, m);
                if (mod.type() != null && !sameType(old.type(), mod.type())) {
                    if (keys.contains(old.name()) && !onlyLowCardinality(old.type(), mod.type())) {
                        throw new ChException(ErrorCode.ALTER_OF_COLUMN_IS_FORBIDDEN, partitionColumns(ct.partitionBy()).contains(old.name())
                            ? "ALTER of key column " + old.name() + " is forbidden"
                            : "ALTER of key column " + old.name() + " from type " + old.type() + " to type " + mod.type()
                                + " is not safe because it can change the representation of primary key");
                    }
                    DataTypes.parse(mod.type());
                    mutations.add(m.sql());
                }
                cols.remove(i);
                if (m.after() != null) {
                    cols.add(insertAt(cols, m.after()), mod);
                } else {
                    cols.add(i, mod);
                }
                if (mod.comment() == null) {
                    clauses.remove(Statement.COLUMN_COMMENT + mod.name());
                }
            } else if (c instanceof Statement.RenameColumn) {
                Statement.RenameColumn r = (Statement.RenameColumn) c;
                int i = indexOf(cols, r.from());
                if (i < 0) {
                    if (r.ifExists()) {
                        continue;
                    }
                    throw new ChException(ErrorCode.NOT_FOUND_COLUMN_IN_BLOCK, "Wrong column name. Cannot find column "
                        + backQuote(r.from()) + " to rename");
                }
                if (indexOf(cols, r.to()) >= 0) {
                    throw new ChException(ErrorCode.DUPLICATE_COLUMN, "Cannot rename to " + backQuote(r.to())
                        + ": column with this name already exists");
                }
                if (keys.contains(r.from())) {
                    throw new ChException(ErrorCode.ALTER_OF_COLUMN_IS_FORBIDDEN, "Trying to ALTER RENAME key " + r.from()
                        + " column which is a part of key expression");
                }
                Statement.ColumnDef o = cols.get(i);
                cols.set(i, new Statement.ColumnDef(r.to(), o.type(), o.defaultKind(), o.defaultExpr(), o.defaultSql(), o.comment(), o.codec(), o.ttl()));
                String ttl = clauses.remove(Statement.COLUMN_TTL + r.from());
                if (ttl != null) {
                    clauses.put(Statement.COLUMN_TTL + r.to(), ttl);
                }
                String codec = clauses.remove(Statement.COLUMN_CODEC + r.from());
                if (codec != null) {
                    clauses.put(Statement.COLUMN_CODEC + r.to(), codec);
                }
                String comment = clauses.remove(Statement.COLUMN_COMMENT + r.from());
                if (comment != null) {
                    clauses.put(Statement.COLUMN_COMMENT + r.to(), comment);
                }
                renamedFrom.put(r.to(), renamedFrom.getOrDefault(r.from(), r.from()));
                renamedFrom.remove(r.from());
                mutations.add("RENAME COLUMN " + backQuote(r.from()) + " TO " + backQuote(r.to()));
            } else if (c instanceof Statement.ClearColumn) {
                Statement.ClearColumn cl = (Statement.ClearColumn) c;
                if (indexOf(cols, cl.name()) < 0) {
                    if (cl.ifExists()) {
                        continue;
                    }
                    throw new ChException(ErrorCode.NOT_FOUND_COLUMN_IN_BLOCK, "Wrong column name. Cannot find column "
                        + backQuote(cl.name()) + " to drop");
                }
                if (keys.contains(cl.name())) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Trying to ALTER key column " + cl.name());
                }
                clears.add(cl);
            } else if (c instanceof Statement.CommentColumn) {
                Statement.CommentColumn cc = (Statement.CommentColumn) c;
                int i = indexOf(cols, cc.name());
                if (i < 0) {
                    if (cc.ifExists()) {
                        continue;
                    }
                    throw new ChException(ErrorCode.NOT_FOUND_COLUMN_IN_BLOCK, "Wrong column name. Cannot find column "
                        + backQuote(cc.name()) + " to comment");
                }
                Statement.ColumnDef o = cols.get(i);
                cols.set(i, new Statement.ColumnDef(o.name(), o.type(), o.defaultKind(), o.defaultExpr(), o.defaultSql(),
                    cc.comment().isEmpty() ? null : cc.comment(), o.codec(), o.ttl()));
            } else if (c instanceof Statement.ModifyComment) {
                String comment = ((Statement.ModifyComment) c).comment();
                if (comment.isEmpty()) {
                    clauses.remove("COMMENT");
                } else {
                    clauses.put("COMMENT", comment);
                }
            } else if (c instanceof Statement.ModifyOrderBy) {
                Statement.ModifyOrderBy mo = (Statement.ModifyOrderBy) c;
                checkNewSortingKey(orderBy, mo.orderBy(), added);
                if (primaryKey == null) {
                    primaryKey = orderBy;
                    clauses.put("PRIMARY KEY", clauses.get("ORDER BY"));
                }
                orderBy = mo.orderBy();
                clauses.put("ORDER BY", mo.sql());
            } else if (c instanceof Statement.ModifyTtl) {
                clauses.put("TTL", ((Statement.ModifyTtl) c).sql());
                mutations.add("MATERIALIZE TTL");
            } else if (c instanceof Statement.RemoveTtl) {
                if (!clauses.containsKey("TTL")) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Table doesn't have any table TTL expression, cannot remove");
                }
                clauses.remove("TTL");
            } else if (c instanceof Statement.MaterializeTtl) {
                mutations.add("MATERIALIZE TTL");
            } else if (c instanceof Statement.AddTableElement) {
                Statement.AddTableElement a = (Statement.AddTableElement) c;
                String key = a.kind() + " " + a.name();
                if (clauses.containsKey(key)) {
                    if (a.ifNotExists()) {
                        continue;
                    }
                    throw new ChException(ErrorCode.ILLEGAL_COLUMN, "Cannot add " + a.kind().toLowerCase(java.util.Locale.ROOT) + " "
                        + a.name() + ": " + a.kind().toLowerCase(java.util.Locale.ROOT) + " with this name already exists");
                }
                clauses.put(key, a.definition());
            } else if (c instanceof Statement.TableElementCommand) {
                Statement.TableElementCommand e = (Statement.TableElementCommand) c;
                String key = e.kind() + " " + e.name();
                if (!clauses.containsKey(key)) {
                    if (e.ifExists()) {
                        continue;
                    }
                    String kind = e.kind().toLowerCase(java.util.Locale.ROOT);
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Wrong " + kind + " name. Cannot find " + kind + " "
                        + backQuote(e.name()) + " to " + e.action().toLowerCase(java.util.Locale.ROOT));
                }
                if (e.action().equals("DROP")) {
                    clauses.remove(key);
                }
            }
        }
        for (Statement.ColumnDef col : cols) {
            if (col.comment() != null) {
                clauses.put(Statement.COLUMN_COMMENT + col.name(), col.comment());
            } else {
                clauses.remove(Statement.COLUMN_COMMENT + col.name());
            }
            if (col.codec() != null) {
                clauses.put(Statement.COLUMN_CODEC + col.name(), col.codec());
            } else {
                clauses.remove(Statement.COLUMN_CODEC + col.name());
            }
            if (col.ttl() != null) {
                clauses.put(Statement.COLUMN_TTL + col.name(), col.ttl());
            } else {
                clauses.remove(Statement.COLUMN_TTL + col.name());
            }
        }
        Statement.CreateTable out = new Statement.CreateTable(ct.database(), ct.table(), false, false, List.copyOf(cols), ct.engine(),
            ct.engineArgs(), ct.partitionBy(), orderBy, primaryKey, ct.settings(), clauses, null, null, null);
        return new Result(out, renamedFrom, mutations, clears);
    }

    /** A MODIFY COLUMN's column: what it gives, over what the column had (its default and comment stay unless replaced or removed). */
    private static Statement.ColumnDef modified(Statement.ColumnDef old, Statement.ModifyColumn m) {
        Statement.ColumnDef n = m.column();
        String type = n.type() != null ? n.type() : old.type();
        String kind = old.defaultKind();
        Expr expr = old.defaultExpr();
        String sql = old.defaultSql();
        if (n.defaultKind() != null) {
            kind = n.defaultKind();
            expr = n.defaultExpr();
            sql = n.defaultSql();
        }
        String comment = n.comment() != null ? n.comment() : old.comment();
        String codec = n.codec() != null ? n.codec() : old.codec();
        String ttl = n.ttl() != null ? n.ttl() : old.ttl();
        if (m.remove() != null) {
            switch (m.remove()) {
                case "COMMENT":
                    comment = null;
                    break;
                case "CODEC":
                    codec = null;
                    break;
                case "TTL":
                    ttl = null;
                    break;
                case "DEFAULT":
                case "MATERIALIZED":
                case "ALIAS":
                    if (!m.remove().equals(kind)) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Column " + backQuote(old.name()) + " doesn't have "
                            + m.remove() + ", cannot remove it");
                    }
                    kind = null;
                    expr = null;
                    sql = null;
                    break;
                default:
                    break;
            }
        }
        return new Statement.ColumnDef(old.name(), type, kind, expr, sql, comment, codec, ttl);
    }

    /** Whether two types differ only by LowCardinality, which keeps a key's values and their order. */
    private static boolean onlyLowCardinality(String a, String b) {
        return stripLowCardinality(DataTypes.parse(a).name()).equals(stripLowCardinality(DataTypes.parse(b).name()));
    }

    private static String stripLowCardinality(String type) {
        return type.startsWith("LowCardinality(") ? type.substring("LowCardinality(".length(), type.length() - 1) : type;
    }

    private static boolean sameType(String a, String b) {
        return a == null ? b == null : b != null && DataTypes.parse(a).equals(DataTypes.parse(b));
    }

    /**
     * MODIFY ORDER BY may only append expressions of columns added by the same ALTER to the sorting key, as
     * ClickHouse's checkAlterIsPossible allows.
     */
    private static void checkNewSortingKey(Expr old, Expr now, Set<String> added) {
        List<Expr> before = elements(old);
        List<Expr> after = elements(now);
        for (int i = 0; i < after.size(); i++) {
            if (i < before.size() && after.get(i).equals(before.get(i))) {
                continue;
            }
            Set<String> used = ColumnsUsed.names(after.get(i));
            for (String n : used == null ? Set.<String>of() : used) {
                if (!added.contains(n)) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS, "Existing column " + n + " is used in the expression that was added"
                        + " to the sorting key. You can add expressions that use only the newly added columns");
                }
            }
            if (i < before.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Primary key must be a prefix of the sorting key");
            }
        }
        if (after.size() < before.size()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Primary key must be a prefix of the sorting key");
        }
    }

    private static List<Expr> elements(Expr key) {
        if (key == null) {
            return List.of();
        }
        if (key instanceof Expr.Call && ((Expr.Call) key).name().equals("tuple")) {
            return ((Expr.Call) key).args();
        }
        return List.of(key);
    }

    private static Set<String> keyColumns(Expr orderBy, Expr primaryKey, Expr partitionBy) {
        Set<String> keys = new HashSet<>();
        for (Expr e : new Expr[] {orderBy, primaryKey, partitionBy}) {
            Set<String> n = e == null ? null : ColumnsUsed.names(e);
            if (n != null) {
                keys.addAll(n);
            }
        }
        return keys;
    }

    private static Set<String> partitionColumns(Expr partitionBy) {
        Set<String> n = partitionBy == null ? null : ColumnsUsed.names(partitionBy);
        return n == null ? Set.of() : n;
    }

    private static int indexOf(List<Statement.ColumnDef> cols, String name) {
        for (int i = 0; i < cols.size(); i++) {
            if (cols.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Where a column goes: first (""), after a column, or at the end (null). */
    private static int insertAt(List<Statement.ColumnDef> cols, String after) {
        if (after == null) {
            return cols.size();
        }
        if (after.isEmpty()) {
            return 0;
        }
        int i = indexOf(cols, after);
        if (i < 0) {
            throw new ChException(ErrorCode.NO_SUCH_COLUMN_IN_TABLE, "Wrong column name. Cannot find column " + after + " to insert after");
        }
        return i + 1;
    }

    /**
     * The CREATE TABLE text of {@code ct} as the metadata file keeps it: columns with their types, defaults and
     * comments, then its indexes, projections and constraints, the engine and its clauses, SETTINGS and COMMENT.
     */
    public static String createQueryText(Statement.CreateTable ct) {
        StringBuilder sb = new StringBuilder("CREATE TABLE ");
        if (ct.database() != null) {
            sb.append(backQuote(ct.database())).append('.');
        }
        sb.append(backQuote(ct.table())).append(" (");
        for (int i = 0; i < ct.columns().size(); i++) {
            Statement.ColumnDef c = ct.columns().get(i);
            sb.append(i > 0 ? ", " : "").append(backQuote(c.name())).append(c.type() == null ? "" : " " + c.type());
            if (c.defaultKind() != null) {
                sb.append(' ').append(c.defaultKind()).append(c.defaultSql() == null ? "" : " " + c.defaultSql());
            }
            String comment = c.comment() != null ? c.comment() : ct.clauseSql().get(Statement.COLUMN_COMMENT + c.name());
            if (comment != null) {
                sb.append(" COMMENT ");
                StringType.quote(comment, sb);
            }
            String codec = c.codec() != null ? c.codec() : ct.clauseSql().get(Statement.COLUMN_CODEC + c.name());
            if (codec != null) {
                sb.append(' ').append(codec);
            }
            String ttl = c.ttl() != null ? c.ttl() : ct.clauseSql().get(Statement.COLUMN_TTL + c.name());
            if (ttl != null) {
                sb.append(" TTL ").append(ttl);
            }
        }
        for (Map.Entry<String, String> e : ct.clauseSql().entrySet()) {
            int space = e.getKey().indexOf(' ');
            if (space > 0 && Statement.TABLE_ELEMENTS.contains(e.getKey().substring(0, space))) {
                sb.append(", ").append(e.getKey(), 0, space).append(' ').append(backQuote(e.getKey().substring(space + 1)))
                    .append(' ').append(e.getValue());
            }
        }
        sb.append(") ENGINE = ").append(ct.clauseSql().getOrDefault("ENGINE", ct.engine()));
        for (String clause : List.of("PARTITION BY", "PRIMARY KEY", "ORDER BY")) {
            if (ct.clauseSql().containsKey(clause)) {
                sb.append(' ').append(clause).append(' ').append(ct.clauseSql().get(clause));
            }
        }
        if (ct.clauseSql().containsKey("TTL")) {
            sb.append(" TTL ").append(ct.clauseSql().get("TTL"));
        }
        if (!ct.settings().isEmpty()) {
            sb.append(" SETTINGS ");
            int i = 0;
            for (Map.Entry<String, String> e : ct.settings().entrySet()) {
                sb.append(i++ > 0 ? ", " : "").append(e.getKey()).append(" = ");
                StringType.quote(e.getValue(), sb);
            }
        }
        if (ct.clauseSql().containsKey("COMMENT")) {
            sb.append(" COMMENT ");
            StringType.quote(ct.clauseSql().get("COMMENT"), sb);
        }
        return sb.toString();
    }

    /**
     * The rules ClickHouse's AlterCommands::validate sets on the renames of one ALTER, in the commands' order, before
     * any applies: a column is not renamed twice, a renamed name is not renamed again (transitive), a column modified
     * is not renamed after, and a column's new name is not modified after.
     */
    private static void validateRenames(List<Statement.AlterCommand> commands) {
        Set<String> modified = new HashSet<>();
        Set<String> renamedTo = new HashSet<>();
        for (int i = 0; i < commands.size(); i++) {
            Statement.AlterCommand c = commands.get(i);
            if (c instanceof Statement.ModifyColumn m) {
                if (renamedTo.contains(m.column().name())) {
                    throw renameAndModify(m.column().name());
                }
                modified.add(m.column().name());
            }
            if (!(c instanceof Statement.RenameColumn r)) {
                continue;
            }
            for (int j = i + 1; j < commands.size(); j++) {
                if (commands.get(j) instanceof Statement.RenameColumn next) {
                    if (next.from().equals(r.to())) {
                        throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Transitive renames in a single ALTER query are not allowed (don't make sense)");
                    }
                    if (next.from().equals(r.from())) {
                        throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot rename column '" + backQuote(r.from())
                            + "' to two different names in a single ALTER query");
                    }
                }
            }
            if (modified.contains(r.from())) {
                throw renameAndModify(r.from());
            }
            renamedTo.add(r.to());
        }
    }

    private static ChException renameAndModify(String column) {
        return new ChException(ErrorCode.NOT_IMPLEMENTED, "Cannot rename and modify the same column " + backQuote(column)
            + " in a single ALTER query");
    }

    private static String backQuote(String name) {
        return dev.chdedup.stub.sql.ExpressionFormatter.backQuote(name);
    }
}
