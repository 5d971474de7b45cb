package dev.chdedup.stub.sql;

/**
 * Parses {@code OPTIMIZE TABLE [db.]t [PARTITION p] [FINAL] [DEDUPLICATE]}, as ClickHouse's ParserOptimizeQuery does
 * (src/Parsers/ParserOptimizeQuery.cpp).
 */
final class ParserOptimizeQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;

    ParserOptimizeQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
    }

    /** After the OPTIMIZE. */
    Statement parse() {
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
}
