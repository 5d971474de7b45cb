package dev.chdedup.stub.mergetree;

/**
 * A mutation as system.mutations shows it, after ClickHouse's {@code MergeTreeMutationStatus}; {@code mutationId} is
 * the entry's file name for a local table and its znode name ({@code 0000000000}) for a replicated one.
 */
public record MergeTreeMutationStatus(MergeTreeMutationEntry entry, boolean done, long partsToDo, String failReason, String mutationId) {
    public MergeTreeMutationStatus(MergeTreeMutationEntry entry, boolean done, long partsToDo, String failReason) {
        this(entry, done, partsToDo, failReason, entry.mutationId());
    }
}
