package dev.chdedup.stub.http;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * An ordered list of HTTP header fields with case-insensitive name lookup, used for request headers, chunked
 * trailers and response headers. Requests carry at most {@link HttpLimits#MAX_HEADERS} fields, so a linear
 * scan beats hashing and keeps per-request allocation tiny. Names keep the spelling they arrived with.
 */
public final class HttpHeaders {

    private String[] names = new String[16];
    private String[] values = new String[16];
    private int size;

    /** Appends a field; repeated names are kept as separate fields. */
    public void add(String name, String value) {
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        names[size] = name;
        values[size] = value;
        size++;
    }

    /** Replaces every field named {@code name} by a single one with {@code value}. */
    public void set(String name, String value) {
        remove(name);
        add(name, value);
    }

    /** Removes every field named {@code name}; returns whether any was present. */
    public boolean remove(String name) {
        int w = 0;
        for (int r = 0; r < size; r++) {
            if (!names[r].equalsIgnoreCase(name)) {
                names[w] = names[r];
                values[w] = values[r];
                w++;
            }
        }
        boolean removed = w != size;
        Arrays.fill(names, w, size, null);
        Arrays.fill(values, w, size, null);
        size = w;
        return removed;
    }

    void clear() {
        Arrays.fill(names, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    /** The value of the first field named {@code name} (case-insensitive), or {@code null}. */
    public String get(String name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                return values[i];
            }
        }
        return null;
    }

    /** The values of all fields named {@code name}, in arrival order; empty if none. */
    public List<String> getAll(String name) {
        List<String> out = null;
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                if (out == null) {
                    out = new ArrayList<>(2);
                }
                out.add(values[i]);
            }
        }
        return out == null ? Collections.emptyList() : Collections.unmodifiableList(out);
    }

    /**
     * Whether any field named {@code name} contains {@code token} as an element of its comma-separated list,
     * compared case-insensitively (as for {@code Connection: keep-alive, Upgrade}).
     */
    public boolean hasToken(String name, String token) {
        for (int i = 0; i < size; i++) {
            if (names[i].equalsIgnoreCase(name)) {
                for (String part : values[i].split(",")) {
                    if (part.trim().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    public int size() {
        return size;
    }

    /** The name of field {@code i} (0-based, arrival order). */
    public String name(int i) {
        return names[java.util.Objects.checkIndex(i, size)];
    }

    /** The value of field {@code i} (0-based, arrival order). */
    public String value(int i) {
        return values[java.util.Objects.checkIndex(i, size)];
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < size; i++) {
            sb.append(names[i]).append(": ").append(values[i]).append('\n');
        }
        return sb.toString();
    }
}
