package dev.chdedup.stub.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@code SHOW DATABASES [LIKE 'pattern'] [LIMIT n]} and {@code SHOW TABLES [FROM|IN db] [LIKE 'pattern']
 * [LIMIT n]}, each with an optional FORMAT, as ClickHouse's ParserShowTablesQuery does
 * (src/Parsers/ParserShowTablesQuery.cpp), and the SHOW statements of access entities, as ParserShowAccessEntitiesQuery
 * and ParserShowGrantsQuery do: SHOW USERS, ROLES, CURRENT ROLES, ENABLED ROLES, [SETTINGS] PROFILES and QUOTAS are the
 * SELECTs ClickHouse rewrites them to (SHOW DICTIONARIES [FROM db] [LIKE 'p'] [LIMIT n] too), SHOW GRANTS [FOR ...] a
 * statement of its own. SHOW CREATE is
 * {@link ParserTablePropertiesQuery}'s.
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
        if (pos.readIf("DICTIONARIES")) {
            // as ClickHouse's InterpreterShowTablesQuery rewrites it
            String db = pos.readIf("FROM") || pos.readIf("IN") ? quote(pos.identifier()) : "currentDatabase()";
            String like = pos.readIf("LIKE") ? " AND name LIKE " + quote(pos.stringLiteral()) : "";
            long limit = showLimit();
            Query q = ((Statement.SelectStmt) new Parser("SELECT name FROM system.dictionaries WHERE database = " + db + like
                + " ORDER BY name" + (limit == Long.MAX_VALUE ? "" : " LIMIT " + limit)).parseStatement()).query();
            String format = pos.trailingFormat();
            return pos.withFormat(new Statement.SelectStmt(new Query(q.selects(), q.settings(), format)), format);
        }
        String rewritten = accessEntitiesQuery();
        if (rewritten != null) {
            Query q = ((Statement.SelectStmt) new Parser(rewritten).parseStatement()).query();
            String format = pos.trailingFormat();
            return pos.withFormat(new Statement.SelectStmt(new Query(q.selects(), q.settings(), format)), format);
        }
        if (pos.readIf("GRANTS")) {
            List<String> users = null;
            if (pos.readIf("FOR")) {
                users = new ArrayList<>();
                ParserAccessEntityQuery names = new ParserAccessEntityQuery(pos);
                do {
                    users.add(pos.readIf("CURRENT_USER") ? "CURRENT_USER" : names.accessName());
                } while (pos.readOp(","));
                users = List.copyOf(users);
            }
            String format = pos.trailingFormat();
            // the column is named as the statement is formatted, without its SHOW: FOR CURRENT_USER alone is not shown,
            // a FORMAT is
            String header = "GRANTS" + (users == null || users.equals(List.of("CURRENT_USER")) ? "" : " FOR " + String.join(", ", users))
                + (format == null ? "" : " FORMAT " + format);
            return pos.withFormat(new Statement.ShowGrants(users, header), format);
        }
        throw pos.error("DATABASES, TABLES or CREATE TABLE");
    }

    /**
     * SHOW USERS, ROLES, CURRENT ROLES, ENABLED ROLES, [SETTINGS] PROFILES or QUOTAS as the SELECT ClickHouse's
     * InterpreterShowAccessEntitiesQuery rewrites it to, or null (nothing read) for another SHOW.
     */
    private String accessEntitiesQuery() {
        if (pos.readIf("USERS")) {
            return "SELECT name FROM system.users ORDER BY name";
        }
        if (pos.readIf("ROLES")) {
            return "SELECT name FROM system.roles ORDER BY name";
        }
        if (pos.readIf("CURRENT", "ROLES")) {
            return "SELECT * FROM system.current_roles ORDER BY role_name";
        }
        if (pos.readIf("ENABLED", "ROLES")) {
            return "SELECT * FROM system.enabled_roles ORDER BY role_name";
        }
        if (pos.readIf("SETTINGS", "PROFILES") || pos.readIf("PROFILES")) {
            return "SELECT name FROM system.settings_profiles ORDER BY name";
        }
        if (pos.readIf("QUOTAS")) {
            return "SELECT name FROM system.quotas ORDER BY name";
        }
        return null;
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "\\'") + "'";
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
