package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;

/**
 * The token cursor one parse shares among {@link Parser} and the parsers of each query kind, as ClickHouse's parsers
 * share an {@code IParser::Pos} (src/Parsers/TokenIterator.h). Tokens are lexed lazily, so an INSERT's inline data
 * after {@code VALUES} or {@code FORMAT f} is never tokenized. Besides the {@code read}/{@code readIf}/{@code expect}
 * primitives it reads what every kind of query is made of: identifiers and {@code [db.]name}s, string literals, type
 * names and {@code {name:Type}} parameters. A syntax error names the position and what was expected, as ClickHouse's
 * {@code SYNTAX_ERROR} does.
 */
final class TokenIterator {
    final String sql;
    /** Where the text to parse ends (an offset into {@link #sql}). */
    final int end;
    /** The values of {@code {name:Type}} substitutions, replaced as they are parsed. */
    final QueryParameters params;
    /** The current token, not yet consumed; {@link #prev} is the last consumed one (its end closes a clause's text). */
    Token tok;
    Token prev;
    /**
     * The FORMAT named after SHOW, DESCRIBE, EXISTS or an access statement (null: none), which
     * {@link Parser#parseWithFormat} returns beside the statement: state of the whole parse, like {@link #params}.
     */
    String formatOverride;
    /**
     * Whether the parse keeps the query as written where the executor's form folds it ({@code count(*)} keeps its
     * {@code *}, {@code CASE x WHEN} stays {@code caseWithExpression}, a comma join stays a comma): set while an
     * EXPLAIN AST or SYNTAX statement is parsed, whose result is never executed.
     */
    boolean keepSyntax;

    TokenIterator(String sql, int end, QueryParameters params) {
        this.sql = sql;
        this.end = end;
        this.params = params;
        this.tok = Lexer.next(sql, 0, end, null);
    }

    void advance() {
        prev = tok;
        tok = Lexer.next(sql, tok.end(), end, tok);
    }

    boolean readIf(String keyword) {
        if (tok.is(keyword)) {
            advance();
            return true;
        }
        return false;
    }

    boolean readIf(String k1, String k2) {
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

    void expect(String keyword) {
        if (!readIf(keyword)) {
            throw error(keyword);
        }
    }

    boolean expectThen(String keyword) {
        expect(keyword);
        return true;
    }

    boolean readOp(String op) {
        if (tok.isOp(op)) {
            advance();
            return true;
        }
        return false;
    }

    void expectOp(String op) {
        if (!readOp(op)) {
            throw error("'" + op + "'");
        }
    }

    boolean isIdent() {
        return tok.kind() == Token.Kind.IDENT || tok.kind() == Token.Kind.QUOTED_IDENT;
    }

    boolean peekIs(String keyword) {
        return Lexer.next(sql, tok.end(), end, tok).is(keyword);
    }

    boolean peekIsOp(String op) {
        return Lexer.next(sql, tok.end(), end, tok).isOp(op);
    }

    boolean peekIsOpenParen() {
        Token n = Lexer.next(sql, tok.end(), end, tok);
        return n.isOp("(");
    }

    Token.Kind peekKind() {
        return Lexer.next(sql, tok.end(), end, tok).kind();
    }

    ChException error(String expected) {
        String near = sql.substring(tok.pos(), Math.min(end, tok.pos() + 40));
        return new ChException(ErrorCode.SYNTAX_ERROR, "Syntax error: failed at position " + (tok.pos() + 1)
            + " ('" + (tok.kind() == Token.Kind.EOF ? "" : near) + "')"
            + (tok.kind() == Token.Kind.EOF ? " (end of query)" : "") + ": Expected " + expected);
    }

    String identifier() {
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
    String[] parameter() {
        expectOp("{");
        String name = identifier();
        expectOp(":");
        String type = typeText();
        expectOp("}");
        return new String[] {name, type};
    }

    /** {@code [db.]name}: returns {db or null, name}. */
    String[] qualifiedName() {
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

    String stringLiteral() {
        if (tok.kind() != Token.Kind.STRING) {
            throw error("string literal");
        }
        String s = tok.text();
        advance();
        return s;
    }

    /** The text of a type name with its balanced parameter list. */
    String typeText() {
        int st = tok.pos();
        identifier();
        if (tok.isOp("(")) {
            advance();
            skipBalanced();
        }
        return sql.substring(st, prev.end());
    }

    /** Skips to just after the ')' matching an already consumed '('. */
    void skipBalanced() {
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

    /** Records {@code format} as the parse's {@link #formatOverride} and returns {@code st}. */
    Statement withFormat(Statement st, String format) {
        formatOverride = format;
        return st;
    }

    /** {@code FORMAT name}: the name, or null when the next token is not FORMAT. */
    String trailingFormat() {
        if (readIf("FORMAT")) {
            return identifier();
        }
        return null;
    }
}
