package dev.chdedup.stub.exec.timeseries;

import dev.chdedup.stub.compress.CityHash128;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.ByteStrings;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tag groups of one query, as ClickHouse's ContextTimeSeriesTagsCollector: a group is the number of a distinct
 * set of tags (name and value pairs sorted by name, no empty value), numbered in the order the query first meets
 * each set, group 0 being the empty set; each group has a sampling key (CityHash64WithSeed v1.0.2 chained over its
 * names and values, 0 for the empty set); identifiers stored with {@code timeSeriesStoreTags} map to a group.
 */
final class TimeSeriesTagsCollector {
    /** One tag; names and values are byte strings ({@link ByteStrings}). */
    record Tag(String name, String value) {
    }

    private static final long K2 = 0x9ae16a3b2f90404fL;

    private final List<List<Tag>> groups = new ArrayList<>();
    private final List<Long> samplingKeys = new ArrayList<>();
    private final Map<List<Tag>, Long> groupOfTags = new HashMap<>();
    private final Map<Object, Long> groupOfId = new HashMap<>();

    TimeSeriesTagsCollector() {
        groupOf(List.of());
    }

    /** The group of {@code tags} (sorted by name, without empty values), a new one the first time. */
    synchronized long groupOf(List<Tag> tags) {
        Long g = groupOfTags.get(tags);
        if (g != null) {
            return g;
        }
        List<Tag> copy = List.copyOf(tags);
        long n = groups.size();
        groups.add(copy);
        samplingKeys.add(samplingKey(copy));
        groupOfTags.put(copy, n);
        return n;
    }

    synchronized List<Tag> tags(long group) {
        check(group);
        return groups.get((int) group);
    }

    synchronized long samplingKey(long group) {
        check(group);
        return samplingKeys.get((int) group);
    }

    private void check(long group) {
        if (group < 0 || group >= groups.size()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Group " + Long.toUnsignedString(group)
                + " is out of bounds, must be between 0 and " + (groups.size() - 1));
        }
    }

    /** Stores {@code tags} for the identifier {@code id} (its text {@code idText}); an identifier keeps its first tags. */
    synchronized void store(Object id, String idText, List<Tag> tags) {
        long g = groupOf(tags);
        Long old = groupOfId.putIfAbsent(id, g);
        if (old != null && old != g) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot add identifier " + idText + " with tags " + text(tags)
                + " because it was added before with tags " + text(groups.get(old.intValue())));
        }
    }

    synchronized long groupOfId(Object id, String idText) {
        Long g = groupOfId.get(id);
        if (g == null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Unknown identifier " + idText);
        }
        return g;
    }

    /** {@code {'name': 'value', ...}}, as the engine's messages show tags. */
    static String text(List<Tag> tags) {
        StringBuilder sb = new StringBuilder("{");
        for (Tag t : tags) {
            if (sb.length() > 1) {
                sb.append(", ");
            }
            quote(t.name(), sb);
            sb.append(": ");
            quote(t.value(), sb);
        }
        return sb.append('}').toString();
    }

    private static void quote(String s, StringBuilder sb) {
        sb.append('\'');
        String text = ByteStrings.toText(s);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        sb.append('\'');
    }

    private static long samplingKey(List<Tag> tags) {
        long hash = 0;
        for (Tag t : tags) {
            hash = cityHash64WithSeed(t.name(), hash);
            hash = cityHash64WithSeed(t.value(), hash);
        }
        return hash;
    }

    /** CityHash64WithSeed of v1.0.2: HashLen16(CityHash64(s) - k2, seed). */
    private static long cityHash64WithSeed(String s, long seed) {
        byte[] b = ByteStrings.bytes(s);
        return CityHash128.hash128to64(CityHash128.hash64(b, 0, b.length) - K2, seed);
    }
}
