package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;

/**
 * Parses DROP DATABASE, DROP [TEMPORARY] TABLE, DROP VIEW and DROP DICTIONARY, each with IF EXISTS, ON CLUSTER and SYNC, and
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

    /** After the DETACH: DETACH TABLE|VIEW [IF EXISTS] [db.]t [ON CLUSTER c] [PERMANENTLY] [SYNC]. */
    Statement detach() {
        if (pos.readIf("DICTIONARY")) {
            boolean ie = pos.readIf("IF", "EXISTS");
            String[] n = pos.qualifiedName();
            onCluster.parse();
            boolean permanently = pos.readIf("PERMANENTLY");
            pos.readIf("SYNC");
            return onCluster.wrap(new Statement.DetachDictionary(n[0], n[1], ie, permanently));
        }
        if (pos.readIf("DATABASE")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "DETACH of a database is not supported by the stub");
        }
        if (!pos.readIf("VIEW")) {
            pos.readIf("TABLE");
        }
        boolean ie = pos.readIf("IF", "EXISTS");
        String[] n = onCluster.tableName();
        boolean permanently = pos.readIf("PERMANENTLY");
        pos.readIf("SYNC");
        return onCluster.wrap(new Statement.DetachTable(n[0], n[1], ie, permanently));
    }

    /** After the ATTACH: the short form ATTACH TABLE [IF NOT EXISTS] [db.]t, which reads the table's metadata again. */
    Statement attach() {
        if (pos.readIf("DICTIONARY")) {
            boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
            String[] n = pos.qualifiedName();
            onCluster.parse();
            return onCluster.wrap(new Statement.AttachDictionary(n[0], n[1], ine));
        }
        if (!pos.readIf("VIEW")) {
            pos.readIf("TABLE");
        }
        boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
        String[] n = onCluster.tableName();
        if (pos.tok.isOp("(") || pos.tok.is("AS") || pos.tok.is("FROM") || pos.tok.is("ENGINE") || pos.tok.is("UUID")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ATTACH TABLE with a definition is not supported by the stub: ATTACH TABLE name"
                + " attaches a detached table");
        }
        return onCluster.wrap(new Statement.AttachTable(n[0], n[1], ine));
    }

    /** After the RENAME: RENAME TABLE a TO b [, c TO d] [ON CLUSTER c]. */
    Statement rename() {
        if (pos.readIf("DATABASE") || pos.readIf("DICTIONARY")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "RENAME of a database or dictionary is not supported by the stub");
        }
        pos.expect("TABLE");
        java.util.List<String[]> renames = new java.util.ArrayList<>();
        do {
            String[] from = pos.qualifiedName();
            pos.expect("TO");
            String[] to = pos.qualifiedName();
            renames.add(new String[] {from[0], from[1], to[0], to[1]});
        } while (pos.readOp(","));
        onCluster.parse();
        return onCluster.wrap(new Statement.RenameTables(renames));
    }

    /** After the EXCHANGE: EXCHANGE TABLES a AND b [ON CLUSTER c]. */
    Statement exchange() {
        pos.expect("TABLES");
        String[] a = pos.qualifiedName();
        pos.expect("AND");
        String[] b = pos.qualifiedName();
        onCluster.parse();
        return onCluster.wrap(new Statement.ExchangeTables(a[0], a[1], b[0], b[1]));
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
            boolean ie = pos.readIf("IF", "EXISTS");
            String[] n = pos.qualifiedName();
            onCluster.parse();
            pos.readIf("SYNC");
            return new Statement.DropDictionary(n[0], n[1], ie);
        } else {
            pos.readIf("TEMPORARY");
            pos.expect("TABLE");
        }
        boolean ie = pos.readIf("IF", "EXISTS");
        String[] n = onCluster.tableName();
        boolean sync = pos.readIf("SYNC");
        return new Statement.DropTable(n[0], n[1], ie, view, sync);
    }
}
