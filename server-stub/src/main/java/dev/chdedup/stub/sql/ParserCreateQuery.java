package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses CREATE [OR REPLACE] of a TABLE (with its columns and the ENGINE, PARTITION BY, ORDER BY, PRIMARY KEY,
 * SETTINGS and COMMENT clauses, AS another table or AS SELECT), a TEMPORARY TABLE, a DATABASE, a VIEW or a
 * MATERIALIZED VIEW, each with ON CLUSTER, as ClickHouse's ParserCreateQuery does (src/Parsers/ParserCreateQuery.cpp,
 * with ParserCreateTableQuery, ParserCreateDatabaseQuery, ParserCreateViewQuery and ParserColumnDeclaration). CREATE
 * USER, ROLE and SETTINGS PROFILE go to {@link ParserAccessEntityQuery}. Indexes, projections, constraints and
 * column codecs are kept as text (in clauseSql, for SHOW CREATE and ALTER); TTL and SAMPLE BY are read and dropped.
 */
final class ParserCreateQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;
    private final ParserSelectQuery select;
    private final ParserSetQuery parserSettings;
    private final ParserAccessEntityQuery accessEntity;
    private final QueryWithOnCluster onCluster;

    /** The clauseSql key of a CREATE TABLE ... AS SELECT's query text. */
    static final String AS_SELECT = Statement.AS_SELECT;

    ParserCreateQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
        this.select = exp.select;
        this.parserSettings = new ParserSetQuery(pos);
        this.accessEntity = new ParserAccessEntityQuery(pos);
        this.onCluster = new QueryWithOnCluster(pos);
    }

    /** After the CREATE: the statement, wrapped when it named ON CLUSTER. */
    Statement parse() {
        return onCluster.wrap(create());
    }

    private Statement create() {
        boolean orReplace = pos.readIf("OR", "REPLACE");
        if (accessEntity.atAccessEntity()) {
            return accessEntity.parse("CREATE", orReplace);
        }
        boolean temporary = pos.readIf("TEMPORARY");
        if (!temporary && pos.readIf("DICTIONARY")) {
            return new ParserDictionary(exp).parse(orReplace, onCluster); // CREATE DICTIONARY: ParserCreateDictionaryQuery
        }
        if (pos.readIf("DATABASE")) {
            boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
            String name = pos.identifier();
            onCluster.parse();
            if (pos.readIf("ENGINE")) {
                pos.expectOp("=");
                pos.identifier();
                if (pos.readOp("(")) {
                    pos.skipBalanced();
                }
            }
            return new Statement.CreateDatabase(name, ine);
        }
        if (pos.readIf("MATERIALIZED")) {
            pos.expect("VIEW");
            return view(true);
        }
        if (pos.readIf("VIEW")) {
            return view(false);
        }
        if (!pos.readIf("TABLE")) {
            throw pos.error("TABLE, DATABASE, VIEW or MATERIALIZED VIEW");
        }
        boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
        int nameAt = pos.tok.pos();
        String[] n = pos.qualifiedName();
        if (!temporary && n[0] == null) {
            onCluster.unqualifiedNameAt = nameAt;
        }
        if (!temporary) {
            onCluster.parse();
        }
        if (temporary) {
            if (n[0] != null) {
                throw new ChException(ErrorCode.BAD_DATABASE_FOR_TEMPORARY_TABLE, "Temporary tables cannot be inside a database."
                    + " You should not specify a database for a temporary table.");
            }
            return new Statement.CreateTemporaryTable(tableBody(null, n[1], ine, orReplace, false));
        }
        return tableBody(n[0], n[1], ine, orReplace, true);
    }

    private Statement.CreateTable tableBody(String db, String table, boolean ine, boolean orReplace, boolean allowAsSelect) {
        List<Statement.ColumnDef> cols = new ArrayList<>();
        Map<String, String> elements = new LinkedHashMap<>();
        String asDb = null;
        String asTable = null;
        if (pos.readOp("(")) {
            do {
                if (pos.tok.is("INDEX") || pos.tok.is("PROJECTION") || pos.tok.is("CONSTRAINT")) {
                    String kind = pos.tok.text().toUpperCase(Locale.ROOT);
                    pos.advance();
                    String name = pos.identifier();
                    elements.put(kind + " " + name, elementDefinition());
                    continue;
                }
                if (pos.tok.is("PRIMARY") ) {
                    throw new ChException(ErrorCode.NOT_IMPLEMENTED, "PRIMARY KEY inside the column list is not supported; use the PRIMARY KEY clause");
                }
                cols.add(columnDef());
            } while (pos.readOp(",") && !pos.tok.isOp(")")); // a trailing comma is allowed, as in ClickHouse
            pos.expectOp(")");
        } else if (pos.readIf("AS")) {
            int st = pos.tok.pos();
            String[] n = pos.qualifiedName();
            if (n[0] == null && pos.readOp("(")) { // AS table_function(args): a table reading the table function
                if (!pos.tok.isOp(")")) {
                    exp.exprList();
                }
                pos.expectOp(")");
                elements.put(Statement.AS_TABLE_FUNCTION, pos.sql.substring(st, pos.prev.end()));
            } else {
                asDb = n[0];
                asTable = n[1];
            }
        }
        String engine = null;
        List<Expr> engineArgs = List.of();
        Expr partitionBy = null;
        Expr orderBy = null;
        Expr primaryKey = null;
        Map<String, String> settings = new LinkedHashMap<>();
        Map<String, String> clauseSql = new LinkedHashMap<>();
        while (true) {
            if (pos.readIf("ENGINE")) {
                pos.readOp("=");
                engine = pos.identifier();
                int st = pos.tok.pos();
                if (pos.readOp("(")) {
                    engineArgs = pos.tok.isOp(")") ? List.of() : exp.exprList();
                    pos.expectOp(")");
                    clauseSql.put("ENGINE", engine + pos.sql.substring(st, pos.prev.end()));
                } else {
                    clauseSql.put("ENGINE", engine);
                }
            } else if (pos.readIf("PARTITION")) {
                pos.expect("BY");
                int st = pos.tok.pos();
                partitionBy = exp.expr();
                clauseSql.put("PARTITION BY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("ORDER")) {
                pos.expect("BY");
                int st = pos.tok.pos();
                orderBy = exp.expr();
                clauseSql.put("ORDER BY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("PRIMARY")) {
                pos.expect("KEY");
                int st = pos.tok.pos();
                primaryKey = exp.expr();
                clauseSql.put("PRIMARY KEY", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("SAMPLE")) {
                pos.expect("BY");
                exp.expr();
            } else if (pos.readIf("TTL")) {
                int st = pos.tok.pos();
                ttlList();
                clauseSql.put("TTL", pos.sql.substring(st, pos.prev.end()));
            } else if (pos.readIf("SETTINGS")) {
                settings.putAll(parserSettings.settingList());
            } else if (pos.readIf("COMMENT")) {
                clauseSql.put("COMMENT", pos.stringLiteral());
            } else {
                break;
            }
        }
        clauseSql.putAll(elements);
        for (Statement.ColumnDef c : cols) {
            if (c.comment() != null) {
                clauseSql.put(Statement.COLUMN_COMMENT + c.name(), c.comment());
            }
            if (c.codec() != null) {
                clauseSql.put(Statement.COLUMN_CODEC + c.name(), c.codec());
            }
            if (c.ttl() != null) {
                clauseSql.put(Statement.COLUMN_TTL + c.name(), c.ttl());
            }
        }
        Query asSelect = null;
        if (allowAsSelect && pos.readIf("AS")) {
            int st = pos.tok.pos();
            asSelect = select.query();
            clauseSql.put(AS_SELECT, pos.sql.substring(st, pos.prev.end()));
        }
        return new Statement.CreateTable(db, table, ine, orReplace, cols, engine, engineArgs, partitionBy, orderBy,
            primaryKey, settings, clauseSql, asDb, asTable, asSelect);
    }

    /**
     * A TTL clause's rules: {@code expr [DELETE | TO DISK 'd' | TO VOLUME 'v' | RECOMPRESS CODEC(...) | GROUP BY ...]
     * [WHERE cond]}, separated by commas.
     */
    List<Statement.TtlElement> ttlList() {
        List<Statement.TtlElement> out = new ArrayList<>();
        do {
            Expr e = exp.expr();
            String action = "DELETE";
            if (pos.readIf("DELETE")) {
                action = "DELETE";
            } else if (pos.readIf("TO")) {
                action = "TO " + pos.tok.text().toUpperCase(Locale.ROOT);
                pos.advance();
                pos.stringLiteral();
            } else if (pos.readIf("RECOMPRESS")) {
                action = "RECOMPRESS";
                pos.expect("CODEC");
                pos.expectOp("(");
                pos.skipBalanced();
            } else if (pos.tok.is("GROUP")) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "TTL ... GROUP BY is not supported by the stub");
            }
            Expr where = pos.readIf("WHERE") ? exp.expr() : null;
            out.add(new Statement.TtlElement(e, action, where));
        } while (pos.readOp(","));
        return out;
    }

    /**
     * The text of an INDEX, PROJECTION or CONSTRAINT after its name, up to the ',' or ')' that ends it (or, in an
     * ALTER, FIRST, AFTER or the end), as the statement wrote it.
     */
    String elementDefinition() {
        int st = pos.tok.pos();
        while (!pos.tok.isOp(",") && !pos.tok.isOp(")") && pos.tok.kind() != Token.Kind.EOF && !pos.tok.is("AFTER")
            && !pos.tok.is("FIRST") && !pos.tok.is("SETTINGS")) {
            if (pos.readOp("(")) {
                pos.skipBalanced();
            } else {
                pos.advance();
            }
        }
        if (pos.prev == null || pos.prev.end() <= st) {
            throw pos.error("definition");
        }
        return pos.sql.substring(st, pos.prev.end());
    }

    private Statement.ColumnDef columnDef() {
        return columnDef(false);
    }

    /** A column declaration; {@code partial} (MODIFY COLUMN) allows one with neither a type nor a default. */
    Statement.ColumnDef columnDef(boolean partial) {
        String name = pos.identifier();
        String type = null;
        if (!(pos.tok.is("DEFAULT") || pos.tok.is("MATERIALIZED") || pos.tok.is("ALIAS") || pos.tok.is("EPHEMERAL"))
            && !(partial && (pos.tok.is("COMMENT") || pos.tok.is("CODEC") || pos.tok.is("TTL") || pos.tok.is("REMOVE")
                || pos.tok.is("FIRST") || pos.tok.is("AFTER") || pos.tok.isOp(",") || pos.tok.kind() == Token.Kind.EOF
                || pos.tok.is("SETTINGS")))) {
            type = pos.typeText();
            if (pos.readIf("NOT")) {
                pos.expect("NULL");
            } else if (pos.readIf("NULL")) {
                type = "Nullable(" + type + ")";
            }
        }
        String kind = null;
        Expr def = null;
        String defSql = null;
        if (pos.tok.is("DEFAULT") || pos.tok.is("MATERIALIZED") || pos.tok.is("ALIAS") || pos.tok.is("EPHEMERAL")) {
            kind = pos.tok.text().toUpperCase(Locale.ROOT);
            pos.advance();
            if (!(kind.equals("EPHEMERAL") && (pos.tok.isOp(",") || pos.tok.isOp(")")))) {
                int st = pos.tok.pos();
                def = exp.expr();
                defSql = pos.sql.substring(st, pos.prev.end());
            }
        }
        String comment = null;
        String codec = null;
        String ttl = null;
        while (true) {
            if (pos.tok.is("CODEC")) {
                int st = pos.tok.pos();
                pos.advance();
                pos.expectOp("(");
                pos.skipBalanced();
                codec = pos.sql.substring(st, pos.prev.end());
            } else if (pos.readIf("TTL")) {
                int st = pos.tok.pos();
                exp.expr();
                ttl = pos.sql.substring(st, pos.prev.end());
            } else if (pos.readIf("COMMENT")) {
                comment = pos.tok.text();
                pos.advance();
            } else {
                break;
            }
        }
        if (type == null && def == null && !partial) {
            throw pos.error("column type");
        }
        return new Statement.ColumnDef(name, type, kind, def, defSql, comment, codec, ttl);
    }

    private Statement view(boolean materialized) {
        boolean ine = pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
        String[] n = pos.qualifiedName();
        String toDb = null;
        String toTable = null;
        Statement.CreateTable inner = null;
        if (pos.readIf("TO")) {
            String[] t = pos.qualifiedName();
            toDb = t[0];
            toTable = t[1];
        }
        if (toTable == null && (pos.tok.isOp("(") || pos.tok.is("ENGINE"))) {
            inner = tableBody(n[0], n[1], false, false, false);
        } else if (toTable != null && pos.tok.isOp("(")) {
            tableBody(n[0], n[1], false, false, false); // TO t (columns): the view's columns, which are its target's
        }
        boolean populate = pos.readIf("POPULATE");
        viewSecurity();
        pos.expect("AS");
        int st = pos.tok.pos();
        Query q = select.query();
        return new Statement.CreateView(n[0], n[1], ine, materialized, toDb, toTable, inner, populate, q,
            pos.sql.substring(st, pos.prev.end()));
    }

    /**
     * A view's {@code DEFINER = user | CURRENT_USER} and {@code SQL SECURITY DEFINER | INVOKER | NONE}, in either order
     * (ClickHouse's ParserSQLSecurity); the stub has one user's rights, so they are read and not kept.
     */
    private void viewSecurity() {
        while (true) {
            if (pos.readIf("DEFINER")) {
                pos.expectOp("=");
                pos.identifier();
            } else if (pos.readIf("SQL", "SECURITY")) {
                if (!pos.readIf("DEFINER") && !pos.readIf("INVOKER") && !pos.readIf("NONE")) {
                    throw pos.error("DEFINER, INVOKER or NONE");
                }
            } else {
                return;
            }
        }
    }
}
