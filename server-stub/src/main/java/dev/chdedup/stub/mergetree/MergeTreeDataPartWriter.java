package dev.chdedup.stub.mergetree;

import dev.chdedup.stub.compress.HashingBuffer;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.types.BinaryOut;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Iterator;
import java.util.List;

/**
 * Writes a part's files (see {@link DataPartStorageOnDisk} for the layout) as streams, a buffer per column: memory
 * never holds a large part's rows. A part is written under a temporary name ({@code tmp_...}), optionally fsynced,
 * then renamed to its final name (under the table's parts lock, see {@link MergeTreeData}), so a crash leaves either
 * the whole part or a temporary directory that loading removes. The block ids travel inside the part, so a crash
 * between the rename and the deduplication log's record cannot make a retry land twice: loading puts them back into
 * the log.
 */
public final class MergeTreeDataPartWriter {
    /**
     * A part whose values take at most this many bytes is written Compact (ClickHouse: {@code min_bytes_for_wide_part}),
     * unless the table sets that ({@link PrimaryIndex.Spec#wideFromBytes}).
     */
    static final long COMPACT_MAX_BYTES = 1 << 20;

    private static final int WRITE_BUFFER = 1 << 16;
    /** Rows of a column written into the buffer at a time: a few kilobytes of fixed-width values. */
    private static final int WRITE_ROWS = 1024;

    private MergeTreeDataPartWriter() {
    }

    /** Writes a part under its final name at once (tests and tools; the server goes through {@link MergeTreeData}). */
    public static long write(Path tableDir, MergeTreePartInfo info, List<Column> columns, List<Object[]> rows, boolean fsync)
        throws IOException {
        Written w = writeTemporary(tableDir, "insert_" + info.name(), columns, rows.iterator(), List.of(), fsync);
        w.publish(info);
        return w.dataBytes();
    }

    /**
     * A part written under its temporary name, not yet visible: {@link #publish} renames it to a part name,
     * {@link #discard()} drops it.
     */
    public record Written(Path tableDir, Path tmp, long rows, long dataBytes, long dataOffset, List<String> blockIds, boolean fsync) {
        public void publish(MergeTreePartInfo info) throws IOException {
            Path dst = finalPath(info);
            if (tmp.equals(dst)) {
                return;
            }
            if (Files.exists(dst)) {
                throw new ChException(ErrorCode.DUPLICATE_DATA_PART, "Part " + info.name() + " already exists on disk");
            }
            try {
                Files.move(tmp, dst, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, dst);
            }
            if (fsync) {
                DataPartStorageOnDisk.fsyncDir(tableDir);
            }
        }

        /** Where the part goes: its directory, or for a part of the one-file layout (a fetched old part) its file. */
        Path finalPath(MergeTreePartInfo info) {
            return Files.isDirectory(tmp) ? DataPartStorageOnDisk.pathOf(tableDir, info.name()) : tableDir.resolve(info.name() + DataPartStorageOnDisk.EXT);
        }

        /** This part renamed to {@code info}'s final name, still outside the part set (a replicated insert before its commit). */
        public Written published(MergeTreePartInfo info) throws IOException {
            Path dst = finalPath(info);
            publish(info);
            return new Written(tableDir, dst, rows, dataBytes, dataOffset, blockIds, fsync);
        }

        public void discard() {
            try {
                DataPartStorageOnDisk.deleteRecursively(tmp);
            } catch (IOException ignored) {
                // a leftover temporary part is removed on the next load
            }
        }
    }

    /**
     * Writes rows (already in key order) as a part under the temporary name {@code tmp_<tmpName>}, with the block ids it
     * is inserted with (empty for merged and mutated parts), streaming: a buffer per column. The rows of a columnar
     * piece ({@link #iterator}) are written column after column from their columns.
     */
    public static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, Iterator<Object[]> rows, List<String> blockIds,
                                         boolean fsync) throws IOException {
        return writeTemporary(tableDir, tmpName, columns, rows, blockIds, fsync, PrimaryIndex.Spec.NONE);
    }

    /**
     * {@link #writeTemporary(Path, String, List, Iterator, List, boolean)} with the primary index {@code index} describes:
     * {@code primary.idx}, and the marks of each column of a Wide part.
     */
    static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, Iterator<Object[]> rows, List<String> blockIds,
                                  boolean fsync, PrimaryIndex.Spec index) throws IOException {
        if (rows instanceof ColumnRowIterator) {
            return writeTemporary(tableDir, tmpName, columns, ((ColumnRowIterator) rows).rows, blockIds, fsync, index);
        }
        Path tmp = tableDir.resolve(DataPartStorageOnDisk.TMP_PREFIX + tmpName);
        boolean ok = false;
        try {
            Files.createDirectory(tmp);
            int width = columns.size();
            BinaryOut[] bufs = new BinaryOut[width];
            for (int c = 0; c < width; c++) {
                bufs[c] = new BinaryOut(1024);
            }
            // the rows stay in the buffers while the part is small (then it is Compact); past that each column streams
            // to its own file (Wide)
            FileChannel[] files = null;
            HashingBuffer[] hashes = null;
            long count = 0;
            long bytes = 0;
            long buffered = 0;
            Checksums sums = new Checksums();
            PrimaryIndex.Builder idx = new PrimaryIndex.Builder(index, columns);
            // each column's granule starts in its stream: the bytes its file's hash took, and those buffered
            BinaryOut[] starts = new BinaryOut[idx.enabled() ? width : 0];
            for (int c = 0; c < starts.length; c++) {
                starts[c] = new BinaryOut(256);
            }
            try {
                while (rows.hasNext()) {
                    Object[] r = rows.next();
                    if (idx.enabled() && idx.row(count, r)) {
                        for (int c = 0; c < width; c++) {
                            starts[c].writeLongLE((hashes == null ? 0 : hashes[c].size()) + bufs[c].size(), 8);
                        }
                    }
                    for (int c = 0; c < width; c++) {
                        BinaryOut b = bufs[c];
                        int before = b.size();
                        columns.get(c).type().writeBinary(r[c], b);
                        if (files == null) {
                            buffered += b.size() - before;
                        } else if (b.size() >= WRITE_BUFFER) {
                            bytes += drain(files[c], b, hashes[c]);
                        }
                    }
                    count++;
                    if (files == null && buffered >= index.wideFromBytes()) {
                        files = new FileChannel[width];
                        hashes = new HashingBuffer[width];
                        for (int c = 0; c < width; c++) {
                            String name = DataPartStorageOnDisk.columnFile(columns.get(c).name());
                            files[c] = create(tmp.resolve(name));
                            hashes[c] = sums.file(name);
                            bytes += drain(files[c], bufs[c], hashes[c]);
                        }
                    }
                }
                if (files == null) {
                    bytes = writeCompact(tmp, bufs, count, fsync, sums);
                } else {
                    for (int c = 0; c < width; c++) {
                        bytes += drain(files[c], bufs[c], hashes[c]);
                        if (fsync) {
                            files[c].force(true);
                        }
                    }
                    for (int c = 0; c < starts.length; c++) {
                        writeMarks(tmp, DataPartStorageOnDisk.columnFile(columns.get(c).name()), starts[c], count, index.granularity(),
                            hashes[c].size(), fsync, sums);
                    }
                }
                byte[] primary = idx.bytes(files == null);
                if (primary != null) {
                    writeSmall(tmp, PrimaryIndex.INDEX_FILE, primary, fsync, sums);
                }
            } finally {
                if (files != null) {
                    for (FileChannel f : files) {
                        if (f != null) {
                            f.close();
                        }
                    }
                }
            }
            Written w = finishPart(tableDir, tmp, columns, count, bytes, blockIds, fsync, sums);
            ok = true;
            return w;
        } finally {
            if (!ok) {
                DataPartStorageOnDisk.deleteRecursively(tmp);
            }
        }
    }

    /**
     * Writes a Compact part's data: {@code data.bin}, the columns' values one column after another (one granule), and
     * {@code data.mrk3}, its marks: for each column the offset where it starts and its offset in the (uncompressed)
     * block, 0, then the granule's row count, each a UInt64. Returns the data bytes.
     */
    private static long writeCompact(Path tmp, BinaryOut[] columns, long rows, boolean fsync, Checksums sums) throws IOException {
        BinaryOut marks = new BinaryOut(16 * columns.length + 8);
        long offset = 0;
        for (BinaryOut c : columns) {
            marks.writeLongLE(offset, 8);
            marks.writeLongLE(0, 8);
            offset += c.size();
        }
        marks.writeLongLE(rows, 8);
        byte[] data = new byte[(int) offset];
        int at = 0;
        for (BinaryOut c : columns) {
            System.arraycopy(c.array(), 0, data, at, c.size());
            at += c.size();
        }
        writeSmall(tmp, DataPartStorageOnDisk.COMPACT_DATA_FILE, data, fsync, sums);
        writeSmall(tmp, DataPartStorageOnDisk.COMPACT_MARKS_FILE, marks.toByteArray(), fsync, sums);
        return offset;
    }

    /** {@link #writeTemporary(Path, String, List, Iterator, List, boolean)} of columnar rows: each column's file in one go. */
    public static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, ColumnRows rows, List<String> blockIds,
                                         boolean fsync) throws IOException {
        return writeTemporary(tableDir, tmpName, columns, rows, blockIds, fsync, PrimaryIndex.Spec.NONE);
    }

    /** {@link #writeTemporary(Path, String, List, ColumnRows, List, boolean)} with the primary index {@code index} describes. */
    static Written writeTemporary(Path tableDir, String tmpName, List<Column> columns, ColumnRows rows, List<String> blockIds,
                                  boolean fsync, PrimaryIndex.Spec index) throws IOException {
        IColumn[] data = rows.columns();
        if (data.length != columns.size()) {
            throw new IllegalArgumentException(data.length + " columns for a part of " + columns.size());
        }
        long estimate = 0;
        for (IColumn c : data) {
            estimate += c.byteSize();
        }
        if (estimate < index.wideFromBytes()) {
            return writeTemporary(tableDir, tmpName, columns, rows.iterator(), blockIds, fsync, index); // a small part: Compact
        }
        Path tmp = tableDir.resolve(DataPartStorageOnDisk.TMP_PREFIX + tmpName);
        boolean ok = false;
        try {
            Files.createDirectory(tmp);
            BinaryOut buf = new BinaryOut(WRITE_BUFFER + 1024);
            long bytes = 0;
            int n = rows.size();
            Checksums sums = new Checksums();
            PrimaryIndex.Builder idx = new PrimaryIndex.Builder(index, columns);
            int granule = idx.enabled() ? index.granularity() : Integer.MAX_VALUE;
            for (int c = 0; c < data.length; c++) {
                String name = DataPartStorageOnDisk.columnFile(columns.get(c).name());
                BinaryOut starts = idx.enabled() ? new BinaryOut(256) : null;
                HashingBuffer hash = sums.file(name);
                try (FileChannel ch = create(tmp.resolve(name))) {
                    IColumn col = data[c];
                    for (int g = 0; g < n; g += granule) {
                        int end = (int) Math.min(n, (long) g + granule);
                        if (starts != null) {
                            starts.writeLongLE(hash.size() + buf.size(), 8); // the bytes drained to the file, and those buffered
                        }
                        for (int r = g; r < end; r += WRITE_ROWS) {
                            col.writeBinary(r, Math.min(WRITE_ROWS, end - r), buf);
                            if (buf.size() >= WRITE_BUFFER) {
                                bytes += drain(ch, buf, hash);
                            }
                        }
                    }
                    bytes += drain(ch, buf, hash);
                    if (fsync) {
                        ch.force(true);
                    }
                }
                if (starts != null) {
                    writeMarks(tmp, name, starts, n, granule, hash.size(), fsync, sums);
                }
            }
            if (idx.enabled() && n > 0) {
                int[] keys = index.keyColumns();
                for (int g = 0; g < n; g += granule) {
                    idx.granule(keyAt(data, keys, g));
                }
                idx.last(keyAt(data, keys, n - 1));
                writeSmall(tmp, PrimaryIndex.INDEX_FILE, idx.bytes(false), fsync, sums);
            }
            Written w = finishPart(tableDir, tmp, columns, n, bytes, blockIds, fsync, sums);
            ok = true;
            return w;
        } finally {
            if (!ok) {
                DataPartStorageOnDisk.deleteRecursively(tmp);
            }
        }
    }

    private static Object[] keyAt(IColumn[] data, int[] keys, int row) {
        Object[] k = new Object[keys.length];
        for (int i = 0; i < keys.length; i++) {
            k[i] = data[keys[i]].get(row);
        }
        return k;
    }

    /**
     * Writes a column's {@code .mrk2} from where each granule starts in its file ({@code starts}, a UInt64 each): per
     * granule its compressed block at 0 (the file is one uncompressed block), its start in that block and its rows, then
     * a final mark at the file's end with none, as ClickHouse's adaptive marks. A column ClickHouse keeps in one
     * compressed block has these very marks.
     */
    private static void writeMarks(Path tmp, String columnFile, BinaryOut starts, long rows, int granularity, long fileSize,
                                   boolean fsync, Checksums sums) throws IOException {
        int count = starts.size() / 8;
        java.nio.ByteBuffer at = java.nio.ByteBuffer.wrap(starts.array(), 0, starts.size()).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        BinaryOut out = new BinaryOut(24 * (count + 1));
        for (int m = 0; m <= count; m++) {
            out.writeLongLE(0, 8);
            out.writeLongLE(m < count ? at.getLong(8 * m) : fileSize, 8);
            out.writeLongLE(m < count ? Math.min(granularity, rows - (long) m * granularity) : 0, 8);
        }
        writeSmall(tmp, PrimaryIndex.marksFile(columnFile), out.toByteArray(), fsync, sums);
    }

    /** The rows of a columnar piece as an iterator that {@link #writeTemporary} recognises and writes from the columns. */
    public static Iterator<Object[]> iterator(List<Object[]> rows) {
        return rows instanceof ColumnRows ? new ColumnRowIterator((ColumnRows) rows) : rows.iterator();
    }

    private static final class ColumnRowIterator implements Iterator<Object[]> {
        final ColumnRows rows;
        int next;

        ColumnRowIterator(ColumnRows rows) {
            this.rows = rows;
        }

        @Override
        public boolean hasNext() {
            return next < rows.size();
        }

        @Override
        public Object[] next() {
            return rows.get(next++);
        }
    }

    private static FileChannel create(Path file) throws IOException {
        return FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /** Writes a part's small files once its column files are written: columns, count, block ids, then the checksums. */
    private static Written finishPart(Path tableDir, Path tmp, List<Column> columns, long count, long dataBytes, List<String> blockIds,
                                      boolean fsync, Checksums sums) throws IOException {
        StringBuilder cols = new StringBuilder("columns format version: 1\n").append(columns.size()).append(" columns:\n");
        for (Column c : columns) {
            cols.append('`').append(c.name()).append("` ").append(c.type().name()).append('\n');
        }
        writeSmall(tmp, DataPartStorageOnDisk.COLUMNS_FILE, cols.toString(), fsync, null); // as in ClickHouse, the checksums leave columns.txt out
        writeSmall(tmp, DataPartStorageOnDisk.COUNT_FILE, Long.toString(count), fsync, sums);
        if (!blockIds.isEmpty()) {
            StringBuilder ids = new StringBuilder();
            for (String id : blockIds) {
                ids.append(DataPartStorageOnDisk.BLOCK_ID).append(id).append('\n');
            }
            writeSmall(tmp, DataPartStorageOnDisk.BLOCK_IDS_FILE, ids.toString(), fsync, sums);
        }
        writeSmall(tmp, DataPartStorageOnDisk.CHECKSUMS_FILE, sums.text(), fsync, null);
        if (fsync) {
            DataPartStorageOnDisk.fsyncDir(tmp);
        }
        return new Written(tableDir, tmp, count, dataBytes, 0, List.copyOf(blockIds), fsync);
    }

    private static void writeSmall(Path dir, String name, String text, boolean fsync, Checksums sums) throws IOException {
        writeSmall(dir, name, text.getBytes(StandardCharsets.UTF_8), fsync, sums);
    }

    private static void writeSmall(Path dir, String name, byte[] bytes, boolean fsync, Checksums sums) throws IOException {
        if (sums != null) {
            sums.add(name, bytes, bytes.length);
        }
        try (FileChannel ch = create(dir.resolve(name))) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            if (fsync) {
                ch.force(true);
            }
        }
    }

    /**
     * A part's checksums.txt, ClickHouse's text form of version 2: the file count, then each file's name, size and hash
     * (two decimal halves), uncompressed; columns.txt and checksums.txt themselves are not listed, as in ClickHouse. The hash is the one ClickHouse stores, {@link HashingBuffer}'s, taken as each
     * file is written (so the part's directory is not listed and read back).
     */
    static final class Checksums {
        private final java.util.TreeMap<String, HashingBuffer> files = new java.util.TreeMap<>();

        /** The hash of file {@code name}, to be fed with its bytes as they are written. */
        HashingBuffer file(String name) {
            HashingBuffer h = new HashingBuffer();
            files.put(name, h);
            return h;
        }

        void add(String name, byte[] b, int n) {
            file(name).update(b, 0, n);
        }

        /** The text of every file hashed here: each file of a part but columns.txt is written through this class. */
        String text() {
            StringBuilder sb = new StringBuilder("checksums format version: 2\n").append(files.size()).append(" files:\n");
            files.forEach((name, h) -> {
                long[] hash = h.hash();
                sb.append(name).append("\n\tsize: ").append(h.size()).append("\n\thash: ").append(Long.toUnsignedString(hash[0])).append(' ')
                    .append(Long.toUnsignedString(hash[1])).append("\n\tcompressed: 0\n");
            });
            return sb.toString();
        }
    }

    /** {@link #drain(FileChannel, BinaryOut)}, the bytes going through the file's hash too. */
    private static long drain(FileChannel ch, BinaryOut out, HashingBuffer hash) throws IOException {
        hash.update(out.array(), 0, out.size());
        return drain(ch, out);
    }

    private static long drain(FileChannel ch, BinaryOut out) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(out.array(), 0, out.size());
        while (b.hasRemaining()) {
            ch.write(b);
        }
        long n = out.size();
        out.reset();
        return n;
    }
}
