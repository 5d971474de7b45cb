package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code ALTER TABLE [db.]t} with a comma-separated list of the commands the stub supports (ADD, DROP, MODIFY,
 * RENAME, CLEAR and COMMENT COLUMN; ADD, DROP, MATERIALIZE and CLEAR of an INDEX, PROJECTION or CONSTRAINT; MODIFY
 * ORDER BY, MODIFY COMMENT, MODIFY TTL, REMOVE TTL, MATERIALIZE TTL, MODIFY SETTING, RESET SETTING, DROP PARTITION [ID], DROP PART, DELETE WHERE, UPDATE ...
 * WHERE) and the statement's SETTINGS, as
 * ClickHouse's ParserAlterQuery does with ParserAlterCommand (src/Parsers/ParserAlterQuery.cpp). Any other command is
 * NOT_IMPLEMENTED. ALTER USER, ROLE and SETTINGS PROFILE go to {@link ParserAccessEntityQuery}.
 */
final class ParserAlterQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;
    private final ParserSetQuery parserSettings;
    private final ParserAccessEntityQuery accessEntity;
    private final ParserCreateQuery create;

    ParserAlterQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
        this.parserSettings = new ParserSetQuery(pos);
        this.accessEntity = new ParserAccessEntityQuery(pos);
        this.create = new ParserCreateQuery(exp);
    }

    /** After the ALTER. */
    Statement parse() {
        if (accessEntity.atAccessEntity()) {
            return accessEntity.parse("ALTER", false);
        }
        pos.expect("TABLE");
        QueryWithOnCluster onCluster = new QueryWithOnCluster(pos);
        String[] n = onCluster.tableName();
        List<Statement.AlterCommand> cmds = new ArrayList<>();
        do {
            int st = pos.tok.pos();
            if (pos.readIf("ADD")) {
                if (pos.readIf("COLUMN")) {
                    boolean ine = ifNotExists();
                    Statement.ColumnDef c = create.columnDef(false);
                    cmds.add(new Statement.AddColumn(c, ine, position()));
                } else if (atTableElement()) {
                    String kind = pos.tok.text().toUpperCase(java.util.Locale.ROOT);
                    pos.advance();
                    boolean ine = ifNotExists();
                    String name = pos.identifier();
                    String definition = create.elementDefinition();
                    cmds.add(new Statement.AddTableElement(kind, name, definition, ine, position()));
                } else {
                    throw pos.error("COLUMN, INDEX, PROJECTION or CONSTRAINT");
                }
            } else if (pos.readIf("MODIFY")) {
                if (pos.readIf("SETTING")) {
                    cmds.add(new Statement.ModifySetting(parserSettings.settingList()));
                } else if (pos.readIf("COLUMN")) {
                    boolean ie = ifExists();
                    Statement.ColumnDef c = create.columnDef(true);
                    String remove = null;
                    if (pos.readIf("REMOVE")) {
                        remove = pos.tok.text().toUpperCase(java.util.Locale.ROOT);
                        if (!List.of("DEFAULT", "MATERIALIZED", "ALIAS", "COMMENT", "CODEC", "TTL").contains(remove)) {
                            throw pos.error("DEFAULT, MATERIALIZED, ALIAS, COMMENT, CODEC or TTL");
                        }
                        pos.advance();
                    }
                    String after = position();
                    cmds.add(new Statement.ModifyColumn(c, ie, after, remove, pos.sql.substring(st, pos.prev.end())));
                } else if (pos.readIf("COMMENT")) {
                    cmds.add(new Statement.ModifyComment(pos.stringLiteral()));
                } else if (pos.readIf("TTL")) {
                    int tt = pos.tok.pos();
                    create.ttlList();
                    cmds.add(new Statement.ModifyTtl(pos.sql.substring(tt, pos.prev.end())));
                } else if (pos.readIf("ORDER")) {
                    pos.expect("BY");
                    int ob = pos.tok.pos();
                    Expr e = exp.expr();
                    cmds.add(new Statement.ModifyOrderBy(e, pos.sql.substring(ob, pos.prev.end())));
                } else {
                    throw unsupported(st);
                }
            } else if (pos.readIf("RENAME")) {
                pos.expect("COLUMN");
                boolean ie = ifExists();
                String from = pos.identifier();
                pos.expect("TO");
                cmds.add(new Statement.RenameColumn(from, pos.identifier(), ie));
            } else if (pos.readIf("CLEAR")) {
                if (pos.readIf("COLUMN")) {
                    boolean ie = ifExists();
                    String name = pos.identifier();
                    Expr partition = pos.readIf("IN", "PARTITION") ? exp.expr() : null;
                    cmds.add(new Statement.ClearColumn(name, ie, partition, pos.sql.substring(st, pos.prev.end())));
                } else if (atTableElement()) {
                    cmds.add(elementCommand("CLEAR"));
                } else {
                    throw pos.error("COLUMN, INDEX or PROJECTION");
                }
            } else if (pos.readIf("MATERIALIZE")) {
                if (pos.readIf("TTL")) {
                    if (pos.readIf("IN", "PARTITION")) {
                        exp.expr();
                    }
                    cmds.add(new Statement.MaterializeTtl());
                } else if (!atTableElement()) {
                    throw unsupported(st);
                } else {
                    cmds.add(elementCommand("MATERIALIZE"));
                }
            } else if (pos.readIf("COMMENT")) {
                pos.expect("COLUMN");
                boolean ie = ifExists();
                String name = pos.identifier();
                cmds.add(new Statement.CommentColumn(name, pos.stringLiteral(), ie));
            } else if (pos.tok.is("REMOVE") && Lexer.next(pos.sql, pos.tok.end(), pos.end, pos.tok).is("TTL")) {
                pos.advance();
                pos.advance();
                cmds.add(new Statement.RemoveTtl());
            } else if (pos.tok.is("DETACH") || pos.tok.is("ATTACH") || pos.tok.is("REPLACE") || pos.tok.is("MOVE") || pos.tok.is("FREEZE")) {
                cmds.add(partitionCommand());
            } else if (pos.readIf("RESET")) {
                pos.expect("SETTING");
                List<String> names = new ArrayList<>();
                do {
                    names.add(pos.identifier());
                } while (pos.readOp(","));
                cmds.add(new Statement.ResetSetting(names));
            } else if (pos.readIf("DROP")) {
                if (pos.readIf("COLUMN")) {
                    boolean ie = ifExists();
                    cmds.add(new Statement.DropColumn(pos.identifier(), ie));
                } else if (atTableElement()) {
                    cmds.add(elementCommand("DROP"));
                } else if (pos.readIf("PARTITION")) {
                    if (pos.readIf("ID")) {
                        cmds.add(new Statement.DropPartition(null, pos.stringLiteral()));
                    } else {
                        cmds.add(new Statement.DropPartition(exp.expr(), null));
                    }
                } else if (pos.readIf("PART")) {
                    cmds.add(new Statement.DropPart(pos.stringLiteral()));
                } else {
                    throw pos.error("COLUMN, INDEX, PROJECTION, CONSTRAINT, PARTITION or PART");
                }
            } else if (pos.tok.is("DELETE")) {
                pos.advance();
                pos.expect("WHERE");
                Expr where = exp.expr();
                cmds.add(new Statement.MutateDelete(where, pos.sql.substring(st, pos.prev.end())));
            } else if (pos.tok.is("UPDATE")) {
                pos.advance();
                Map<String, Expr> assignments = new LinkedHashMap<>();
                do {
                    String col = pos.identifier();
                    pos.expectOp("=");
                    assignments.put(col, exp.expr());
                } while (pos.readOp(",") && !pos.tok.is("WHERE"));
                pos.expect("WHERE");
                Expr where = exp.expr();
                cmds.add(new Statement.MutateUpdate(assignments, where, pos.sql.substring(st, pos.prev.end())));
            } else {
                throw unsupported(st);
            }
        } while (pos.readOp(","));
        // ALTER TABLE t DELETE WHERE ... SETTINGS mutations_sync = 2: the settings apply to this statement
        return onCluster.wrap(new Statement.Alter(n[0], n[1], cmds, pos.readIf("SETTINGS") ? parserSettings.settingList() : Map.of()));
    }

    private boolean ifNotExists() {
        return pos.readIf("IF", "NOT") && pos.expectThen("EXISTS");
    }

    private boolean ifExists() {
        return pos.readIf("IF", "EXISTS");
    }

    private boolean atTableElement() {
        return pos.tok.is("INDEX") || pos.tok.is("PROJECTION") || pos.tok.is("CONSTRAINT");
    }

    /** DROP, CLEAR or MATERIALIZE of an INDEX, PROJECTION or CONSTRAINT [IF EXISTS] name [IN PARTITION p]. */
    private Statement.TableElementCommand elementCommand(String action) {
        String kind = pos.tok.text().toUpperCase(java.util.Locale.ROOT);
        pos.advance();
        boolean ie = ifExists();
        String name = pos.identifier();
        if (pos.readIf("IN", "PARTITION")) {
            exp.expr();
        }
        return new Statement.TableElementCommand(action, kind, name, ie);
    }

    /**
     * {@code DETACH|ATTACH PARTITION p | PART 'name'}, {@code REPLACE PARTITION p FROM t}, {@code MOVE PARTITION p TO
     * TABLE t}, {@code FREEZE [PARTITION p] [WITH NAME 'n']}.
     */
    private Statement.PartitionCommand partitionCommand() {
        String action = pos.tok.text().toUpperCase(java.util.Locale.ROOT);
        pos.advance();
        Expr partition = null;
        String id = null;
        String part = null;
        if (pos.readIf("PARTITION")) {
            if (pos.readIf("ID")) {
                id = pos.stringLiteral();
            } else {
                partition = exp.expr();
            }
        } else if ((action.equals("DETACH") || action.equals("ATTACH")) && pos.readIf("PART")) {
            part = pos.stringLiteral();
        } else if (!action.equals("FREEZE")) {
            throw pos.error("PARTITION" + (action.equals("DETACH") || action.equals("ATTACH") ? " or PART" : ""));
        }
        String[] other = {null, null};
        if (action.equals("REPLACE") || action.equals("ATTACH") && part == null && pos.tok.is("FROM")) {
            pos.expect("FROM");
            other = pos.qualifiedName();
            action = "REPLACE".equals(action) ? action : "ATTACH FROM";
        } else if (action.equals("MOVE")) {
            pos.expect("TO");
            pos.expect("TABLE");
            other = pos.qualifiedName();
        } else if (action.equals("FREEZE") && pos.readIf("WITH")) {
            pos.expect("NAME");
            pos.stringLiteral();
        }
        return new Statement.PartitionCommand(action, partition, id, part, other[0], other[1]);
    }

    /** FIRST, AFTER name, or nothing: "" for FIRST, the name, or null. */
    private String position() {
        if (pos.readIf("FIRST")) {
            return "";
        }
        return pos.readIf("AFTER") ? pos.identifier() : null;
    }

    private ChException unsupported(int at) {
        return new ChException(ErrorCode.NOT_IMPLEMENTED, "ALTER command at position " + (at + 1) + " is not supported by the stub:"
            + " supported are ADD, DROP, MODIFY, RENAME, CLEAR and COMMENT COLUMN, ADD, DROP, MATERIALIZE and CLEAR INDEX,"
            + " PROJECTION and CONSTRAINT, MODIFY ORDER BY, MODIFY COMMENT, MODIFY, REMOVE and MATERIALIZE TTL, MODIFY SETTING,"
            + " RESET SETTING, DROP PARTITION,"
            + " DROP PART, DELETE, UPDATE");
    }

}
