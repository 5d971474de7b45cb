package dev.chdedup.stub.data;

import dev.chdedup.stub.types.DataType;

/** A named, typed column of a header, a block or a table. */
public record Column(String name, DataType type) {
    @Override
    public String toString() {
        return name + " " + type.name();
    }
}
