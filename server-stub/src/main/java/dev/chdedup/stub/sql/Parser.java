package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.List;

/**
 * The entry point of the recursive-descent parser for the SQL the stub understands, as ClickHouse's ParserQuery is
 * (src/Parsers/ParserQuery.cpp): {@link #parseStatement()} switches on the first keyword and hands the rest of the
 * statement to the parser of that kind of query (ParserSelectQuery, ParserInsertQuery, ParserCreateQuery, ...). They
 * all read one {@link TokenIterator}, whose tokens are lexed lazily, so an INSERT's inline data after {@code VALUES}
 * or {@code FORMAT f} is never tokenized: the parser stops there and reports the offset. Expressions are
 * {@link ParserExpression}'s. A syntax error names the position and what was expected, as ClickHouse's
 * {@code SYNTAX_ERROR} does.
 */
public final class Parser {
    /** The token cursor of this parse, shared by the parsers of each kind. */
    private final TokenIterator pos;
    /** The expression parser of this parse, which makes the one {@link #select} parser (subqueries see its CTEs). */
    private final ParserExpression exp;
    private final ParserSelectQuery select;

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
        this.exp = new ParserExpression(pos);
        this.select = exp.select;
    }

    /** A statement and the FORMAT given after SHOW/DESCRIBE/EXISTS (null when none). */
    public record Parsed(Statement statement, String format) {
    }

    /** Parses exactly one statement (trailing ';'s allowed, another statement after them refused as ClickHouse does). */
    public static Statement parse(String sql) {
        return parseWithFormat(sql).statement();
    }

    /** Like {@link #parse}, also returning a trailing FORMAT of SHOW/DESCRIBE/EXISTS. */
    public static Parsed parseWithFormat(String sql) {
        return parseWithFormat(sql, QueryParameters.NONE);
    }

    /**
     * Like {@link #parseWithFormat(String, QueryParameters)}; with {@code implicitSelect} (the setting implicit_select, on
     * in clickhouse-local, off in a server by default) a query that is no statement but reads as the expressions of a
     * SELECT is that SELECT ({@code 1 + 2}, {@code factorial(10)}); otherwise the statement's syntax error stands.
     */
    public static Parsed parseWithFormat(String sql, QueryParameters params, boolean implicitSelect) {
        try {
            return parseWithFormat(sql, params);
        } catch (ChException e) {
            if (!implicitSelect || e.code() != ErrorCode.SYNTAX_ERROR) {
                throw e;
            }
            try {
                Parsed p = parseWithFormat("SELECT " + sql, params);
                if (p.statement() instanceof Statement.SelectStmt) {
                    return p;
                }
            } catch (ChException notASelect) {
                // the statement's own error is the one to report
            }
            throw e;
        }
    }

    /** Like {@link #parseWithFormat(String)}, replacing each {@code {name:Type}} with its parameter's value. */
    public static Parsed parseWithFormat(String sql, QueryParameters params) {
        Parser p = new Parser(sql, params);
        Statement st = p.parseStatement();
        Statement inner = st instanceof Statement.Explain e ? e.statement() : st;
        if (!(inner instanceof Statement.Insert) || ((Statement.Insert) inner).dataOffset() < 0) {
            Token semicolon = p.pos.tok;
            if (!semicolon.isOp(";") && semicolon.kind() != Token.Kind.EOF) {
                throw p.pos.error("end of query");
            }
            while (p.pos.readOp(";")) {
                // any number of ';' may end the statement
            }
            if (p.pos.tok.kind() != Token.Kind.EOF) {
                throw multiStatements(sql, semicolon);
            }
        }
        return new Parsed(st, p.pos.formatOverride);
    }

    /** The UTF-8 length of {@code sql[from, to)}: ClickHouse counts positions in bytes. */
    private static int utf8Length(String sql, int from, int to) {
        return sql.substring(from, to).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    }

    /** The length of the query text a syntax error shows, as ClickHouse's SHOW_CHARS_ON_SYNTAX_ERROR. */
    private static final int SHOW_CHARS_ON_SYNTAX_ERROR = 160;

    /**
     * A second statement after the {@code ;} that ends the first: ClickHouse's server parses one statement a query
     * (parseQuery with allow_multi_statements off) and fails with the text of tryParseQuery, pointing at the ';'.
     */
    private static ChException multiStatements(String sql, Token semicolon) {
        StringBuilder m = new StringBuilder("Syntax error (Multi-statements are not allowed): failed at position ")
            .append(utf8Length(sql, 0, semicolon.pos()) + 1).append(" (end of query)");
        int nl = sql.indexOf('\n');
        if (nl >= 0 && nl + 1 < sql.length()) {
            int line = 1;
            int lineStart = 0;
            for (int i = 0; i < semicolon.pos(); i++) {
                if (sql.charAt(i) == '\n') {
                    line++;
                    lineStart = i + 1;
                }
            }
            m.append(" (line ").append(line).append(", col ").append(utf8Length(sql, lineStart, semicolon.pos()) + 1).append(')');
        }
        String rest = sql.substring(semicolon.pos());
        int shown = rest.codePointCount(0, rest.length()) <= SHOW_CHARS_ON_SYNTAX_ERROR ? rest.length()
            : rest.offsetByCodePoints(0, SHOW_CHARS_ON_SYNTAX_ERROR);
        m.append(": ").append(rest, 0, shown).append(shown < rest.length() ? "... " : ". ");
        return new ChException(ErrorCode.SYNTAX_ERROR, m.toString());
    }

    /** The FORMAT given after SHOW/DESCRIBE/EXISTS, carried to the executor through the query settings. */
    public String formatOverride() {
        return pos.formatOverride;
    }

    /** Parses one statement, leaving the cursor after it (before a trailing ';' or an INSERT's data). */
    public Statement parseStatement() {
        if (pos.tok.is("SELECT") || pos.tok.is("WITH") || pos.tok.isOp("(")) {
            return new Statement.SelectStmt(select.query());
        }
        if (pos.readIf("INSERT")) {
            return new ParserInsertQuery(exp).parse();
        }
        if (pos.readIf("CREATE")) {
            return new ParserCreateQuery(exp).parse();
        }
        if (pos.tok.is("GRANT") || pos.tok.is("REVOKE")) {
            return new ParserGrantQuery(pos).parse();
        }
        if (pos.readIf("ATTACH")) {
            return new ParserDropQuery(pos).attach();
        }
        if (pos.readIf("DETACH")) {
            return new ParserDropQuery(pos).detach();
        }
        if (pos.readIf("RENAME")) {
            return new ParserDropQuery(pos).rename();
        }
        if (pos.readIf("EXCHANGE")) {
            return new ParserDropQuery(pos).exchange();
        }
        if (pos.readIf("DROP")) {
            return new ParserDropQuery(pos).parse();
        }
        if (pos.tok.is("UPDATE") && (Lexer.next(pos.sql, pos.tok.end(), pos.end, pos.tok).kind() == Token.Kind.IDENT
            || Lexer.next(pos.sql, pos.tok.end(), pos.end, pos.tok).kind() == Token.Kind.QUOTED_IDENT)) {
            pos.advance();
            return new ParserUpdateQuery(exp).parse();
        }
        if (pos.readIf("DELETE")) {
            return new ParserDeleteQuery(exp).parse();
        }
        if (pos.readIf("TRUNCATE")) {
            return new ParserDropQuery(pos).truncate();
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
            return new ParserAlterQuery(exp).parse();
        }
        if (pos.readIf("OPTIMIZE")) {
            return new ParserOptimizeQuery(exp).parse();
        }
        if (pos.readIf("SYSTEM")) {
            return new ParserSystemQuery(pos).parse();
        }
        if (pos.readIf("SET")) {
            if ((pos.tok.is("ROLE") || pos.tok.is("DEFAULT")) && !Lexer.next(pos.sql, pos.tok.end(), pos.end, pos.tok).isOp("=")) {
                return new ParserSetRoleQuery(pos).parse();
            }
            return new ParserSetQuery(pos).parse();
        }
        if (pos.readIf("USE")) {
            return new ParserUseQuery(pos).parse();
        }
        if (pos.readIf("KILL")) {
            return new ParserKillQueryQuery(exp).parse();
        }
        if (pos.readIf("EXPLAIN")) {
            return new ParserExplainQuery(pos, this).parse();
        }
        if (pos.tok.is("EXECUTE") && Lexer.next(pos.sql, pos.tok.end(), pos.end, pos.tok).is("AS")) {
            // EXECUTE AS user [statement]: impersonation, which the server leaves disabled as ClickHouse's default does
            pos.advance();
            pos.advance();
            pos.identifier();
            if (pos.tok.kind() != Token.Kind.EOF && !pos.tok.isOp(";")) {
                parseStatement();
            }
            throw new ChException(ErrorCode.SUPPORT_IS_DISABLED,
                "IMPERSONATE feature is disabled, set access_control_improvements.allow_impersonate_user to 1 to enable");
        }
        throw pos.error("one of: SELECT, INSERT, CREATE, DROP, DETACH, ATTACH, RENAME, EXCHANGE, DELETE, UPDATE, ALTER, SHOW, DESCRIBE, EXISTS, OPTIMIZE, SYSTEM, SET, USE, TRUNCATE, KILL, GRANT, REVOKE, EXPLAIN");
    }

    /** A TTL clause's text (as a CREATE or ALTER ... MODIFY TTL keeps it) read into its rules. */
    public static List<Statement.TtlElement> ttl(String text) {
        Parser p = new Parser(text);
        List<Statement.TtlElement> out = new ParserCreateQuery(p.exp).ttlList();
        if (p.pos.tok.kind() != Token.Kind.EOF) {
            throw p.pos.error("end of TTL");
        }
        return out;
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
