package dev.chdedup.stub.sql;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code EXPLAIN [AST | SYNTAX | QUERY TREE | PLAN | PIPELINE | ESTIMATE] [name = value, ...] query}, as
 * ClickHouse's ParserExplainQuery does (src/Parsers/ParserExplainQuery.cpp): the kind (PLAN when none is named), the
 * explain settings (a number or a string each, kept as written: a string quoted) and the statement explained. For
 * AST and SYNTAX the statement is parsed keeping what the stub's executor would fold away (see
 * {@link TokenIterator#keepSyntax}), since those kinds print the query as written.
 */
final class ParserExplainQuery {
    /** The kinds of EXPLAIN, as the engine names them in its messages (the two-word one first). */
    private static final List<String> KINDS = List.of("AST", "SYNTAX", "PLAN", "PIPELINE", "ESTIMATE");

    private final TokenIterator pos;
    private final Parser parser;

    ParserExplainQuery(TokenIterator pos, Parser parser) {
        this.pos = pos;
        this.parser = parser;
    }

    /** After the EXPLAIN. */
    Statement parse() {
        String kind = "PLAN";
        if (pos.readIf("QUERY", "TREE")) {
            kind = "QUERY TREE";
        } else {
            for (String k : KINDS) {
                if (pos.readIf(k)) {
                    kind = k;
                    break;
                }
            }
        }
        if (pos.readIf("SETTINGS")) {
            // the engine reads SETTINGS here as a statement of its own, which must end the query
            new ParserSetQuery(pos).settingList();
            throw pos.error("end of query");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        if (pos.tok.kind() == Token.Kind.IDENT && !startsStatement(pos.tok)) {
            do {
                String name = pos.identifier();
                pos.expectOp("=");
                Token v = pos.tok;
                if (v.kind() == Token.Kind.STRING) {
                    pos.advance();
                    settings.put(name, "'" + Lexer.stringValue(pos.sql, v.pos(), v.end()) + "'");
                } else if (v.kind() == Token.Kind.NUMBER) {
                    pos.advance();
                    settings.put(name, v.text());
                } else {
                    throw pos.error("literal");
                }
            } while (pos.readOp(","));
        }
        boolean keep = pos.keepSyntax;
        pos.keepSyntax = kind.equals("AST") || kind.equals("SYNTAX");
        try {
            return new Statement.Explain(kind, settings, parser.parseStatement());
        } finally {
            pos.keepSyntax = keep;
        }
    }

    /** Whether {@code t} begins the explained statement rather than the explain settings. */
    private static boolean startsStatement(Token t) {
        for (String k : new String[] {"SELECT", "WITH", "INSERT", "CREATE", "ALTER", "DROP", "SHOW", "DESCRIBE", "DESC",
            "SYSTEM", "OPTIMIZE", "TRUNCATE", "DELETE", "EXISTS", "SET", "USE", "GRANT", "REVOKE", "KILL", "EXPLAIN"}) {
            if (t.is(k)) {
                return true;
            }
        }
        return false;
    }
}
