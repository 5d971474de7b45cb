package dev.chdedup.stub.server;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.dictionaries.StorageDictionary;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Evaluator;
import dev.chdedup.stub.exec.ExprCompiler;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.QueryResult;
import dev.chdedup.stub.sql.ColumnNames;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.storages.StorageCatalog;
import dev.chdedup.stub.types.ByteStrings;
import dev.chdedup.stub.types.DataTypes;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The statements of dictionaries, as ClickHouse's interpreters run them: CREATE [OR REPLACE] DICTIONARY [IF NOT EXISTS]
 * (InterpreterCreateQuery; the definition is checked and the metadata written, the dictionary loads on first use),
 * DROP DICTIONARY [IF EXISTS], DETACH DICTIONARY [IF EXISTS] [PERMANENTLY] and ATTACH DICTIONARY [IF NOT EXISTS] (as
 * DETACH and ATTACH TABLE do for a table), SHOW CREATE DICTIONARY and EXISTS DICTIONARY (which answer only for a
 * dictionary), and
 * SYSTEM RELOAD DICTIONARY name (loads it now, failing as its load fails) and SYSTEM RELOAD DICTIONARIES (every
 * dictionary that tried to load, the first failure thrown once all have tried).
 */
final class InterpreterDictionaryQuery {
    private final DatabaseCatalog catalog;

    InterpreterDictionaryQuery(DatabaseCatalog catalog) {
        this.catalog = catalog;
    }

    /** Whether {@code st} is one of these statements (SHOW CREATE TABLE of a dictionary is SHOW CREATE DICTIONARY). */
    static boolean handles(Statement st, DatabaseCatalog catalog, QueryContext ctx) {
        return st instanceof Statement.CreateDictionary || st instanceof Statement.DropDictionary
            || st instanceof Statement.DetachDictionary || st instanceof Statement.AttachDictionary
            || st instanceof Statement.ShowCreate sc && catalog.databaseExists(Interpreter.db(sc.database(), ctx))
                && catalog.find(Interpreter.db(sc.database(), ctx), sc.table()) instanceof StorageDictionary
            || st instanceof Statement.ShowCreateDictionary || st instanceof Statement.ExistsDictionary
            || st instanceof Statement.SystemCmd s && (s.action().equals("RELOAD DICTIONARY") || s.action().equals("RELOAD DICTIONARIES"));
    }

    /**
     * The definition with each function among its SOURCE's values evaluated to a constant's literal, as ClickHouse's
     * CREATE DICTIONARY does ({@code DB currentDatabase()} is kept as {@code DB 'default'}).
     */
    private static Statement.CreateDictionary withConstantSource(Statement.CreateDictionary cd, QueryContext ctx) {
        if (cd.source() == null || cd.source().expressions().isEmpty()) {
            return cd;
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (Map.Entry<String, Expr> e : cd.source().expressions().entrySet()) {
            Evaluator ev = new ExprCompiler(ctx, List.of(), Map.of(), null).compile(e.getValue());
            Object v = ev.eval(new Object[0]);
            Object literal = v instanceof String ? ByteStrings.toText((String) v) : v;
            values.put(e.getKey(), ColumnNames.of(new Expr.Literal(literal)));
        }
        return new Statement.CreateDictionary(cd.database(), cd.name(), cd.ifNotExists(), cd.orReplace(), cd.attributes(),
            cd.primaryKey(), cd.source().withValues(values), cd.layout(), cd.lifetimeMin(), cd.lifetimeMax(), cd.rangeMin(),
            cd.rangeMax(), cd.settings(), cd.comment());
    }

    QueryResult execute(Statement st, QueryContext ctx) throws IOException {
        if (st instanceof Statement.CreateDictionary cd) {
            String db = Interpreter.db(cd.database(), ctx);
            if (!catalog.databaseExists(db) || StorageCatalog.SYSTEM.equals(db)) {
                throw StorageCatalog.unknownDatabase(db);
            }
            catalog.createDictionary(db, withConstantSource(cd, ctx));
        } else if (st instanceof Statement.DropDictionary dd) {
            catalog.dropDictionary(Interpreter.db(dd.database(), ctx), dd.name(), dd.ifExists());
        } else if (st instanceof Statement.DetachDictionary dd) {
            catalog.detachDictionary(Interpreter.db(dd.database(), ctx), dd.name(), dd.ifExists(), dd.permanently());
        } else if (st instanceof Statement.AttachDictionary ad) {
            catalog.attachDictionary(Interpreter.db(ad.database(), ctx), ad.name(), ad.ifNotExists());
        } else if (st instanceof Statement.ShowCreateDictionary || st instanceof Statement.ShowCreate) {
            String db = Interpreter.db(st instanceof Statement.ShowCreate s ? s.database() : ((Statement.ShowCreateDictionary) st).database(), ctx);
            String name = st instanceof Statement.ShowCreate s ? s.table() : ((Statement.ShowCreateDictionary) st).name();
            if (!(catalog.find(db, name) instanceof StorageDictionary d)) {
                throw new ChException(ErrorCode.CANNOT_GET_CREATE_TABLE_QUERY, "Dictionary " + DatabaseCatalog.backQuote(db) + "."
                    + DatabaseCatalog.backQuote(name) + " doesn't exist");
            }
            return Interpreter.rows(List.of(new Column("statement", DataTypes.STRING)), List.<Object[]>of(new Object[] {
                dev.chdedup.stub.types.ByteStrings.fromText(d.showCreateQuery())}));
        } else if (st instanceof Statement.ExistsDictionary e) {
            boolean exists = catalog.find(Interpreter.db(e.database(), ctx), e.name()) instanceof StorageDictionary;
            return Interpreter.rows(List.of(new Column("result", DataTypes.UINT8)), List.<Object[]>of(new Object[] {exists ? 1L : 0L}));
        } else {
            Statement.SystemCmd s = (Statement.SystemCmd) st;
            if (s.action().equals("RELOAD DICTIONARY")) {
                if (s.table() == null) {
                    throw new ChException(ErrorCode.SYNTAX_ERROR, "SYSTEM RELOAD DICTIONARY needs the dictionary's name");
                }
                String name = s.database() == null ? s.table() : s.database() + "." + s.table();
                ((StorageDictionary) catalog.dictionary(name, ctx)).reload();
            } else {
                reloadAll();
            }
        }
        return QueryResult.Done.NOTHING;
    }

    private void reloadAll() {
        RuntimeException first = null;
        for (String db : catalog.databaseNames()) {
            if (!catalog.databaseExists(db) || StorageCatalog.SYSTEM.equals(db) || db.equalsIgnoreCase("information_schema")) {
                continue;
            }
            for (Map.Entry<String, Object> e : catalog.tables(db).entrySet()) {
                if (e.getValue() instanceof StorageDictionary d && d.triedToLoad()) {
                    try {
                        d.reload();
                    } catch (RuntimeException ex) {
                        first = first == null ? ex : first;
                    }
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
