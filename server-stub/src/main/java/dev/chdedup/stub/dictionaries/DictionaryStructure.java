package dev.chdedup.stub.dictionaries;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.sql.Expr;
import dev.chdedup.stub.sql.Statement;
import dev.chdedup.stub.types.DataType;
import dev.chdedup.stub.types.DataTypes;
import dev.chdedup.stub.types.DateTimeType;
import dev.chdedup.stub.types.DateType;
import dev.chdedup.stub.types.IntType;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What a dictionary holds, taken from its CREATE DICTIONARY and checked as ClickHouse checks it
 * (src/Dictionaries/DictionaryStructure.cpp, getDictionaryConfigurationFromAST.cpp): the key (a simple key is UInt64,
 * whatever integer type was declared; several keys or one that is not an integer make a complex key, and a layout that
 * has a COMPLEX_KEY_ form takes it), a range dictionary's bounds, the attributes with their DEFAULT (the value of a key
 * the dictionary does not hold), the layout and the lifetime. Errors are the engine's: INCORRECT_DICTIONARY_DEFINITION
 * for a missing clause or key, UNKNOWN_ELEMENT_IN_CONFIG for an unknown layout or source, BAD_ARGUMENTS for the rest.
 */
public final class DictionaryStructure {
    /** A key, range bound or attribute: its name, type, DEFAULT value, EXPRESSION (null when read by name). */
    public record Attribute(String name, DataType type, Object nullValue, String expression, boolean hierarchical, boolean injective) {
    }

    /** The layouts the stub loads, by the name LAYOUT(...) gives: the name system.dictionaries shows once loaded. */
    private static final Map<String, String> LAYOUTS = Map.ofEntries(Map.entry("FLAT", "Flat"), Map.entry("HASHED", "Hashed"),
        Map.entry("SPARSE_HASHED", "SparseHashed"), Map.entry("HASHED_ARRAY", "HashedArray"),
        Map.entry("COMPLEX_KEY_HASHED", "ComplexKeyHashed"), Map.entry("COMPLEX_KEY_SPARSE_HASHED", "ComplexKeySparseHashed"),
        Map.entry("COMPLEX_KEY_HASHED_ARRAY", "ComplexKeyHashedArray"), Map.entry("RANGE_HASHED", "RangeHashed"),
        Map.entry("COMPLEX_KEY_RANGE_HASHED", "ComplexKeyRangeHashed"), Map.entry("DIRECT", "Direct"),
        Map.entry("COMPLEX_KEY_DIRECT", "ComplexKeyDirect"), Map.entry("CACHE", "Cache"), Map.entry("COMPLEX_KEY_CACHE", "ComplexKeyCache"));

    /** The sources the stub reads, and those ClickHouse has that it does not. */
    static final Set<String> SOURCES = Set.of("CLICKHOUSE", "NULL");
    private static final Set<String> OTHER_SOURCES = Set.of("FILE", "EXECUTABLE", "EXECUTABLE_POOL", "HTTP", "MYSQL", "POSTGRESQL",
        "MONGODB", "REDIS", "CASSANDRA", "ODBC", "JDBC", "LIBRARY", "YTSAURUS");

    public final List<Attribute> keys;
    public final boolean complexKey;
    /** The range bounds of a range dictionary (their Nullable stripped), else null. */
    public final Attribute rangeMin;
    public final Attribute rangeMax;
    public final List<Attribute> attributes;
    /** The layout as LAYOUT gave it, with COMPLEX_KEY_ prepended where the key made it complex. */
    public final String layout;
    public final Map<String, String> layoutParameters;
    public final long lifetimeMin;
    public final long lifetimeMax;

    private DictionaryStructure(List<Attribute> keys, boolean complexKey, Attribute rangeMin, Attribute rangeMax, List<Attribute> attributes,
                                String layout, Map<String, String> layoutParameters, long lifetimeMin, long lifetimeMax) {
        this.keys = keys;
        this.complexKey = complexKey;
        this.rangeMin = rangeMin;
        this.rangeMax = rangeMax;
        this.attributes = attributes;
        this.layout = layout;
        this.layoutParameters = layoutParameters;
        this.lifetimeMin = lifetimeMin;
        this.lifetimeMax = lifetimeMax;
    }

    /** The type name system.dictionaries shows for the loaded dictionary (Hashed, ComplexKeyHashed, Flat...). */
    public String typeName() {
        return LAYOUTS.get(layout);
    }

    public boolean isRange() {
        return layout.endsWith("RANGE_HASHED");
    }

    public boolean isDirect() {
        return layout.endsWith("DIRECT");
    }

    public boolean isCache() {
        return layout.endsWith("CACHE");
    }

    /** The index of the HIERARCHICAL attribute, or -1. */
    public int hierarchicalAttribute() {
        for (int i = 0; i < attributes.size(); i++) {
            if (attributes.get(i).hierarchical()) {
                return i;
            }
        }
        return -1;
    }

    /** The structure of {@code cd}, dictionary {@code fullName} ({@code db.name}), or the engine's error for a bad one. */
    public static DictionaryStructure of(Statement.CreateDictionary cd, String fullName) {
        if (cd.layout() == null) {
            throw incorrect("Cannot create dictionary with empty layout");
        }
        String layoutName = cd.layout().name();
        boolean direct = layoutName.endsWith("DIRECT");
        if (cd.lifetimeMax() == null && !direct) {
            throw incorrect("Cannot create dictionary with empty lifetime");
        }
        if (cd.primaryKey().isEmpty()) {
            throw incorrect("Cannot create dictionary without primary key");
        }
        if (cd.source() == null) {
            throw incorrect("Cannot create dictionary with empty source");
        }
        if (!LAYOUTS.containsKey(layoutName)) {
            if (layoutName.equals("IP_TRIE") || layoutName.equals("POLYGON") || layoutName.startsWith("SSD_CACHE")
                || layoutName.equals("REGEXP_TREE") || layoutName.startsWith("COMPLEX_KEY_SSD_CACHE")) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Dictionary layout " + layoutName + " is not supported by the stub");
            }
            throw new ChException(ErrorCode.UNKNOWN_ELEMENT_IN_CONFIG, "Unknown dictionary layout type: " + layoutName.toLowerCase(Locale.ROOT));
        }
        if (direct && cd.lifetimeMax() != null) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "'lifetime' parameter is redundant for the dictionary' of layout '"
                + layoutName.toLowerCase(Locale.ROOT) + "'");
        }
        long min = cd.lifetimeMin() == null ? 0 : cd.lifetimeMin();
        long max = cd.lifetimeMax() == null ? 0 : cd.lifetimeMax();
        if (min > max) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Dictionary lifetime parameter 'MIN' must be less than or equal to 'MAX'");
        }
        Set<String> names = new HashSet<>();
        for (Statement.DictionaryAttributeDeclaration a : cd.attributes()) {
            if (!names.add(a.name())) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Dictionary attributes names must be unique. Attribute name " + a.name()
                    + " is not unique");
            }
        }
        for (String k : cd.primaryKey()) {
            if (!names.contains(k)) {
                throw incorrect("Unknown key attribute '" + k + "'");
            }
        }
        for (String[] bound : new String[][] {{"MIN", cd.rangeMin()}, {"MAX", cd.rangeMax()}}) {
            if (bound[1] != null && !names.contains(bound[1])) {
                throw incorrect(bound[0] + " " + bound[1] + " attribute is not defined in the dictionary attributes");
            }
        }
        String source = cd.source().name();
        if (!SOURCES.contains(source)) {
            if (OTHER_SOURCES.contains(source)) {
                throw new ChException(ErrorCode.NOT_IMPLEMENTED, "Dictionary source " + source + " is not supported by the stub: only"
                    + " CLICKHOUSE (the server's own tables) and NULL");
            }
            throw new ChException(ErrorCode.UNKNOWN_ELEMENT_IN_CONFIG, fullName + ": unknown dictionary source type: "
                + source.toLowerCase(Locale.ROOT));
        }
        List<Attribute> keys = new ArrayList<>();
        List<Attribute> attributes = new ArrayList<>();
        Attribute rangeMin = null;
        Attribute rangeMax = null;
        for (Statement.DictionaryAttributeDeclaration a : cd.attributes()) {
            DataType type = DataTypes.parse(a.type());
            if (a.name().equals(cd.rangeMin()) || a.name().equals(cd.rangeMax())) {
                Attribute bound = new Attribute(a.name(), rangeType(type), null, a.expressionSql(), false, false);
                if (a.name().equals(cd.rangeMin())) {
                    rangeMin = bound;
                } else {
                    rangeMax = bound;
                }
            } else if (!cd.primaryKey().contains(a.name())) {
                attributes.add(new Attribute(a.name(), type, nullValue(a, type), a.expressionSql(), a.hierarchical(), a.injective()));
            }
        }
        for (String k : cd.primaryKey()) {
            for (Statement.DictionaryAttributeDeclaration a : cd.attributes()) {
                if (a.name().equals(k)) {
                    keys.add(new Attribute(a.name(), DataTypes.parse(a.type()), null, a.expressionSql(), false, false));
                }
            }
        }
        boolean complex = layoutName.startsWith("COMPLEX_KEY_") || keys.size() > 1 || !isIntegral(keys.get(0).type());
        String layout = complex && !layoutName.startsWith("COMPLEX_KEY_") && LAYOUTS.containsKey("COMPLEX_KEY_" + layoutName)
            ? "COMPLEX_KEY_" + layoutName : layoutName;
        if (!complex) {
            keys.set(0, new Attribute(keys.get(0).name(), DataTypes.UINT64, null, keys.get(0).expression(), false, false));
        }
        return new DictionaryStructure(List.copyOf(keys), complex, rangeMin, rangeMax, List.copyOf(attributes), layout,
            cd.layout().arguments(), min, max);
    }

    private static ChException incorrect(String message) {
        return new ChException(ErrorCode.INCORRECT_DICTIONARY_DEFINITION, message);
    }

    private static boolean isIntegral(DataType t) {
        DataType u = t.unwrap();
        return u instanceof IntType || u instanceof DateType || u instanceof DateTimeType;
    }

    /** A range bound's type: its Nullable stripped (a NULL bound is open). */
    private static DataType rangeType(DataType t) {
        return t instanceof dev.chdedup.stub.types.NullableType n ? n.inner : t;
    }

    /** An attribute's DEFAULT as a value of its type, or the type's default. */
    private static Object nullValue(Statement.DictionaryAttributeDeclaration a, DataType type) {
        Expr d = a.defaultValue();
        if (d == null) {
            return type.isNullable() ? null : type.defaultValue();
        }
        return DictionaryValues.literal(d, type);
    }
}
