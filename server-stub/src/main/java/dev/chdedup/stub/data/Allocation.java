package dev.chdedup.stub.data;

/**
 * Where a column being filled asks for the heap it is about to take, before it takes it (ClickHouse's allocations
 * report to its {@code MemoryTracker} the same way): refusing throws, and nothing is allocated.
 */
@FunctionalInterface
public interface Allocation {
    /** No limit. */
    Allocation NONE = bytes -> { };

    /** Counts {@code bytes} more, or throws (a ClickHouse error) if that would pass a limit. */
    void reserve(long bytes);
}
