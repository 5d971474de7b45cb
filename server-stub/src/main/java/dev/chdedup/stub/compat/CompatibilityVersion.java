package dev.chdedup.stub.compat;

/** The {@code compatibility} setting read as a release: whether a query asks for the defaults of a release before another. */
public final class CompatibilityVersion {
    private CompatibilityVersion() {
    }

    /** Whether {@code compatibility} names a release before {@code major.minor} (false when it names none). */
    public static boolean before(String compatibility, int major, int minor) {
        if (compatibility == null || compatibility.isBlank()) {
            return false;
        }
        String[] v = compatibility.trim().split("\\.");
        try {
            int ma = Integer.parseInt(v[0]);
            int mi = v.length > 1 ? Integer.parseInt(v[1]) : 0;
            return ma < major || ma == major && mi < minor;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
