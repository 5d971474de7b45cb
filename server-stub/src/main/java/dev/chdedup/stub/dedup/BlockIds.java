package dev.chdedup.stub.dedup;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.types.BinaryOut;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DateTime64Type;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.EnumType;
import dev.chdedup.stub.types.IntType;
import dev.chdedup.stub.types.LowCardinalityType;
import dev.chdedup.stub.types.StringType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;

/**
 * Deduplication tokens and block ids, the one place both insert paths compute them, so a synchronous and an
 * asynchronous attempt of the same insert get the same ids.
 *
 * <ul>
 *   <li>A block's <b>token</b> is {@code <insert_deduplication_token>_<ordinal>} when the user gave a token (the
 *   block's ordinal in its insert: 0, 1, ...), else there is none. An asynchronous insert is one block, so its
 *   token is {@code <token>_0}: the same as a synchronous insert of one block with that token.</li>
 *   <li>The <b>block id</b> of one partition's piece of a block is {@code <partition_id>_<hi>_<lo>} of the 128-bit
 *   SipHash of the token when there is one, else of the piece's rows, sorted by the table's ORDER BY key, column
 *   by column over the values' canonical binary form (so it depends on the values only, not on how a column is
 *   represented). Both paths split a block (sync) or one query's rows (async) by partition, sort the piece, and
 *   call {@link #pieceId}: the same rows give the same ids whichever path carried them, and the same rows or
 *   token in two partitions are two different blocks.</li>
 *   <li>A block hands dependent views {@link #viewToken}: its token, or a hash of its pieces' ids (so a block the
 *   source table sees as a duplicate hands the views the same token as the original); a view derives its
 *   target's tokens from that and its own name.</li>
 * </ul>
 */
public final class BlockIds {
    private BlockIds() {
    }

    /** The token of block {@code ordinal} of an insert with the user's token. */
    public static String userBlockToken(String userToken, int ordinal) {
        return userToken + "_" + ordinal;
    }

    /** The block id of one partition's piece: from {@code blockToken} if not null, else from the sorted rows. */
    public static String pieceId(String partitionId, String blockToken, List<Column> columns, List<Object[]> sortedRows) {
        return blockId(partitionId, blockToken != null ? hashToken(blockToken) : hashData(columns, sortedRows));
    }

    /**
     * The token a block hands its dependent views: its own token, or the hex of the hash of its pieces' ids (sorted,
     * so the order of partitions in the input does not matter): a block the source table sees as a duplicate of an
     * earlier one hands the views the same token as that one.
     */
    public static String viewToken(String blockToken, Collection<String> pieceIds) {
        if (blockToken != null) {
            return blockToken;
        }
        List<String> sorted = new ArrayList<>(pieceIds);
        Collections.sort(sorted);
        return hex(hashToken(String.join(",", sorted)));
    }

    /** Bytes gathered before they are fed to the hash. */
    private static final int CHUNK = 1 << 16;

    /**
     * SipHash-128 of rows, column by column over each value's binary form (the row count last): {low, high}.
     * Fixed-width integer-like columns and Strings take specialised loops; other types their RowBinary form.
     */
    public static long[] hashData(List<Column> columns, List<Object[]> rows) {
        SipHash h = new SipHash();
        BinaryOut buf = new BinaryOut(CHUNK + 4096);
        int n = rows.size();
        for (int c = 0; c < columns.size(); c++) {
            DataType type = columns.get(c).type();
            int width = fixedWidth(type);
            if (width > 0) {
                for (int r = 0; r < n; r++) {
                    buf.writeLongLE((Long) rows.get(r)[c], width);
                    if (buf.size() >= CHUNK) {
                        flush(h, buf);
                    }
                }
            } else if (type instanceof StringType && ((StringType) type).fixedLength == 0) {
                for (int r = 0; r < n; r++) {
                    buf.writeString((String) rows.get(r)[c]);
                    if (buf.size() >= CHUNK) {
                        flush(h, buf);
                    }
                }
            } else {
                for (int r = 0; r < n; r++) {
                    type.writeBinary(rows.get(r)[c], buf);
                    if (buf.size() >= CHUNK) {
                        flush(h, buf);
                    }
                }
            }
        }
        flush(h, buf);
        h.update(n);
        return h.get128();
    }

    private static void flush(SipHash h, BinaryOut buf) {
        h.update(buf.array(), 0, buf.size());
        buf.reset();
    }

    /** The byte width of a non-nullable type whose values are {@code Long}s, else 0. */
    static int fixedWidth(DataType t) {
        DataType u = t instanceof LowCardinalityType ? ((LowCardinalityType) t).inner : t;
        if (u instanceof IntType) {
            return ((IntType) u).bits / 8;
        }
        if (u instanceof DateTimeType) {
            return 4;
        }
        if (u instanceof DateTime64Type) {
            return 8;
        }
        if (u instanceof DateType) {
            return ((DateType) u).is32 ? 4 : 2;
        }
        if (u instanceof EnumType) {
            return ((EnumType) u).bits / 8;
        }
        return 0;
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
