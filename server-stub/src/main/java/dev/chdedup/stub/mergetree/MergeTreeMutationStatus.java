package dev.chdedup.stub.mergetree;

/** A mutation as system.mutations shows it, after ClickHouse's {@code MergeTreeMutationStatus}. */
public record MergeTreeMutationStatus(MergeTreeMutationEntry entry, boolean done, long partsToDo, String failReason) {
}
