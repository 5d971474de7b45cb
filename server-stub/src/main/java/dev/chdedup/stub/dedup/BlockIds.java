package dev.chdedup.stub.dedup;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.data.ColumnRows;
import dev.chdedup.stub.data.IColumn;
import dev.chdedup.stub.hash.SipHash;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.StringType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Block ids, the one place every insert path computes them.
 *
 * <ul>
 *   <li>As ClickHouse 26.x does (the default): the {@link #dataHash} of a block's rows as sent (SipHash-128 fed
 *   column after column by {@link ColumnRangeHash}), then {@link #unifiedBlockId} of the text a
 *   {@link DeduplicationInfo} makes of it with the block's extras: {@code <partition>_<lo>_<hi>}.</li>
 *   <li>As 18.16 and 22.1 did (under their emulation): one id per part, {@link #pieceId} of the part's rows sorted by
 *   the ORDER BY key, so equal parts are duplicates wherever they came from.</li>
 * </ul>
 */
public final class BlockIds {
    private BlockIds() {
    }

    /**
     * The data hash of {@code rows[from, to)}, {lo, hi}: one SipHash-128 fed with each sent column's run of values
     * in the order the insert sent them ({@code sent}: indexes into a row; null for every column in table order), as
     * ClickHouse 26.x hashes a block's rows for its deduplication token.
     */
    public static long[] dataHash(List<Column> columns, int[] sent, List<Object[]> rows, int from, int to) {
        SipHash h = new SipHash();
        int n = sent == null ? columns.size() : sent.length;
        for (int k = 0; k < n; k++) {
            int c = sent == null ? k : sent[k];
            ColumnRangeHash.update(columns.get(c).type(), rows, c, from, to, h);
        }
        return h.get128();
    }

    /** The block id of a token's text in a partition, as ClickHouse 26.x writes it: {@code <partition>_<lo>_<hi>}. */
    public static String unifiedBlockId(String partitionId, String tokenText) {
        long[] h = hashToken(tokenText);
        return partitionId + "_" + Long.toUnsignedString(h[0]) + "_" + Long.toUnsignedString(h[1]);
    }

    /** The legacy block id of one partition's piece (18.16, 22.1 had no token): the hash of its sorted rows. */
    public static String pieceId(String partitionId, List<Column> columns, List<Object[]> sortedRows) {
        return blockId(partitionId, hashData(columns, sortedRows));
    }

    /** Bytes gathered before they are fed to the hash. */
    private static final int CHUNK = 1 << 16;

    /** Per-thread column buffers, reused so hashing a block allocates nothing in the steady state. */
    private static final ThreadLocal<BinaryOut[]> BUFFERS = ThreadLocal.withInitial(() -> new BinaryOut[0]);

    /** Rows serialized per batch before their bytes are fed to the column hashes (keeps the buffers in cache). */
    private static final int BATCH_ROWS = 1024;

    /**
     * The data hash of rows, {low, high}: each column's values in their binary form go through a SipHash-128 of
     * their own, column after column as the rows are walked once in batches (row objects are visited while in
     * cache, the column buffers stay small), and the block hash is SipHash-128 over the column hashes in column
     * order and the row count. Integer-like and String columns take specialised loops; other types their
     * RowBinary form.
     */
    public static long[] hashData(List<Column> columns, List<Object[]> rows) {
        int width = columns.size();
        BinaryOut[] bufs = BUFFERS.get();
        if (bufs.length < width) {
            BinaryOut[] grown = java.util.Arrays.copyOf(bufs, width);
            for (int c = bufs.length; c < width; c++) {
                grown[c] = new BinaryOut(CHUNK);
            }
            bufs = grown;
            BUFFERS.set(bufs);
        }
        DataType[] types = new DataType[width];
        int[] kinds = new int[width];
        SipHash[] hashes = new SipHash[width];
        for (int c = 0; c < width; c++) {
            types[c] = columns.get(c).type();
            int w = fixedWidth(types[c]);
            kinds[c] = w > 0 ? w : isString(types[c]) ? -1 : 0;
            hashes[c] = new SipHash();
            bufs[c].reset();
        }
        int n = rows.size();
        if (rows instanceof ColumnRows) {
            // a columnar block: each column's RowBinary form straight from its arrays, the same bytes as below
            IColumn[] data = ((ColumnRows) rows).columns();
            for (int c = 0; c < width; c++) {
                BinaryOut b = bufs[c];
                for (int r = 0; r < n; r++) {
                    data[c].writeBinary(r, b);
                    if (b.size() >= CHUNK) {
                        hashes[c].update(b.array(), 0, b.size());
                        b.reset();
                    }
                }
                hashes[c].update(b.array(), 0, b.size());
                b.reset();
            }
        }
        for (int from = 0; from < n && !(rows instanceof ColumnRows); from += BATCH_ROWS) {
            int to = Math.min(n, from + BATCH_ROWS);
            for (int c = 0; c < width; c++) {
                // column by column within the batch: tight loops, the batch's rows still in cache
                BinaryOut b = bufs[c];
                int k = kinds[c];
                if (k > 0) {
                    for (int r = from; r < to; r++) {
                        b.writeLongLE((Long) rows.get(r)[c], k);
                    }
                } else if (k < 0) {
                    for (int r = from; r < to; r++) {
                        b.writeString((String) rows.get(r)[c]);
                    }
                } else {
                    DataType t = types[c];
                    for (int r = from; r < to; r++) {
                        t.writeBinary(rows.get(r)[c], b);
                    }
                }
                hashes[c].update(b.array(), 0, b.size());
                if (b.size() > CHUNK << 4) {
                    bufs[c] = new BinaryOut(CHUNK); // a batch of huge values: do not keep its buffer per thread
                } else {
                    b.reset();
                }
            }
        }
        SipHash block = new SipHash();
        for (int c = 0; c < width; c++) {
            long[] ch = hashes[c].get128();
            block.update(ch[0]);
            block.update(ch[1]);
        }
        block.update(n);
        return block.get128();
    }

    /** A String column, possibly LowCardinality: hashed through the allocation-free String loop. */
    static boolean isString(DataType t) {
        DataType u = t instanceof LowCardinalityType ? ((LowCardinalityType) t).inner : t;
        return u instanceof StringType && ((StringType) u).fixedLength == 0;
    }

    /** The byte width of a non-nullable type whose values are {@code Long}s, else 0. */
    static int fixedWidth(DataType t) {
        return DataTypes.fixedLongWidth(t instanceof LowCardinalityType ? ((LowCardinalityType) t).inner : t);
    }

    public static long[] hashToken(String token) {
        byte[] b = token.getBytes(StandardCharsets.UTF_8);
        return new SipHash().update(b, 0, b.length).get128();
    }

    public static String blockId(String partitionId, long[] hash) {
        return partitionId + "_" + Long.toUnsignedString(hash[1]) + "_" + Long.toUnsignedString(hash[0]);
    }

    public static String hex(long[] hash) {
        return String.format("%016x%016x", hash[1], hash[0]);
    }
}
