package dev.chdedup.stub.system;

import dev.chdedup.stub.mv.PlainView;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code information_schema} and {@code INFORMATION_SCHEMA} databases: the SQL standard's views over the system
 * tables (COLUMNS over system.columns, TABLES over system.tables and system.parts, ...), each under its lowercase and
 * its uppercase name in both databases, as ClickHouse attaches them at start (attachInformationSchemaTables.cpp). The
 * views are plain views read by the query engine like any other; their definitions are the engine's own answers to
 * {@code SHOW CREATE TABLE information_schema.<view>}, recorded by {@code tools/record_information_schema.py} into
 * {@code resources/information_schema/<view>.sql}, so their columns, types and queries are the engine's.
 */
public final class InformationSchema {
    /** The two databases, in the order names sort. */
    public static final List<String> DATABASES = List.of("INFORMATION_SCHEMA", "information_schema");
    private static final List<String> VIEWS = List.of("character_sets", "collations", "columns", "engines", "key_column_usage",
        "referential_constraints", "schemata", "statistics", "tables", "views");

    private InformationSchema() {
    }

    /** Whether {@code db} is one of the two databases (names are case-sensitive, as every database name is). */
    public static boolean isDatabase(String db) {
        return DATABASES.contains(db);
    }

    /** The views of database {@code db} by name, sorted; empty for any other database. */
    public static Map<String, Object> tables(String db) {
        Map<String, Object> views = Holder.VIEWS.get(db);
        return views == null ? Map.of() : views;
    }

    /** The view {@code db.name}, or null. */
    public static PlainView find(String db, String name) {
        return (PlainView) tables(db).get(name);
    }

    /**
     * A statement as system.tables shows it (create_table_query, as_select): SHOW CREATE's lines joined by one space,
     * with none after an opening or before a closing parenthesis, as the engine's one-line formatting writes it.
     */
    public static String oneLine(String formatted) {
        StringBuilder sb = new StringBuilder();
        for (String line : formatted.strip().split("\n")) {
            String l = line.strip();
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != '(' && !l.startsWith(")")) {
                sb.append(' ');
            }
            sb.append(l);
        }
        return sb.toString();
    }

    private static final class Holder {
        static final Map<String, Map<String, Object>> VIEWS = load();
    }

    private static Map<String, Map<String, Object>> load() {
        Map<String, Map<String, Object>> out = new TreeMap<>();
        for (String db : DATABASES) {
            out.put(db, new TreeMap<>());
        }
        for (String view : VIEWS) {
            String recorded = read(view);
            String body = recorded.substring(recorded.indexOf('\n')); // after CREATE VIEW information_schema.<view>
            for (String db : DATABASES) {
                for (String name : List.of(view, view.toUpperCase(Locale.ROOT))) {
                    String createSql = "CREATE VIEW " + db + "." + name + body;
                    Statement.CreateView v = (Statement.CreateView) Parser.parse(createSql);
                    out.get(db).put(name, PlainView.of(db, v, createSql));
                }
            }
        }
        out.replaceAll((db, views) -> Collections.unmodifiableMap(views));
        return Collections.unmodifiableMap(out);
    }

    /** A recorded view's SHOW CREATE text, without the comment lines before it. */
    private static String read(String view) {
        String path = "/information_schema/" + view + ".sql";
        try (InputStream in = InformationSchema.class.getResourceAsStream(path)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + path);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            while (text.startsWith("--")) {
                text = text.substring(text.indexOf('\n') + 1);
            }
            return text.strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
