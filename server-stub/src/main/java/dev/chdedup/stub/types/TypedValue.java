package dev.chdedup.stub.types;

/**
 * A value that carries its own type: what a Dynamic column holds in a row, what a Variant holds (the type being one
 * of its variants), and what a path of a JSON value holds. NULL is represented by a null reference, not by a
 * TypedValue.
 */
public record TypedValue(DataType type, Object value) {
    public String text() {
        return Values.text(value, type);
    }
}
