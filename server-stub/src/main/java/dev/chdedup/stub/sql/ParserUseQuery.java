package dev.chdedup.stub.sql;

/** Parses {@code USE db}, as ClickHouse's ParserUseQuery does (src/Parsers/ParserUseQuery.cpp). */
final class ParserUseQuery {
    private final TokenIterator pos;

    ParserUseQuery(TokenIterator pos) {
        this.pos = pos;
    }

    /** After the USE. */
    Statement parse() {
        return new Statement.Use(pos.identifier());
    }
}
