package dev.chdedup.stub.sql;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses {@code INSERT INTO [TABLE] [db.]t [(columns) | (*)] [SETTINGS ...]} followed by VALUES, FORMAT f, a SELECT, or
 * nothing (the data in the body in the default format), as ClickHouse's ParserInsertQuery does
 * (src/Parsers/ParserInsertQuery.cpp). Inline data is not parsed: the statement reports the offset where it starts.
 */
final class ParserInsertQuery {
    private final TokenIterator pos;
    private final ParserSelectQuery select;
    private final ParserSetQuery parserSettings;

    ParserInsertQuery(ParserExpression exp) {
        this.pos = exp.pos;
        this.select = exp.select;
        this.parserSettings = new ParserSetQuery(pos);
    }

    /** After the INSERT. */
    Statement parse() {
        pos.expect("INTO");
        pos.readIf("TABLE");
        String db = null;
        String table;
        if (pos.readIf("FUNCTION")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "INSERT INTO FUNCTION is not supported by the stub");
        }
        String[] n = pos.qualifiedName();
        db = n[0];
        table = n[1];
        List<String> cols = null;
        if (pos.readOp("(")) {
            cols = new ArrayList<>();
            if (pos.readOp("*")) {
                // (*): every column, as no list
                cols = null;
            } else if (!pos.tok.isOp(")")) {
                do {
                    cols.add(pos.identifier());
                } while (pos.readOp(",") && !pos.tok.isOp(")")); // a trailing comma is allowed, as in ClickHouse
            }
            pos.expectOp(")");
        }
        Map<String, String> settings = Map.of();
        if (pos.readIf("SETTINGS")) {
            settings = parserSettings.settingList();
        }
        if (pos.tok.is("VALUES")) {
            int offset = pos.tok.end();
            return new Statement.Insert(db, table, cols, settings, "Values", null, offset);
        }
        if (pos.readIf("FORMAT")) {
            String format = pos.tok.text();
            if (!pos.isIdent()) {
                throw pos.error("format name");
            }
            int p = pos.tok.end();
            // data starts after the first newline, or after all whitespace when there is none
            int q = p;
            while (q < pos.end && (pos.sql.charAt(q) == ' ' || pos.sql.charAt(q) == '\t' || pos.sql.charAt(q) == '\r')) {
                q++;
            }
            if (q < pos.end && pos.sql.charAt(q) == '\n') {
                q++;
            } else {
                q = p;
                while (q < pos.end && Character.isWhitespace(pos.sql.charAt(q))) {
                    q++;
                }
            }
            return new Statement.Insert(db, table, cols, settings, format, null, q);
        }
        if (pos.tok.is("SELECT") || pos.tok.is("WITH") || pos.tok.isOp("(")) {
            Query q = select.query();
            return new Statement.Insert(db, table, cols, settings, null, q, -1);
        }
        if (pos.tok.kind() == Token.Kind.EOF) {
            // INSERT INTO t with data in the body in the default format, as ClickHouse accepts over HTTP
            return new Statement.Insert(db, table, cols, settings, null, null, pos.end);
        }
        throw pos.error("VALUES, FORMAT or SELECT");
    }
}
