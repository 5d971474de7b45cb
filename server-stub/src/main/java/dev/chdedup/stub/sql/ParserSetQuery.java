package dev.chdedup.stub.sql;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses {@code SET name = value, ...} and, for the other query kinds, their {@code SETTINGS name = value, ...}
 * clauses, as ClickHouse's ParserSetQuery does for both (src/Parsers/ParserSetQuery.cpp). A value is kept as its
 * text: a string, number or identifier, a negative number, or a {@code {name:Type}} parameter's value.
 */
final class ParserSetQuery {
    private final TokenIterator pos;

    ParserSetQuery(TokenIterator pos) {
        this.pos = pos;
    }

    /** {@code SET name = value, ...}, after the SET. */
    Statement parse() {
        return new Statement.SetStmt(settingList());
    }

    /** {@code name = value [, ...]}: each value's text by its name, in the order given. */
    Map<String, String> settingList() {
        Map<String, String> m = new LinkedHashMap<>();
        do {
            String name = pos.identifier();
            pos.expectOp("=");
            boolean string = pos.tok.kind() == Token.Kind.STRING;
            String value = settingValue();
            // a custom setting holds the literal's Field: its string stays quoted, so getSetting knows '5' from 5 (and EXPLAIN
            // SYNTAX writes a string as one)
            m.put(name, string && (name.startsWith("custom_") || pos.keepSyntax) ? "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'" : value);
        } while (pos.readOp(","));
        return m;
    }

    /** One setting's value as text. */
    String settingValue() {
        Token t = pos.tok;
        if (t.kind() == Token.Kind.STRING || t.kind() == Token.Kind.NUMBER || t.kind() == Token.Kind.IDENT) {
            pos.advance();
            return t.text();
        }
        if (t.isOp("-")) {
            pos.advance();
            Token n = pos.tok;
            pos.advance();
            return "-" + n.text();
        }
        if (t.isOp("{")) {
            String[] p = pos.parameter();
            return pos.params.settingValue(p[0], p[1]);
        }
        throw pos.error("setting value");
    }
}
