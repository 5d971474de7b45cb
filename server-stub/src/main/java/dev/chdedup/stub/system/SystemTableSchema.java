package dev.chdedup.stub.system;

import dev.chdedup.stub.exec.RecordedSettings;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The columns of ClickHouse's system tables, as the engine describes them: name, type, ALIAS or MATERIALIZED kind
 * with its expression, and comment, in the engine's order. They are data, not code: {@code system/columns.tsv} was
 * recorded from ClickHouse 26.7 by {@code tools/record_system_tables.py}, and {@code system/server_columns.tsv}
 * holds the server's log and ZooKeeper tables the library engine lacks, written down from ClickHouse's source (its
 * header names the files). Every system table the stub serves takes its columns from here ({@link SystemTable}).
 */
public final class SystemTableSchema {
    /** One column of a system table, as DESCRIBE and system.columns show it. */
    public record ColumnDef(String name, DataType type, String defaultKind, String defaultExpression, String comment) {
        /** An ALIAS column: computed from the others, never stored, not in {@code SELECT *}. */
        public boolean isAlias() {
            return "ALIAS".equals(defaultKind);
        }

        /** A MATERIALIZED column: stored, but read only by name, not by {@code SELECT *}. */
        public boolean isMaterialized() {
            return "MATERIALIZED".equals(defaultKind);
        }

        /** The kind DESCRIBE and system.columns show: none for a kind without an expression, as in ClickHouse. */
        public String shownKind() {
            return defaultExpression.isEmpty() ? "" : defaultKind;
        }
    }

    private SystemTableSchema() {
    }

    /** The columns of system table {@code table} in the engine's order, or null when the engine has no such table. */
    public static List<ColumnDef> of(String table) {
        return Holder.TABLES.get(table);
    }

    /**
     * The columns of system table {@code table} as the release {@code compat} plays has them: an older release's
     * where it is recorded as different ({@code system/columns_18_16.tsv}), else the engine's.
     */
    public static List<ColumnDef> of(String table, dev.chdedup.stub.compat.CompatibilityProfile compat) {
        List<ColumnDef> old = compat.version() == null ? null : Holder.LEGACY.get(compat.name() + "/" + table);
        return old != null ? old : of(table);
    }

    /** Whether {@code compat} plays a release whose {@code table} has other columns than the engine's. */
    static boolean differs(String table, dev.chdedup.stub.compat.CompatibilityProfile compat) {
        return compat.version() != null && Holder.LEGACY.containsKey(compat.name() + "/" + table);
    }

    /** Every system table recorded, by name. */
    public static Map<String, List<ColumnDef>> all() {
        return Holder.TABLES;
    }

    /** The ClickHouse version the engine's columns were recorded from. */
    public static String engineVersion() {
        return Holder.VERSION[0];
    }

    private static final class Holder {
        static final String[] VERSION = {""};
        static final Map<String, List<ColumnDef>> TABLES = load("", List.of("columns.tsv", "server_columns.tsv"));
        /** An older release's tables that differ, by {@code <profile name>/<table>}. */
        static final Map<String, List<ColumnDef>> LEGACY = load("18.16/", List.of("columns_18_16.tsv"));
    }

    private static Map<String, List<ColumnDef>> load(String prefix, List<String> files) {
        Map<String, List<ColumnDef>> out = new LinkedHashMap<>();
        for (String file : files) {
            for (List<String> r : read(file)) {
                out.computeIfAbsent(prefix + r.get(0), k -> new ArrayList<>())
                    .add(new ColumnDef(r.get(1), DataTypes.parse(r.get(2)), r.get(3), r.get(4), r.get(5)));
            }
        }
        out.replaceAll((k, v) -> List.copyOf(v));
        return Collections.unmodifiableMap(out);
    }

    /** The rows of a TSV recorded from the engine ({@code /system/<file>}) after its comment lines and header, each field unescaped. */
    static List<List<String>> read(String file) {
        try (InputStream in = SystemTableSchema.class.getResourceAsStream("/system/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource /system/" + file);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<List<String>> out = new ArrayList<>();
            boolean header = true;
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("# ClickHouse ") && Holder.VERSION[0].isEmpty() && file.equals("columns.tsv")) {
                    Holder.VERSION[0] = line.substring("# ClickHouse ".length());
                }
                if (line.startsWith("#")) {
                    continue;
                }
                if (header) {
                    header = false;
                    continue;
                }
                List<String> fields = new ArrayList<>();
                for (String f : line.split("\t", -1)) {
                    fields.add(RecordedSettings.unescape(f));
                }
                out.add(fields);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
