package dev.chdedup.stub.sql;

/**
 * Parses {@code EXISTS [TEMPORARY] {DATABASE db | [TABLE|VIEW|DICTIONARY] [db.]t}} and
 * {@code SHOW CREATE [TABLE|VIEW|DICTIONARY] [db.]t},
 * each with an optional FORMAT, as ClickHouse's ParserTablePropertiesQuery does
 * (src/Parsers/ParserTablePropertiesQuery.cpp).
 */
final class ParserTablePropertiesQuery {
    private final TokenIterator pos;

    ParserTablePropertiesQuery(TokenIterator pos) {
        this.pos = pos;
    }

    /** After the EXISTS. */
    Statement exists() {
        pos.readIf("TEMPORARY");
        if (pos.readIf("DATABASE")) {
            String db = pos.identifier();
            String format = pos.trailingFormat();
            return pos.withFormat(new Statement.Exists(db, null), format);
        }
        if (pos.readIf("DICTIONARY")) {
            String[] n = pos.qualifiedName();
            return pos.withFormat(new Statement.ExistsDictionary(n[0], n[1]), pos.trailingFormat());
        }
        if (!pos.readIf("TABLE")) {
            pos.readIf("VIEW");
        }
        String[] n = pos.qualifiedName();
        String format = pos.trailingFormat();
        return pos.withFormat(new Statement.Exists(n[0], n[1]), format);
    }

    /** After the SHOW CREATE. */
    Statement showCreate() {
        if (pos.readIf("DICTIONARY")) {
            String[] n = pos.qualifiedName();
            return pos.withFormat(new Statement.ShowCreateDictionary(n[0], n[1]), pos.trailingFormat());
        }
        if (!pos.readIf("TABLE")) {
            pos.readIf("VIEW");
        }
        String[] n = pos.qualifiedName();
        return pos.withFormat(new Statement.ShowCreate(n[0], n[1]), pos.trailingFormat());
    }
}
