package dev.chdedup.stub.sql;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses the lightweight {@code UPDATE [db.]t SET c = expr, ... WHERE condition [SETTINGS ...]} of ClickHouse 25.7 and
 * later, as ClickHouse's ParserUpdateQuery does (src/Parsers/ParserUpdateQuery.cpp).
 */
final class ParserUpdateQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;
    private final ParserSetQuery parserSettings;

    ParserUpdateQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
        this.parserSettings = new ParserSetQuery(pos);
    }

    /** After the UPDATE. */
    Statement parse() {
        String[] n = pos.qualifiedName();
        pos.expect("SET");
        int st = pos.tok.pos();
        Map<String, Expr> assignments = new LinkedHashMap<>();
        do {
            String col = pos.identifier();
            pos.expectOp("=");
            assignments.put(col, exp.expr());
        } while (pos.readOp(","));
        String set = pos.sql.substring(st, pos.prev.end());
        pos.expect("WHERE");
        int w = pos.tok.pos();
        Expr where = exp.expr();
        Statement.MutateUpdate u = new Statement.MutateUpdate(assignments, where, "UPDATE " + set + " WHERE " + pos.sql.substring(w, pos.prev.end()));
        return new Statement.LightweightUpdate(n[0], n[1], u, pos.readIf("SETTINGS") ? parserSettings.settingList() : Map.of());
    }
}
