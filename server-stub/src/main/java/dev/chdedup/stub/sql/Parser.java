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
    private final String sql;
    private final int end;
    private Token tok;
    private Token prev;
    /** The ON CLUSTER clause of a CREATE/DROP (null: none), its text span, and where an unqualified table name starts (-1). */
    private String onClusterName;
    private int onClusterStart = -1;
    private int onClusterEnd = -1;
    private int unqualifiedNameAt = -1;
    /** The values of {@code {name:Type}} substitutions, replaced as they are parsed. */
    private final QueryParameters params;

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
        this.sql = sql;
        this.end = end;
        this.params = params;
        this.tok = Lexer.next(sql, 0, end, null);
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
            p.readOp(";");
            if (p.tok.kind() != Token.Kind.EOF) {
                throw p.error("end of query");
            }
        }
        return new Parsed(st, p.formatOverride);
    }

    // ---- token primitives ----

    private void advance() {
        prev = tok;
        tok = Lexer.next(sql, tok.end(), end, tok);
    }

    private boolean readIf(String keyword) {
        if (tok.is(keyword)) {
            advance();
            return true;
        }
        return false;
    }

    private boolean readIf(String k1, String k2) {
        if (tok.is(k1)) {
            Token save = tok;
            Token savePrev = prev;
            advance();
            if (tok.is(k2)) {
                advance();
                return true;
            }
            tok = save;
            prev = savePrev;
        }
        return false;
    }

    private void expect(String keyword) {
        if (!readIf(keyword)) {
            throw error(keyword);
        }
    }

    private boolean readOp(String op) {
        if (tok.isOp(op)) {
            advance();
            return true;
        }
        return false;
    }

    private void expectOp(String op) {
        if (!readOp(op)) {
            throw error("'" + op + "'");
        }
    }

    private ChException error(String expected) {
        String near = sql.substring(tok.pos(), Math.min(end, tok.pos() + 40));
        return new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: failed at position " + (tok.pos() + 1)
            + " ('" + (tok.kind() == Token.Kind.EOF ? "" : near) + "')"
            + (tok.kind() == Token.Kind.EOF ? " (end of query)" : "") + ": Expected " + expected);
    }

    private String identifier() {
        if (tok.kind() == Token.Kind.IDENT || tok.kind() == Token.Kind.QUOTED_IDENT) {
            String t = tok.text();
            advance();
            return t;
        }
        if (tok.isOp("{")) {
            Token save = tok;
            String[] p = parameter();
            if (p[1].equals("Identifier")) {
                return params.identifier(p[0]);
            }
            tok = save;
        }
        throw error("identifier");
    }

    /** {@code {name:Type}} at the current token: returns {name, type text}. */
    private String[] parameter() {
        expectOp("{");
        String name = identifier();
        expectOp(":");
        String type = typeText();
        expectOp("}");
        return new String[] {name, type};
    }

    private boolean isIdent() {
        return tok.kind() == Token.Kind.IDENT || tok.kind() == Token.Kind.QUOTED_IDENT;
    }

    /** {@code [db.]name}: returns {db or null, name}. */
    private String[] qualifiedName() {
        boolean fromParameter = tok.isOp("{");
        String a = identifier();
        if (fromParameter && !tok.isOp(".") && a.indexOf('.') > 0) {
            // an Identifier parameter may name db.table as a whole
            return new String[] {a.substring(0, a.indexOf('.')), a.substring(a.indexOf('.') + 1)};
        }
        if (readOp(".")) {
            return new String[] {a, identifier()};
        }
        return new String[] {null, a};
    }

    // ---- statements ----

    public Statement parseStatement() {
        if (tok.is("SELECT") || tok.is("WITH") || tok.isOp("(")) {
            return new Statement.SelectStmt(query());
        }
        if (readIf("INSERT")) {
            return insert();
        }
        if (readIf("CREATE")) {
            return onCluster(create());
        }
        if (tok.is("GRANT") || tok.is("REVOKE")) {
            return grant();
        }
        if (tok.is("ATTACH")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ATTACH is not supported by the stub");
        }
        if (readIf("DROP")) {
            return onCluster(drop());
        }
        if (readIf("DELETE")) {
            expect("FROM");
            String[] n = qualifiedName();
            expect("WHERE");
            int st = tok.pos();
            Expr where = expr();
            return new Statement.Alter(n[0], n[1], List.of(new Statement.MutateDelete(where, "DELETE WHERE " + sql.substring(st, prev.end()))),
                readIf("SETTINGS") ? settingList() : Map.of());
        }
        if (readIf("TRUNCATE")) {
            readIf("TABLE");
            boolean ifExists = readIf("IF", "EXISTS");
            String[] n = qualifiedName();
            return new Statement.Truncate(n[0], n[1], ifExists);
        }
        if (readIf("SHOW")) {
            return show();
        }
        if (readIf("DESCRIBE") || readIf("DESC")) {
            readIf("TABLE");
            if (tok.isOp("(") && (peekIs("SELECT") || peekIs("WITH"))) {
                advance();
                Query q = query();
                expectOp(")");
                return withFormat(new Statement.DescribeQuery(q), trailingFormat());
            }
            String[] n = qualifiedName();
            String format = trailingFormat();
            return withFormat(new Statement.Describe(n[0], n[1]), format);
        }
        if (readIf("EXISTS")) {
            readIf("TEMPORARY");
            if (readIf("DATABASE")) {
                String db = identifier();
                String format = trailingFormat();
                return withFormat(new Statement.Exists(db, null), format);
            }
            if (!readIf("TABLE")) {
                readIf("VIEW");
            }
            String[] n = qualifiedName();
            String format = trailingFormat();
            return withFormat(new Statement.Exists(n[0], n[1]), format);
        }
        if (readIf("ALTER")) {
            return alter();
        }
        if (readIf("OPTIMIZE")) {
            expect("TABLE");
            String[] n = qualifiedName();
            Expr partition = null;
            if (readIf("PARTITION")) {
                partition = expr();
            }
            boolean fin = readIf("FINAL");
            boolean dedup = readIf("DEDUPLICATE");
            return new Statement.Optimize(n[0], n[1], fin, partition, dedup);
        }
        if (readIf("SYSTEM")) {
            return system();
        }
        if (readIf("SET")) {
            return new Statement.SetStmt(settingList());
        }
        if (readIf("USE")) {
            return new Statement.Use(identifier());
        }
        if (readIf("KILL")) {
            if (readIf("MUTATION")) {
                expect("WHERE");
                Expr where = expr();
                if (!readIf("SYNC")) {
                    readIf("ASYNC");
                }
                return new Statement.KillMutation(where, readIf("TEST"));
            }
            expect("QUERY");
            expect("WHERE");
            Expr where = expr();
            boolean sync = readIf("SYNC");
            if (!sync) {
                readIf("ASYNC");
            }
            return new Statement.KillQuery(where, sync);
        }
        throw error("one of: SELECT, INSERT, CREATE, DROP, DELETE, ALTER, SHOW, DESCRIBE, EXISTS, OPTIMIZE, SYSTEM, SET, USE, TRUNCATE, KILL, GRANT, REVOKE");
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
        if (readIf("FORMAT")) {
            return identifier();
        }
        return null;
    }

    private Statement insert() {
        expect("INTO");
        readIf("TABLE");
        String db = null;
        String table;
        if (readIf("FUNCTION")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "INSERT INTO FUNCTION is not supported by the stub");
        }
        String[] n = qualifiedName();
        db = n[0];
        table = n[1];
        List<String> cols = null;
        if (readOp("(")) {
            cols = new ArrayList<>();
            if (!tok.isOp(")")) {
                do {
                    cols.add(identifier());
                } while (readOp(","));
            }
            expectOp(")");
        }
        Map<String, String> settings = Map.of();
        if (readIf("SETTINGS")) {
            settings = settingList();
        }
        if (tok.is("VALUES")) {
            int offset = tok.end();
            return new Statement.Insert(db, table, cols, settings, "Values", null, offset);
        }
        if (readIf("FORMAT")) {
            String format = tok.text();
            if (!isIdent()) {
                throw error("format name");
            }
            int p = tok.end();
            // data starts after the first newline, or after all whitespace when there is none
            int q = p;
            while (q < end && (sql.charAt(q) == ' ' || sql.charAt(q) == '\t' || sql.charAt(q) == '\r')) {
                q++;
            }
            if (q < end && sql.charAt(q) == '\n') {
                q++;
            } else {
                q = p;
                while (q < end && Character.isWhitespace(sql.charAt(q))) {
                    q++;
                }
            }
            return new Statement.Insert(db, table, cols, settings, format, null, q);
        }
        if (tok.is("SELECT") || tok.is("WITH") || tok.isOp("(")) {
            Query q = query();
            return new Statement.Insert(db, table, cols, settings, null, q, -1);
        }
        if (tok.kind() == Token.Kind.EOF) {
            // INSERT INTO t with data in the body in the default format, as ClickHouse accepts over HTTP
            return new Statement.Insert(db, table, cols, settings, null, null, end);
        }
        throw error("VALUES, FORMAT or SELECT");
    }

    private Map<String, String> settingList() {
        Map<String, String> m = new LinkedHashMap<>();
        do {
            String name = identifier();
            expectOp("=");
            m.put(name, settingValue());
        } while (readOp(","));
        return m;
    }

    private String settingValue() {
        Token t = tok;
        if (t.kind() == Token.Kind.STRING || t.kind() == Token.Kind.NUMBER || t.kind() == Token.Kind.IDENT) {
            advance();
            return t.text();
        }
        if (t.isOp("-")) {
            advance();
            Token n = tok;
            advance();
            return "-" + n.text();
        }
        if (t.isOp("{")) {
            String[] p = parameter();
            return params.settingValue(p[0], p[1]);
        }
        throw error("setting value");
    }

    private Statement create() {
        boolean orReplace = readIf("OR", "REPLACE");
        if (atAccessEntity()) {
            return accessEntity("CREATE", orReplace);
        }
        boolean temporary = readIf("TEMPORARY");
        if (readIf("DATABASE")) {
            boolean ine = readIf("IF", "NOT") && expectThen("EXISTS");
            String name = identifier();
            onClusterClause();
            if (readIf("ENGINE")) {
                expectOp("=");
                identifier();
                if (readOp("(")) {
                    skipBalanced();
                }
            }
            return new Statement.CreateDatabase(name, ine);
        }
        if (readIf("MATERIALIZED")) {
            expect("VIEW");
            return view(true);
        }
        if (readIf("VIEW")) {
            return view(false);
        }
        if (!readIf("TABLE")) {
            throw error("TABLE, DATABASE, VIEW or MATERIALIZED VIEW");
        }
        boolean ine = readIf("IF", "NOT") && expectThen("EXISTS");
        int nameAt = tok.pos();
        String[] n = qualifiedName();
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
        if (!tok.is("ON")) {
            return;
        }
        int st = tok.pos();
        advance();
        expect("CLUSTER");
        onClusterName = tok.kind() == Token.Kind.STRING ? stringLiteral() : identifier();
        onClusterStart = st;
        onClusterEnd = prev.end();
    }

    /** Wraps a CREATE/DROP that named {@code ON CLUSTER} into a {@link Statement.OnCluster} (distributed DDL). */
    private Statement onCluster(Statement st) {
        if (onClusterName == null) {
            return st;
        }
        return new Statement.OnCluster(onClusterName, st, sql, onClusterStart, onClusterEnd, unqualifiedNameAt);
    }

    private boolean expectThen(String keyword) {
        expect(keyword);
        return true;
    }

    private Statement.CreateTable tableBody(String db, String table, boolean ine, boolean orReplace, boolean allowAsSelect) {
        List<Statement.ColumnDef> cols = new ArrayList<>();
        String asDb = null;
        String asTable = null;
        if (readOp("(")) {
            do {
                if (tok.is("INDEX") || tok.is("PROJECTION") || tok.is("CONSTRAINT")) {
                    advance();
                    while (!tok.isOp(",") && !tok.isOp(")") && tok.kind() != Token.Kind.EOF) {
                        if (readOp("(")) {
                            skipBalanced();
                        } else {
                            advance();
                        }
                    }
                    continue;
                }
                if (tok.is("PRIMARY") ) {
                    throw new ChException(ErrorCode.NOT_IMPLEMENTED, "PRIMARY KEY inside the column list is not supported; use the PRIMARY KEY clause");
                }
                cols.add(columnDef());
            } while (readOp(","));
            expectOp(")");
        } else if (readIf("AS")) {
            String[] n = qualifiedName();
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
            if (readIf("ENGINE")) {
                readOp("=");
                engine = identifier();
                int st = tok.pos();
                if (readOp("(")) {
                    engineArgs = tok.isOp(")") ? List.of() : exprList();
                    expectOp(")");
                    clauseSql.put("ENGINE", engine + sql.substring(st, prev.end()));
                } else {
                    clauseSql.put("ENGINE", engine);
                }
            } else if (readIf("PARTITION")) {
                expect("BY");
                int st = tok.pos();
                partitionBy = expr();
                clauseSql.put("PARTITION BY", sql.substring(st, prev.end()));
            } else if (readIf("ORDER")) {
                expect("BY");
                int st = tok.pos();
                orderBy = expr();
                clauseSql.put("ORDER BY", sql.substring(st, prev.end()));
            } else if (readIf("PRIMARY")) {
                expect("KEY");
                int st = tok.pos();
                primaryKey = expr();
                clauseSql.put("PRIMARY KEY", sql.substring(st, prev.end()));
            } else if (readIf("SAMPLE")) {
                expect("BY");
                expr();
            } else if (readIf("TTL")) {
                exprList();
            } else if (readIf("SETTINGS")) {
                settings.putAll(settingList());
            } else if (readIf("COMMENT")) {
                clauseSql.put("COMMENT", stringLiteral());
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
        if (allowAsSelect && readIf("AS")) {
            asSelect = query();
        }
        return new Statement.CreateTable(db, table, ine, orReplace, cols, engine, engineArgs, partitionBy, orderBy,
            primaryKey, settings, clauseSql, asDb, asTable, asSelect);
    }

    private Statement.ColumnDef columnDef() {
        String name = identifier();
        String type = null;
        if (!(tok.is("DEFAULT") || tok.is("MATERIALIZED") || tok.is("ALIAS") || tok.is("EPHEMERAL"))) {
            type = typeText();
            if (readIf("NOT")) {
                expect("NULL");
            } else if (readIf("NULL")) {
                type = "Nullable(" + type + ")";
            }
        }
        String kind = null;
        Expr def = null;
        String defSql = null;
        if (tok.is("DEFAULT") || tok.is("MATERIALIZED") || tok.is("ALIAS") || tok.is("EPHEMERAL")) {
            kind = tok.text().toUpperCase(Locale.ROOT);
            advance();
            if (!(kind.equals("EPHEMERAL") && (tok.isOp(",") || tok.isOp(")")))) {
                int st = tok.pos();
                def = expr();
                defSql = sql.substring(st, prev.end());
            }
        }
        String comment = null;
        while (true) {
            if (readIf("CODEC")) {
                expectOp("(");
                skipBalanced();
            } else if (readIf("TTL")) {
                expr();
            } else if (readIf("COMMENT")) {
                comment = tok.text();
                advance();
            } else {
                break;
            }
        }
        if (type == null && def == null) {
            throw error("column type");
        }
        return new Statement.ColumnDef(name, type, kind, def, defSql, comment);
    }

    /** The text of a type name with its balanced parameter list. */
    private String typeText() {
        int st = tok.pos();
        identifier();
        if (tok.isOp("(")) {
            advance();
            skipBalanced();
        }
        return sql.substring(st, prev.end());
    }

    /** Skips to just after the ')' matching an already consumed '('. */
    private void skipBalanced() {
        int depth = 1;
        while (depth > 0) {
            if (tok.kind() == Token.Kind.EOF) {
                throw error("')'");
            }
            if (tok.isOp("(")) {
                depth++;
            } else if (tok.isOp(")")) {
                depth--;
            }
            advance();
        }
    }

    private Statement view(boolean materialized) {
        boolean ine = readIf("IF", "NOT") && expectThen("EXISTS");
        String[] n = qualifiedName();
        String toDb = null;
        String toTable = null;
        Statement.CreateTable inner = null;
        if (readIf("TO")) {
            String[] t = qualifiedName();
            toDb = t[0];
            toTable = t[1];
        }
        if (toTable == null && (tok.isOp("(") || tok.is("ENGINE"))) {
            inner = tableBody(n[0], n[1], false, false, false);
        }
        boolean populate = readIf("POPULATE");
        expect("AS");
        int st = tok.pos();
        Query q = query();
        return new Statement.CreateView(n[0], n[1], ine, materialized, toDb, toTable, inner, populate, q,
            sql.substring(st, prev.end()));
    }

    private Statement drop() {
        if (atAccessEntity()) {
            return accessEntity("DROP", false);
        }
        if (readIf("DATABASE")) {
            boolean ie = readIf("IF", "EXISTS");
            String name = identifier();
            onClusterClause();
            readIf("SYNC");
            return new Statement.DropDatabase(name, ie);
        }
        boolean view = false;
        if (readIf("VIEW")) {
            view = true;
        } else if (readIf("DICTIONARY")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Dictionaries are not supported by the stub");
        } else {
            readIf("TEMPORARY");
            expect("TABLE");
        }
        boolean ie = readIf("IF", "EXISTS");
        int nameAt = tok.pos();
        String[] n = qualifiedName();
        if (n[0] == null) {
            unqualifiedNameAt = nameAt;
        }
        onClusterClause();
        boolean sync = readIf("SYNC");
        return new Statement.DropTable(n[0], n[1], ie, view, sync);
    }

    private Statement show() {
        if (readIf("DATABASES")) {
            String like = readIf("LIKE") ? stringLiteral() : null;
            return withFormat(new Statement.ShowTables(null, like, true, showLimit()), trailingFormat());
        }
        if (readIf("CREATE")) {
            if (!readIf("TABLE")) {
                readIf("VIEW");
            }
            String[] n = qualifiedName();
            return withFormat(new Statement.ShowCreate(n[0], n[1]), trailingFormat());
        }
        if (readIf("TABLES")) {
            String db = null;
            if (readIf("FROM") || readIf("IN")) {
                db = identifier();
            }
            String like = readIf("LIKE") ? stringLiteral() : null;
            return withFormat(new Statement.ShowTables(db, like, false, showLimit()), trailingFormat());
        }
        throw error("DATABASES, TABLES or CREATE TABLE");
    }

    private long showLimit() {
        if (!readIf("LIMIT")) {
            return Long.MAX_VALUE;
        }
        if (tok.kind() != Token.Kind.NUMBER) {
            throw error("number");
        }
        long n = Long.parseLong(tok.text());
        advance();
        return n;
    }

    private String stringLiteral() {
        if (tok.kind() != Token.Kind.STRING) {
            throw error("string literal");
        }
        String s = tok.text();
        advance();
        return s;
    }

    private Statement alter() {
        if (atAccessEntity()) {
            return accessEntity("ALTER", false);
        }
        expect("TABLE");
        String[] n = qualifiedName();
        List<Statement.AlterCommand> cmds = new ArrayList<>();
        do {
            if (readIf("MODIFY")) {
                expect("SETTING");
                cmds.add(new Statement.ModifySetting(settingList()));
            } else if (readIf("RESET")) {
                expect("SETTING");
                List<String> names = new ArrayList<>();
                do {
                    names.add(identifier());
                } while (readOp(","));
                cmds.add(new Statement.ResetSetting(names));
            } else if (readIf("DROP")) {
                if (readIf("PARTITION")) {
                    if (readIf("ID")) {
                        cmds.add(new Statement.DropPartition(null, stringLiteral()));
                    } else {
                        cmds.add(new Statement.DropPartition(expr(), null));
                    }
                } else if (readIf("PART")) {
                    cmds.add(new Statement.DropPart(stringLiteral()));
                } else {
                    throw error("PARTITION or PART");
                }
            } else if (tok.is("DELETE")) {
                int st = tok.pos();
                advance();
                expect("WHERE");
                Expr where = expr();
                cmds.add(new Statement.MutateDelete(where, sql.substring(st, prev.end())));
            } else if (tok.is("UPDATE")) {
                int st = tok.pos();
                advance();
                Map<String, Expr> assignments = new LinkedHashMap<>();
                do {
                    String col = identifier();
                    expectOp("=");
                    assignments.put(col, expr());
                } while (readOp(",") && !tok.is("WHERE"));
                expect("WHERE");
                Expr where = expr();
                cmds.add(new Statement.MutateUpdate(assignments, where, sql.substring(st, prev.end())));
            } else {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ALTER command at position " + (tok.pos() + 1)
                    + " is not supported by the stub: supported are MODIFY SETTING, RESET SETTING, DROP PARTITION, DROP PART,"
                    + " DELETE, UPDATE");
            }
        } while (readOp(","));
        // ALTER TABLE t DELETE WHERE ... SETTINGS mutations_sync = 2: the settings apply to this statement
        return new Statement.Alter(n[0], n[1], cmds, readIf("SETTINGS") ? settingList() : Map.of());
    }

    private Statement system() {
        StringBuilder action = new StringBuilder();
        while (tok.kind() == Token.Kind.IDENT && !tok.is("ON")) {
            String w = tok.text().toUpperCase(Locale.ROOT);
            if (action.length() > 0 && (w.equals("MERGES") || w.equals("FAILPOINT") || w.equals("LOGS") || w.equals("FETCHES")
                || w.equals("REPLICATION") || w.equals("SENDS") || w.equals("QUEUES") || w.equals("CACHE") || w.equals("REPLICA"))) {
                action.append(' ').append(w);
                advance();
                break;
            }
            if (action.length() > 0) {
                action.append(' ');
            }
            action.append(w);
            advance();
        }
        String db = null;
        String table = null;
        String arg = null;
        Map<String, String> options = new LinkedHashMap<>();
        if (action.toString().endsWith("FAILPOINT")) {
            arg = identifier();
            // the stub's extension: FOR n INSERTS, ON TABLE [db.]t, CODE n, DELAY ms
            while (true) {
                if (readIf("FOR")) {
                    options.put("times", tok.text());
                    advance();
                    if (!readIf("INSERTS")) {
                        readIf("INSERT");
                    }
                } else if (readIf("ON")) {
                    readIf("TABLE");
                    String[] n = qualifiedName();
                    options.put("table", n[0] == null ? n[1] : n[0] + "." + n[1]);
                } else if (readIf("CODE")) {
                    options.put("code", tok.text());
                    advance();
                } else if (readIf("DELAY")) {
                    options.put("delay", tok.text());
                    advance();
                } else {
                    break;
                }
            }
        } else if (isIdent()) {
            String[] n = qualifiedName();
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
            if (tok.isOp("(")) {
                advance();
                Query inner = query();
                expectOp(")");
                selects.addAll(inner.selects());
                nested.add(inner);
            } else {
                selects.add(select());
            }
        } while (readIf("UNION") && (readIf("ALL") || true));
        Map<String, String> settings = Map.of();
        String format = null;
        for (int i = 0; i < 2; i++) {
            if (readIf("SETTINGS")) {
                settings = settingList();
            }
            if (readIf("FORMAT")) {
                format = identifier();
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
        if (!isIdent()) {
            return false;
        }
        Token save = tok;
        Token savePrev = prev;
        String name = identifier();
        if (readIf("AS") && tok.isOp("(") && (peekIs("SELECT") || peekIs("WITH"))) {
            advance();
            Query q = query();
            expectOp(")");
            ctes.add(Map.entry(name, q));
            return true;
        }
        tok = save;
        prev = savePrev;
        return false;
    }

    private Select selectBody() {
        List<SelectItem> withItems = new ArrayList<>();
        if (readIf("WITH")) {
            do {
                if (readCte()) {
                    continue;
                }
                int st = tok.pos();
                Expr e = expr();
                expect("AS");
                String alias = identifier();
                withItems.add(new SelectItem(e, alias, sql.substring(st, prev.end())));
            } while (readOp(","));
        }
        expect("SELECT");
        boolean distinct = readIf("DISTINCT");
        readIf("ALL");
        List<SelectItem> items = new ArrayList<>(withItems.size());
        do {
            int st = tok.pos();
            Expr e = expr();
            String text = sql.substring(st, prev.end());
            String alias = null;
            if (readIf("AS")) {
                alias = identifier();
            } else if (isIdent() && !isClauseKeyword(tok)) {
                alias = identifier();
            }
            items.add(new SelectItem(e, alias, text));
        } while (readOp(",") && !endsSelectList(tok));
        From from = null;
        if (readIf("FROM")) {
            from = from();
        }
        Expr prewhere = readIf("PREWHERE") ? expr() : null;
        Expr where = readIf("WHERE") ? expr() : null;
        if (prewhere != null) {
            where = where == null ? prewhere : new Expr.Call("and", prewhere, where);
        }
        List<Expr> groupBy = List.of();
        if (readIf("GROUP")) {
            expect("BY");
            groupBy = exprList();
            readIf("WITH", "TOTALS");
        }
        Expr having = readIf("HAVING") ? expr() : null;
        List<OrderItem> orderBy = List.of();
        boolean orderByAll = false;
        boolean orderByAllDesc = false;
        if (readIf("ORDER")) {
            expect("BY");
            if (tok.is("ALL") && !allIsColumn(from)) {
                Token save = tok;
                advance();
                if (tok.isOp(",") || tok.isOp(".") || tok.isOp("(")) {
                    tok = save;
                } else {
                    orderByAll = true;
                    orderByAllDesc = readIf("DESC") || readIf("DESCENDING");
                    if (!orderByAllDesc) {
                        if (!readIf("ASC")) {
                            readIf("ASCENDING");
                        }
                    }
                }
            }
            if (!orderByAll) {
                orderBy = new ArrayList<>();
                do {
                    Expr e = expr();
                    boolean desc = false;
                    if (readIf("DESC") || readIf("DESCENDING")) {
                        desc = true;
                    } else if (!readIf("ASC")) {
                        readIf("ASCENDING");
                    }
                    Boolean nullsFirst = null;
                    if (readIf("NULLS")) {
                        nullsFirst = readIf("FIRST");
                        if (!nullsFirst) {
                            expect("LAST");
                        }
                    }
                    if (readIf("COLLATE")) {
                        advance();
                    }
                    Query.Fill fill = null;
                    if (readIf("WITH", "FILL")) {
                        Expr fillFrom = readIf("FROM") ? expr() : null;
                        Expr fillTo = readIf("TO") ? expr() : null;
                        Expr fillStep = readIf("STEP") ? expr() : null;
                        fill = new Query.Fill(fillFrom, fillTo, fillStep);
                    }
                    orderBy.add(new OrderItem(e, desc, nullsFirst, fill));
                } while (readOp(","));
            }
        }
        Expr limit = null;
        Expr offset = null;
        List<Expr> limitBy = null;
        Expr limitByCount = null;
        if (readIf("LIMIT")) {
            Expr a = expr();
            if (readOp(",")) {
                offset = a;
                limit = expr();
            } else if (readIf("BY")) {
                limitByCount = a;
                limitBy = exprList();
                if (readIf("LIMIT")) {
                    limit = expr();
                    if (readIf("OFFSET")) {
                        offset = expr();
                    }
                }
            } else {
                limit = a;
                if (readIf("OFFSET")) {
                    offset = expr();
                }
            }
        }
        if (offset == null && readIf("OFFSET")) {
            offset = expr();
            readIf("ROWS");
            if (readIf("FETCH")) {
                if (!readIf("FIRST")) {
                    expect("NEXT");
                }
                limit = expr();
                if (!readIf("ROWS")) {
                    readIf("ROW");
                }
                expect("ONLY");
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
                Token after = Lexer.next(sql, t.end(), end, t);
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
            if (readIf("CROSS")) {
                expect("JOIN");
                kind = "CROSS";
            } else if (tok.isOp(",")) {
                advance();
                kind = "CROSS";
            } else if (tok.is("ARRAY") || tok.is("LEFT") && peekIs("ARRAY")) {
                boolean leftArray = readIf("LEFT");
                expect("ARRAY");
                expect("JOIN");
                List<Expr> arrays = new ArrayList<>();
                List<String> names = new ArrayList<>();
                do {
                    arrays.add(expr());
                    names.add(readIf("AS") ? identifier() : null);
                } while (readOp(","));
                f = new Query.ArrayJoin(f, arrays, names, leftArray);
                continue;
            } else if (readIf("LEFT")) {
                readIf("OUTER");
                readIf("ANY");
                readIf("ALL");
                expect("JOIN");
                kind = "LEFT";
            } else if (readIf("INNER")) {
                readIf("ANY");
                readIf("ALL");
                expect("JOIN");
                kind = "INNER";
            } else if (readIf("JOIN")) {
                kind = "INNER";
            } else if (readIf("RIGHT")) {
                readIf("OUTER");
                readIf("ANY");
                readIf("ALL");
                expect("JOIN");
                kind = "RIGHT";
            } else if (readIf("FULL")) {
                readIf("OUTER");
                readIf("ALL");
                expect("JOIN");
                kind = "FULL";
            } else if (tok.is("GLOBAL") || tok.is("ASOF") || tok.is("SEMI") || tok.is("ANTI") || tok.is("PASTE")) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Only INNER, LEFT, RIGHT, FULL and CROSS JOIN are supported by the stub");
            } else {
                return f;
            }
            From right = fromItem();
            Expr on = null;
            List<String> using = null;
            if (!kind.equals("CROSS")) {
                if (readIf("ON")) {
                    on = expr();
                } else if (readIf("USING")) {
                    using = new ArrayList<>();
                    boolean paren = readOp("(");
                    do {
                        using.add(identifier());
                    } while (readOp(","));
                    if (paren) {
                        expectOp(")");
                    }
                } else {
                    throw error("ON or USING");
                }
            }
            f = new Query.Join(f, right, kind, on, using);
        }
    }

    private From fromItem() {
        From f;
        if (readOp("(")) {
            Query q = query();
            expectOp(")");
            f = new Query.SubqueryRef(q, alias());
        } else {
            boolean fromParameter = tok.isOp("{");
            String a = identifier();
            if (fromParameter && !tok.isOp(".") && a.indexOf('.') > 0) {
                String alias = alias();
                return new Query.TableRef(a.substring(0, a.indexOf('.')), a.substring(a.indexOf('.') + 1), alias, readIf("FINAL"));
            }
            if (readOp("(")) {
                List<Expr> args = tok.isOp(")") ? List.of() : exprList();
                expectOp(")");
                f = new Query.TableFunction(a.toLowerCase(Locale.ROOT), args, alias());
            } else {
                String db = null;
                String t = a;
                if (readOp(".")) {
                    db = a;
                    t = identifier();
                }
                String alias = alias();
                boolean fin = readIf("FINAL");
                Query cte = db == null ? cte(t) : null;
                f = cte != null ? new Query.SubqueryRef(cte, alias == null ? t : alias) : new Query.TableRef(db, t, alias, fin);
            }
        }
        return f;
    }

    private String alias() {
        if (readIf("AS")) {
            return identifier();
        }
        if (isIdent() && !isClauseKeyword(tok)) {
            return identifier();
        }
        return null;
    }

    // ---- expressions ----

    public List<Expr> exprList() {
        List<Expr> l = new ArrayList<>();
        do {
            l.add(expr());
        } while (readOp(","));
        return l;
    }

    /** Parses one expression and requires the end of input (used for Values-format fallbacks). */
    public Expr standaloneExpr() {
        Expr e = expr();
        if (tok.kind() != Token.Kind.EOF) {
            throw error("end of expression");
        }
        return e;
    }

    public Expr expr() {
        return lambda();
    }

    private Expr lambda() {
        if (isIdent()) {
            Token save = tok;
            Token savePrev = prev;
            String name = tok.text();
            advance();
            if (readOp("->")) {
                return new Expr.Lambda(List.of(name), lambda());
            }
            tok = save;
            prev = savePrev;
        }
        return ternary();
    }

    private Expr ternary() {
        Expr c = or();
        if (readOp("?")) {
            Expr a = ternary();
            expectOp(":");
            Expr b = ternary();
            return new Expr.Call("if", c, a, b);
        }
        return c;
    }

    private Expr or() {
        Expr l = and();
        while (readIf("OR")) {
            l = new Expr.Call("or", l, and());
        }
        return l;
    }

    private Expr and() {
        Expr l = not();
        while (readIf("AND")) {
            l = new Expr.Call("and", l, not());
        }
        return l;
    }

    private Expr not() {
        if (tok.is("NOT")) {
            Token save = tok;
            Token savePrev = prev;
            advance();
            // NOT binds looser than comparisons and LIKE: NOT a LIKE b is NOT (a LIKE b)
            if (startsOperand(tok)) {
                return new Expr.Call("not", not());
            }
            tok = save;
            prev = savePrev;
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
            if (tok.kind() == Token.Kind.OP) {
                switch (tok.text()) {
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
                advance();
                l = new Expr.Call(op, l, concat());
                continue;
            }
            boolean negate = false;
            Token save = tok;
            Token savePrev = prev;
            if (readIf("NOT")) {
                negate = true;
            }
            readIf("GLOBAL");
            if (readIf("LIKE")) {
                l = new Expr.Call(negate ? "notLike" : "like", l, concat());
            } else if (readIf("ILIKE")) {
                l = new Expr.Call(negate ? "notILike" : "ilike", l, concat());
            } else if (readIf("IN")) {
                l = new Expr.Call(negate ? "notIn" : "in", l, inRight());
            } else if (readIf("BETWEEN")) {
                Expr lo = concat();
                expect("AND");
                Expr hi = concat();
                Expr b = new Expr.Call("and", new Expr.Call("greaterOrEquals", l, lo), new Expr.Call("lessOrEquals", l, hi));
                l = negate ? new Expr.Call("not", b) : b;
            } else if (!negate && readIf("IS")) {
                boolean n = readIf("NOT");
                expect("NULL");
                l = new Expr.Call(n ? "isNotNull" : "isNull", l);
            } else {
                tok = save;
                prev = savePrev;
                return l;
            }
        }
    }

    private Expr inRight() {
        if (tok.isOp("(")) {
            Token save = tok;
            Token savePrev = prev;
            advance();
            if (tok.is("SELECT") || tok.is("WITH")) {
                Query q = query();
                expectOp(")");
                return new Expr.Subquery(q);
            }
            tok = save;
            prev = savePrev;
        }
        return concat();
    }

    private Expr concat() {
        Expr l = additive();
        while (readOp("||")) {
            l = new Expr.Call("concat", l, additive());
        }
        return l;
    }

    private Expr additive() {
        Expr l = multiplicative();
        while (true) {
            if (readOp("+")) {
                l = new Expr.Call("plus", l, multiplicative());
            } else if (readOp("-")) {
                l = new Expr.Call("minus", l, multiplicative());
            } else {
                return l;
            }
        }
    }

    private Expr multiplicative() {
        Expr l = unary();
        while (true) {
            if (readOp("*")) {
                l = new Expr.Call("multiply", l, unary());
            } else if (readOp("/")) {
                l = new Expr.Call("divide", l, unary());
            } else if (readOp("%") || readIf("MOD")) {
                l = new Expr.Call("modulo", l, unary());
            } else if (readIf("DIV")) {
                l = new Expr.Call("intDiv", l, unary());
            } else {
                return l;
            }
        }
    }

    private Expr unary() {
        if (readOp("-")) {
            Expr e = unary();
            if (e instanceof Expr.Literal && ((Expr.Literal) e).value() instanceof Number) {
                return new Expr.Literal(negate((Number) ((Expr.Literal) e).value()));
            }
            return new Expr.Call("negate", e);
        }
        if (readOp("+")) {
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
            if (readOp("[")) {
                Expr idx = expr();
                expectOp("]");
                e = new Expr.Call("arrayElement", e, idx);
            } else if (readOp("::")) {
                e = new Expr.Cast(e, typeText());
            } else if (tok.isOp(".") && (!(e instanceof Expr.Ident) || peekKind() == Token.Kind.NUMBER)) {
                advance();
                if (tok.kind() == Token.Kind.NUMBER) {
                    Expr idx = new Expr.Literal(Long.parseLong(tok.text()));
                    advance();
                    e = new Expr.Call("tupleElement", e, idx);
                } else {
                    e = new Expr.Call("tupleElement", e, new Expr.Literal(identifier()));
                }
            } else {
                return e;
            }
        }
    }

    private Expr primary() {
        Token t = tok;
        switch (t.kind()) {
            case NUMBER:
                advance();
                return new Expr.Literal(number(t.text()));
            case STRING:
                advance();
                return new Expr.Literal(Lexer.stringValue(sql, t.pos(), t.end()));
            case OP:
                if (readOp("(")) {
                    if (tok.is("SELECT") || tok.is("WITH")) {
                        Query q = query();
                        expectOp(")");
                        return new Expr.Subquery(q);
                    }
                    if (readOp(")")) {
                        return new Expr.Call("tuple", List.of(), false);
                    }
                    List<Expr> l = exprList();
                    expectOp(")");
                    if (tok.isOp("->") && l.stream().allMatch(x -> x instanceof Expr.Ident && ((Expr.Ident) x).parts().size() == 1)) {
                        advance();
                        List<String> params = new ArrayList<>();
                        for (Expr x : l) {
                            params.add(((Expr.Ident) x).last());
                        }
                        return new Expr.Lambda(params, lambda());
                    }
                    return l.size() == 1 ? l.get(0) : new Expr.Call("tuple", l, false);
                }
                if (readOp("[")) {
                    List<Expr> l = tok.isOp("]") ? List.of() : exprList();
                    expectOp("]");
                    return new Expr.Call("array", l, false);
                }
                if (readOp("*")) {
                    return new Expr.Star(null);
                }
                if (tok.isOp("{")) {
                    String[] p = parameter();
                    if (p[1].equals("Identifier")) {
                        return new Expr.Ident(QueryParameters.identifierParts(params.identifier(p[0])));
                    }
                    return params.literal(p[0], p[1]);
                }
                throw error("expression");
            case IDENT:
            case QUOTED_IDENT:
                return identOrCall();
            default:
                throw error("expression");
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
        Token t = tok;
        boolean quoted = t.kind() == Token.Kind.QUOTED_IDENT;
        if (!quoted) {
            if (t.is("NULL")) {
                advance();
                return new Expr.Literal(null);
            }
            if (t.is("TRUE") || t.is("FALSE")) {
                advance();
                return new Expr.Literal(t.is("TRUE"));
            }
            if (t.is("CASE")) {
                advance();
                return caseExpr();
            }
            if (t.is("CAST") && peekIsOpenParen()) {
                advance();
                expectOp("(");
                Expr e = expr();
                String type;
                if (readIf("AS")) {
                    type = typeText();
                } else {
                    expectOp(",");
                    type = stringLiteral();
                }
                expectOp(")");
                return new Expr.Cast(e, type);
            }
            if (t.is("INTERVAL")) {
                advance();
                Expr amount = unary();
                String unit = identifier().toLowerCase(Locale.ROOT);
                return new Expr.Interval(amount, unit.endsWith("s") ? unit.substring(0, unit.length() - 1) : unit);
            }
            if (t.is("DATE") && peekKind() == Token.Kind.STRING) {
                advance();
                return new Expr.Cast(new Expr.Literal(stringLiteral()), "Date");
            }
            if (t.is("TIMESTAMP") && peekKind() == Token.Kind.STRING) {
                advance();
                return new Expr.Cast(new Expr.Literal(stringLiteral()), "DateTime");
            }
        }
        advance();
        if (!quoted && tok.isOp("(")) {
            advance();
            String name = t.text();
            boolean distinct = readIf("DISTINCT");
            List<Expr> args = tok.isOp(")") ? List.of() : exprList();
            expectOp(")");
            if (tok.isOp("(")) {
                // parametric aggregate: name(params)(args) -> params first
                advance();
                List<Expr> args2 = tok.isOp(")") ? List.of() : exprList();
                expectOp(")");
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
        while (tok.isOp(".")) {
            Token save = tok;
            advance();
            if (tok.isOp("*")) {
                advance();
                return new Expr.Star(String.join(".", parts));
            }
            if (isIdent()) {
                parts.add(tok.text());
                advance();
            } else {
                tok = save;
                break;
            }
        }
        return new Expr.Ident(List.copyOf(parts));
    }

    // ---- access control: USER, ROLE, SETTINGS PROFILE, GRANT, REVOKE ----

    private static final java.util.Set<String> USER_CLAUSES = java.util.Set.of("IDENTIFIED", "NOT", "SETTINGS", "DEFAULT", "HOST",
        "VALID", "IN", "GRANTEES", "TO", "ON", "RENAME", "ADD", "DROP", "FORMAT");

    private boolean atAccessEntity() {
        return tok.is("USER") || tok.is("ROLE") || tok.is("PROFILE") || tok.is("SETTINGS") && peekIs("PROFILE");
    }

    /** CREATE | ALTER | DROP USER | ROLE | SETTINGS PROFILE, after the verb (and OR REPLACE). */
    private Statement accessEntity(String verb, boolean orReplace) {
        String kind = readIf("USER") ? "USER" : readIf("ROLE") ? "ROLE" : "SETTINGS PROFILE";
        if (kind.equals("SETTINGS PROFILE")) {
            readIf("SETTINGS");
            expect("PROFILE");
        }
        boolean ifExists = !verb.equals("CREATE") && readIf("IF", "EXISTS");
        boolean ifNotExists = verb.equals("CREATE") && readIf("IF", "NOT") && expectThen("EXISTS");
        List<String> names = new ArrayList<>();
        do {
            names.add(accessName());
        } while (readOp(","));
        String authType = null;
        String password = null;
        List<Statement.SettingElement> settings = null;
        List<String> assignees = null;
        while (tok.kind() != Token.Kind.EOF && !tok.isOp(";") && !tok.is("FORMAT")) {
            if (verb.equals("DROP")) {
                if (readIf("ON", "CLUSTER") || readIf("FROM")) {
                    accessName();
                    continue;
                }
                throw error("end of query");
            }
            if (readIf("ON", "CLUSTER")) {
                accessName();
            } else if (kind.equals("USER") && readIf("NOT")) {
                expect("IDENTIFIED");
                authType = "no_password";
                password = "";
            } else if (kind.equals("USER") && readIf("IDENTIFIED")) {
                authType = "plaintext_password";
                if (readIf("WITH")) {
                    authType = identifier().toLowerCase(Locale.ROOT);
                }
                password = authType.equals("no_password") ? "" : null;
                if (readIf("BY")) {
                    password = stringLiteral();
                } else if (!authType.equals("no_password")) {
                    throw error("BY");
                }
            } else if (readIf("SETTINGS")) {
                settings = new ArrayList<>();
                if (!readIf("NONE")) {
                    do {
                        settings.add(settingElement());
                    } while (readOp(","));
                }
            } else if (kind.equals("SETTINGS PROFILE") && readIf("TO")) {
                assignees = granteeList();
            } else if (kind.equals("USER") && readIf("DEFAULT")) {
                if (readIf("DATABASE")) {
                    accessName();
                } else {
                    expect("ROLE");
                    granteeList();
                }
            } else if (readIf("RENAME")) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "RENAME of a " + kind.toLowerCase(Locale.ROOT) + " is not supported by the stub");
            } else if (tok.is("HOST") || tok.is("VALID") || tok.is("IN") || tok.is("GRANTEES")) {
                // access restrictions the stub does not apply: skipped up to the next clause
                advance();
                while (tok.kind() != Token.Kind.EOF && !tok.isOp(";") && !USER_CLAUSES.contains(tok.text().toUpperCase(Locale.ROOT))) {
                    if (readOp("(")) {
                        skipBalanced();
                    } else {
                        advance();
                    }
                }
            } else {
                throw error(kind.equals("USER") ? "IDENTIFIED, SETTINGS, DEFAULT ROLE, HOST or end of query" : "SETTINGS or end of query");
            }
        }
        return withFormat(new Statement.AccessEntity(verb, kind, List.copyOf(names), ifExists, ifNotExists, orReplace, authType, password,
            settings == null ? null : List.copyOf(settings), assignees), trailingFormat());
    }

    /** A user, role or profile name: an identifier or a string, a user's optionally followed by {@code @'host'}. */
    private String accessName() {
        String name = tok.kind() == Token.Kind.STRING ? stringLiteral() : identifier();
        if (readOp("@")) {
            if (tok.kind() == Token.Kind.STRING) {
                stringLiteral();
            } else {
                identifier();
            }
        }
        return name;
    }

    /** {@code name [= value] [MIN [=] v] [MAX [=] v] [CONST|READONLY|WRITABLE|CHANGEABLE_IN_READONLY]} or {@code PROFILE 'p'}. */
    private Statement.SettingElement settingElement() {
        if (readIf("PROFILE") || readIf("INHERIT")) {
            return new Statement.SettingElement(null, null, null, null, null, accessName());
        }
        String name = identifier();
        String value = null;
        String min = null;
        String max = null;
        String writability = null;
        if (readOp("=")) {
            value = settingValue();
        } else if (tok.kind() == Token.Kind.NUMBER || tok.kind() == Token.Kind.STRING) {
            value = settingValue();
        }
        while (true) {
            if (readIf("MIN")) {
                readOp("=");
                min = settingValue();
            } else if (readIf("MAX")) {
                readOp("=");
                max = settingValue();
            } else if (tok.is("CONST") || tok.is("READONLY") || tok.is("WRITABLE") || tok.is("CHANGEABLE_IN_READONLY")) {
                writability = tok.text().toUpperCase(Locale.ROOT);
                advance();
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
            if (readIf("EXCEPT")) {
                do {
                    accessName();
                } while (readOp(","));
                break;
            }
            if (readIf("NONE")) {
                continue;
            }
            out.add(tok.is("ALL") || tok.is("CURRENT_USER") ? tok.text().toUpperCase(Locale.ROOT) : null);
            if (out.get(out.size() - 1) != null) {
                advance();
            } else {
                out.set(out.size() - 1, accessName());
            }
        } while (readOp(",") || tok.is("EXCEPT"));
        return List.copyOf(out);
    }

    /** GRANT / REVOKE of privileges ON a target, or of roles, TO / FROM users and roles. */
    private Statement grant() {
        boolean revoke = tok.is("REVOKE");
        advance();
        if (readIf("ON", "CLUSTER")) {
            accessName();
        }
        if (revoke && (readIf("ADMIN", "OPTION") || readIf("GRANT", "OPTION"))) {
            expect("FOR");
        }
        String to = revoke ? "FROM" : "TO";
        int start = tok.pos();
        int depth = 0;
        while (tok.kind() != Token.Kind.EOF && !(depth == 0 && (tok.is("ON") || tok.is(to)))) {
            depth += tok.isOp("(") ? 1 : tok.isOp(")") ? -1 : 0;
            advance();
        }
        if (tok.kind() == Token.Kind.EOF || tok.pos() == start) {
            throw error(tok.pos() == start ? "privilege or role" : "ON or " + to);
        }
        String what = sql.substring(start, prev.end()).strip();
        String on = null;
        if (readIf("ON")) {
            int onStart = tok.pos();
            while (tok.kind() != Token.Kind.EOF && !tok.is(to)) {
                advance();
            }
            if (tok.kind() == Token.Kind.EOF || tok.pos() == onStart) {
                throw error(tok.pos() == onStart ? "database and table" : to);
            }
            on = sql.substring(onStart, prev.end()).replace(" ", "");
        }
        expect(to);
        List<String> grantees = granteeList();
        while (readIf("WITH")) {
            if (!(readIf("GRANT") || readIf("ADMIN") || readIf("REPLACE"))) {
                throw error("GRANT, ADMIN or REPLACE");
            }
            expect("OPTION");
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

    private boolean peekIs(String keyword) {
        return Lexer.next(sql, tok.end(), end, tok).is(keyword);
    }

    private boolean peekIsOpenParen() {
        Token n = Lexer.next(sql, tok.end(), end, tok);
        return n.isOp("(");
    }

    private Token.Kind peekKind() {
        return Lexer.next(sql, tok.end(), end, tok).kind();
    }

    private Expr caseExpr() {
        Expr subject = null;
        if (!tok.is("WHEN")) {
            subject = expr();
        }
        List<Expr> args = new ArrayList<>();
        while (readIf("WHEN")) {
            Expr w = expr();
            expect("THEN");
            Expr th = expr();
            args.add(subject == null ? w : new Expr.Call("equals", subject, w));
            args.add(th);
        }
        Expr otherwise = readIf("ELSE") ? expr() : new Expr.Literal(null);
        expect("END");
        args.add(otherwise);
        return new Expr.Call("multiIf", args, false);
    }
}
