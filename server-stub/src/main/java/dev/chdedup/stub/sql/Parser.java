package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Recursive-descent parser for the SQL the stub understands. Tokens are lexed lazily, so an INSERT's inline
 * data after {@code VALUES} or {@code FORMAT f} is never tokenized: the parser stops there and reports the
 * offset. {@link #parseStatement()} switches on the first keyword; expressions have one method per precedence
 * level, from lambda down to primary. A syntax error names the position and what was expected, as ClickHouse's
 * {@code SYNTAX_ERROR} does.
 */
public final class Parser {
    /** The shared token cursor. */
    private final TokenIterator pos;
    private final ParserSetQuery parserSettings;
    private final ParserExpression exp;
    private final ParserSelectQuery select;
    private final ParserAccessEntityQuery accessEntity;
    /** The ON CLUSTER clause of a CREATE/DROP (null: none), its text span, and where an unqualified table name starts (-1). */
    private String onClusterName;
    private int onClusterStart = -1;
    private int onClusterEnd = -1;
    private int unqualifiedNameAt = -1;

    public Parser(String sql) {
        this(sql, sql.length());
    }

    public Parser(String sql, int end) {
        this(sql, end, QueryParameters.NONE);
    }

    public Parser(String sql, QueryParameters params) {
        this(sql, sql.length(), params);
    }

    private Parser(String sql, int end, QueryParameters params) {
        this.pos = new TokenIterator(sql, end, params);
        this.parserSettings = new ParserSetQuery(pos);
        this.exp = new ParserExpression(pos);
        this.select = exp.select;
        this.accessEntity = new ParserAccessEntityQuery(pos);
    }

    /** A statement and the FORMAT given after SHOW/DESCRIBE/EXISTS (null when none). */
    public record Parsed(Statement statement, String format) {
    }

    /** Parses exactly one statement (a trailing ';' allowed). */
    public static Statement parse(String sql) {
        return parseWithFormat(sql).statement();
    }

    /** Like {@link #parse}, also returning a trailing FORMAT of SHOW/DESCRIBE/EXISTS. */
    public static Parsed parseWithFormat(String sql) {
        return parseWithFormat(sql, QueryParameters.NONE);
    }

    /** Like {@link #parseWithFormat(String)}, replacing each {@code {name:Type}} with its parameter's value. */
    public static Parsed parseWithFormat(String sql, QueryParameters params) {
        Parser p = new Parser(sql, params);
        Statement st = p.parseStatement();
        if (!(st instanceof Statement.Insert) || ((Statement.Insert) st).dataOffset() < 0) {
            p.pos.readOp(";");
            if (p.pos.tok.kind() != Token.Kind.EOF) {
                throw p.pos.error("end of query");
            }
        }
        return new Parsed(st, p.pos.formatOverride);
    }

    /** The FORMAT given after SHOW/DESCRIBE/EXISTS, carried to the executor through the query settings. */
    public String formatOverride() {
        return pos.formatOverride;
    }

    // ---- statements ----

    public Statement parseStatement() {
        if (pos.tok.is("SELECT") || pos.tok.is("WITH") || pos.tok.isOp("(")) {
            return new Statement.SelectStmt(select.query());
        }
        if (pos.readIf("INSERT")) {
            return new ParserInsertQuery(exp).parse();
        }
        if (pos.readIf("CREATE")) {
            return onCluster(create());
        }
        if (pos.tok.is("GRANT") || pos.tok.is("REVOKE")) {
            return new ParserGrantQuery(pos).parse();
        }
        if (pos.tok.is("ATTACH")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ATTACH is not supported by the stub");
        }
        if (pos.readIf("DROP")) {
            return onCluster(drop());
        }
        if (pos.readIf("DELETE")) {
            pos.expect("FROM");
            String[] n = pos.qualifiedName();
            pos.expect("WHERE");
            int st = pos.tok.pos();
            Expr where = exp.expr();
            return new Statement.Alter(n[0], n[1], List.of(new Statement.MutateDelete(where, "DELETE WHERE " + pos.sql.substring(st, pos.prev.end()))),
                pos.readIf("SETTINGS") ? parserSettings.settingList() : Map.of());
        }
        if (pos.readIf("TRUNCATE")) {
            pos.readIf("TABLE");
            boolean ifExists = pos.readIf("IF", "EXISTS");
            String[] n = pos.qualifiedName();
            return new Statement.Truncate(n[0], n[1], ifExists);
        }
        if (pos.readIf("SHOW")) {
            if (pos.readIf("CREATE")) {
                return new ParserTablePropertiesQuery(pos).showCreate();
            }
            return new ParserShowTablesQuery(pos).parse();
        }
        if (pos.readIf("DESCRIBE") || pos.readIf("DESC")) {
            return new ParserDescribeTableQuery(exp).parse();
        }
        if (pos.readIf("EXISTS")) {
            return new ParserTablePropertiesQuery(pos).exists();
        }
        if (pos.readIf("ALTER")) {
            return alter();
        }
        if (pos.readIf("OPTIMIZE")) {
            pos.expect("TABLE");
            String[] n = pos.qualifiedName();
            Expr partition = null;
            if (pos.readIf("PARTITION")) {
                partition = exp.expr();
            }
            boolean fin = pos.readIf("FINAL");
            boolean dedup = pos.readIf("DEDUPLICATE");
            return new Statement.Optimize(n[0], n[1], fin, partition, dedup);
        }
        if (pos.readIf("SYSTEM")) {
            return system();
        }
        if (pos.readIf("SET")) {
            return new ParserSetQuery(pos).parse();
        }
        if (pos.readIf("USE")) {
            return new Statement.Use(pos.identifier());
        }
        if (pos.readIf("KILL")) {
            if (pos.readIf("MUTATION")) {
                pos.expect("WHERE");
                Expr where = exp.expr();
                if (!pos.readIf("SYNC")) {
                    pos.readIf("ASYNC");
                }
                return new Statement.KillMutation(where, pos.readIf("TEST"));
            }
            pos.expect("QUERY");
            pos.expect("WHERE");
            Expr where = exp.expr();
            boolean sync = pos.readIf("SYNC");
            if (!sync) {
                pos.readIf("ASYNC");
            }
            return new Statement.KillQuery(where, sync);
        }
        throw pos.error("one of: SELECT, INSERT, CREATE, DROP, DELETE, ALTER, SHOW, DESCRIBE, EXISTS, OPTIMIZE, SYSTEM, SET, USE, TRUNCATE, KILL, GRANT, REVOKE");
    }

    private Statement create() {
        boolean orReplace = pos.readIf("OR", "REPLACE");
        if (accessEntity.atAccessEntity()) {
            return accessEntity.parse("CREATE", orReplace);
        }
        boolean temporary = pos.readIf("TEMPORARY");
        if (pos.readIf("DATABASE")) {
            boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
            String name = pos.identifier();
            onClusterClause();
            if (pos.readIf("ENGINE")) {
                pos.expectOp("=");
                pos.identifier();
                if (pos.readOp("(")) {
                    pos.skipBalanced();
                }
            }
            return new Statement.CreateDatabase(name, ine);
        }
        if (pos.readIf("MATERIALIZED")) {
            pos.expect("VIEW");
            return view(true);
        }
        if (pos.readIf("VIEW")) {
            return view(false);
        }
        if (!pos.readIf("TABLE")) {
            throw pos.error("TABLE, DATABASE, VIEW or MATERIALIZED VIEW");
        }
        boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
        int nameAt = pos.tok.pos();
        String[] n = pos.qualifiedName();
        if (!temporary && n[0] == null) {
            unqualifiedNameAt = nameAt;
        }
        if (!temporary) {
            onClusterClause();
        }
        if (temporary) {
            if (n[0] != null) {
                throw new ChException(ErrorCode.BAD_DATABASE_FOR_TEMPORARY_TABLE, "Temporary tables cannot be inside a database."
                    + " You should not specify a database for a temporary table.");
            }
            return new Statement.CreateTemporaryTable(tableBody(null, n[1], ine, orReplace, false));
        }
        return tableBody(n[0], n[1], ine, orReplace, true);
    }

    /** {@code ON CLUSTER name} (an identifier or a string, which may hold macros) after a CREATE/DROP name: remembered for {@link #onCluster}. */
    private void onClusterClause() {
        if (!pos.tok.is("ON")) {
            return;
        }
        int st = pos.tok.pos();
        pos.advance();
        pos.expect("CLUSTER");
        onClusterName = pos.tok.kind() == Token.Kind.STRING ? pos.stringLiteral() : pos.identifier();
        onClusterStart = st;
        onClusterEnd = pos.prev.end();
    }

    /** Wraps a CREATE/DROP that named {@code ON CLUSTER} into a {@link Statement.OnCluster} (distributed DDL). */
    private Statement onCluster(Statement st) {
        if (onClusterName == null) {
            return st;
        }
        return new Statement.OnCluster(onClusterName, st, pos.sql, onClusterStart, onClusterEnd, unqualifiedNameAt);
    }

    private Statement.CreateTable tableBody(String db, String table, boolean ine, boolean orReplace, boolean allowAsSelect) {
        List<Statement.ColumnDef> cols = new ArrayList<>();
        String asDb = null;
        String asTable = null;
        if (pos.readOp("(")) {
            do {
                if (pos.tok.is("INDEX") || pos.tok.is("PROJECTION") || pos.tok.is("CONSTRAINT")) {
                    pos.advance();
                    while (!pos.tok.isOp(",") && !pos.tok.isOp(")") && pos.tok.kind() != Token.Kind.EOF) {
                        if (pos.readOp("(")) {
                            pos.skipBalanced();
                        } else {
                            pos.advance();
                        }
                    }
                    continue;
                }
                if (pos.tok.is("PRIMARY") ) {
                    throw new ChException(ErrorCode.NOT_IMPLEMENTED, "PRIMARY KEY inside the column list is not supported; use the PRIMARY KEY clause");
                }
                cols.add(columnDef());
            } while (pos.readOp(","));
            pos.expectOp(")");
        } else if (pos.readIf("AS")) {
            String[] n = pos.qualifiedName();
            asDb = n[0];
            asTable = n[1];
        }
        String engine = null;
        List<Expr> engineArgs = List.of();
        Expr partitionBy = null;
        Expr orderBy = null;
        Expr primaryKey = null;
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, String> clauseSql = new LinkedHashMap<>();
        while (true) {
            if (pos.readIf("ENGINE")) {
                pos.readOp("=");
                engine = pos.identifier();
                int st = pos.tok.pos();
                if (pos.readOp("(")) {
                    engineArgs = pos.tok.isOp(")") ? List.of() : exp.exprList();
                    pos.expectOp(")");
                    clauseSql.put("ENGINE", engine + pos.sql.substring(st, pos.prev.end()));
                } else {
                    clauseSql.put("ENGINE", engine);
                }
            } else if (pos.readIf("PARTITION")) {
                pos.expect("BY");
                int st = pos.tok.pos();
                partitionBy = exp.expr();
                clauseSql.put("PARTITION BY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("ORDER")) {
                pos.expect("BY");
                int st = pos.tok.pos();
                orderBy = exp.expr();
                clauseSql.put("ORDER BY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("PRIMARY")) {
                pos.expect("KEY");
                int st = pos.tok.pos();
                primaryKey = exp.expr();
                clauseSql.put("PRIMARY KEY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("SAMPLE")) {
                pos.expect("BY");
                exp.expr();
            } else if (pos.readIf("TTL")) {
                exp.exprList();
            } else if (pos.readIf("SETTINGS")) {
                settings.putAll(parserSettings.settingList());
            } else if (pos.readIf("COMMENT")) {
                clauseSql.put("COMMENT", pos.stringLiteral());
            } else {
                break;
            }
        }
        for (Statement.ColumnDef c : cols) {
            if (c.comment() != null) {
                clauseSql.put(Statement.COLUMN_COMMENT + c.name(), c.comment());
            }
        }
        Query asSelect = null;
        if (allowAsSelect && pos.readIf("AS")) {
            asSelect = select.query();
        }
        return new Statement.CreateTable(db, table, ine, orReplace, cols, engine, engineArgs, partitionBy, orderBy,
            primaryKey, settings, clauseSql, asDb, asTable, asSelect);
    }

    private Statement.ColumnDef columnDef() {
        String name = pos.identifier();
        String type = null;
        if (!(pos.tok.is("DEFAULT") || pos.tok.is("MATERIALIZED") || pos.tok.is("ALIAS") || pos.tok.is("EPHEMERAL"))) {
            type = pos.typeText();
            if (pos.readIf("NOT")) {
                pos.expect("NULL");
            } else if (pos.readIf("NULL")) {
                type = "Nullable(" + type + ")";
            }
        }
        String kind = null;
        Expr def = null;
        String defSql = null;
        if (pos.tok.is("DEFAULT") || pos.tok.is("MATERIALIZED") || pos.tok.is("ALIAS") || pos.tok.is("EPHEMERAL")) {
            kind = pos.tok.text().toUpperCase(Locale.ROOT);
            pos.advance();
            if (!(kind.equals("EPHEMERAL") && (pos.tok.isOp(",") || pos.tok.isOp(")")))) {
                int st = pos.tok.pos();
                def = exp.expr();
                defSql = pos.sql.substring(st, pos.prev.end());
            }
        }
        String comment = null;
        while (true) {
            if (pos.readIf("CODEC")) {
                pos.expectOp("(");
                pos.skipBalanced();
            } else if (pos.readIf("TTL")) {
                exp.expr();
            } else if (pos.readIf("COMMENT")) {
                comment = pos.tok.text();
                pos.advance();
            } else {
                break;
            }
        }
        if (type == null && def == null) {
            throw pos.error("column type");
        }
        return new Statement.ColumnDef(name, type, kind, def, defSql, comment);
    }

    private Statement view(boolean materialized) {
        boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
        String[] n = pos.qualifiedName();
        String toDb = null;
        String toTable = null;
        Statement.CreateTable inner = null;
        if (pos.readIf("TO")) {
            String[] t = pos.qualifiedName();
            toDb = t[0];
            toTable = t[1];
        }
        if (toTable == null && (pos.tok.isOp("(") || pos.tok.is("ENGINE"))) {
            inner = tableBody(n[0], n[1], false, false, false);
        }
        boolean populate = pos.readIf("POPULATE");
        pos.expect("AS");
        int st = pos.tok.pos();
        Query q = select.query();
        return new Statement.CreateView(n[0], n[1], ine, materialized, toDb, toTable, inner, populate, q,
            pos.sql.substring(st, pos.prev.end()));
    }

    private Statement drop() {
        if (accessEntity.atAccessEntity()) {
            return accessEntity.parse("DROP", false);
        }
        if (pos.readIf("DATABASE")) {
            boolean ie = pos.readIf("IF", "EXISTS");
            String name = pos.identifier();
            onClusterClause();
            pos.readIf("SYNC");
            return new Statement.DropDatabase(name, ie);
        }
        boolean view = false;
        if (pos.readIf("VIEW")) {
            view = true;
        } else if (pos.readIf("DICTIONARY")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Dictionaries are not supported by the stub");
        } else {
            pos.readIf("TEMPORARY");
            pos.expect("TABLE");
        }
        boolean ie = pos.readIf("IF", "EXISTS");
        int nameAt = pos.tok.pos();
        String[] n = pos.qualifiedName();
        if (n[0] == null) {
            unqualifiedNameAt = nameAt;
        }
        onClusterClause();
        boolean sync = pos.readIf("SYNC");
        return new Statement.DropTable(n[0], n[1], ie, view, sync);
    }

    private Statement alter() {
        if (accessEntity.atAccessEntity()) {
            return accessEntity.parse("ALTER", false);
        }
        pos.expect("TABLE");
        String[] n = pos.qualifiedName();
        List<Statement.AlterCommand> cmds = new ArrayList<>();
        do {
            if (pos.readIf("MODIFY")) {
                pos.expect("SETTING");
                cmds.add(new Statement.ModifySetting(parserSettings.settingList()));
            } else if (pos.readIf("RESET")) {
                pos.expect("SETTING");
                List<String> names = new ArrayList<>();
                do {
                    names.add(pos.identifier());
                } while (pos.readOp(","));
                cmds.add(new Statement.ResetSetting(names));
            } else if (pos.readIf("DROP")) {
                if (pos.readIf("PARTITION")) {
                    if (pos.readIf("ID")) {
                        cmds.add(new Statement.DropPartition(null, pos.stringLiteral()));
                    } else {
                        cmds.add(new Statement.DropPartition(exp.expr(), null));
                    }
                } else if (pos.readIf("PART")) {
                    cmds.add(new Statement.DropPart(pos.stringLiteral()));
                } else {
                    throw pos.error("PARTITION or PART");
                }
            } else if (pos.tok.is("DELETE")) {
                int st = pos.tok.pos();
                pos.advance();
                pos.expect("WHERE");
                Expr where = exp.expr();
                cmds.add(new Statement.MutateDelete(where, pos.sql.substring(st, pos.prev.end())));
            } else if (pos.tok.is("UPDATE")) {
                int st = pos.tok.pos();
                pos.advance();
                Map<String, Expr> assignments = new LinkedHashMap<>();
                do {
                    String col = pos.identifier();
                    pos.expectOp("=");
                    assignments.put(col, exp.expr());
                } while (pos.readOp(",") && !pos.tok.is("WHERE"));
                pos.expect("WHERE");
                Expr where = exp.expr();
                cmds.add(new Statement.MutateUpdate(assignments, where, pos.sql.substring(st, pos.prev.end())));
            } else {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ALTER command at position " + (pos.tok.pos() + 1)
                    + " is not supported by the stub: supported are MODIFY SETTING, RESET SETTING, DROP PARTITION, DROP PART,"
                    + " DELETE, UPDATE");
            }
        } while (pos.readOp(","));
        // ALTER TABLE t DELETE WHERE ... SETTINGS mutations_sync = 2: the settings apply to this statement
        return new Statement.Alter(n[0], n[1], cmds, pos.readIf("SETTINGS") ? parserSettings.settingList() : Map.of());
    }

    private Statement system() {
        StringBuilder action = new StringBuilder();
        while (pos.tok.kind() == Token.Kind.IDENT && !pos.tok.is("ON")) {
            String w = pos.tok.text().toUpperCase(Locale.ROOT);
            if (action.length() > 0 && (w.equals("MERGES") || w.equals("FAILPOINT") || w.equals("LOGS") || w.equals("FETCHES")
                || w.equals("REPLICATION") || w.equals("SENDS") || w.equals("QUEUES") || w.equals("CACHE") || w.equals("REPLICA"))) {
                action.append(' ').append(w);
                pos.advance();
                break;
            }
            if (action.length() > 0) {
                action.append(' ');
            }
            action.append(w);
            pos.advance();
        }
        String db = null;
        String table = null;
        String arg = null;
        Map<String, String> options = new LinkedHashMap<>();
        if (action.toString().endsWith("FAILPOINT")) {
            arg = pos.identifier();
            // the stub's extension: FOR n INSERTS, ON TABLE [db.]t, CODE n, DELAY ms
            while (true) {
                if (pos.readIf("FOR")) {
                    options.put("times", pos.tok.text());
                    pos.advance();
                    if (!pos.readIf("INSERTS")) {
                        pos.readIf("INSERT");
                    }
                } else if (pos.readIf("ON")) {
                    pos.readIf("TABLE");
                    String[] n = pos.qualifiedName();
                    options.put("table", n[0] == null ? n[1] : n[0] + "." + n[1]);
                } else if (pos.readIf("CODE")) {
                    options.put("code", pos.tok.text());
                    pos.advance();
                } else if (pos.readIf("DELAY")) {
                    options.put("delay", pos.tok.text());
                    pos.advance();
                } else {
                    break;
                }
            }
        } else if (pos.isIdent()) {
            String[] n = pos.qualifiedName();
            db = n[0];
            table = n[1];
        }
        return new Statement.SystemCmd(action.toString(), db, table, arg, options);
    }

    /** Parses one expression and requires the end of input (used for Values-format fallbacks). */
    public Expr standaloneExpr() {
        Expr e = exp.expr();
        if (pos.tok.kind() != Token.Kind.EOF) {
            throw pos.error("end of expression");
        }
        return e;
    }
}
