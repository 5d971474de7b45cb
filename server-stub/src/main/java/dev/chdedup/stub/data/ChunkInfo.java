package dev.chdedup.stub.data;

/**
 * What travels with a {@link Block} through the insert pipeline besides its rows, as ClickHouse's {@code ChunkInfo}:
 * today the block's deduplication info. Squashing two blocks into one merges their infos with {@link #merge}.
 */
public interface ChunkInfo {
    /** The info of the block made by appending {@code right}'s rows to this one's. */
    ChunkInfo merge(ChunkInfo right);
}
