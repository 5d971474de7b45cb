package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;

/**
 * Parses DROP DATABASE, DROP [TEMPORARY] TABLE and DROP VIEW, each with IF EXISTS, ON CLUSTER and SYNC, and
 * TRUNCATE [TABLE], as ClickHouse's ParserDropQuery does for both (src/Parsers/ParserDropQuery.cpp). DROP USER, ROLE
 * and SETTINGS PROFILE go to {@link ParserAccessEntityQuery}.
 */
final class ParserDropQuery {
    private final TokenIterator pos;
    private final ParserAccessEntityQuery accessEntity;
    private final QueryWithOnCluster onCluster;

    ParserDropQuery(TokenIterator pos) {
        this.pos = pos;
        this.accessEntity = new ParserAccessEntityQuery(pos);
        this.onCluster = new QueryWithOnCluster(pos);
    }

    /** After the DROP: the statement, wrapped when it named ON CLUSTER. */
    Statement parse() {
        return onCluster.wrap(drop());
    }

    /** After the TRUNCATE. */
    Statement truncate() {
        pos.readIf("TABLE");
        boolean ifExists = pos.readIf("IF", "EXISTS");
        String[] n = pos.qualifiedName();
        return new Statement.Truncate(n[0], n[1], ifExists);
    }

    private Statement drop() {
        if (accessEntity.atAccessEntity()) {
            return accessEntity.parse("DROP", false);
        }
        if (pos.readIf("DATABASE")) {
            boolean ie = pos.readIf("IF", "EXISTS");
            String name = pos.identifier();
            onCluster.parse();
            pos.readIf("SYNC");
            return new Statement.DropDatabase(name, ie);
        }
        boolean view = false;
        if (pos.readIf("VIEW")) {
            view = true;
        } else if (pos.readIf("DICTIONARY")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Dictionaries are not supported by the stub");
        } else {
            pos.readIf("TEMPORARY");
            pos.expect("TABLE");
        }
        boolean ie = pos.readIf("IF", "EXISTS");
        int nameAt = pos.tok.pos();
        String[] n = pos.qualifiedName();
        if (n[0] == null) {
            onCluster.unqualifiedNameAt = nameAt;
        }
        onCluster.parse();
        boolean sync = pos.readIf("SYNC");
        return new Statement.DropTable(n[0], n[1], ie, view, sync);
    }
}
