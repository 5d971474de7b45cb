package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Query.From;
import dev.chdedup.stub.sql.Query.OrderItem;
import dev.chdedup.stub.sql.Query.Select;
import dev.chdedup.stub.sql.Query.SelectItem;
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
        return new Parsed(st, p.formatOverride);
    }

    // ---- statements ----

    public Statement parseStatement() {
        if (pos.tok.is("SELECT") || pos.tok.is("WITH") || pos.tok.isOp("(")) {
            return new Statement.SelectStmt(query());
        }
        if (pos.readIf("INSERT")) {
            return insert();
        }
        if (pos.readIf("CREATE")) {
            return onCluster(create());
        }
        if (pos.tok.is("GRANT") || pos.tok.is("REVOKE")) {
            return grant();
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
            Expr where = expr();
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
            return show();
        }
        if (pos.readIf("DESCRIBE") || pos.readIf("DESC")) {
            pos.readIf("TABLE");
            if (pos.tok.isOp("(") && (pos.peekIs("SELECT") || pos.peekIs("WITH"))) {
                pos.advance();
                Query q = query();
                pos.expectOp(")");
                return withFormat(new Statement.DescribeQuery(q), trailingFormat());
            }
            String[] n = pos.qualifiedName();
            String format = trailingFormat();
            return withFormat(new Statement.Describe(n[0], n[1]), format);
        }
        if (pos.readIf("EXISTS")) {
            pos.readIf("TEMPORARY");
            if (pos.readIf("DATABASE")) {
                String db = pos.identifier();
                String format = trailingFormat();
                return withFormat(new Statement.Exists(db, null), format);
            }
            if (!pos.readIf("TABLE")) {
                pos.readIf("VIEW");
            }
            String[] n = pos.qualifiedName();
            String format = trailingFormat();
            return withFormat(new Statement.Exists(n[0], n[1]), format);
        }
        if (pos.readIf("ALTER")) {
            return alter();
        }
        if (pos.readIf("OPTIMIZE")) {
            pos.expect("TABLE");
            String[] n = pos.qualifiedName();
            Expr partition = null;
            if (pos.readIf("PARTITION")) {
                partition = expr();
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
                Expr where = expr();
                if (!pos.readIf("SYNC")) {
                    pos.readIf("ASYNC");
                }
                return new Statement.KillMutation(where, pos.readIf("TEST"));
            }
            pos.expect("QUERY");
            pos.expect("WHERE");
            Expr where = expr();
            boolean sync = pos.readIf("SYNC");
            if (!sync) {
                pos.readIf("ASYNC");
            }
            return new Statement.KillQuery(where, sync);
        }
        throw pos.error("one of: SELECT, INSERT, CREATE, DROP, DELETE, ALTER, SHOW, DESCRIBE, EXISTS, OPTIMIZE, SYSTEM, SET, USE, TRUNCATE, KILL, GRANT, REVOKE");
    }

    private String formatOverride;

    /** The FORMAT given after SHOW/DESCRIBE/EXISTS, carried to the executor through the query settings. */
    public String formatOverride() {
        return formatOverride;
    }

    private Statement withFormat(Statement st, String format) {
        formatOverride = format;
        return st;
    }

    private String trailingFormat() {
        if (pos.readIf("FORMAT")) {
            return pos.identifier();
        }
        return null;
    }

    private Statement insert() {
        pos.expect("INTO");
        pos.readIf("TABLE");
        String db = null;
        String table;
        if (pos.readIf("FUNCTION")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "INSERT INTO FUNCTION is not supported by the stub");
        }
        String[] n = pos.qualifiedName();
        db = n[0];
        table = n[1];
        List<String> cols = null;
        if (pos.readOp("(")) {
            cols = new ArrayList<>();
            if (!pos.tok.isOp(")")) {
                do {
                    cols.add(pos.identifier());
                } while (pos.readOp(","));
            }
            pos.expectOp(")");
        }
        Map<String, String> settings = Map.of();
        if (pos.readIf("SETTINGS")) {
            settings = parserSettings.settingList();
        }
        if (pos.tok.is("VALUES")) {
            int offset = pos.tok.end();
            return new Statement.Insert(db, table, cols, settings, "Values", null, offset);
        }
        if (pos.readIf("FORMAT")) {
            String format = pos.tok.text();
            if (!pos.isIdent()) {
                throw pos.error("format name");
            }
            int p = pos.tok.end();
            // data starts after the first newline, or after all whitespace when there is none
            int q = p;
            while (q < pos.end && (pos.sql.charAt(q) == ' ' || pos.sql.charAt(q) == '\t' || pos.sql.charAt(q) == '\r')) {
                q++;
            }
            if (q < pos.end && pos.sql.charAt(q) == '\n') {
                q++;
            } else {
                q = p;
                while (q < pos.end && Character.isWhitespace(pos.sql.charAt(q))) {
                    q++;
                }
            }
            return new Statement.Insert(db, table, cols, settings, format, null, q);
        }
        if (pos.tok.is("SELECT") || pos.tok.is("WITH") || pos.tok.isOp("(")) {
            Query q = query();
            return new Statement.Insert(db, table, cols, settings, null, q, -1);
        }
        if (pos.tok.kind() == Token.Kind.EOF) {
            // INSERT INTO t with data in the body in the default format, as ClickHouse accepts over HTTP
            return new Statement.Insert(db, table, cols, settings, null, null, pos.end);
        }
        throw pos.error("VALUES, FORMAT or SELECT");
    }

    private Statement create() {
        boolean orReplace = pos.readIf("OR", "REPLACE");
        if (atAccessEntity()) {
            return accessEntity("CREATE", orReplace);
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
                    engineArgs = pos.tok.isOp(")") ? List.of() : exprList();
                    pos.expectOp(")");
                    clauseSql.put("ENGINE", engine + pos.sql.substring(st, pos.prev.end()));
                } else {
                    clauseSql.put("ENGINE", engine);
                }
            } else if (pos.readIf("PARTITION")) {
                pos.expect("BY");
                int st = pos.tok.pos();
                partitionBy = expr();
                clauseSql.put("PARTITION BY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("ORDER")) {
                pos.expect("BY");
                int st = pos.tok.pos();
                orderBy = expr();
                clauseSql.put("ORDER BY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("PRIMARY")) {
                pos.expect("KEY");
                int st = pos.tok.pos();
                primaryKey = expr();
                clauseSql.put("PRIMARY KEY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("SAMPLE")) {
                pos.expect("BY");
                expr();
            } else if (pos.readIf("TTL")) {
                exprList();
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
            asSelect = query();
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
                def = expr();
                defSql = pos.sql.substring(st, pos.prev.end());
            }
        }
        String comment = null;
        while (true) {
            if (pos.readIf("CODEC")) {
                pos.expectOp("(");
                pos.skipBalanced();
            } else if (pos.readIf("TTL")) {
                expr();
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
        Query q = query();
        return new Statement.CreateView(n[0], n[1], ine, materialized, toDb, toTable, inner, populate, q,
            pos.sql.substring(st, pos.prev.end()));
    }

    private Statement drop() {
        if (atAccessEntity()) {
            return accessEntity("DROP", false);
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

    private Statement show() {
        if (pos.readIf("DATABASES")) {
            String like = pos.readIf("LIKE") ? pos.stringLiteral() : null;
            return withFormat(new Statement.ShowTables(null, like, true, showLimit()), trailingFormat());
        }
        if (pos.readIf("CREATE")) {
            if (!pos.readIf("TABLE")) {
                pos.readIf("VIEW");
            }
            String[] n = pos.qualifiedName();
            return withFormat(new Statement.ShowCreate(n[0], n[1]), trailingFormat());
        }
        if (pos.readIf("TABLES")) {
            String db = null;
            if (pos.readIf("FROM") || pos.readIf("IN")) {
                db = pos.identifier();
            }
            String like = pos.readIf("LIKE") ? pos.stringLiteral() : null;
            return withFormat(new Statement.ShowTables(db, like, false, showLimit()), trailingFormat());
        }
        throw pos.error("DATABASES, TABLES or CREATE TABLE");
    }

    private long showLimit() {
        if (!pos.readIf("LIMIT")) {
            return Long.MAX_VALUE;
        }
        if (pos.tok.kind() != Token.Kind.NUMBER) {
            throw pos.error("number");
        }
        long n = Long.parseLong(pos.tok.text());
        pos.advance();
        return n;
    }

    private Statement alter() {
        if (atAccessEntity()) {
            return accessEntity("ALTER", false);
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
                        cmds.add(new Statement.DropPartition(expr(), null));
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
                Expr where = expr();
                cmds.add(new Statement.MutateDelete(where, pos.sql.substring(st, pos.prev.end())));
            } else if (pos.tok.is("UPDATE")) {
                int st = pos.tok.pos();
                pos.advance();
                Map<String, Expr> assignments = new LinkedHashMap<>();
                do {
                    String col = pos.identifier();
                    pos.expectOp("=");
                    assignments.put(col, expr());
                } while (pos.readOp(",") && !pos.tok.is("WHERE"));
                pos.expect("WHERE");
                Expr where = expr();
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

    // ---- queries ----

    public Query query() {
        List<Select> selects = new ArrayList<>();
        List<Query> nested = new ArrayList<>();
        do {
            if (pos.tok.isOp("(")) {
                pos.advance();
                Query inner = query();
                pos.expectOp(")");
                selects.addAll(inner.selects());
                nested.add(inner);
            } else {
                selects.add(select());
            }
        } while (pos.readIf("UNION") && (pos.readIf("ALL") || true));
        Map<String, String> settings = Map.of();
        String format = null;
        for (int i = 0; i < 2; i++) {
            if (pos.readIf("SETTINGS")) {
                settings = parserSettings.settingList();
            }
            if (pos.readIf("FORMAT")) {
                format = pos.identifier();
            }
        }
        return new Query(selects, settings, format);
    }

    private Select select() {
        int ctesBefore = ctes.size();
        try {
            return selectBody();
        } finally {
            while (ctes.size() > ctesBefore) {
                ctes.remove(ctes.size() - 1);
            }
        }
    }

    /**
     * The common table expressions in scope, innermost last: {@code WITH name AS (subquery)} makes {@code name} a
     * table of the rest of its SELECT and of the subqueries in it.
     */
    private final List<Map.Entry<String, Query>> ctes = new ArrayList<>();

    private Query cte(String name) {
        for (int i = ctes.size() - 1; i >= 0; i--) {
            if (ctes.get(i).getKey().equals(name)) {
                return ctes.get(i).getValue();
            }
        }
        return null;
    }

    /** {@code name AS (SELECT ...)} at the current token: registers the CTE and returns true, or reads nothing. */
    private boolean readCte() {
        if (!pos.isIdent()) {
            return false;
        }
        Token save = pos.tok;
        Token savePrev = pos.prev;
        String name = pos.identifier();
        if (pos.readIf("AS") && pos.tok.isOp("(") && (pos.peekIs("SELECT") || pos.peekIs("WITH"))) {
            pos.advance();
            Query q = query();
            pos.expectOp(")");
            ctes.add(Map.entry(name, q));
            return true;
        }
        pos.tok = save;
        pos.prev = savePrev;
        return false;
    }

    private Select selectBody() {
        List<SelectItem> withItems = new ArrayList<>();
        if (pos.readIf("WITH")) {
            do {
                if (readCte()) {
                    continue;
                }
                int st = pos.tok.pos();
                Expr e = expr();
                pos.expect("AS");
                String alias = pos.identifier();
                withItems.add(new SelectItem(e, alias, pos.sql.substring(st, pos.prev.end())));
            } while (pos.readOp(","));
        }
        pos.expect("SELECT");
        boolean distinct = pos.readIf("DISTINCT");
        pos.readIf("ALL");
        List<SelectItem> items = new ArrayList<>(withItems.size());
        do {
            int st = pos.tok.pos();
            Expr e = expr();
            String text = pos.sql.substring(st, pos.prev.end());
            String alias = null;
            if (pos.readIf("AS")) {
                alias = pos.identifier();
            } else if (pos.isIdent() && !isClauseKeyword(pos.tok)) {
                alias = pos.identifier();
            }
            items.add(new SelectItem(e, alias, text));
        } while (pos.readOp(",") && !endsSelectList(pos.tok));
        From from = null;
        if (pos.readIf("FROM")) {
            from = from();
        }
        Expr prewhere = pos.readIf("PREWHERE") ? expr() : null;
        Expr where = pos.readIf("WHERE") ? expr() : null;
        if (prewhere != null) {
            where = where == null ? prewhere : new Expr.Call("and", prewhere, where);
        }
        List<Expr> groupBy = List.of();
        if (pos.readIf("GROUP")) {
            pos.expect("BY");
            groupBy = exprList();
            pos.readIf("WITH", "TOTALS");
        }
        Expr having = pos.readIf("HAVING") ? expr() : null;
        List<OrderItem> orderBy = List.of();
        boolean orderByAll = false;
        boolean orderByAllDesc = false;
        if (pos.readIf("ORDER")) {
            pos.expect("BY");
            if (pos.tok.is("ALL") && !allIsColumn(from)) {
                Token save = pos.tok;
                pos.advance();
                if (pos.tok.isOp(",") || pos.tok.isOp(".") || pos.tok.isOp("(")) {
                    pos.tok = save;
                } else {
                    orderByAll = true;
                    orderByAllDesc = pos.readIf("DESC") || pos.readIf("DESCENDING");
                    if (!orderByAllDesc) {
                        if (!pos.readIf("ASC")) {
                            pos.readIf("ASCENDING");
                        }
                    }
                }
            }
            if (!orderByAll) {
                orderBy = new ArrayList<>();
                do {
                    Expr e = expr();
                    boolean desc = false;
                    if (pos.readIf("DESC") || pos.readIf("DESCENDING")) {
                        desc = true;
                    } else if (!pos.readIf("ASC")) {
                        pos.readIf("ASCENDING");
                    }
                    Boolean nullsFirst = null;
                    if (pos.readIf("NULLS")) {
                        nullsFirst = pos.readIf("FIRST");
                        if (!nullsFirst) {
                            pos.expect("LAST");
                        }
                    }
                    if (pos.readIf("COLLATE")) {
                        pos.advance();
                    }
                    Query.Fill fill = null;
                    if (pos.readIf("WITH", "FILL")) {
                        Expr fillFrom = pos.readIf("FROM") ? expr() : null;
                        Expr fillTo = pos.readIf("TO") ? expr() : null;
                        Expr fillStep = pos.readIf("STEP") ? expr() : null;
                        fill = new Query.Fill(fillFrom, fillTo, fillStep);
                    }
                    orderBy.add(new OrderItem(e, desc, nullsFirst, fill));
                } while (pos.readOp(","));
            }
        }
        Expr limit = null;
        Expr offset = null;
        List<Expr> limitBy = null;
        Expr limitByCount = null;
        if (pos.readIf("LIMIT")) {
            Expr a = expr();
            if (pos.readOp(",")) {
                offset = a;
                limit = expr();
            } else if (pos.readIf("BY")) {
                limitByCount = a;
                limitBy = exprList();
                if (pos.readIf("LIMIT")) {
                    limit = expr();
                    if (pos.readIf("OFFSET")) {
                        offset = expr();
                    }
                }
            } else {
                limit = a;
                if (pos.readIf("OFFSET")) {
                    offset = expr();
                }
            }
        }
        if (offset == null && pos.readIf("OFFSET")) {
            offset = expr();
            pos.readIf("ROWS");
            if (pos.readIf("FETCH")) {
                if (!pos.readIf("FIRST")) {
                    pos.expect("NEXT");
                }
                limit = expr();
                if (!pos.readIf("ROWS")) {
                    pos.readIf("ROW");
                }
                pos.expect("ONLY");
            }
        }
        if (!withItems.isEmpty()) {
            List<SelectItem> all = new ArrayList<>();
            for (SelectItem w : withItems) {
                all.add(new SelectItem(w.expr(), w.alias(), "\u0000with"));
            }
            all.addAll(items);
            items = all;
        }
        return new Select(distinct, items, from, where, groupBy, having, orderBy, orderByAll, orderByAllDesc, limit,
            offset, limitBy, limitByCount);
    }

    /**
     * A trailing comma is allowed in a select list: whether {@code t} ends the list there. A clause keyword does,
     * unless what follows it shows it is a column of that name ({@code SELECT id, format FROM t}).
     */
    private boolean endsSelectList(Token t) {
        if (t.kind() == Token.Kind.EOF || t.isOp(")") || t.isOp(";")) {
            return true;
        }
        for (String k : new String[] {"FROM", "WHERE", "PREWHERE", "GROUP", "HAVING", "ORDER", "LIMIT", "OFFSET",
            "SETTINGS", "FORMAT", "UNION", "INTO", "WINDOW", "QUALIFY", "INTERSECT", "EXCEPT"}) {
            if (t.kind() == Token.Kind.IDENT && t.is(k)) {
                Token after = Lexer.next(pos.sql, t.end(), pos.end, t);
                return !(after.is("FROM") || after.isOp(",") || after.isOp(")") || after.isOp(";")
                    || after.kind() == Token.Kind.EOF);
            }
        }
        return false;
    }

    private boolean allIsColumn(From from) {
        return false;
    }

    private static final String[] CLAUSE_KEYWORDS = {"FROM", "WHERE", "PREWHERE", "GROUP", "HAVING", "ORDER", "LIMIT",
        "OFFSET", "SETTINGS", "FORMAT", "UNION", "INTO", "FINAL", "SAMPLE", "ARRAY", "JOIN", "LEFT", "RIGHT", "INNER",
        "OUTER", "CROSS", "FULL", "ANY", "ALL", "GLOBAL", "USING", "ON", "WINDOW", "QUALIFY", "FETCH", "AS", "ASC", "DESC",
        "INTERSECT", "EXCEPT", "WITH", "BY", "NULLS", "COLLATE", "TO", "POPULATE", "AND", "OR", "NOT", "LIKE", "ILIKE",
        "IN", "BETWEEN", "IS", "SELECT", "ASOF", "SEMI", "ANTI", "PASTE"};

    private static boolean isClauseKeyword(Token t) {
        if (t.kind() != Token.Kind.IDENT) {
            return false;
        }
        for (String k : CLAUSE_KEYWORDS) {
            if (t.text().equalsIgnoreCase(k)) {
                return true;
            }
        }
        return false;
    }

    private From from() {
        From f = fromItem();
        while (true) {
            String kind;
            if (pos.readIf("CROSS")) {
                pos.expect("JOIN");
                kind = "CROSS";
            } else if (pos.tok.isOp(",")) {
                pos.advance();
                kind = "CROSS";
            } else if (pos.tok.is("ARRAY") || pos.tok.is("LEFT") && pos.peekIs("ARRAY")) {
                boolean leftArray = pos.readIf("LEFT");
                pos.expect("ARRAY");
                pos.expect("JOIN");
                List<Expr> arrays = new ArrayList<>();
                List<String> names = new ArrayList<>();
                do {
                    arrays.add(expr());
                    names.add(pos.readIf("AS") ? pos.identifier() : null);
                } while (pos.readOp(","));
                f = new Query.ArrayJoin(f, arrays, names, leftArray);
                continue;
            } else if (pos.readIf("LEFT")) {
                pos.readIf("OUTER");
                pos.readIf("ANY");
                pos.readIf("ALL");
                pos.expect("JOIN");
                kind = "LEFT";
            } else if (pos.readIf("INNER")) {
                pos.readIf("ANY");
                pos.readIf("ALL");
                pos.expect("JOIN");
                kind = "INNER";
            } else if (pos.readIf("JOIN")) {
                kind = "INNER";
            } else if (pos.readIf("RIGHT")) {
                pos.readIf("OUTER");
                pos.readIf("ANY");
                pos.readIf("ALL");
                pos.expect("JOIN");
                kind = "RIGHT";
            } else if (pos.readIf("FULL")) {
                pos.readIf("OUTER");
                pos.readIf("ALL");
                pos.expect("JOIN");
                kind = "FULL";
            } else if (pos.tok.is("GLOBAL") || pos.tok.is("ASOF") || pos.tok.is("SEMI") || pos.tok.is("ANTI") || pos.tok.is("PASTE")) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Only INNER, LEFT, RIGHT, FULL and CROSS JOIN are supported by the stub");
            } else {
                return f;
            }
            From right = fromItem();
            Expr on = null;
            List<String> using = null;
            if (!kind.equals("CROSS")) {
                if (pos.readIf("ON")) {
                    on = expr();
                } else if (pos.readIf("USING")) {
                    using = new ArrayList<>();
                    boolean paren = pos.readOp("(");
                    do {
                        using.add(pos.identifier());
                    } while (pos.readOp(","));
                    if (paren) {
                        pos.expectOp(")");
                    }
                } else {
                    throw pos.error("ON or USING");
                }
            }
            f = new Query.Join(f, right, kind, on, using);
        }
    }

    private From fromItem() {
        From f;
        if (pos.readOp("(")) {
            Query q = query();
            pos.expectOp(")");
            f = new Query.SubqueryRef(q, alias());
        } else {
            boolean fromParameter = pos.tok.isOp("{");
            String a = pos.identifier();
            if (fromParameter && !pos.tok.isOp(".") && a.indexOf('.') > 0) {
                String alias = alias();
                return new Query.TableRef(a.substring(0, a.indexOf('.')), a.substring(a.indexOf('.') + 1), alias, pos.readIf("FINAL"));
            }
            if (pos.readOp("(")) {
                List<Expr> args = pos.tok.isOp(")") ? List.of() : exprList();
                pos.expectOp(")");
                f = new Query.TableFunction(a.toLowerCase(Locale.ROOT), args, alias());
            } else {
                String db = null;
                String t = a;
                if (pos.readOp(".")) {
                    db = a;
                    t = pos.identifier();
                }
                String alias = alias();
                boolean fin = pos.readIf("FINAL");
                Query cte = db == null ? cte(t) : null;
                f = cte != null ? new Query.SubqueryRef(cte, alias == null ? t : alias) : new Query.TableRef(db, t, alias, fin);
            }
        }
        return f;
    }

    private String alias() {
        if (pos.readIf("AS")) {
            return pos.identifier();
        }
        if (pos.isIdent() && !isClauseKeyword(pos.tok)) {
            return pos.identifier();
        }
        return null;
    }

    // ---- expressions ----

    public List<Expr> exprList() {
        List<Expr> l = new ArrayList<>();
        do {
            l.add(expr());
        } while (pos.readOp(","));
        return l;
    }

    /** Parses one expression and requires the end of input (used for Values-format fallbacks). */
    public Expr standaloneExpr() {
        Expr e = expr();
        if (pos.tok.kind() != Token.Kind.EOF) {
            throw pos.error("end of expression");
        }
        return e;
    }

    public Expr expr() {
        return lambda();
    }

    private Expr lambda() {
        if (pos.isIdent()) {
            Token save = pos.tok;
            Token savePrev = pos.prev;
            String name = pos.tok.text();
            pos.advance();
            if (pos.readOp("->")) {
                return new Expr.Lambda(List.of(name), lambda());
            }
            pos.tok = save;
            pos.prev = savePrev;
        }
        return ternary();
    }

    private Expr ternary() {
        Expr c = or();
        if (pos.readOp("?")) {
            Expr a = ternary();
            pos.expectOp(":");
            Expr b = ternary();
            return new Expr.Call("if", c, a, b);
        }
        return c;
    }

    private Expr or() {
        Expr l = and();
        while (pos.readIf("OR")) {
            l = new Expr.Call("or", l, and());
        }
        return l;
    }

    private Expr and() {
        Expr l = not();
        while (pos.readIf("AND")) {
            l = new Expr.Call("and", l, not());
        }
        return l;
    }

    private Expr not() {
        if (pos.tok.is("NOT")) {
            Token save = pos.tok;
            Token savePrev = pos.prev;
            pos.advance();
            // NOT binds looser than comparisons and LIKE: NOT a LIKE b is NOT (a LIKE b)
            if (startsOperand(pos.tok)) {
                return new Expr.Call("not", not());
            }
            pos.tok = save;
            pos.prev = savePrev;
        }
        return comparison();
    }

    /** Whether {@code t} can begin an operand (so a NOT before it is the operator, not a name). */
    private static boolean startsOperand(Token t) {
        if (t.kind() == Token.Kind.EOF) {
            return false;
        }
        if (t.kind() == Token.Kind.OP) {
            return t.isOp("(") || t.isOp("[") || t.isOp("-") || t.isOp("{");
        }
        return !isClauseKeyword(t) || t.is("NOT");
    }

    private Expr comparison() {
        Expr l = concat();
        while (true) {
            String op = null;
            if (pos.tok.kind() == Token.Kind.OP) {
                switch (pos.tok.text()) {
                    case "=": case "==": op = "equals"; break;
                    case "!=": case "<>": op = "notEquals"; break;
                    case "<": op = "less"; break;
                    case ">": op = "greater"; break;
                    case "<=": op = "lessOrEquals"; break;
                    case ">=": op = "greaterOrEquals"; break;
                    default: break;
                }
            }
            if (op != null) {
                pos.advance();
                l = new Expr.Call(op, l, concat());
                continue;
            }
            boolean negate = false;
            Token save = pos.tok;
            Token savePrev = pos.prev;
            if (pos.readIf("NOT")) {
                negate = true;
            }
            pos.readIf("GLOBAL");
            if (pos.readIf("LIKE")) {
                l = new Expr.Call(negate ? "notLike" : "like", l, concat());
            } else if (pos.readIf("ILIKE")) {
                l = new Expr.Call(negate ? "notILike" : "ilike", l, concat());
            } else if (pos.readIf("IN")) {
                l = new Expr.Call(negate ? "notIn" : "in", l, inRight());
            } else if (pos.readIf("BETWEEN")) {
                Expr lo = concat();
                pos.expect("AND");
                Expr hi = concat();
                Expr b = new Expr.Call("and", new Expr.Call("greaterOrEquals", l, lo), new Expr.Call("lessOrEquals", l, hi));
                l = negate ? new Expr.Call("not", b) : b;
            } else if (!negate && pos.readIf("IS")) {
                boolean n = pos.readIf("NOT");
                pos.expect("NULL");
                l = new Expr.Call(n ? "isNotNull" : "isNull", l);
            } else {
                pos.tok = save;
                pos.prev = savePrev;
                return l;
            }
        }
    }

    private Expr inRight() {
        if (pos.tok.isOp("(")) {
            Token save = pos.tok;
            Token savePrev = pos.prev;
            pos.advance();
            if (pos.tok.is("SELECT") || pos.tok.is("WITH")) {
                Query q = query();
                pos.expectOp(")");
                return new Expr.Subquery(q);
            }
            pos.tok = save;
            pos.prev = savePrev;
        }
        return concat();
    }

    private Expr concat() {
        Expr l = additive();
        while (pos.readOp("||")) {
            l = new Expr.Call("concat", l, additive());
        }
        return l;
    }

    private Expr additive() {
        Expr l = multiplicative();
        while (true) {
            if (pos.readOp("+")) {
                l = new Expr.Call("plus", l, multiplicative());
            } else if (pos.readOp("-")) {
                l = new Expr.Call("minus", l, multiplicative());
            } else {
                return l;
            }
        }
    }

    private Expr multiplicative() {
        Expr l = unary();
        while (true) {
            if (pos.readOp("*")) {
                l = new Expr.Call("multiply", l, unary());
            } else if (pos.readOp("/")) {
                l = new Expr.Call("divide", l, unary());
            } else if (pos.readOp("%") || pos.readIf("MOD")) {
                l = new Expr.Call("modulo", l, unary());
            } else if (pos.readIf("DIV")) {
                l = new Expr.Call("intDiv", l, unary());
            } else {
                return l;
            }
        }
    }

    private Expr unary() {
        if (pos.readOp("-")) {
            Expr e = unary();
            if (e instanceof Expr.Literal && ((Expr.Literal) e).value() instanceof Number) {
                return new Expr.Literal(negate((Number) ((Expr.Literal) e).value()));
            }
            return new Expr.Call("negate", e);
        }
        if (pos.readOp("+")) {
            return unary();
        }
        return postfix();
    }

    private static Object negate(Number n) {
        if (n instanceof Long) {
            return -(Long) n;
        }
        if (n instanceof java.math.BigInteger) {
            java.math.BigInteger b = ((java.math.BigInteger) n).negate();
            return b.bitLength() < 64 ? (Object) b.longValue() : b;
        }
        return -n.doubleValue();
    }

    private Expr postfix() {
        Expr e = primary();
        while (true) {
            if (pos.readOp("[")) {
                Expr idx = expr();
                pos.expectOp("]");
                e = new Expr.Call("arrayElement", e, idx);
            } else if (pos.readOp("::")) {
                e = new Expr.Cast(e, pos.typeText());
            } else if (pos.tok.isOp(".") && (!(e instanceof Expr.Ident) || pos.peekKind() == Token.Kind.NUMBER)) {
                pos.advance();
                if (pos.tok.kind() == Token.Kind.NUMBER) {
                    Expr idx = new Expr.Literal(Long.parseLong(pos.tok.text()));
                    pos.advance();
                    e = new Expr.Call("tupleElement", e, idx);
                } else {
                    e = new Expr.Call("tupleElement", e, new Expr.Literal(pos.identifier()));
                }
            } else {
                return e;
            }
        }
    }

    private Expr primary() {
        Token t = pos.tok;
        switch (t.kind()) {
            case NUMBER:
                pos.advance();
                return new Expr.Literal(number(t.text()));
            case STRING:
                pos.advance();
                return new Expr.Literal(Lexer.stringValue(pos.sql, t.pos(), t.end()));
            case OP:
                if (pos.readOp("(")) {
                    if (pos.tok.is("SELECT") || pos.tok.is("WITH")) {
                        Query q = query();
                        pos.expectOp(")");
                        return new Expr.Subquery(q);
                    }
                    if (pos.readOp(")")) {
                        return new Expr.Call("tuple", List.of(), false);
                    }
                    List<Expr> l = exprList();
                    pos.expectOp(")");
                    if (pos.tok.isOp("->") && l.stream().allMatch(x -> x instanceof Expr.Ident && ((Expr.Ident) x).parts().size() == 1)) {
                        pos.advance();
                        List<String> params = new ArrayList<>();
                        for (Expr x : l) {
                            params.add(((Expr.Ident) x).last());
                        }
                        return new Expr.Lambda(params, lambda());
                    }
                    return l.size() == 1 ? l.get(0) : new Expr.Call("tuple", l, false);
                }
                if (pos.readOp("[")) {
                    List<Expr> l = pos.tok.isOp("]") ? List.of() : exprList();
                    pos.expectOp("]");
                    return new Expr.Call("array", l, false);
                }
                if (pos.readOp("*")) {
                    return new Expr.Star(null);
                }
                if (pos.tok.isOp("{")) {
                    String[] p = pos.parameter();
                    if (p[1].equals("Identifier")) {
                        return new Expr.Ident(QueryParameters.identifierParts(pos.params.identifier(p[0])));
                    }
                    return pos.params.literal(p[0], p[1]);
                }
                throw pos.error("expression");
            case IDENT:
            case QUOTED_IDENT:
                return identOrCall();
            default:
                throw pos.error("expression");
        }
    }

    private static Object number(String s) {
        String t = s.replace("_", "");
        if (t.startsWith("0x") || t.startsWith("0X")) {
            java.math.BigInteger b = new java.math.BigInteger(t.substring(2), 16);
            return b.bitLength() < 64 ? (Object) b.longValue() : b;
        }
        if (t.indexOf('.') >= 0 || t.indexOf('e') >= 0 || t.indexOf('E') >= 0) {
            return Double.parseDouble(t);
        }
        java.math.BigInteger b = new java.math.BigInteger(t);
        return b.bitLength() < 64 ? (Object) b.longValue() : b;
    }

    private Expr identOrCall() {
        Token t = pos.tok;
        boolean quoted = t.kind() == Token.Kind.QUOTED_IDENT;
        if (!quoted) {
            if (t.is("NULL")) {
                pos.advance();
                return new Expr.Literal(null);
            }
            if (t.is("TRUE") || t.is("FALSE")) {
                pos.advance();
                return new Expr.Literal(t.is("TRUE"));
            }
            if (t.is("CASE")) {
                pos.advance();
                return caseExpr();
            }
            if (t.is("CAST") && pos.peekIsOpenParen()) {
                pos.advance();
                pos.expectOp("(");
                Expr e = expr();
                String type;
                if (pos.readIf("AS")) {
                    type = pos.typeText();
                } else {
                    pos.expectOp(",");
                    type = pos.stringLiteral();
                }
                pos.expectOp(")");
                return new Expr.Cast(e, type);
            }
            if (t.is("INTERVAL")) {
                pos.advance();
                Expr amount = unary();
                String unit = pos.identifier().toLowerCase(Locale.ROOT);
                return new Expr.Interval(amount, unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit);
            }
            if (t.is("DATE") && pos.peekKind() == Token.Kind.STRING) {
                pos.advance();
                return new Expr.Cast(new Expr.Literal(pos.stringLiteral()), "Date");
            }
            if (t.is("TIMESTAMP") && pos.peekKind() == Token.Kind.STRING) {
                pos.advance();
                return new Expr.Cast(new Expr.Literal(pos.stringLiteral()), "DateTime");
            }
        }
        pos.advance();
        if (!quoted && pos.tok.isOp("(")) {
            pos.advance();
            String name = t.text();
            boolean distinct = pos.readIf("DISTINCT");
            List<Expr> args = pos.tok.isOp(")") ? List.of() : exprList();
            pos.expectOp(")");
            if (pos.tok.isOp("(")) {
                // parametric aggregate: name(params)(args) -> params first
                pos.advance();
                List<Expr> args2 = pos.tok.isOp(")") ? List.of() : exprList();
                pos.expectOp(")");
                List<Expr> all = new ArrayList<>(args2);
                all.addAll(args);
                return new Expr.Call(name, all, distinct);
            }
            if (name.equalsIgnoreCase("count") && args.size() == 1 && args.get(0) instanceof Expr.Star) {
                args = List.of();
            }
            return new Expr.Call(name, args, distinct);
        }
        List<String> parts = new ArrayList<>();
        parts.add(t.text());
        while (pos.tok.isOp(".")) {
            Token save = pos.tok;
            pos.advance();
            if (pos.tok.isOp("*")) {
                pos.advance();
                return new Expr.Star(String.join(".", parts));
            }
            if (pos.isIdent()) {
                parts.add(pos.tok.text());
                pos.advance();
            } else {
                pos.tok = save;
                break;
            }
        }
        return new Expr.Ident(List.copyOf(parts));
    }

    // ---- access control: USER, ROLE, SETTINGS PROFILE, GRANT, REVOKE ----

    private static final java.util.Set<String> USER_CLAUSES = java.util.Set.of("IDENTIFIED", "NOT", "SETTINGS", "DEFAULT", "HOST",
        "VALID", "IN", "GRANTEES", "TO", "ON", "RENAME", "ADD", "DROP", "FORMAT");

    private boolean atAccessEntity() {
        return pos.tok.is("USER") || pos.tok.is("ROLE") || pos.tok.is("PROFILE") || pos.tok.is("SETTINGS") && pos.peekIs("PROFILE");
    }

    /** CREATE | ALTER | DROP USER | ROLE | SETTINGS PROFILE, after the verb (and OR REPLACE). */
    private Statement accessEntity(String verb, boolean orReplace) {
        String kind = pos.readIf("USER") ? "USER" : pos.readIf("ROLE") ? "ROLE" : "SETTINGS PROFILE";
        if (kind.equals("SETTINGS PROFILE")) {
            pos.readIf("SETTINGS");
            pos.expect("PROFILE");
        }
        boolean ifExists = !verb.equals("CREATE") && pos.readIf("IF", "EXISTS");
        boolean ifNotExists = verb.equals("CREATE") && pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
        List<String> names = new ArrayList<>();
        do {
            names.add(accessName());
        } while (pos.readOp(","));
        String authType = null;
        String password = null;
        List<Statement.SettingElement> settings = null;
        List<String> assignees = null;
        while (pos.tok.kind() != Token.Kind.EOF && !pos.tok.isOp(";") && !pos.tok.is("FORMAT")) {
            if (verb.equals("DROP")) {
                if (pos.readIf("ON", "CLUSTER") || pos.readIf("FROM")) {
                    accessName();
                    continue;
                }
                throw pos.error("end of query");
            }
            if (pos.readIf("ON", "CLUSTER")) {
                accessName();
            } else if (kind.equals("USER") && pos.readIf("NOT")) {
                pos.expect("IDENTIFIED");
                authType = "no_password";
                password = "";
            } else if (kind.equals("USER") && pos.readIf("IDENTIFIED")) {
                authType = "plaintext_password";
                if (pos.readIf("WITH")) {
                    authType = pos.identifier().toLowerCase(Locale.ROOT);
                }
                password = authType.equals("no_password") ? "" : null;
                if (pos.readIf("BY")) {
                    password = pos.stringLiteral();
                } else if (!authType.equals("no_password")) {
                    throw pos.error("BY");
                }
            } else if (pos.readIf("SETTINGS")) {
                settings = new ArrayList<>();
                if (!pos.readIf("NONE")) {
                    do {
                        settings.add(settingElement());
                    } while (pos.readOp(","));
                }
            } else if (kind.equals("SETTINGS PROFILE") && pos.readIf("TO")) {
                assignees = granteeList();
            } else if (kind.equals("USER") && pos.readIf("DEFAULT")) {
                if (pos.readIf("DATABASE")) {
                    accessName();
                } else {
                    pos.expect("ROLE");
                    granteeList();
                }
            } else if (pos.readIf("RENAME")) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "RENAME of a " + kind.toLowerCase(Locale.ROOT) + " is not supported by the stub");
            } else if (pos.tok.is("HOST") || pos.tok.is("VALID") || pos.tok.is("IN") || pos.tok.is("GRANTEES")) {
                // access restrictions the stub does not apply: skipped up to the next clause
                pos.advance();
                while (pos.tok.kind() != Token.Kind.EOF && !pos.tok.isOp(";") && !USER_CLAUSES.contains(pos.tok.text().toUpperCase(Locale.ROOT))) {
                    if (pos.readOp("(")) {
                        pos.skipBalanced();
                    } else {
                        pos.advance();
                    }
                }
            } else {
                throw pos.error(kind.equals("USER") ? "IDENTIFIED, SETTINGS, DEFAULT ROLE, HOST or end of query" : "SETTINGS or end of query");
            }
        }
        return withFormat(new Statement.AccessEntity(verb, kind, List.copyOf(names), ifExists, ifNotExists, orReplace, authType, password,
            settings == null ? null : List.copyOf(settings), assignees), trailingFormat());
    }

    /** A user, role or profile name: an identifier or a string, a user's optionally followed by {@code @'host'}. */
    private String accessName() {
        String name = pos.tok.kind() == Token.Kind.STRING ? pos.stringLiteral() : pos.identifier();
        if (pos.readOp("@")) {
            if (pos.tok.kind() == Token.Kind.STRING) {
                pos.stringLiteral();
            } else {
                pos.identifier();
            }
        }
        return name;
    }

    /** {@code name [= value] [MIN [=] v] [MAX [=] v] [CONST|READONLY|WRITABLE|CHANGEABLE_IN_READONLY]} or {@code PROFILE 'p'}. */
    private Statement.SettingElement settingElement() {
        if (pos.readIf("PROFILE") || pos.readIf("INHERIT")) {
            return new Statement.SettingElement(null, null, null, null, null, accessName());
        }
        String name = pos.identifier();
        String value = null;
        String min = null;
        String max = null;
        String writability = null;
        if (pos.readOp("=")) {
            value = parserSettings.settingValue();
        } else if (pos.tok.kind() == Token.Kind.NUMBER || pos.tok.kind() == Token.Kind.STRING) {
            value = parserSettings.settingValue();
        }
        while (true) {
            if (pos.readIf("MIN")) {
                pos.readOp("=");
                min = parserSettings.settingValue();
            } else if (pos.readIf("MAX")) {
                pos.readOp("=");
                max = parserSettings.settingValue();
            } else if (pos.tok.is("CONST") || pos.tok.is("READONLY") || pos.tok.is("WRITABLE") || pos.tok.is("CHANGEABLE_IN_READONLY")) {
                writability = pos.tok.text().toUpperCase(Locale.ROOT);
                pos.advance();
            } else {
                break;
            }
        }
        return new Statement.SettingElement(name, value, min, max, writability, null);
    }

    /** {@code name [, ...] | ALL | NONE | CURRENT_USER [EXCEPT ...]}: the names (ALL as "ALL"). */
    private List<String> granteeList() {
        List<String> out = new ArrayList<>();
        do {
            if (pos.readIf("EXCEPT")) {
                do {
                    accessName();
                } while (pos.readOp(","));
                break;
            }
            if (pos.readIf("NONE")) {
                continue;
            }
            out.add(pos.tok.is("ALL") || pos.tok.is("CURRENT_USER") ? pos.tok.text().toUpperCase(Locale.ROOT) : null);
            if (out.get(out.size() - 1) != null) {
                pos.advance();
            } else {
                out.set(out.size() - 1, accessName());
            }
        } while (pos.readOp(",") || pos.tok.is("EXCEPT"));
        return List.copyOf(out);
    }

    /** GRANT / REVOKE of privileges ON a target, or of roles, TO / FROM users and roles. */
    private Statement grant() {
        boolean revoke = pos.tok.is("REVOKE");
        pos.advance();
        if (pos.readIf("ON", "CLUSTER")) {
            accessName();
        }
        if (revoke && (pos.readIf("ADMIN", "OPTION") || pos.readIf("GRANT", "OPTION"))) {
            pos.expect("FOR");
        }
        String to = revoke ? "FROM" : "TO";
        int start = pos.tok.pos();
        int depth = 0;
        while (pos.tok.kind() != Token.Kind.EOF && !(depth == 0 && (pos.tok.is("ON") || pos.tok.is(to)))) {
            depth += pos.tok.isOp("(") ? 1 : pos.tok.isOp(")") ? -1 : 0;
            pos.advance();
        }
        if (pos.tok.kind() == Token.Kind.EOF || pos.tok.pos() == start) {
            throw pos.error(pos.tok.pos() == start ? "privilege or role" : "ON or " + to);
        }
        String what = pos.sql.substring(start, pos.prev.end()).strip();
        String on = null;
        if (pos.readIf("ON")) {
            int onStart = pos.tok.pos();
            while (pos.tok.kind() != Token.Kind.EOF && !pos.tok.is(to)) {
                pos.advance();
            }
            if (pos.tok.kind() == Token.Kind.EOF || pos.tok.pos() == onStart) {
                throw pos.error(pos.tok.pos() == onStart ? "database and table" : to);
            }
            on = pos.sql.substring(onStart, pos.prev.end()).replace(" ", "");
        }
        pos.expect(to);
        List<String> grantees = granteeList();
        while (pos.readIf("WITH")) {
            if (!(pos.readIf("GRANT") || pos.readIf("ADMIN") || pos.readIf("REPLACE"))) {
                throw pos.error("GRANT, ADMIN or REPLACE");
            }
            pos.expect("OPTION");
        }
        List<String> roles = null;
        if (on == null) {
            roles = new ArrayList<>();
            for (String r : what.split(",")) {
                roles.add(unquoteName(r.strip()));
            }
        }
        return new Statement.Grant(revoke, on == null ? null : what, on, roles == null ? null : List.copyOf(roles), grantees);
    }

    private static String unquoteName(String n) {
        if (n.length() >= 2 && (n.charAt(0) == '`' || n.charAt(0) == '"' || n.charAt(0) == '\'')) {
            return n.substring(1, n.length() - 1);
        }
        return n;
    }

    private Expr caseExpr() {
        Expr subject = null;
        if (!pos.tok.is("WHEN")) {
            subject = expr();
        }
        List<Expr> args = new ArrayList<>();
        while (pos.readIf("WHEN")) {
            Expr w = expr();
            pos.expect("THEN");
            Expr th = expr();
            args.add(subject == null ? w : new Expr.Call("equals", subject, w));
            args.add(th);
        }
        Expr otherwise = pos.readIf("ELSE") ? expr() : new Expr.Literal(null);
        pos.expect("END");
        args.add(otherwise);
        return new Expr.Call("multiIf", args, false);
    }
}
