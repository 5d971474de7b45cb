package dev.chdedup.stub.types;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.math.BigInteger;

/**
 * Dynamic: a column whose every value carries its own type, held as a {@link TypedValue} (null for NULL). Text is
 * the value's own text; text input is typed as ClickHouse infers it (Int64, UInt64 past Int64, Float64, Bool,
 * arrays of those, a quoted literal or anything else String); RowBinary writes the value's type in ClickHouse's
 * binary type encoding ({@link BinaryTypeEncoding}) and then the value, NULL being the type Nothing. Mirrors
 * ClickHouse's {@code DataTypeDynamic}; the stub keeps no limit on the number of types ({@code max_types}).
 */
public final class DynamicType extends TypedValueType {
    public static final int DEFAULT_MAX_TYPES = 32;
    private final String name;
    public final int maxTypes;

    private DynamicType(int maxTypes) {
        this.maxTypes = maxTypes;
        this.name = maxTypes == DEFAULT_MAX_TYPES ? "Dynamic" : "Dynamic(max_types=" + maxTypes + ")";
    }

    /** Dynamic with {@code maxTypes} types at most, named as ClickHouse names it. */
    public static DynamicType of(int maxTypes) {
        return new DynamicType(maxTypes);
    }

    /** The type named {@code Dynamic} or {@code Dynamic(max_types=N)}. */
    static DynamicType parse(String raw) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Dynamic\\s*\\(\\s*max_types\\s*=\\s*(\\d+)\\s*\\)",
            java.util.regex.Pattern.CASE_INSENSITIVE).matcher(raw);
        if (m.matches()) {
            int n = Integer.parseInt(m.group(1));
            if (n > 254) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "'max_types' argument for Dynamic type should be a positive integer between 0 and 254");
            }
            return new DynamicType(n);
        }
        if (!raw.matches("(?i)Dynamic(\\s*\\(\\s*\\))?")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Dynamic data type can have only one optional argument - the maximum number of dynamic types in a form 'Dynamic(max_types=N)'");
        }
        return new DynamicType(DEFAULT_MAX_TYPES);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Object parseText(TextReader r, boolean quoted) {
        if (!quoted) {
            String s = r.readRest();
            return s.equals("\\N") ? null : infer(s);
        }
        r.skipSpaces();
        if (r.tryWord("NULL")) {
            return null;
        }
        int c = r.peek();
        if (c == '\'') {
            return new TypedValue(DataTypes.STRING, r.readQuoted());
        }
        if (c == '[') {
            int start = r.pos();
            int depth = 0;
            StringBuilder sb = new StringBuilder();
            do {
                char ch = r.next();
                sb.append(ch);
                if (ch == '\'') {
                    r.pos(r.pos() - 1);
                    sb.setLength(sb.length() - 1);
                    StringType.quote(r.readQuoted(), sb);
                    continue;
                }
                depth += ch == '[' ? 1 : ch == ']' ? -1 : 0;
            } while (depth > 0 && !r.atEnd());
            if (depth > 0) {
                r.pos(start);
                throw TextReader.cannotParse(this, r.excerpt());
            }
            return infer(sb.toString());
        }
        return infer(r.readBare());
    }

    /** The value of {@code text} typed as ClickHouse infers it. */
    public static TypedValue infer(String text) {
        String s = text.trim();
        if (s.matches("-?\\d{1,19}")) {
            try {
                return new TypedValue(DataTypes.INT64, Long.parseLong(s));
            } catch (NumberFormatException e) {
                // too large for Int64: UInt64 below
            }
        }
        if (s.matches("\\d{19,20}") && new BigInteger(s).bitLength() <= 64) {
            return new TypedValue(DataTypes.UINT64, new BigInteger(s).longValue());
        }
        if (s.matches("[-+]?(\\d+\\.?\\d*([eE][-+]?\\d+)?|\\.\\d+([eE][-+]?\\d+)?|inf|nan)")) {
            return new TypedValue(DataTypes.FLOAT64, Values.parseDouble(s));
        }
        if (s.equals("true") || s.equals("false")) {
            return new TypedValue(DataTypes.BOOL, s.equals("true"));
        }
        if (s.startsWith("[") && s.endsWith("]")) {
            // the element type made Nullable only when an element is NULL: [1,2] is Array(Int64), [1,NULL] Array(Nullable(Int64))
            for (String element : new String[] {"Int64", "Float64", "Bool", "String", "Array(Int64)", "Array(Float64)", "Array(String)"}) {
                for (String form : new String[] {"Array(" + element + ")", "Array(Nullable(" + element + "))"}) {
                    if (form.startsWith("Array(Nullable(Array")) {
                        continue;
                    }
                    DataType t = DataTypes.parse(form);
                    try {
                        return new TypedValue(t, t.parseText(s));
                    } catch (ChException e) {
                        // try the next element type
                    }
                }
            }
        }
        return new TypedValue(DataTypes.STRING, text);
    }

    /** The value of JSON text {@code json} (a byte string) typed as ClickHouse infers JSON values. */
    public static TypedValue fromJson(String json) {
        JsonText.Parser p = new JsonText.Parser(json);
        Object o = p.value();
        p.end();
        if (o instanceof java.util.Map) {
            return new TypedValue(DataTypes.STRING, json);
        }
        return (TypedValue) o;
    }

    @Override
    public void writeBinary(Object v, BinaryOut out) {
        if (v == null) {
            out.write(0x00);
            return;
        }
        TypedValue t = (TypedValue) v;
        BinaryTypeEncoding.encode(t.type(), out);
        t.type().writeBinary(t.value(), out);
    }

    @Override
    public Object readBinary(BinaryIn in) throws IOException {
        DataType t = BinaryTypeEncoding.decode(in);
        if (t instanceof NothingType) {
            return null;
        }
        return new TypedValue(t, t.readBinary(in));
    }

    @Override
    public int compare(Object a, Object b) {
        TypedValue x = (TypedValue) a;
        TypedValue y = (TypedValue) b;
        int c = x.type().name().compareTo(y.type().name());
        return c != 0 ? c : x.type().compare(x.value(), y.value());
    }

    @Override
    public Object convert(Object v, DataType from) {
        if (v == null || v instanceof TypedValue) {
            return v;
        }
        DataType f = from instanceof NullableType ? ((NullableType) from).inner : from;
        if (f instanceof NothingType) {
            return null;
        }
        // a JSON value is one of type JSON; a Variant's or another Dynamic's values are TypedValues already
        return new TypedValue(f, v);
    }
}
