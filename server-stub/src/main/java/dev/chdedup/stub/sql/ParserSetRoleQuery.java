package dev.chdedup.stub.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code SET ROLE {DEFAULT | NONE | ALL [EXCEPT r, ...] | r, ...}} and {@code SET DEFAULT ROLE {NONE | ALL
 * [EXCEPT r, ...] | r, ...} TO {u | CURRENT_USER}, ...}, after the SET, as ClickHouse's ParserSetRoleQuery does
 * (src/Parsers/Access/ParserSetRoleQuery.cpp).
 */
final class ParserSetRoleQuery {
    private final TokenIterator pos;
    private final ParserAccessEntityQuery names;

    ParserSetRoleQuery(TokenIterator pos) {
        this.pos = pos;
        this.names = new ParserAccessEntityQuery(pos);
    }

    Statement parse() {
        boolean defaultRole = pos.readIf("DEFAULT");
        pos.expect("ROLE");
        Statement.SetRole roles;
        if (!defaultRole && pos.readIf("DEFAULT")) {
            roles = new Statement.SetRole("DEFAULT", List.of(), List.of(), null);
        } else if (pos.readIf("NONE")) {
            roles = new Statement.SetRole("NONE", List.of(), List.of(), null);
        } else if (pos.readIf("ALL")) {
            roles = new Statement.SetRole("ALL", List.of(), pos.readIf("EXCEPT") ? nameList() : List.of(), null);
        } else {
            roles = new Statement.SetRole("LIST", nameList(), List.of(), null);
        }
        if (!defaultRole) {
            return roles;
        }
        pos.expect("TO");
        List<String> to = new ArrayList<>();
        do {
            if (pos.readIf("CURRENT_USER")) {
                to.add("CURRENT_USER");
            } else {
                to.add(names.accessName());
            }
        } while (pos.readOp(","));
        return new Statement.SetRole(roles.mode(), roles.roles(), roles.except(), List.copyOf(to));
    }

    private List<String> nameList() {
        List<String> out = new ArrayList<>();
        do {
            out.add(names.accessName());
        } while (pos.readOp(","));
        return List.copyOf(out);
    }
}
