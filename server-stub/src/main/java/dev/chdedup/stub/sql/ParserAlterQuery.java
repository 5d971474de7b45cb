package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code ALTER TABLE [db.]t} with a comma-separated list of the commands the stub supports (MODIFY SETTING,
 * RESET SETTING, DROP PARTITION [ID], DROP PART, DELETE WHERE, UPDATE ... WHERE) and the statement's SETTINGS, as
 * ClickHouse's ParserAlterQuery does with ParserAlterCommand (src/Parsers/ParserAlterQuery.cpp). Any other command is
 * NOT_IMPLEMENTED. ALTER USER, ROLE and SETTINGS PROFILE go to {@link ParserAccessEntityQuery}.
 */
final class ParserAlterQuery {
    private final TokenIterator pos;
    private final ParserExpression exp;
    private final ParserSetQuery parserSettings;
    private final ParserAccessEntityQuery accessEntity;

    ParserAlterQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.exp = exp;
        this.parserSettings = new ParserSetQuery(pos);
        this.accessEntity = new ParserAccessEntityQuery(pos);
    }

    /** After the ALTER. */
    Statement parse() {
        if (accessEntity.atAccessEntity()) {
            return accessEntity.parse("ALTER", false);
        }
        pos.expect("TABLE");
        String[] n = pos.qualifiedName();
        List<Statement.AlterCommand> cmds = new ArrayList<>();
        do {
            if (pos.readIf("MODIFY")) {
                pos.expect("SETTING");
                cmds.add(new Statement.ModifySetting(parserSettings.settingList()));
            } else if (pos.readIf("RESET")) {
                pos.expect("SETTING");
                List<String> names = new ArrayList<>();
                do {
                    names.add(pos.identifier());
                } while (pos.readOp(","));
                cmds.add(new Statement.ResetSetting(names));
            } else if (pos.readIf("DROP")) {
                if (pos.readIf("PARTITION")) {
                    if (pos.readIf("ID")) {
                        cmds.add(new Statement.DropPartition(null, pos.stringLiteral()));
                    } else {
                        cmds.add(new Statement.DropPartition(exp.expr(), null));
                    }
                } else if (pos.readIf("PART")) {
                    cmds.add(new Statement.DropPart(pos.stringLiteral()));
                } else {
                    throw pos.error("PARTITION or PART");
                }
            } else if (pos.tok.is("DELETE")) {
                int st = pos.tok.pos();
                pos.advance();
                pos.expect("WHERE");
                Expr where = exp.expr();
                cmds.add(new Statement.MutateDelete(where, pos.sql.substring(st, pos.prev.end())));
            } else if (pos.tok.is("UPDATE")) {
                int st = pos.tok.pos();
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
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "ALTER command at position " + (pos.tok.pos() + 1)
                    + " is not supported by the stub: supported are MODIFY SETTING, RESET SETTING, DROP PARTITION, DROP PART,"
                    + " DELETE, UPDATE");
            }
        } while (pos.readOp(","));
        // ALTER TABLE t DELETE WHERE ... SETTINGS mutations_sync = 2: the settings apply to this statement
        return new Statement.Alter(n[0], n[1], cmds, pos.readIf("SETTINGS") ? parserSettings.settingList() : Map.of());
    }
}
