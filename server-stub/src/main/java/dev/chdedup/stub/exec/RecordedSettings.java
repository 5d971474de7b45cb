package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.TextReader;
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
 * The settings tables recorded from the real engine by {@code tools/record_settings.py}: every row of
 * {@code system.settings} and {@code system.merge_tree_settings} (name, type, default, description) and the values
 * of each enum-like setting type with the code the engine refuses others with. They are the stub's answer for any
 * setting its hand-written definitions ({@link KnownSettings}, {@code MergeTreeSettings}) leave out, so a client
 * may send whatever setting the engine has. Loaded once, on first use, from {@code /settings/*.tsv}.
 */
public final class RecordedSettings {
    /**
     * One recorded row; {@code aliasFor} is empty unless the setting is another's alias; {@code readonly}, for a
     * MergeTree setting, means ALTER cannot change it (it is fixed when the table is created).
     */
    public record Row(String name, String type, String defaultValue, boolean readonly, String aliasFor, boolean obsolete, String tier, String description) {
    }

    /** An enum-like setting type: its values in the engine's order; {@code multiple}: a comma-separated list of them. */
    public record EnumType(String type, ErrorCode code, boolean multiple, List<String> values) {
    }

    private RecordedSettings() {
    }

    /** The query-level settings of {@code system.settings}, by name, in the recorded (alphabetical) order. */
    public static Map<String, Row> settings() {
        return Holder.SETTINGS;
    }

    /** The table-level settings of {@code system.merge_tree_settings}, by name. */
    public static Map<String, Row> mergeTreeSettings() {
        return Holder.MERGE_TREE_SETTINGS;
    }

    /** The enum type {@code type}, or null where it is not one (a number, a string, a bool...). */
    public static EnumType enumType(String type) {
        return Holder.ENUMS.get(type);
    }

    /** The engine version the tables were recorded from (their first line). */
    public static String engineVersion() {
        return Holder.VERSION;
    }

    /** Lazy holder: the tables are read when a setting is first looked up, once. */
    private static final class Holder {
        static String VERSION = "";
        static final Map<String, Row> SETTINGS = rows("settings.tsv");
        static final Map<String, Row> MERGE_TREE_SETTINGS = rows("merge_tree_settings.tsv");
        static final Map<String, EnumType> ENUMS = enums();
    }

    private static Map<String, Row> rows(String file) {
        List<List<String>> table = read(file);
        List<String> header = table.get(0);
        int name = header.indexOf("name");
        int type = header.indexOf("type");
        int dflt = header.indexOf("default");
        int readonly = header.indexOf("readonly");
        int alias = header.indexOf("alias_for");
        int obsolete = header.indexOf("is_obsolete");
        int tier = header.indexOf("tier");
        int description = header.indexOf("description");
        Map<String, Row> m = new LinkedHashMap<>();
        for (List<String> r : table.subList(1, table.size())) {
            m.put(r.get(name), new Row(r.get(name), r.get(type), r.get(dflt), r.get(readonly).equals("1"), alias < 0 ? "" : r.get(alias), r.get(obsolete).equals("1"),
                r.get(tier), r.get(description)));
        }
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, EnumType> enums() {
        List<List<String>> table = read("setting_enums.tsv");
        Map<String, EnumType> m = new LinkedHashMap<>();
        for (List<String> r : table.subList(1, table.size())) {
            ErrorCode code = ErrorCode.of(Integer.parseInt(r.get(1)));
            if (!code.name().equals(r.get(2))) {
                code = ErrorCode.BAD_ARGUMENTS; // a code the stub does not list: the engine's usual refusal
            }
            m.put(r.get(0), new EnumType(r.get(0), code, r.get(3).equals("1"), List.copyOf(r.subList(4, r.size()))));
        }
        return Collections.unmodifiableMap(m);
    }

    /** The rows of a recorded TSV after its version line, the header first, each field unescaped. */
    private static List<List<String>> read(String file) {
        try (InputStream in = RecordedSettings.class.getResourceAsStream("/settings/" + file)) {
            if (in == null) {
                throw new IllegalStateException("missing resource /settings/" + file);
            }
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            List<List<String>> out = new ArrayList<>();
            String line;
            while ((line = r.readLine()) != null) {
                if (line.startsWith("# ClickHouse ")) {
                    Holder.VERSION = line.substring("# ClickHouse ".length());
                    continue;
                }
                List<String> fields = new ArrayList<>();
                for (String f : line.split("\t", -1)) {
                    fields.add(unescape(f));
                }
                out.add(fields);
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Undoes TabSeparated escaping (backslash sequences), as the engine wrote the recorded tables. */
    public static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); ) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                i = TextReader.unescape(s, i + 1, b);
            } else {
                b.append(c);
                i++;
            }
        }
        return b.toString();
    }
}
