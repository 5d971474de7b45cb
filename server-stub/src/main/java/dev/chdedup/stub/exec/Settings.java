package dev.chdedup.stub.exec;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings in force for one query: what the session, URL parameters and SETTINGS clauses changed, over
 * {@link KnownSettings}' defaults. Immutable; {@link #with} layers changes, later ones winning, as ClickHouse
 * applies them.
 */
public final class Settings {
    public static final Settings DEFAULTS = new Settings(Map.of());

    private final Map<String, String> changed;

    private Settings(Map<String, String> changed) {
        this.changed = changed;
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
        return new Settings(Collections.unmodifiableMap(m));
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
