package dev.chdedup.stub.dictionaries;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Catalog;
import dev.chdedup.stub.exec.QueryContext;
import dev.chdedup.stub.exec.SelectExecutor;
import dev.chdedup.stub.exec.ServerInfo;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code SOURCE(CLICKHOUSE(TABLE 't' [DB 'db'] [WHERE 'cond'] | QUERY 'select' [HOST ...] [PORT ...] [USER ...]
 * [PASSWORD ...]))}: the server's own table (of the dictionary's database unless DB names another), read with the query
 * ClickHouse's ExternalQueryBuilder writes ({@code SELECT key, (expr) AS attr FROM db.t WHERE cond}), or the QUERY's
 * result, whose columns are taken by position. A HOST that is not this one would need the network, which the stub does
 * not reach: it is refused; this host's user and password are not checked. Values are converted to the dictionary's
 * types as CAST converts them; a NULL takes the attribute's DEFAULT, or is an open end of a range.
 * After ClickHouse's ClickHouseDictionarySource.
 */
final class ClickHouseDictionarySource implements IDictionarySource {

    private final DictionaryStructure structure;
    private final Map<String, String> args;
    private final String database;
    private final Catalog catalog;

    ClickHouseDictionarySource(DictionaryStructure structure, Map<String, String> args, String dictionaryDatabase, Catalog catalog) {
        this.structure = structure;
        this.args = args;
        this.database = args.containsKey("DB") ? unquote(args.get("DB")) : dictionaryDatabase;
        this.catalog = catalog;
    }

    @Override
    public List<Object[]> loadAll() {
        return read(query(null));
    }

    @Override
    public List<Object[]> loadKeys(List<Object[]> keys) {
        // an integer key goes to the table's WHERE (its primary index may use it); other keys are looked for in all rows
        String pushed = null;
        if (!structure.complexKey && !args.containsKey("QUERY")) {
            StringBuilder in = new StringBuilder();
            for (Object[] k : keys) {
                in.append(in.length() == 0 ? "" : ", ").append(Long.toUnsignedString((Long) k[0]));
            }
            pushed = name(structure.keys.get(0)) + " IN (" + in + ")";
        }
        Set<List<Object>> wanted = new HashSet<>();
        for (Object[] k : keys) {
            wanted.add(Arrays.asList(k));
        }
        List<Object[]> out = new ArrayList<>();
        int n = structure.keys.size();
        for (Object[] row : read(query(pushed))) {
            if (wanted.contains(Arrays.asList(row).subList(0, n))) {
                out.add(row);
            }
        }
        return out;
    }

    /** The query that reads the source, with {@code keyFilter} (or null) added to its WHERE. */
    private String query(String keyFilter) {
        checkHost();
        String table = args.containsKey("TABLE") ? unquote(args.get("TABLE")) : "";
        String where = args.containsKey("WHERE") ? unquote(args.get("WHERE")) : "";
        if (args.containsKey("QUERY")) {
            if (!table.isEmpty() || !where.isEmpty()) {
                throw new ChException(ErrorCode.UNSUPPORTED_METHOD, "Setting `table` or `where` cannot be used with `query` parameter.");
            }
            return unquote(args.get("QUERY"));
        }
        if (table.isEmpty()) {
            throw new ChException(ErrorCode.UNSUPPORTED_METHOD, "Setting `table` or `query` must be non empty.");
        }
        StringBuilder sql = new StringBuilder("SELECT ");
        List<DictionaryStructure.Attribute> columns = columns();
        for (int i = 0; i < columns.size(); i++) {
            sql.append(i == 0 ? "" : ", ").append(name(columns.get(i)));
        }
        sql.append(" FROM ").append(quoteIfNeed(database)).append('.').append(quoteIfNeed(table));
        String condition = where.isEmpty() ? keyFilter : keyFilter == null ? where : "(" + where + ") AND " + keyFilter;
        if (condition != null) {
            sql.append(" WHERE ").append(condition);
        }
        return sql.toString();
    }

    /** The dictionary's columns in the order the source gives them: keys, the range's bounds, attributes. */
    private List<DictionaryStructure.Attribute> columns() {
        List<DictionaryStructure.Attribute> all = new ArrayList<>(structure.keys);
        if (structure.rangeMin != null && structure.rangeMax != null) {
            all.add(structure.rangeMin);
            all.add(structure.rangeMax);
        }
        all.addAll(structure.attributes);
        return all;
    }

    private static String name(DictionaryStructure.Attribute a) {
        return a.expression() == null ? quoteIfNeed(a.name()) : "(" + a.expression() + ") AS " + quoteIfNeed(a.name());
    }

    private List<Object[]> read(String sql) {
        Statement st = Parser.parse(sql);
        if (!(st instanceof Statement.SelectStmt)) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "The QUERY of a dictionary source must be a SELECT: " + sql);
        }
        QueryContext ctx = new QueryContext(database, "default", "", Settings.DEFAULTS);
        SelectExecutor.Result r = new SelectExecutor(catalog).executeToRows(((Statement.SelectStmt) st).query(), ctx);
        List<DictionaryStructure.Attribute> columns = columns();
        if (r.columns().size() < columns.size()) {
            throw new ChException(ErrorCode.NUMBER_OF_COLUMNS_DOESNT_MATCH, "The dictionary's source gives " + r.columns().size()
                + " columns, the dictionary has " + columns.size());
        }
        int keys = structure.keys.size();
        boolean range = structure.rangeMin != null && structure.rangeMax != null;
        List<Object[]> out = new ArrayList<>(r.rows().size());
        for (Object[] row : r.rows()) {
            Object[] e = new Object[columns.size()];
            for (int i = 0; i < e.length; i++) {
                DictionaryStructure.Attribute a = columns.get(i);
                Column c = r.columns().get(i);
                Object v = DictionaryValues.convert(row[i], c.type(), a.type());
                if (v == null && !a.type().isNullable()) {
                    v = i < keys ? a.type().defaultValue() : range && i == keys ? DictionaryValues.least(a.type())
                        : range && i == keys + 1 ? DictionaryValues.greatest(a.type()) : a.nullValue();
                }
                e[i] = v;
            }
            out.add(e);
        }
        return out;
    }

    /** A HOST other than this one would be reached over the network: the stub reads only its own tables. */
    private void checkHost() {
        String host = args.containsKey("HOST") ? unquote(args.get("HOST")) : "";
        if (!host.isEmpty() && !host.equalsIgnoreCase("localhost") && !host.startsWith("127.") && !host.equals("::1")
            && !host.equalsIgnoreCase(ServerInfo.hostName())) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "A dictionary source on host " + host + " is not supported by the stub:"
                + " it reads the tables of its own server (no HOST, localhost or this host's name)");
        }
    }

    @Override
    public String toString() {
        String table = args.containsKey("TABLE") ? unquote(args.get("TABLE")) : "";
        return "ClickHouse: " + database + "." + table;
    }

    private static String quoteIfNeed(String name) {
        return dev.chdedup.stub.sql.ExpressionFormatter.backQuoteIfNeed(name);
    }

    /** A key-value argument's text as a plain string: a quoted literal without its quotes and escapes, else as written. */
    static String unquote(String literal) {
        if (literal.length() < 2 || literal.charAt(0) != '\'') {
            return literal;
        }
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < literal.length() - 1; i++) {
            char c = literal.charAt(i);
            if (c == '\\' && i + 1 < literal.length() - 1) {
                char n = literal.charAt(++i);
                sb.append(n == 'n' ? '\n' : n == 't' ? '\t' : n == '0' ? '\0' : n);
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }
}
