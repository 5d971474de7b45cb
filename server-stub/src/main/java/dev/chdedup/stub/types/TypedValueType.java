package dev.chdedup.stub.types;

/**
 * A type whose values carry their own type ({@link TypedValue}, null for NULL): Variant and Dynamic. A value is
 * shown as its own type shows it, NULL as {@code \N} (or {@code NULL} when quoted), and the column can hold NULL
 * without Nullable.
 */
abstract class TypedValueType extends DataType {
    @Override
    public Object defaultValue() {
        return null;
    }

    @Override
    public boolean isNullable() {
        return true;
    }

    @Override
    public void formatText(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("\\N");
        } else {
            ((TypedValue) v).type().formatText(((TypedValue) v).value(), sb);
        }
    }

    @Override
    public void formatQuoted(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("NULL");
        } else {
            ((TypedValue) v).type().formatQuoted(((TypedValue) v).value(), sb);
        }
    }

    @Override
    public int byteSize(Object v) {
        return v == null ? 1 : 1 + ((TypedValue) v).type().byteSize(((TypedValue) v).value());
    }
}
