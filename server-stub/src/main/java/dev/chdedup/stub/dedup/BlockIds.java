package dev.chdedup.stub.dedup;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.BinaryOut;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Deduplication tokens and block ids. A block's token is the user's {@code insert_deduplication_token} plus the
 * block's ordinal in the insert, or else a 128-bit SipHash of the block's data, column by column over the values'
 * canonical binary form (so it depends on the values only, not on how a column is represented). The block id of
 * one partition's piece is {@code <partition_id>_<hi>_<lo>} of SipHash-128 of the token (user token) or of the
 * sorted piece's data (no token), so the same rows in two partitions are different blocks.
 */
public final class BlockIds {
    private BlockIds() {
    }

    /** SipHash-128 of rows, column by column: {low, high}. */
    public static long[] hashData(List<Column> columns, List<Object[]> rows) {
        SipHash h = new SipHash();
        BinaryOut buf = new BinaryOut(1 << 16);
        for (int c = 0; c < columns.size(); c++) {
            var type = columns.get(c).type();
            for (Object[] r : rows) {
                type.writeBinary(r[c], buf);
                if (buf.size() > (1 << 16) - 4096) {
                    h.update(buf.array(), 0, buf.size());
                    buf.reset();
                }
            }
            h.update(buf.array(), 0, buf.size());
            buf.reset();
        }
        h.update(rows.size());
        return h.get128();
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
