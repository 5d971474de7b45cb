package dev.chdedup.stub.sql;

import java.util.List;
import java.util.Map;

/**
 * Parses the lightweight {@code DELETE FROM [db.]t WHERE condition [SETTINGS ...]}, as ClickHouse's ParserDeleteQuery
 * does (src/Parsers/ParserDeleteQuery.cpp). The stub runs it as the mutation {@code ALTER TABLE t DELETE WHERE}.
 */
final class ParserDeleteQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;
    private final ParserSetQuery parserSettings;

    ParserDeleteQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
        this.parserSettings = new ParserSetQuery(pos);
    }

    /** After the DELETE. */
    Statement parse() {
        pos.expect("FROM");
        String[] n = pos.qualifiedName();
        pos.expect("WHERE");
        int st = pos.tok.pos();
        Expr where = exp.expr();
        return new Statement.Alter(n[0], n[1], List.of(new Statement.MutateDelete(where, "DELETE WHERE " + pos.sql.substring(st, pos.prev.end()))),
            pos.readIf("SETTINGS") ? parserSettings.settingList() : Map.of());
    }
}
