package dev.chdedup.stub.sql;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Parses {@code SYSTEM action [[db.]t]}, as ClickHouse's ParserSystemQuery does (src/Parsers/ParserSystemQuery.cpp):
 * the action is the words that follow, up to ON or a word that ends an action (MERGES, REPLICA, LOGS, ...), kept as
 * text for the executor to match. {@code SYSTEM ENABLE FAILPOINT name} takes the stub's options FOR n INSERTS,
 * ON TABLE [db.]t, CODE n and DELAY ms.
 */
final class ParserSystemQuery {
    private final TokenIterator pos;

    ParserSystemQuery(TokenIterator pos) {
        this.pos = pos;
    }

    /** After the SYSTEM. */
    Statement parse() {
        StringBuilder action = new StringBuilder();
        while (pos.tok.kind() == Token.Kind.IDENT && !pos.tok.is("ON")) {
            String w = pos.tok.text().toUpperCase(Locale.ROOT);
            if (action.toString().equals("FLUSH") && w.equals("DISTRIBUTED")) { // FLUSH DISTRIBUTED t; STOP DISTRIBUTED SENDS goes on
                action.append(' ').append(w);
                pos.advance();
                break;
            }
            if (action.length() > 0 && (w.equals("MERGES") || w.equals("FAILPOINT") || w.equals("LOGS") || w.equals("FETCHES")
                || w.equals("REPLICATION") || w.equals("SENDS") || w.equals("QUEUES") || w.equals("CACHE") || w.equals("REPLICA")
                || w.equals("DICTIONARY") || w.equals("DICTIONARIES"))) {
                action.append(' ').append(w);
                pos.advance();
                break;
            }
            if (action.length() > 0) {
                action.append(' ');
            }
            action.append(w);
            pos.advance();
        }
        String db = null;
        String table = null;
        String arg = null;
        Map<String, String> options = new LinkedHashMap<>();
        if (action.toString().endsWith("FAILPOINT")) {
            arg = pos.identifier();
            // the stub's extension: FOR n INSERTS, ON TABLE [db.]t, CODE n, DELAY ms
            while (true) {
                if (pos.readIf("FOR")) {
                    options.put("times", pos.tok.text());
                    pos.advance();
                    if (!pos.readIf("INSERTS")) {
                        pos.readIf("INSERT");
                    }
                } else if (pos.readIf("ON")) {
                    pos.readIf("TABLE");
                    String[] n = pos.qualifiedName();
                    options.put("table", n[0] == null ? n[1] : n[0] + "." + n[1]);
                } else if (pos.readIf("CODE")) {
                    options.put("code", pos.tok.text());
                    pos.advance();
                } else if (pos.readIf("DELAY")) {
                    options.put("delay", pos.tok.text());
                    pos.advance();
                } else {
                    break;
                }
            }
        } else if (pos.isIdent()) {
            String[] n = pos.qualifiedName();
            db = n[0];
            table = n[1];
        }
        return new Statement.SystemCmd(action.toString(), db, table, arg, options);
    }
}
