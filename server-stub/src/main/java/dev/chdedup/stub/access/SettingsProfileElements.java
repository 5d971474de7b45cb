package dev.chdedup.stub.access;

import dev.chdedup.stub.sql.Statement;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings a user gets at login or from {@code SET profile}: the values to apply, and the constraints (MIN, MAX,
 * CONST/READONLY, WRITABLE, CHANGEABLE_IN_READONLY) that {@link SettingsConstraints} checks later changes against.
 * A later element overrides an earlier one for the same setting. Mirrors ClickHouse's SettingsProfileElements.
 */
public final class SettingsProfileElements {
    private final Map<String, String> values = new LinkedHashMap<>();
    private final Map<String, Statement.SettingElement> constraints = new LinkedHashMap<>();

    void add(Statement.SettingElement e) {
        if (e.value() != null) {
            values.put(e.name(), e.value());
        }
        if (e.min() != null || e.max() != null || e.writability() != null) {
            constraints.put(e.name(), e);
        }
    }

    /** setting name -> value, in the order they apply. */
    public Map<String, String> values() {
        return Collections.unmodifiableMap(values);
    }

    /** setting name -> the element holding its constraint. */
    public Map<String, Statement.SettingElement> constraints() {
        return Collections.unmodifiableMap(constraints);
    }

    public boolean isEmpty() {
        return values.isEmpty() && constraints.isEmpty();
    }
}
