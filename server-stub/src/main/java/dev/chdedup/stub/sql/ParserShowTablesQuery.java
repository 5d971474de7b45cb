package dev.chdedup.stub.sql;

/**
 * Parses {@code SHOW DATABASES [LIKE 'pattern'] [LIMIT n]} and {@code SHOW TABLES [FROM|IN db] [LIKE 'pattern']
 * [LIMIT n]}, each with an optional FORMAT, as ClickHouse's ParserShowTablesQuery does
 * (src/Parsers/ParserShowTablesQuery.cpp). SHOW CREATE is {@link ParserTablePropertiesQuery}'s.
 */
final class ParserShowTablesQuery {
    private final TokenIterator pos;

    ParserShowTablesQuery(TokenIterator pos) {
        this.pos = pos;
    }

    /** After the SHOW (not followed by CREATE). */
    Statement parse() {
        if (pos.readIf("DATABASES")) {
            String like = pos.readIf("LIKE") ? pos.stringLiteral() : null;
            return pos.withFormat(new Statement.ShowTables(null, like, true, showLimit()), pos.trailingFormat());
        }
        if (pos.readIf("TABLES")) {
            String db = null;
            if (pos.readIf("FROM") || pos.readIf("IN")) {
                db = pos.identifier();
            }
            String like = pos.readIf("LIKE") ? pos.stringLiteral() : null;
            return pos.withFormat(new Statement.ShowTables(db, like, false, showLimit()), pos.trailingFormat());
        }
        throw pos.error("DATABASES, TABLES or CREATE TABLE");
    }

    private long showLimit() {
        if (!pos.readIf("LIMIT")) {
            return Long.MAX_VALUE;
        }
        if (pos.tok.kind() != Token.Kind.NUMBER) {
            throw pos.error("number");
        }
        long n = Long.parseLong(pos.tok.text());
        pos.advance();
        return n;
    }
}
