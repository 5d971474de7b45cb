package dev.chdedup.stub.dedup;

import dev.chdedup.stub.data.ChunkInfo;
import dev.chdedup.stub.data.Column;
import java.util.ArrayList;
import java.util.List;

/**
 * The deduplication info of one insert block, as ClickHouse 26.x keeps it (its {@code DeduplicationInfo}, in
 * src/Interpreters/InsertDeduplication.h): a list of tokens, each covering a run of the block's rows (one token for a
 * synchronous insert's block, one per query for an async insert batch). A token is the user's
 * {@code insert_deduplication_token} or, without one, the hash of its rows as they were sent; after it come the
 * extras that place the block: {@code source-id-<table>} and {@code source-number-<n>} (the block's ordinal in its
 * insert, counted before squashing; a squashed block carries its last number), and for each materialized view the
 * block went through {@code view-id-<view>} and {@code view-block-<n>}. The block id of a token in a partition is
 * {@link BlockIds#unifiedBlockId}: {@code <partition>_<lo>_<hi>} of the SipHash-128 of the token's text, so
 * <ul>
 *   <li>equal blocks at different positions of one insert, or of two inserts, are different blocks;</li>
 *   <li>each partition's id derives from the whole block (the data hash covers every row of the token);</li>
 *   <li>rows in another order are other data (the hash is over the rows as sent, before sorting);</li>
 *   <li>a view's target sees the source block's hash with the view's id and output number.</li>
 * </ul>
 * An info is immutable, except for the data hashes, computed once over the rows it describes ({@link #computeDataHashes})
 * and carried by the copies the views get.
 */
public final class DeduplicationInfo implements ChunkInfo {
    enum ExtraType { SOURCE_ID, SOURCE_NUMBER, VIEW_ID, VIEW_NUMBER }

    /** An id (SOURCE_ID, VIEW_ID) or a range of block numbers {@code [first, end)}, written as its last number. */
    record Extra(ExtraType type, String id, long first, long end) {
        static Extra number(ExtraType type, long n) {
            return new Extra(type, null, n, n + 1);
        }

        String text() {
            switch (type) {
                case SOURCE_ID: return "source-id-" + id;
                case VIEW_ID: return "view-id-" + id;
                case SOURCE_NUMBER: return "source-number-" + (end - 1);
                default: return "view-block-" + (end - 1);
            }
        }
    }

    /** One token: the user's token ("" when none), its extras, and the hash of its rows once computed. */
    static final class Token {
        final String byUser;
        final List<Extra> extras;
        /** The columns of the rows its data hash covers, in the order the insert sent them; null for all. */
        final int[] columns;
        /** {lo, hi} of the data hash of the token's rows; null until computed, unused with a user token. */
        long[] dataHash;

        Token(String byUser, List<Extra> extras, int[] columns, long[] dataHash) {
            this.byUser = byUser;
            this.extras = List.copyOf(extras);
            this.columns = columns;
            this.dataHash = dataHash;
        }

        Token with(Extra e) {
            List<Extra> x = new ArrayList<>(extras);
            x.add(e);
            return new Token(byUser, x, columns, dataHash);
        }

        /** Whether {@code right} continues this token (same user token, same extras but a following last number). */
        boolean canBeExtended(Token right) {
            if (!byUser.equals(right.byUser) || extras.size() != right.extras.size() || !java.util.Arrays.equals(columns, right.columns)) {
                return false;
            }
            if (extras.isEmpty()) {
                return true;
            }
            for (int i = 0; i < extras.size() - 1; i++) {
                if (!extras.get(i).equals(right.extras.get(i))) {
                    return false;
                }
            }
            Extra l = extras.get(extras.size() - 1);
            Extra r = right.extras.get(extras.size() - 1);
            if (l.equals(r)) {
                return true;
            }
            boolean numbered = l.type == ExtraType.SOURCE_NUMBER || l.type == ExtraType.VIEW_NUMBER;
            return numbered && l.type == r.type && l.end == r.first;
        }

        Token extend(Token right) {
            if (extras.isEmpty()) {
                return new Token(byUser, extras, columns, null);
            }
            Extra l = extras.get(extras.size() - 1);
            Extra r = right.extras.get(extras.size() - 1);
            if (l.equals(r)) {
                return new Token(byUser, extras, columns, null);
            }
            List<Extra> x = new ArrayList<>(extras);
            x.set(x.size() - 1, new Extra(l.type, l.id, l.first, r.end));
            // a view's output blocks of one source block share the source's hash; any other extension covers new rows
            boolean keepHash = l.type == ExtraType.VIEW_NUMBER && dataHash != null && right.dataHash != null
                && dataHash[0] == right.dataHash[0] && dataHash[1] == right.dataHash[1];
            return new Token(byUser, x, columns, keepHash ? dataHash : null);
        }
    }

    /** The table id of a block inserted directly (not by a view): ClickHouse leaves it empty. */
    static final String ROOT_ID = "empty";

    private final boolean async;
    /** Whether these blocks are not deduplicated at all (a view's output with deduplication in views off). */
    private final boolean disabled;
    /** Whether the block is a view's output: its rows no longer match the tokens' row runs. */
    private final boolean viewLevel;
    private final List<Token> tokens;
    /** {@code ends[i]} is the end (exclusive) of token i's rows; token i starts where token i-1 ends. */
    private final int[] ends;
    /** For a view's output: how to make it again of the source rows of some tokens only; else null. */
    private final Retry retry;

    /**
     * Makes a view's output block again from the source rows of {@code keptTokens} only, as ClickHouse re-runs a
     * view's chain when some of a block's tokens are duplicates in the view's table: the view's rows do not map
     * onto the source's tokens, its SELECT does.
     */
    public interface Retry {
        dev.chdedup.stub.data.Block recompute(List<Integer> keptTokens);
    }

    private DeduplicationInfo(boolean async, boolean disabled, boolean viewLevel, List<Token> tokens, int[] ends) {
        this(async, disabled, viewLevel, tokens, ends, null);
    }

    private DeduplicationInfo(boolean async, boolean disabled, boolean viewLevel, List<Token> tokens, int[] ends, Retry retry) {
        this.async = async;
        this.disabled = disabled;
        this.viewLevel = viewLevel;
        this.tokens = tokens;
        this.ends = ends;
        this.retry = retry;
    }

    /** The info of block {@code number} (0, 1, ... as the input is read) of a synchronous insert of {@code rows} rows. */
    public static DeduplicationInfo forInsertBlock(String userToken, int rows, long number) {
        return forInsertBlock(userToken, rows, number, null);
    }

    /**
     * The same, for an insert that sent {@code columns} of the table's rows (indexes into a row, in the order the
     * insert named them; null for all): only those are the block as sent, and only they are hashed.
     */
    public static DeduplicationInfo forInsertBlock(String userToken, int rows, long number, int[] columns) {
        List<Extra> extras = List.of(new Extra(ExtraType.SOURCE_ID, ROOT_ID, 0, 0), Extra.number(ExtraType.SOURCE_NUMBER, number));
        return new DeduplicationInfo(false, false, false, List.of(new Token(userToken == null ? "" : userToken, extras, columns, null)),
            new int[] {rows});
    }

    /**
     * The info of an async insert batch: one token per query, in order, {@code rows.get(i)} rows each; a token's
     * block number is always 0 (each query is one block), so it equals a one-block synchronous insert's.
     */
    public static DeduplicationInfo forAsyncBatch(List<String> userTokens, List<Integer> rows, List<int[]> columns) {
        List<Token> tokens = new ArrayList<>(userTokens.size());
        int[] ends = new int[rows.size()];
        int end = 0;
        for (int i = 0; i < rows.size(); i++) {
            String t = userTokens.get(i);
            tokens.add(new Token(t == null ? "" : t, List.of(new Extra(ExtraType.SOURCE_ID, ROOT_ID, 0, 0),
                Extra.number(ExtraType.SOURCE_NUMBER, 0)), columns.get(i), null));
            end += rows.get(i);
            ends[i] = end;
        }
        return new DeduplicationInfo(true, false, false, tokens, ends);
    }

    @Override
    public ChunkInfo merge(ChunkInfo other) {
        DeduplicationInfo right = (DeduplicationInfo) other;
        int rows = rows();
        if (tokens.size() == 1 && right.tokens.size() == 1 && tokens.get(0).canBeExtended(right.tokens.get(0))) {
            return new DeduplicationInfo(async, disabled, viewLevel, List.of(tokens.get(0).extend(right.tokens.get(0))),
                new int[] {rows + right.rows()});
        }
        List<Token> t = new ArrayList<>(tokens);
        t.addAll(right.tokens);
        int[] e = java.util.Arrays.copyOf(ends, ends.length + right.ends.length);
        for (int i = 0; i < right.ends.length; i++) {
            e[ends.length + i] = rows + right.ends[i];
        }
        return new DeduplicationInfo(async, disabled, viewLevel, t, e);
    }

    /**
     * The info of output block {@code number} that view {@code viewId} made of this block: each token gets the view's
     * id and the number; with {@code deduplicateInViews} false the output is not deduplicated. {@code retry} (or
     * null) makes the output again of some of the tokens' rows.
     */
    public DeduplicationInfo forView(String viewId, long number, boolean deduplicateInViews, Retry retry) {
        List<Token> t = new ArrayList<>(tokens.size());
        for (Token k : tokens) {
            t.add(k.with(new Extra(ExtraType.VIEW_ID, viewId, 0, 0)).with(Extra.number(ExtraType.VIEW_NUMBER, number)));
        }
        return new DeduplicationInfo(async, disabled || !deduplicateInViews, true, t, ends.clone(), retry);
    }

    /** How to make this view output again of some tokens' source rows, or null. */
    public Retry retry() {
        return retry;
    }

    public boolean disabled() {
        return disabled;
    }

    /** Whether the block is a view's output, whose rows the tokens' row runs do not describe. */
    public boolean isViewLevel() {
        return viewLevel;
    }

    public int count() {
        return tokens.size();
    }

    public int rows() {
        return ends.length == 0 ? 0 : ends[ends.length - 1];
    }

    public int begin(int token) {
        return token == 0 ? 0 : ends[token - 1];
    }

    public int end(int token) {
        return ends[token];
    }

    /**
     * Computes the data hash of each token that has no user token and no hash yet, over its run of {@code rows} (the
     * rows this info describes, as they were sent): what the views' copies then carry.
     */
    public void computeDataHashes(List<Column> columns, List<Object[]> rows) {
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            if (t.byUser.isEmpty() && t.dataHash == null) {
                if (viewLevel || rows.size() != rows()) {
                    throw new IllegalStateException("The deduplication info describes " + rows() + " rows, the block has " + rows.size());
                }
                t.dataHash = BlockIds.dataHash(columns, t.columns, rows, begin(i), end(i));
            }
        }
    }

    /** The text token {@code i} is identified by: {@code user-token-<t>} or the data hash, then its extras. */
    String text(int i) {
        Token t = tokens.get(i);
        StringBuilder b = new StringBuilder();
        if (!t.byUser.isEmpty()) {
            b.append("user-token-").append(t.byUser);
        } else {
            if (t.dataHash == null) {
                throw new IllegalStateException("The data hash of token " + i + " was not computed");
            }
            b.append(Long.toUnsignedString(t.dataHash[0])).append('_').append(Long.toUnsignedString(t.dataHash[1]));
        }
        for (Extra e : t.extras) {
            b.append(':').append(async && e.type == ExtraType.SOURCE_NUMBER ? "source-number-0" : e.text());
        }
        return b.toString();
    }

    /** The block id of token {@code i} in partition {@code partitionId}. */
    public String blockId(int i, String partitionId) {
        return BlockIds.unifiedBlockId(partitionId, text(i));
    }

    /** A short form for logs: each token's user token or "-", with its extras. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(async ? "async" : "sync").append(disabled ? ", disabled" : "").append(" [");
        for (int i = 0; i < tokens.size(); i++) {
            Token t = tokens.get(i);
            b.append(i == 0 ? "" : ", ").append(t.byUser.isEmpty() ? "-" : "user<" + t.byUser + ">");
            for (Extra e : t.extras) {
                b.append('/').append(e.text());
            }
            b.append("::").append(ends[i]);
        }
        return b.append(']').toString();
    }
}
