package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.Columns;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryIn;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.util.Iterator;
import java.util.List;

/**
 * A part's rows as they are decoded from its files. It holds a lease on the part from the start (so a merge or drop
 * that removes the part meanwhile leaves its files in place until the reader is done) and opens them only at the
 * first row, so a query over many parts has one part open at a time. Exhausting or closing it ends the lease.
 */
public final class MergeTreeDataPartReader implements Iterator<Object[]>, AutoCloseable {
    private final IMergeTreeDataPart part;
    /** The part's data file (one-file layout), or one file per stored column (Wide). */
    private FileChannel[] channels;
    private BinaryIn[] ins;
    /** A Compact part's column starts in data.bin, and its end. */
    private long[] compactStarts;
    private long left;
    private boolean closed;
    /** Whether rows were read: a column file opened later would start at the wrong row. */
    private boolean started;
    /** The granules to read of a Wide part, as [from, to) pairs of granule numbers in order; null: every row. */
    private int[] granuleRanges;
    private PrimaryIndex index;
    /** The range being read, and the rows of it left; a seek to its first granule is due when {@link #seekDue}. */
    private int range;
    private long rangeLeft;
    private boolean seekDue;
    /** Each stored column's mark offsets, loaded when it is first sought. */
    private long[][] markOffsets;

    MergeTreeDataPartReader(IMergeTreeDataPart part) {
        this.part = part;
        this.left = part.rowCount();
    }

    public IMergeTreeDataPart part() {
        return part;
    }

    /** Whether this reader holds its part's files open now. */
    boolean isOpen() {
        if (channels != null) {
            for (FileChannel c : channels) {
                if (c != null && c.isOpen()) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public boolean hasNext() {
        if (left > 0) {
            return true;
        }
        close();
        return false;
    }

    @Override
    public Object[] next() {
        if (left <= 0) {
            throw new java.util.NoSuchElementException();
        }
        if (granuleRanges != null) {
            throw new IllegalStateException("the rows of chosen granules are read as columns");
        }
        try {
            open();
            started = true;
            DataPartStorageOnDisk.Layout l = part.layout();
            Object[] raw = new Object[l.stored().size()];
            for (int j = 0; j < raw.length; j++) {
                raw[j] = l.stored().get(j).type().readBinary(l.byColumn() ? ins[j] : ins[0]);
            }
            left--;
            if (l.map().length == raw.length && isIdentity(l.map()) && !l.converts()) {
                return raw;
            }
            if (l.converts()) {
                return l.toTable(raw);
            }
            Object[] row = new Object[l.table().size()];
            for (int i = 0; i < row.length; i++) {
                row[i] = l.map()[i] < 0 ? l.table().get(i).type().defaultValue() : raw[l.map()[i]];
            }
            return row;
        } catch (IOException e) {
            throw corrupted();
        }
    }

    /**
     * Reads only the granules {@code granuleRanges} lists ([from, to) pairs of granule numbers of {@code index}, in
     * order, none empty) of this Wide part, before any row is read: the rows of the others are skipped in each column
     * file by its marks.
     */
    void restrictTo(PrimaryIndex index, int[] granuleRanges) {
        if (started || part.layout().kind() != DataPartStorageOnDisk.Kind.WIDE) {
            throw new IllegalStateException("granules are chosen of a Wide part before it is read");
        }
        this.index = index;
        this.granuleRanges = granuleRanges;
        long rows = 0;
        for (int i = 0; i < granuleRanges.length; i += 2) {
            rows += index.start(granuleRanges[i + 1]) - index.start(granuleRanges[i]);
        }
        left = rows;
        range = -2;
        rangeLeft = 0;
    }

    /** Moves to the next range of granules when the current one is read; the seek to it follows when columns are read. */
    private void nextRange() {
        if (granuleRanges != null && rangeLeft == 0) {
            range += 2;
            rangeLeft = index.start(granuleRanges[range + 1]) - index.start(granuleRanges[range]);
            seekDue = true;
        }
    }

    /** Positions each open column file at the first granule of the current range, by its marks. */
    private void seek() throws IOException {
        List<Column> stored = part.layout().stored();
        if (markOffsets == null) {
            markOffsets = new long[stored.size()][];
        }
        int g = granuleRanges[range];
        for (int j = 0; j < ins.length; j++) {
            if (ins[j] == null) {
                continue;
            }
            if (markOffsets[j] == null) {
                markOffsets[j] = PrimaryIndex.marks(part, DataPartStorageOnDisk.columnFile(stored.get(j).name()), 1);
                if (markOffsets[j] == null || markOffsets[j].length != index.granules() + 1) {
                    throw new IOException("marks of " + stored.get(j).name() + " do not match the index");
                }
            }
            channels[j].position(markOffsets[j][g]);
            ins[j] = new BinaryIn(Channels.newInputStream(channels[j]));
        }
        seekDue = false;
    }

    /**
     * Up to {@code max} next rows decoded straight into columns, in table order (a column the part lacks is its
     * default): the rows {@link #next} would give, of the table columns {@code needed} marks (null: all); of a Wide
     * or Compact part only their values are read and decoded; a column not needed is its default, which the query
     * does not look at.
     */
    public ColumnRows nextColumns(int max, boolean[] needed) {
        if (left <= 0) {
            throw new java.util.NoSuchElementException();
        }
        nextRange();
        int n = (int) Math.min(max, granuleRanges == null ? left : rangeLeft);
        try {
            DataPartStorageOnDisk.Layout l = part.layout();
            boolean converts = l.converts();
            boolean[] read = storedNeeded(l, converts ? null : needed);
            open(read);
            if (seekDue) {
                seek();
            }
            started = true;
            IColumn.Mutable[] stored = Columns.mutable(l.stored(), n);
            if (l.byColumn()) {
                for (int j = 0; j < stored.length; j++) {
                    if (!read[j]) {
                        continue;
                    }
                    stored[j].readBinary(ins[j], n);
                }
            } else {
                for (int r = 0; r < n; r++) {
                    for (IColumn.Mutable c : stored) {
                        c.readBinary(ins[0]);
                    }
                }
            }
            left -= n;
            rangeLeft -= granuleRanges == null ? 0 : n;
            IColumn[] raw = Columns.finish(stored);
            if (converts) {
                return converted(l, raw, n);
            }
            if (needed == null && l.map().length == raw.length && isIdentity(l.map())) {
                return new ColumnRows(raw, n);
            }
            IColumn[] cols = new IColumn[l.table().size()];
            for (int i = 0; i < cols.length; i++) {
                Column t = l.table().get(i);
                int j = l.map()[i];
                cols[i] = j >= 0 && read[j] ? raw[j] : Columns.repeat(t.type(), t.type().defaultValue(), n);
            }
            return new ColumnRows(cols, n);
        } catch (IOException e) {
            throw corrupted();
        }
    }

    /** The rows of a part written before an ALTER, as the table's columns now (see {@link DataPartStorageOnDisk.Layout#toTable}). */
    private static ColumnRows converted(DataPartStorageOnDisk.Layout l, IColumn[] raw, int n) {
        Object[][] values = new Object[l.table().size()][n];
        Object[] in = new Object[raw.length];
        for (int r = 0; r < n; r++) {
            for (int j = 0; j < raw.length; j++) {
                in[j] = raw[j].get(r);
            }
            Object[] row = l.toTable(in);
            for (int i = 0; i < row.length; i++) {
                values[i][r] = row[i];
            }
        }
        IColumn[] cols = new IColumn[values.length];
        for (int i = 0; i < cols.length; i++) {
            cols[i] = Columns.ofValues(l.table().get(i).type(), values[i], n);
        }
        return new ColumnRows(cols, n);
    }

    private ChException corrupted() {
        close();
        // the message reaches the client: the part, never a server path
        return new ChException(ErrorCode.CORRUPTED_DATA, "Cannot read part " + part.name());
    }

    /** The stored columns to read: those behind a needed table column (every one of a one-file part, which is read whole). */
    private static boolean[] storedNeeded(DataPartStorageOnDisk.Layout l, boolean[] needed) {
        boolean[] read = new boolean[l.stored().size()];
        if (!l.byColumn() || needed == null) {
            java.util.Arrays.fill(read, true);
            return read;
        }
        for (int i = 0; i < l.map().length; i++) {
            if (l.map()[i] >= 0 && i < needed.length && needed[i]) {
                read[l.map()[i]] = true;
            }
        }
        return read;
    }

    private void open() throws IOException {
        open(null);
    }

    /** Opens the files of the stored columns {@code read} marks (null: all) that are not open yet. */
    private void open(boolean[] read) throws IOException {
        DataPartStorageOnDisk.Layout l = part.layout();
        if (l.kind() == DataPartStorageOnDisk.Kind.COMPACT) {
            openCompact(read);
            return;
        }
        if (l.kind() == DataPartStorageOnDisk.Kind.WIDE) {
            List<Column> stored = l.stored();
            if (ins == null) {
                channels = new FileChannel[stored.size()];
                ins = new BinaryIn[stored.size()];
            }
            for (int j = 0; j < channels.length; j++) {
                if (ins[j] == null && (read == null || read[j])) {
                    if (started) {
                        throw new IllegalStateException("a column is read from a part after its rows were read without it");
                    }
                    channels[j] = part.file().open(DataPartStorageOnDisk.columnFile(stored.get(j).name()));
                    ins[j] = new BinaryIn(Channels.newInputStream(channels[j]));
                }
            }
            return;
        }
        if (ins == null) {
            channels = new FileChannel[] {part.file().open()};
            channels[0].position(l.dataOffset());
            ins = new BinaryIn[] {new BinaryIn(Channels.newInputStream(channels[0]))};
        }
    }

    /**
     * A Compact part: one channel on data.bin, and for each column to read a cursor from where its marks say it
     * starts to where the next one starts (positional reads, so the cursors do not disturb each other).
     */
    private void openCompact(boolean[] read) throws IOException {
        int width = part.layout().stored().size();
        if (channels == null) {
            channels = new FileChannel[] {part.file().open(DataPartStorageOnDisk.COMPACT_DATA_FILE)};
            ins = new BinaryIn[width];
            long[] starts = new long[width + 1];
            try (FileChannel m = part.file().open(DataPartStorageOnDisk.COMPACT_MARKS_FILE)) {
                BinaryIn marks = new BinaryIn(Channels.newInputStream(m));
                for (int j = 0; j < width; j++) {
                    starts[j] = marks.readLongLE(8);
                    marks.readLongLE(8);
                }
            }
            starts[width] = channels[0].size();
            compactStarts = starts;
        }
        for (int j = 0; j < width; j++) {
            if (ins[j] == null && (read == null || read[j])) {
                if (started) {
                    throw new IllegalStateException("a column is read from a part after its rows were read without it");
                }
                ins[j] = new BinaryIn(new RangeInputStream(channels[0], compactStarts[j], compactStarts[j + 1]));
            }
        }
    }

    private static boolean isIdentity(int[] map) {
        for (int i = 0; i < map.length; i++) {
            if (map[i] != i) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (channels != null) {
                for (FileChannel c : channels) {
                    if (c != null) {
                        c.close();
                    }
                }
            }
        } catch (IOException ignored) {
            // nothing to do
        } finally {
            part.file().release();
        }
    }

    /** Bytes {@code [from, to)} of a file read by position, so several such streams can share one channel. */
    private static final class RangeInputStream extends java.io.InputStream {
        private final FileChannel channel;
        private long pos;
        private final long end;

        RangeInputStream(FileChannel channel, long from, long to) {
            this.channel = channel;
            this.pos = from;
            this.end = to;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) <= 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (pos >= end) {
                return -1;
            }
            int n = channel.read(ByteBuffer.wrap(b, off, (int) Math.min(len, end - pos)), pos);
            if (n > 0) {
                pos += n;
            }
            return n;
        }
    }
}
