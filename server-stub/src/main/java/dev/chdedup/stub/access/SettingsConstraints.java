package dev.chdedup.stub.access;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.sql.Statement;
import java.math.BigDecimal;
import java.util.Map;

/**
 * Whether a query may change settings: an unchanged value always passes; {@code profile} always passes; under
 * readonly = 1 only a setting marked CHANGEABLE_IN_READONLY may change, under readonly = 2 anything but
 * {@code readonly} (both READONLY, 164); a CONST (READONLY) setting never changes and a MIN/MAX bound holds
 * (SETTING_CONSTRAINT_VIOLATION, 452). Mirrors ClickHouse's SettingsConstraints::checkImpl.
 */
public final class SettingsConstraints {
    private SettingsConstraints() {
    }

    /** Throws unless every change of {@code changes} is allowed on top of {@code current}. */
    public static void check(Settings current, Map<String, String> changes, Map<String, Statement.SettingElement> constraints) {
        long readonly = current.getLong("readonly");
        for (Map.Entry<String, String> c : changes.entrySet()) {
            String name = c.getKey();
            if (name.equals("profile") || same(current.get(name), c.getValue())) {
                continue;
            }
            Statement.SettingElement k = constraints.get(name);
            String writability = k == null || k.writability() == null ? "" : k.writability();
            if (readonly > 1 && name.equals("readonly")) {
                throw readonlyError(name);
            }
            if (readonly == 1 && !writability.equals("CHANGEABLE_IN_READONLY")) {
                throw readonlyError(name);
            }
            if (k == null) {
                continue;
            }
            if (writability.equals("CONST") || writability.equals("READONLY")) {
                throw new ChException(ErrorCode.SETTING_CONSTRAINT_VIOLATION, "Setting " + name + " should not be changed");
            }
            if (k.min() != null && less(c.getValue(), k.min())) {
                throw new ChException(ErrorCode.SETTING_CONSTRAINT_VIOLATION, "Setting " + name + " shouldn't be less than " + k.min());
            }
            if (k.max() != null && less(k.max(), c.getValue())) {
                throw new ChException(ErrorCode.SETTING_CONSTRAINT_VIOLATION, "Setting " + name + " shouldn't be greater than " + k.max());
            }
        }
    }

    private static ChException readonlyError(String name) {
        return new ChException(ErrorCode.READONLY, "Cannot modify '" + name + "' setting in readonly mode");
    }

    private static boolean same(String a, String b) {
        if (a.equals(b)) {
            return true;
        }
        BigDecimal x = number(a);
        BigDecimal y = number(b);
        return x != null && y != null && x.compareTo(y) == 0;
    }

    private static boolean less(String a, String b) {
        BigDecimal x = number(a);
        BigDecimal y = number(b);
        return x != null && y != null ? x.compareTo(y) < 0 : a.compareTo(b) < 0;
    }

    private static BigDecimal number(String s) {
        try {
            return new BigDecimal(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
