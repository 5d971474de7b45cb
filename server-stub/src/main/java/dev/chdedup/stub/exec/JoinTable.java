package dev.chdedup.stub.exec;

import java.util.List;

/**
 * A table of the Join engine as joinGet reads it: its rows ({@link TableSource}) and the key columns it is joined on;
 * under ANY strictness the first row inserted for a key is the one a key finds.
 */
public interface JoinTable extends TableSource {
    /** The key columns, in the order the engine's arguments give them. */
    List<String> joinKeys();
}
