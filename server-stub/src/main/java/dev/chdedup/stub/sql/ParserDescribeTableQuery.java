package dev.chdedup.stub.sql;

/**
 * Parses {@code DESCRIBE|DESC [TABLE] [db.]t} and {@code DESCRIBE (SELECT ...)}, with an optional FORMAT, as
 * ClickHouse's ParserDescribeTableQuery does (src/Parsers/ParserDescribeTableQuery.cpp).
 */
final class ParserDescribeTableQuery {
    private final TokenIterator pos;
    private final ParserSelectQuery select;

    ParserDescribeTableQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.select = exp.select;
    }

    /** After the DESCRIBE or DESC. */
    Statement parse() {
        pos.readIf("TABLE");
        if (pos.tok.isOp("(") && (pos.peekIs("SELECT") || pos.peekIs("WITH"))) {
            pos.advance();
            Query q = select.query();
            pos.expectOp(")");
            return pos.withFormat(new Statement.DescribeQuery(q), pos.trailingFormat());
        }
        String[] n = pos.qualifiedName();
        String format = pos.trailingFormat();
        return pos.withFormat(new Statement.Describe(n[0], n[1]), format);
    }
}
