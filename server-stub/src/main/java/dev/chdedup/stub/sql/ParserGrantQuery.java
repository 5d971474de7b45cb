package dev.chdedup.stub.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses GRANT and REVOKE of privileges ON a target, or of roles, TO or FROM users and roles, as ClickHouse's
 * ParserGrantQuery does (src/Parsers/Access/ParserGrantQuery.cpp). The privileges and the target are kept as text.
 */
final class ParserGrantQuery {
    private final TokenIterator pos;
    /** For the user and role names, which GRANT writes as the access statements do. */
    private final ParserAccessEntityQuery accessEntity;

    ParserGrantQuery(TokenIterator pos) {
        this.pos = pos;
        this.accessEntity = new ParserAccessEntityQuery(pos);
    }

    /** GRANT / REVOKE of privileges ON a target, or of roles, TO / FROM users and roles. */
    Statement parse() {
        boolean revoke = pos.tok.is("REVOKE");
        pos.advance();
        if (pos.readIf("ON", "CLUSTER")) {
            accessEntity.accessName();
        }
        if (revoke && (pos.readIf("ADMIN", "OPTION") || pos.readIf("GRANT", "OPTION"))) {
            pos.expect("FOR");
        }
        String to = revoke ? "FROM" : "TO";
        int start = pos.tok.pos();
        int depth = 0;
        // the names as tokens (a quoted role name may hold a comma); null once an item is not a single name
        List<String> names = new ArrayList<>();
        boolean nameExpected = true;
        while (pos.tok.kind() != Token.Kind.EOF && !(depth == 0 && (pos.tok.is("ON") || pos.tok.is(to)))) {
            depth += pos.tok.isOp("(") ? 1 : pos.tok.isOp(")") ? -1 : 0;
            if (names != null && depth == 0 && pos.tok.isOp(",") && !nameExpected) {
                nameExpected = true;
            } else if (names != null && nameExpected && isName(pos.tok)) {
                names.add(pos.tok.text());
                nameExpected = false;
            } else {
                names = null;
            }
            pos.advance();
        }
        if (pos.tok.kind() == Token.Kind.EOF || pos.tok.pos() == start) {
            throw pos.error(pos.tok.pos() == start ? "privilege or role" : "ON or " + to);
        }
        String what = pos.sql.substring(start, pos.prev.end()).strip();
        String on = null;
        if (pos.readIf("ON")) {
            int onStart = pos.tok.pos();
            while (pos.tok.kind() != Token.Kind.EOF && !pos.tok.is(to)) {
                pos.advance();
            }
            if (pos.tok.kind() == Token.Kind.EOF || pos.tok.pos() == onStart) {
                throw pos.error(pos.tok.pos() == onStart ? "database and table" : to);
            }
            on = pos.sql.substring(onStart, pos.prev.end()).replace(" ", "");
        }
        pos.expect(to);
        List<String> grantees = accessEntity.granteeList();
        while (pos.readIf("WITH")) {
            if (!(pos.readIf("GRANT") || pos.readIf("ADMIN") || pos.readIf("REPLACE"))) {
                throw pos.error("GRANT, ADMIN or REPLACE");
            }
            pos.expect("OPTION");
        }
        if (on == null && (names == null || nameExpected)) {
            throw pos.error("ON");
        }
        return new Statement.Grant(revoke, on == null ? null : what, on, on == null ? List.copyOf(names) : null, grantees);
    }

    /** A role name: an identifier, quoted or not, or a string literal. */
    private static boolean isName(Token t) {
        return t.kind() == Token.Kind.IDENT || t.kind() == Token.Kind.QUOTED_IDENT || t.kind() == Token.Kind.STRING;
    }
}
