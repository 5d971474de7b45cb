package dev.chdedup.stub.exec;

import dev.chdedup.stub.compat.SettingsChangesHistory;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings in force for one query: what the session, URL parameters and SETTINGS clauses changed, over the
 * server's defaults ({@link KnownSettings}', or those of the older release the server plays). Immutable;
 * {@link #with} layers changes, later ones winning, as ClickHouse applies them. A setting the query did not change
 * takes its value before a later default change where {@code compatibility} names an earlier release
 * ({@link SettingsChangesHistory}).
 */
public final class Settings {
    public static final Settings DEFAULTS = new Settings(Map.of(), Map.of());

    private final Map<String, String> changed;
    /** The defaults of the older release the server plays, where they differ from {@link KnownSettings}'; empty otherwise. */
    private final Map<String, String> releaseDefaults;

    private Settings(Map<String, String> changed, Map<String, String> releaseDefaults) {
        this.changed = changed;
        this.releaseDefaults = releaseDefaults;
    }

    /** The defaults of a server playing an older release: {@code releaseDefaults} over {@link KnownSettings}'. */
    public static Settings ofRelease(Map<String, String> releaseDefaults) {
        return releaseDefaults.isEmpty() ? DEFAULTS : new Settings(Map.of(), Map.copyOf(releaseDefaults));
    }

    /** A copy with {@code changes} applied; every name and value is checked first, so nothing applies on error. */
    public Settings with(Map<String, String> changes) {
        if (changes.isEmpty()) {
            return this;
        }
        for (Map.Entry<String, String> e : changes.entrySet()) {
            KnownSettings.validate(e.getKey(), e.getValue());
        }
        Map<String, String> m = new LinkedHashMap<>(changed);
        m.putAll(changes);
        return new Settings(Collections.unmodifiableMap(m), releaseDefaults);
    }

    public Map<String, String> changed() {
        return changed;
    }

    public boolean isChanged(String name) {
        return changed.containsKey(name);
    }

    public String get(String name) {
        String v = changed.get(name);
        if (v != null) {
            return v;
        }
        String compatibility = changed.get("compatibility");
        if (compatibility != null) {
            String old = SettingsChangesHistory.settingUnder(name, compatibility);
            if (old != null) {
                return old;
            }
        }
        return defaultValue(name);
    }

    /** The server's default of {@code name}: the release's it plays, else {@link KnownSettings}' ("" for an unknown name). */
    public String defaultValue(String name) {
        String r = releaseDefaults.get(name);
        if (r != null) {
            return r;
        }
        KnownSettings.Def d = KnownSettings.get(name);
        return d == null ? "" : d.defaultValue();
    }

    public long getLong(String name) {
        String v = get(name).trim();
        KnownSettings.Def d = KnownSettings.get(name);
        if (d != null && !d.type().equals("String") && !d.type().equals("Seconds")) {
            return SettingFields.parse(d.type(), name, v);
        }
        try {
            if (v.equalsIgnoreCase("true")) {
                return 1;
            }
            if (v.equalsIgnoreCase("false")) {
                return 0;
            }
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            try {
                return (long) Double.parseDouble(v);
            } catch (NumberFormatException e2) {
                throw new ChException(ErrorCode.CANNOT_PARSE_NUMBER, "Cannot parse setting " + name + " value '" + v + "' as a number");
            }
        }
    }

    public boolean getBool(String name) {
        return getLong(name) != 0;
    }
}
