package dev.chdedup.stub.sql;

/**
 * Parses {@code KILL QUERY WHERE condition [SYNC|ASYNC]} and {@code KILL MUTATION WHERE condition [SYNC|ASYNC]
 * [TEST]}, as ClickHouse's ParserKillQueryQuery does for both (src/Parsers/ParserKillQueryQuery.cpp).
 */
final class ParserKillQueryQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;

    ParserKillQueryQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
    }

    /** After the KILL. */
    Statement parse() {
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
}
