package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.BinaryIn;
import dev.chdedup.stub.types.BinaryOut;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.List;

/**
 * A part's primary index, as ClickHouse's: the rows are cut into granules of {@code index_granularity} rows, and
 * {@code primary.idx} holds the primary key's values at the first row of each granule and, for the final mark, at the
 * part's last row, each value in its binary form, one key column after another. A Wide part has beside each
 * {@code <column>.bin} a {@code <column>.mrk2} of marks, three UInt64 each: where the granule's compressed block
 * starts in the file, 0 (the file is one uncompressed block), where the granule starts in that block, and its row
 * count; a final mark at the file's size, with no rows, ends them (byte for byte what ClickHouse writes, with
 * {@code compress_marks = 0}, for a column of one compressed block). A
 * Compact part is one granule ({@code data.mrk3}), so its index has its first and last row. The index holds the stored
 * columns the primary key starts with ({@link TableDefinition#primaryKeyColumns()}); a key that starts with an
 * expression has none.
 *
 * <p>A query reads from the index which granules can hold rows its WHERE accepts ({@link KeyCondition}); the reader
 * then reads only those ({@link MergeTreeDataPartReader#restrictTo}). A part written before parts had an index, or
 * whose index does not match the table, is read whole.
 */
final class PrimaryIndex {
    static final String INDEX_FILE = "primary.idx";
    static final String MARKS_EXT = ".mrk2";
    /** The most bytes a Compact part gathers in memory, whatever {@code min_bytes_for_wide_part} says. */
    static final long MAX_COMPACT_BYTES = 64L << 20;

    /**
     * Rows per granule and the positions of the key columns among the part's columns (none: no index file), and the
     * size from which a part is Wide: the table's {@code min_bytes_for_wide_part} where it sets one, else above
     * {@link MergeTreeDataPartWriter#COMPACT_MAX_BYTES} (ClickHouse's default is 10 MiB; a Compact part is gathered in
     * memory before it is written, so the stub keeps them smaller, and a part of more than 64 MiB is Wide whatever the
     * setting says).
     */
    record Spec(int granularity, int[] keyColumns, long wideFromBytes) {
        static final Spec NONE = new Spec(8192, new int[0], MergeTreeDataPartWriter.COMPACT_MAX_BYTES + 1);

        static Spec of(TableDefinition def, List<Column> columns, long granularity) {
            String wide = def.settings().get("min_bytes_for_wide_part");
            long wideFrom = wide != null ? Math.min(MAX_COMPACT_BYTES, MergeTreeSettings.getLong(def.settings(), "min_bytes_for_wide_part"))
                : MergeTreeDataPartWriter.COMPACT_MAX_BYTES + 1;
            int g = (int) Math.max(1, Math.min(Integer.MAX_VALUE, granularity));
            int[] keys = new int[def.primaryKeyColumns().size()];
            for (int k = 0; k < keys.length; k++) {
                keys[k] = -1;
                for (int c = 0; c < columns.size(); c++) {
                    if (columns.get(c).name().equals(def.primaryKeyColumns().get(k))) {
                        keys[k] = c;
                    }
                }
                if (keys[k] < 0) {
                    return new Spec(g, java.util.Arrays.copyOf(keys, k), wideFrom);
                }
            }
            return new Spec(g, keys, wideFrom);
        }
    }

    /** Row where each granule starts, and after them the part's row count. */
    private final long[] starts;
    /** The first key column's value at each mark: the granules' first rows, then the last row. */
    private final Object[] firstKey;

    private PrimaryIndex(long[] starts, Object[] firstKey) {
        this.starts = starts;
        this.firstKey = firstKey;
    }

    int granules() {
        return starts.length - 1;
    }

    long start(int granule) {
        return starts[granule];
    }

    /** The first key column's smallest value in granule {@code g}: its first row's. */
    Object low(int g) {
        return firstKey[g];
    }

    /** The first key column's largest value in granule {@code g}: the next granule's first (or the last row's). */
    Object high(int g) {
        return firstKey[g + 1];
    }

    /** The marks of a column file name ({@code <column>.bin}): its {@code .mrk2}. */
    static String marksFile(String columnFile) {
        return columnFile.substring(0, columnFile.length() - DataPartStorageOnDisk.EXT.length()) + MARKS_EXT;
    }

    /**
     * Loads the index of {@code part} for key columns named {@code keyNames} (the table's), or null when it has none that
     * fits: no index file, a key column the part does not store, or an index or marks whose size does not agree.
     */
    static PrimaryIndex load(IMergeTreeDataPart part, List<String> keyNames) {
        DataPartStorageOnDisk.Layout l = part.layout();
        if (keyNames.isEmpty() || l.kind() == DataPartStorageOnDisk.Kind.ONE_FILE || part.rowCount() == 0) {
            return null;
        }
        List<Column> keys = new ArrayList<>();
        for (String name : keyNames) {
            Column found = null;
            for (Column c : l.stored()) {
                if (c.name().equals(name)) {
                    found = c;
                }
            }
            if (found == null) {
                return null;
            }
            keys.add(found);
        }
        try {
            long[] starts;
            if (l.kind() == DataPartStorageOnDisk.Kind.COMPACT) {
                starts = new long[] {0, part.rowCount()};
            } else {
                long[] rows = marks(part, DataPartStorageOnDisk.columnFile(keys.get(0).name()), 2);
                if (rows == null) {
                    return null;
                }
                starts = new long[rows.length];
                for (int g = 1; g < rows.length; g++) {
                    starts[g] = starts[g - 1] + rows[g - 1];
                }
                if (starts[starts.length - 1] != part.rowCount()) {
                    return null;
                }
            }
            Object[] first = new Object[starts.length];
            try (FileChannel ch = part.file().open(INDEX_FILE)) {
                long size = ch.size();
                BinaryIn in = new BinaryIn(Channels.newInputStream(ch));
                for (int m = 0; m < first.length; m++) {
                    for (int k = 0; k < keys.size(); k++) {
                        Object v = keys.get(k).type().readBinary(in);
                        if (k == 0) {
                            first[m] = v;
                        }
                    }
                }
                if (in.position() != size) {
                    return null;
                }
            }
            return new PrimaryIndex(starts, first);
        } catch (IOException | RuntimeException e) {
            return null; // no index (a part of an earlier layout) or one that does not fit: the part is read whole
        }
    }

    /**
     * Field {@code field} (1: where the granule starts, 2: rows) of each mark of a Wide part's column file {@code columnFile},
     * the final mark included; null when the part has no marks for it.
     */
    static long[] marks(IMergeTreeDataPart part, String columnFile, int field) throws IOException {
        try (FileChannel ch = part.file().open(marksFile(columnFile))) {
            long size = ch.size();
            if (size % 24 != 0 || size == 0) {
                return null;
            }
            BinaryIn in = new BinaryIn(Channels.newInputStream(ch));
            long[] out = new long[(int) (size / 24)];
            for (int m = 0; m < out.length; m++) {
                in.readLongLE(8);
                long offset = in.readLongLE(8);
                long rows = in.readLongLE(8);
                out[m] = field == 1 ? offset : rows;
            }
            return out;
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    /** Writes the index while a part is written: the key at each granule's first row and at the last row. */
    static final class Builder {
        private final Spec spec;
        private final List<Column> columns;
        private final List<Object[]> granuleKeys = new ArrayList<>();
        private final Object[] lastKey;

        Builder(Spec spec, List<Column> columns) {
            this.spec = spec;
            this.columns = columns;
            this.lastKey = new Object[spec.keyColumns().length];
        }

        boolean enabled() {
            return spec.keyColumns().length > 0;
        }

        /**
         * Row {@code row} of the part is {@code values} (all its columns): noted when it starts a granule or may be the
         * last. Returns whether it starts a granule.
         */
        boolean row(long row, Object[] values) {
            int[] keys = spec.keyColumns();
            boolean starts = row % spec.granularity() == 0;
            if (starts) {
                Object[] k = new Object[keys.length];
                for (int i = 0; i < keys.length; i++) {
                    k[i] = values[keys[i]];
                }
                granuleKeys.add(k);
            }
            for (int i = 0; i < keys.length; i++) {
                lastKey[i] = values[keys[i]];
            }
            return starts;
        }

        /** Row {@code row} of columnar rows whose key column values {@code key} gives (by position in the spec). */
        void granule(Object[] key) {
            granuleKeys.add(key);
        }

        void last(Object[] key) {
            System.arraycopy(key, 0, lastKey, 0, key.length);
        }

        /** primary.idx of a Wide part (every granule) or of a Compact one (its one granule), or null without an index. */
        byte[] bytes(boolean compact) {
            if (!enabled() || granuleKeys.isEmpty()) {
                return null;
            }
            BinaryOut out = new BinaryOut(64 * (granuleKeys.size() + 1));
            int marks = compact ? 1 : granuleKeys.size();
            for (int m = 0; m < marks; m++) {
                write(granuleKeys.get(m), out);
            }
            write(lastKey, out);
            return out.toByteArray();
        }

        private void write(Object[] key, BinaryOut out) {
            for (int i = 0; i < key.length; i++) {
                columns.get(spec.keyColumns()[i]).type().writeBinary(key[i], out);
            }
        }
    }
}
