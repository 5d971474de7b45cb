package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Variant(T1, ..., Tn): each value is NULL or a value of one of the variants, held as a {@link TypedValue} whose
 * type is that variant (null for NULL). The variants are kept sorted by name, as ClickHouse names the type and
 * numbers its discriminators; RowBinary writes the discriminator (255 for NULL) and then the value. Text input
 * takes the first variant other than String that reads the whole text, and String otherwise; a quoted literal
 * prefers String. Mirrors ClickHouse's {@code DataTypeVariant}.
 */
public final class VariantType extends TypedValueType {
    public static final int NULL_DISCRIMINATOR = 255;
    /** The variants, sorted by name. */
    public final List<DataType> variants;

    /** The name the type goes by instead of Variant(...) (Geometry), or null. */
    private final String alias;

    VariantType(List<DataType> variants) {
        this(variants, null);
    }

    /** Variant of {@code variants} named {@code alias} (Geometry is the Variant of the geo types). */
    VariantType(List<DataType> variants, String alias) {
        this.alias = alias;
        List<DataType> sorted = new ArrayList<>(variants);
        sorted.sort(Comparator.comparing(DataType::name));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).equals(sorted.get(i - 1))) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Variant type with duplicate variant " + sorted.get(i).name());
            }
        }
        for (DataType t : sorted) {
            if (t.isNullable() || t instanceof LowCardinalityType && t.unwrap().isNullable()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Nullable/LowCardinality(Nullable) types are not allowed inside Variant type");
            }
        }
        if (sorted.isEmpty() || sorted.size() > 254) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Variant type must have between 1 and 254 variants");
        }
        this.variants = List.copyOf(sorted);
    }

    @Override
    public String name() {
        if (alias != null) {
            return alias;
        }
        StringBuilder sb = new StringBuilder("Variant(");
        for (int i = 0; i < variants.size(); i++) {
            sb.append(i > 0 ? ", " : "").append(variants.get(i).name());
        }
        return sb.append(')').toString();
    }

    private int discriminator(TypedValue v) {
        int d = variants.indexOf(v.type());
        if (d < 0) {
            throw new ChException(ErrorCode.LOGICAL_ERROR, "Type " + v.type().name() + " is not a variant of " + name());
        }
        return d;
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        int start = r.pos();
        if (quoted) {
            r.skipSpaces();
            if (r.tryWord("NULL")) {
                return null;
            }
            start = r.pos();
            if (r.peek() == '\'' && variants.contains(DataTypes.STRING)) {
                return new TypedValue(DataTypes.STRING, r.readQuoted());
            }
        } else {
            String rest = r.readRest();
            if (rest.equals("\\N")) {
                return null;
            }
            r.pos(start);
        }
        for (DataType t : variants) {
            if (t.equals(DataTypes.STRING)) {
                continue;
            }
            try {
                Object v = t.parseText(r, quoted);
                if (quoted || r.atEnd()) {
                    return new TypedValue(t, v);
                }
            } catch (ChException e) {
                // not this variant
            }
            r.pos(start);
        }
        if (variants.contains(DataTypes.STRING)) {
            return new TypedValue(DataTypes.STRING, DataTypes.STRING.parseText(r, quoted));
        }
        throw TextReader.cannotParse(this, r.excerpt());
    }

    /** A JSON string value: the String variant when there is one, else the first variant that reads its text. */
    public Object fromJsonString(String text) {
        if (variants.contains(DataTypes.STRING)) {
            return new TypedValue(DataTypes.STRING, text);
        }
        return parseText(text);
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        if (v == null) {
            out.write(NULL_DISCRIMINATOR);
            return;
        }
        TypedValue t = (TypedValue) v;
        out.write(discriminator(t));
        t.type().writeBinary(t.value(), out);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        int d = in.readByte();
        if (d == NULL_DISCRIMINATOR) {
            return null;
        }
        if (d >= variants.size()) {
            throw new ChException(ErrorCode.INCORRECT_DATA, "Variant discriminator " + d + " is out of range for " + name());
        }
        DataType t = variants.get(d);
        return new TypedValue(t, t.readBinary(in));
    }

    @Override
    public int compare(Object a, Object b) {
        TypedValue x = (TypedValue) a;
        TypedValue y = (TypedValue) b;
        int c = Integer.compare(discriminator(x), discriminator(y));
        return c != 0 ? c : x.type().compare(x.value(), y.value());
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v == null) {
            return null;
        }
        if (v instanceof TypedValue) {
            TypedValue t = (TypedValue) v;
            if (variants.contains(t.type())) {
                return t;
            }
            return convert(t.value(), t.type());
        }
        DataType f = from instanceof NullableType ? ((NullableType) from).inner : from;
        if (variants.contains(f)) {
            return new TypedValue(f, v);
        }
        if (v instanceof String) {
            return parseText((String) v);
        }
        throw new ChException(ErrorCode.CANNOT_CONVERT_TYPE, "Cannot convert " + from.name() + " to " + name()
            + ": it is none of its variants");
    }
}
