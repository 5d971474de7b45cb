package dev.chdedup.stub.sql;

import java.util.List;
import java.util.Map;

/** Statement AST nodes, one record per statement kind the stub executes. */
public sealed interface Statement {
    /** The CREATE TABLE clause text key under which a column's COMMENT is kept: this prefix and the column name. */
    String COLUMN_COMMENT = "COMMENT COLUMN ";
    /** The clauseSql key of the query text of a CREATE TABLE ... AS SELECT. */
    String AS_SELECT = "AS SELECT";
    /** The clauseSql key of {@code CREATE TABLE t AS table_function(args)}: the call as written. */
    String AS_TABLE_FUNCTION = "AS table function";
    /** The clauseSql key of a column's TTL expression text, followed by the column's name. */
    String COLUMN_TTL = "TTL COLUMN ";
    /** The clauseSql key of a column's CODEC(...) text, followed by the column's name. */
    String COLUMN_CODEC = "CODEC COLUMN ";
    /**
     * The clauseSql key of each INDEX, PROJECTION and CONSTRAINT of a CREATE TABLE, in their order: kind, space, name
     * (the value is the definition after the name).
     */
    java.util.List<String> TABLE_ELEMENTS = java.util.List.of("INDEX", "PROJECTION", "CONSTRAINT");

    /** A SELECT (or SHOW/DESCRIBE/EXISTS rewritten to a result); {@code settings} and {@code format} trail it. */
    record SelectStmt(Query query) implements Statement {
    }

    /**
     * A CREATE/DROP of a table or database with {@code ON CLUSTER cluster}: {@code statement} is the local one;
     * {@code sql} spans {@code [clusterStart, clusterEnd)} for the clause and, when the table name was unqualified,
     * {@code unqualifiedNameAt} is where it starts (else -1).
     */
    record OnCluster(String cluster, Statement statement, String sql, int clusterStart, int clusterEnd, int unqualifiedNameAt)
        implements Statement {
        /** The query for the DDL queue: the original text with the table name qualified by {@code database}. */
        public String entryQuery(String database) {
            if (unqualifiedNameAt < 0) {
                return sql;
            }
            return sql.substring(0, unqualifiedNameAt) + "`" + database.replace("\\", "\\\\").replace("`", "\\`") + "`."
                + sql.substring(unqualifiedNameAt);
        }

        /** The query each host runs: this text without the ON CLUSTER clause. */
        public String localQuery() {
            return sql.substring(0, clusterStart) + sql.substring(clusterEnd);
        }
    }

    record CreateDatabase(String name, boolean ifNotExists) implements Statement {
    }

    record DropDatabase(String name, boolean ifExists) implements Statement {
    }

    /** A column definition; {@code defaultKind} is DEFAULT, MATERIALIZED, ALIAS, EPHEMERAL or null. */
    /** A column of a CREATE or ALTER: its name, type text, DEFAULT/MATERIALIZED/ALIAS/EPHEMERAL, comment and CODEC(...) text. */
    record ColumnDef(String name, String type, String defaultKind, Expr defaultExpr, String defaultSql, String comment, String codec,
                     String ttl) {
        public ColumnDef(String name, String type, String defaultKind, Expr defaultExpr, String defaultSql, String comment) {
            this(name, type, defaultKind, defaultExpr, defaultSql, comment, null, null);
        }

        public ColumnDef(String name, String type, String defaultKind, Expr defaultExpr, String defaultSql, String comment, String codec) {
            this(name, type, defaultKind, defaultExpr, defaultSql, comment, codec, null);
        }
    }

    /**
     * One rule of a table's TTL clause: rows whose {@code expr} (a date or time) is past are deleted ({@code action}
     * DELETE, the default), or moved, recompressed or grouped (other actions, which the stub has no storage for), those
     * {@code where} accepts when it is given.
     */
    record TtlElement(Expr expr, String action, Expr where) {
    }

    /**
     * DETACH, ATTACH, REPLACE (FROM {@code other}), MOVE (TO TABLE {@code other}) or FREEZE of a PARTITION (by value,
     * {@code partition}, or ID) or a PART ({@code partName}, DETACH and ATTACH); FREEZE without one freezes every part.
     */
    record PartitionCommand(String action, Expr partition, String partitionId, String partName, String otherDatabase,
                            String otherTable) implements AlterCommand {
    }

    /** ALTER TABLE ... MODIFY TTL list: the table's TTL clause becomes {@code sql}. */
    record ModifyTtl(String sql) implements AlterCommand {
    }

    /** ALTER TABLE ... REMOVE TTL. */
    record RemoveTtl() implements AlterCommand {
    }

    /** ALTER TABLE ... MATERIALIZE TTL: the TTL is applied to every part now. */
    record MaterializeTtl() implements AlterCommand {
    }

    /** CREATE TABLE; the clauses keep their SQL text too, for SHOW CREATE and for storing metadata. */
    record CreateTable(String database, String table, boolean ifNotExists, boolean orReplace, List<ColumnDef> columns,
                       String engine, List<Expr> engineArgs, Expr partitionBy, Expr orderBy, Expr primaryKey,
                       Map<String, String> settings, Map<String, String> clauseSql, String asDatabase, String asTable,
                       Query asSelect) implements Statement {
    }

    /** CREATE MATERIALIZED VIEW / CREATE VIEW. */
    record CreateView(String database, String name, boolean ifNotExists, boolean materialized, String toDatabase,
                      String toTable, CreateTable inner, boolean populate, Query select, String selectSql)
        implements Statement {
    }

    record DropTable(String database, String table, boolean ifExists, boolean view, boolean sync) implements Statement {
    }

    /**
     * A dictionary attribute (or key) of CREATE DICTIONARY, as ClickHouse's ASTDictionaryAttributeDeclaration:
     * {@code name type [DEFAULT literal] [EXPRESSION expr] [HIERARCHICAL] [BIDIRECTIONAL] [INJECTIVE] [IS_OBJECT_ID]};
     * {@code defaultValue} and {@code expression} are null when absent, {@code expressionSql} the expression as written.
     */
    record DictionaryAttributeDeclaration(String name, String type, Expr defaultValue, Expr expression, String expressionSql,
                                          boolean hierarchical, boolean bidirectional, boolean injective, boolean isObjectId) {
    }

    /**
     * {@code NAME(KEY value KEY value ...)} of a dictionary's SOURCE or LAYOUT, as ClickHouse's
     * ASTFunctionWithKeyValueArguments: {@code name} and the keys upper-cased (as the engine writes them back), each value
     * its literal's text as the engine formats it ({@code 'src'}, {@code 10}), in the order written; {@code hasBrackets}
     * false for a bare {@code NAME}. A value written as a function ({@code DB currentDatabase()}) is in
     * {@code expressions} until CREATE evaluates it to its literal ({@link #withValues}).
     */
    record KeyValueFunction(String name, Map<String, String> arguments, boolean hasBrackets, Map<String, Expr> expressions) {
        public KeyValueFunction(String name, Map<String, String> arguments, boolean hasBrackets) {
            this(name, arguments, hasBrackets, Map.of());
        }

        /** This function with the values of {@code values} (literal texts) in place of its expressions, in the order written. */
        public KeyValueFunction withValues(Map<String, String> values) {
            Map<String, String> args = new java.util.LinkedHashMap<>();
            for (Map.Entry<String, String> e : arguments.entrySet()) {
                args.put(e.getKey(), values.getOrDefault(e.getKey(), e.getValue()));
            }
            return new KeyValueFunction(name, args, hasBrackets);
        }
    }

    /**
     * CREATE [OR REPLACE] DICTIONARY [IF NOT EXISTS] [db.]name (attributes) PRIMARY KEY k[, k2] SOURCE(...) LAYOUT(...)
     * LIFETIME(...) [RANGE(MIN a MAX b)] [SETTINGS(...)] [COMMENT '...'], as ClickHouse's ASTCreateQuery with an ASTDictionary:
     * a clause not given is null ({@code lifetimeMin} and {@code lifetimeMax} too), {@code primaryKey} empty.
     */
    record CreateDictionary(String database, String name, boolean ifNotExists, boolean orReplace,
                            List<DictionaryAttributeDeclaration> attributes, List<String> primaryKey, KeyValueFunction source,
                            KeyValueFunction layout, Long lifetimeMin, Long lifetimeMax, String rangeMin, String rangeMax,
                            Map<String, String> settings, String comment) implements Statement {
    }

    record DropDictionary(String database, String name, boolean ifExists) implements Statement {
    }

    record ShowCreateDictionary(String database, String name) implements Statement {
    }

    record ExistsDictionary(String database, String name) implements Statement {
    }

    /** DETACH DICTIONARY [IF EXISTS] d [PERMANENTLY]: the dictionary leaves the database, its metadata stays. */
    record DetachDictionary(String database, String name, boolean ifExists, boolean permanently) implements Statement {
    }

    /** ATTACH DICTIONARY [IF NOT EXISTS] d: a detached dictionary back from its metadata. */
    record AttachDictionary(String database, String name, boolean ifNotExists) implements Statement {
    }

    record Truncate(String database, String table, boolean ifExists) implements Statement {
    }

    /** SHOW TABLES / SHOW DATABASES; {@code limit} is Long.MAX_VALUE without LIMIT. */
    record ShowTables(String database, String like, boolean databases, long limit) implements Statement {
    }

    record ShowCreate(String database, String table) implements Statement {
    }

    record Describe(String database, String table) implements Statement {
    }

    /** {@code CREATE TEMPORARY TABLE}: a table of the session (or of the one query without a session), Memory by default. */
    record CreateTemporaryTable(CreateTable table) implements Statement {
    }

    /** {@code DESCRIBE (SELECT ...)}: the columns a query would return, without running it. */
    record DescribeQuery(Query query) implements Statement {
    }

    record Exists(String database, String table) implements Statement {
    }

    /** ALTER TABLE with one or more commands. */
    /** ALTER TABLE with its commands and the settings of its SETTINGS clause (for this statement only). */
    record Alter(String database, String table, List<AlterCommand> commands, Map<String, String> settings) implements Statement {
        public Alter(String database, String table, List<AlterCommand> commands) {
            this(database, table, commands, Map.of());
        }
    }

    sealed interface AlterCommand {
    }

    record ModifySetting(Map<String, String> settings) implements AlterCommand {
    }

    record ResetSetting(List<String> names) implements AlterCommand {
    }

    /** DROP PARTITION expr, or DROP PARTITION ID 'id'. */
    record DropPartition(Expr partition, String partitionId) implements AlterCommand {
    }

    record DropPart(String partName) implements AlterCommand {
    }

    /** ALTER TABLE ... DELETE WHERE, and DELETE FROM ... WHERE. */
    record MutateDelete(Expr where, String sql) implements AlterCommand {
    }

    /** ALTER TABLE ... UPDATE c = e, ... WHERE. */
    record MutateUpdate(Map<String, Expr> assignments, Expr where, String sql) implements AlterCommand {
    }

    /**
     * ADD COLUMN [IF NOT EXISTS] def [FIRST | AFTER name]: {@code after} is the column it follows, "" for FIRST, null
     * for the end.
     */
    record AddColumn(ColumnDef column, boolean ifNotExists, String after) implements AlterCommand {
    }

    record DropColumn(String name, boolean ifExists) implements AlterCommand {
    }

    /**
     * MODIFY COLUMN [IF EXISTS] name [type] [DEFAULT|MATERIALIZED|ALIAS expr] [COMMENT 'c'] [FIRST | AFTER name]: what
     * it leaves out ({@code column}'s null parts) stays as it was; {@code remove} is the property of a
     * {@code MODIFY COLUMN name REMOVE DEFAULT} (DEFAULT, MATERIALIZED, ALIAS, COMMENT, CODEC, TTL), else null.
     */
    record ModifyColumn(ColumnDef column, boolean ifExists, String after, String remove, String sql) implements AlterCommand {
    }

    record RenameColumn(String from, String to, boolean ifExists) implements AlterCommand {
    }

    /** CLEAR COLUMN [IF EXISTS] name [IN PARTITION p]: the column's values become its default. */
    record ClearColumn(String name, boolean ifExists, Expr partition, String sql) implements AlterCommand {
    }

    record CommentColumn(String name, String comment, boolean ifExists) implements AlterCommand {
    }

    /** MODIFY COMMENT 'c': the table's comment. */
    record ModifyComment(String comment) implements AlterCommand {
    }

    /** MODIFY ORDER BY expr: only columns added by the same ALTER may be appended to the sorting key, as in ClickHouse. */
    record ModifyOrderBy(Expr orderBy, String sql) implements AlterCommand {
    }

    /**
     * ADD INDEX, ADD PROJECTION, ADD CONSTRAINT [IF NOT EXISTS] name ... [FIRST | AFTER name] ({@code kind} INDEX,
     * PROJECTION or CONSTRAINT; {@code definition} the text after the name), kept in the table's definition.
     */
    record AddTableElement(String kind, String name, String definition, boolean ifNotExists, String after) implements AlterCommand {
    }

    /** DROP, MATERIALIZE or CLEAR (action) of an INDEX, PROJECTION or CONSTRAINT [IF EXISTS] name. */
    record TableElementCommand(String action, String kind, String name, boolean ifExists) implements AlterCommand {
    }

    /** The lightweight {@code UPDATE t SET ... WHERE ...}, with its SETTINGS. */
    record LightweightUpdate(String database, String table, MutateUpdate update, Map<String, String> settings) implements Statement {
    }

    /** RENAME TABLE a TO b [, c TO d ...]: each element {fromDatabase, from, toDatabase, to}, databases null when not given. */
    record RenameTables(List<String[]> renames) implements Statement {
    }

    /** EXCHANGE TABLES a AND b: the two swap names atomically. */
    record ExchangeTables(String database1, String table1, String database2, String table2) implements Statement {
    }

    /** DETACH TABLE|VIEW [IF EXISTS] t [PERMANENTLY] [SYNC]: the table leaves the catalog, its data and metadata stay. */
    record DetachTable(String database, String table, boolean ifExists, boolean permanently) implements Statement {
    }

    /** ATTACH TABLE [IF NOT EXISTS] t: a detached table back from its metadata. */
    record AttachTable(String database, String table, boolean ifNotExists) implements Statement {
    }

    record Optimize(String database, String table, boolean isFinal, Expr partition, boolean deduplicate) implements Statement {
    }

    /** SYSTEM STOP/START MERGES [table], SYSTEM ENABLE/DISABLE FAILPOINT name, SYSTEM FLUSH LOGS, ... */
    record SystemCmd(String action, String database, String table, String argument, Map<String, String> options)
        implements Statement {
    }

    record SetStmt(Map<String, String> settings) implements Statement {
    }

    record Use(String database) implements Statement {
    }

    record KillQuery(Expr where, boolean sync) implements Statement {
    }

    /** KILL MUTATION WHERE ... [SYNC|ASYNC] [TEST]: {@code where} is over system.mutations' database, table, mutation_id, command. */
    record KillMutation(Expr where, boolean test) implements Statement {
    }

    /**
     * INSERT INTO t [(cols)] [SETTINGS ...] followed by VALUES data, FORMAT f data, or a SELECT.
     * {@code dataOffset} is where inline data starts in the statement text (-1 with a SELECT or no data).
     */
    record Insert(String database, String table, List<String> columns, Map<String, String> settings, String format,
                  Query select, int dataOffset) implements Statement {
    }

    /**
     * One element of a user's, role's or settings profile's SETTINGS list: a setting with a value and constraints
     * (null when absent; writability is CONST, READONLY, WRITABLE or CHANGEABLE_IN_READONLY), or, when {@code profile}
     * is set, {@code PROFILE 'name'} / {@code INHERIT 'name'}.
     */
    record SettingElement(String name, String value, String min, String max, String writability, String profile) {
    }

    /**
     * CREATE, ALTER or DROP of a USER, ROLE or SETTINGS PROFILE. {@code password} is null when the statement does not
     * say how the user is identified; {@code settings} is null when it has no SETTINGS clause; {@code assignees} is a
     * profile's TO list (null without one).
     */
    record AccessEntity(String verb, String kind, List<String> names, boolean ifExists, boolean ifNotExists, boolean orReplace,
                        String authType, String password, List<SettingElement> settings, List<String> assignees)
        implements Statement {
    }

    /**
     * GRANT or REVOKE of privileges ON a target ({@code privileges} the privilege list as written, {@code on} the
     * target), or of roles ({@code roles}, when {@code privileges} is null), TO or FROM {@code grantees}.
     */
    record Grant(boolean revoke, String privileges, String on, List<String> roles, List<String> grantees) implements Statement {
    }

    /**
     * {@code SET ROLE {DEFAULT | NONE | ALL [EXCEPT r, ...] | r, ...}}, or with {@code toUsers} (not null)
     * {@code SET DEFAULT ROLE {NONE | ALL [EXCEPT r, ...] | r, ...} TO u, ...}: {@code mode} is DEFAULT, NONE, ALL or
     * LIST; {@code roles} the roles of a LIST, {@code except} those ALL leaves out.
     */
    record SetRole(String mode, List<String> roles, List<String> except, List<String> toUsers) implements Statement {
    }

    /** {@code SHOW GRANTS [FOR u, ...]}: {@code users} null for the current user; {@code header} the result's column name. */
    record ShowGrants(List<String> users, String header) implements Statement {
    }

    /**
     * {@code EXPLAIN kind [settings] statement}: {@code kind} is AST, SYNTAX, QUERY TREE, PLAN, PIPELINE or ESTIMATE;
     * {@code settings} the explain settings in the order given (a string value quoted); {@code statement} the
     * statement explained, for AST and SYNTAX as written (see ParserExplainQuery).
     */
    record Explain(String kind, Map<String, String> settings, Statement statement) implements Statement {
    }
}
