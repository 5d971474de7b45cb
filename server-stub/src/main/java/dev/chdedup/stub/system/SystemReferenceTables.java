package dev.chdedup.stub.system;

import dev.chdedup.stub.exec.TableSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The system tables that describe the SQL dialect rather than the data: {@code system.functions},
 * {@code system.data_type_families}, {@code system.table_engines} and {@code system.keywords}, listing what this
 * stub implements (a unit test checks every listed function and type against the engine), with ClickHouse's
 * columns. JDBC's DatabaseMetaData.getFunctions and getTypeInfo, and IDEs' completion, read them. Mirrors
 * ClickHouse's StorageSystemFunctions, StorageSystemDataTypeFamilies, StorageSystemTableEngines and
 * StorageSystemKeywords.
 */
final class SystemReferenceTables {
    private SystemReferenceTables() {
    }

    /** Regular functions the stub implements. */
    static final List<String> FUNCTIONS = List.of("MD5", "SHA1", "SHA224", "SHA256", "SHA384", "SHA512", "SHA512_256",
        "abs", "and", "array", "arrayAll", "arrayConcat", "arrayCount", "arrayDistinct", "arrayElement",
        "arrayEnumerate", "arrayExists", "arrayFilter", "arrayFirst", "arrayJoin", "arrayMap", "arrayReverse",
        "arraySlice", "arraySort", "arraySum", "arrayZip", "assumeNotNull", "bitAnd", "bitOr",
        "bitXor", "bitmapAnd", "bitmapAndCardinality", "bitmapAndnot", "bitmapAndnotCardinality", "bitmapBuild", "bitmapCardinality",
        "bitmapContains", "bitmapHasAll", "bitmapHasAny", "bitmapMax", "bitmapMin", "bitmapOr", "bitmapOrCardinality", "bitmapToArray",
        "bitmapXor", "bitmapXorCardinality", "ceil", "coalesce", "concat", "currentDatabase", "currentRoles", "currentUser", "defaultRoles",
        "divide", "e", "empty", "emptyArrayString", "enabledRoles", "endsWith", "equals", "exp", "floor", "format", "fromUnixTimestamp64Micro", "fromUnixTimestamp64Milli",
        "fromUnixTimestamp64Nano", "gcd", "generateUUIDv4", "getSetting", "greater", "greaterOrEquals", "greatest",
        "has", "hex", "hostName", "if", "ifNull", "in", "indexOf", "intDiv", "intDivOrZero", "isNotNull",
        "isNull", "least", "left", "leftPad", "length", "lengthUTF8", "less", "lessOrEquals", "log", "lower",
        "lowerUTF8", "minus", "modulo", "multiIf", "multiply", "negate", "not",
        "notEmpty", "notEquals", "notIn", "now", "now64", "or",
        "pi", "plus", "pow", "queryID", "rand", "rand64",
        "randomFixedString", "randomPrintableASCII", "randomString", "range", "reinterpret", "reinterpretAsDate",
        "reinterpretAsDateTime", "reinterpretAsFixedString", "reinterpretAsFloat32", "reinterpretAsFloat64",
        "reinterpretAsInt128", "reinterpretAsInt16", "reinterpretAsInt256", "reinterpretAsInt32", "reinterpretAsInt64",
        "reinterpretAsInt8", "reinterpretAsString", "reinterpretAsUInt128", "reinterpretAsUInt16",
        "reinterpretAsUInt256", "reinterpretAsUInt32", "reinterpretAsUInt64", "reinterpretAsUInt8", "reinterpretAsUUID",
        "replaceAll", "replaceOne", "replaceRegexpAll", "replaceRegexpOne", "repeat", "reverse", "reverseUTF8", "right",
        "rightPad", "round", "sign", "sleep", "sleepEachRow", "sqrt", "startsWith", "substring",
        "substringUTF8", "throwIf", "timestamp", "timezone", "toBool", "toDate", "toDate32", "toDateTime",
        "toDateTime64", "toDecimal128", "toDecimal32", "toDecimal64", "toFixedString",
        "toFloat32", "toFloat64", "toInt128", "toInt16", "toInt256", "toInt32", "toInt64", "toInt8",
        "toNullable", "toString", "toTypeName", "toUInt128",
        "toUInt16", "toUInt256", "toUInt32", "toUInt64", "toUInt8", "toUUID", "toUnixTimestamp",
        "today", "trimBoth", "trimLeft", "trimRight", "tuple", "tupleElement", "upper",
        "upperUTF8", "uptime", "version", "xor", "xxHash32", "xxHash64", "yesterday");

    /** The interval functions: toIntervalDay ..., addDays ... and subtractDays ... for each unit, and those of tuples of intervals. */
    static final List<String> INTERVAL_FUNCTIONS = intervalFunctions();

    private static List<String> intervalFunctions() {
        List<String> out = new ArrayList<>(List.of("toInterval", "addInterval", "subtractInterval", "addTupleOfIntervals",
            "subtractTupleOfIntervals"));
        for (String unit : List.of("Nanosecond", "Microsecond", "Millisecond", "Second", "Minute", "Hour", "Day", "Week", "Month",
            "Quarter", "Year")) {
            out.addAll(List.of("toInterval" + unit, "add" + unit + "s", "subtract" + unit + "s"));
        }
        return List.copyOf(out);
    }

    /** Aggregate functions the stub implements. */
    static final List<String> AGGREGATES = List.of("any", "anyLast", "argMax", "argMin", "avg", "count", "groupArray", "groupBitmap",
        "groupUniqArray", "max", "min", "sum", "sumWithOverflow", "uniq", "uniqExact");

    /** Aliases: alias to the function it names (case-insensitive SQL spellings among them). */
    static final Map<String, String> FUNCTION_ALIASES = Map.ofEntries(Map.entry("lcase", "lower"), Map.entry("ucase", "upper"),
        Map.entry("substr", "substring"), Map.entry("mid", "substring"), Map.entry("power", "pow"),
        Map.entry("database", "currentDatabase"), Map.entry("user", "currentUser"), Map.entry("current_user", "currentUser"),
        Map.entry("current_timestamp", "now"),
        Map.entry("current_date", "today"), Map.entry("timeZone", "timezone"), Map.entry("queryId", "queryID"),
        Map.entry("generateSeries", "generate_series"), Map.entry("trim", "trimBoth"),
        Map.entry("ltrim", "trimLeft"), Map.entry("rtrim", "trimRight"));

    /** Lower-case aliases the engine lists as case-sensitive: the parser, not the function table, takes TRIM in any case. */
    private static final java.util.Set<String> CASE_SENSITIVE_ALIASES = java.util.Set.of("trim", "ltrim", "rtrim");

    /** Data type families the stub's type parser accepts, with their aliases. */
    static final List<String> TYPES = List.of("Array", "Bool", "Date", "Date32", "DateTime", "DateTime64", "Decimal",
        "Decimal128", "Decimal256", "Decimal32", "Decimal64", "Enum16", "Enum8", "FixedString", "Float32", "Float64",
        "Geometry", "Int128", "Int16", "Int256", "Int32", "Int64", "Int8", "IntervalDay", "IntervalHour",
        "IntervalMicrosecond", "IntervalMillisecond", "IntervalMinute", "IntervalMonth", "IntervalNanosecond",
        "IntervalQuarter", "IntervalSecond", "IntervalWeek", "IntervalYear", "LineString", "LowCardinality", "Map",
        "MultiLineString", "MultiPolygon", "Nothing", "Nullable", "Point", "Polygon", "QBit", "Ring", "String", "Time",
        "Time64", "Tuple", "UInt128", "UInt16", "UInt256", "UInt32", "UInt64", "UInt8", "UUID");

    static final Map<String, String> TYPE_ALIASES = Map.ofEntries(Map.entry("BIGINT", "Int64"), Map.entry("INT", "Int32"),
        Map.entry("INTEGER", "Int32"), Map.entry("SMALLINT", "Int16"), Map.entry("TINYINT", "Int8"),
        Map.entry("BOOLEAN", "Bool"), Map.entry("DOUBLE", "Float64"), Map.entry("FLOAT", "Float32"),
        Map.entry("REAL", "Float32"), Map.entry("TEXT", "String"), Map.entry("VARCHAR", "String"),
        Map.entry("CHAR", "String"), Map.entry("BLOB", "String"), Map.entry("TIMESTAMP", "DateTime"),
        Map.entry("DEC", "Decimal"), Map.entry("NUMERIC", "Decimal"));

    /** Engines that CREATE TABLE accepts. */
    static final List<String> ENGINES = List.of("MergeTree", "ReplicatedMergeTree", "ReplacingMergeTree", "SummingMergeTree",
        "CollapsingMergeTree", "View", "MaterializedView", "Memory", "Null", "Log", "TinyLog", "StripeLog");

    static final List<String> KEYWORDS = List.of("ADD", "AFTER", "ALIAS", "ALL", "ALTER", "AND", "ANTI", "ANY", "ARRAY",
        "AS", "ASC", "ASOF", "ASYNC", "ATTACH", "BETWEEN", "BY", "CASE", "CAST", "CHECK", "CLUSTER", "CODEC", "COLLATE",
        "COLUMN", "COMMENT", "CREATE", "CROSS", "DATABASE", "DATABASES", "DEDUPLICATE", "DEFAULT", "DELETE", "DESC",
        "DESCRIBE", "DETACH", "DISTINCT", "DIV", "DROP", "ELSE", "END", "ENGINE", "EPHEMERAL", "EXCEPT", "EXISTS",
        "EXPLAIN", "FALSE", "FETCH", "FINAL", "FIRST", "FORMAT", "FROM", "FULL", "FUNCTION", "GLOBAL", "GROUP", "HAVING",
        "IF", "ILIKE", "IN", "INNER", "INSERT", "INTERSECT", "INTERVAL", "INTO", "IS", "JOIN", "KEY", "KILL", "LAST",
        "LEFT", "LIKE", "LIMIT", "MATERIALIZED", "MOD", "MODIFY", "NOT", "NULL", "NULLS", "OFFSET", "ON", "OPTIMIZE",
        "OR", "ORDER", "OUTER", "PARTITION", "POPULATE", "PREWHERE", "PRIMARY", "QUERY", "RIGHT", "SAMPLE", "SELECT",
        "SEMI", "SET", "SETTINGS", "SHOW", "SYNC", "SYSTEM", "TABLE", "TABLES", "TEMPORARY", "THEN", "TO", "TOTALS",
        "TRUE", "TRUNCATE", "TTL", "UNION", "UPDATE", "USE", "USING", "VALUES", "VIEW", "WHEN", "WHERE", "WITH");

    static TableSource functions() {
        SystemTable t = SystemTable.of("functions");
        java.util.Set<String> listed = new java.util.HashSet<>();
        // the registry first: a registered function is listed as it is registered (its case, alias and category; an
        // alias without a category, as the engine lists it), whatever the lists below say of it
        for (dev.chdedup.stub.exec.FunctionFactory.Registered f : dev.chdedup.stub.exec.FunctionFactory.instance().all()) {
            listed.add(f.name());
            t.add().set("name", f.name()).set("is_aggregate", false).set("case_insensitive", f.caseInsensitive())
                .set("alias_to", f.aliasTo()).set("origin", "System").set("categories", f.aliasTo().isEmpty() ? f.category() : "");
        }
        for (String f : FUNCTIONS) {
            if (listed.add(f)) {
                function(t, f, false, "");
            }
        }
        for (String f : INTERVAL_FUNCTIONS) {
            if (listed.add(f)) {
                function(t, f, false, "");
            }
        }
        for (String f : AGGREGATES) {
            function(t, f, true, "");
        }
        for (Map.Entry<String, String> a : FUNCTION_ALIASES.entrySet()) {
            if (listed.add(a.getKey())) {
                function(t, a.getKey(), false, a.getValue());
            }
        }
        // the families that keep their own registry (dates and times, maps), as the engine lists them
        for (dev.chdedup.stub.exec.Functions.Listed f : dev.chdedup.stub.exec.Functions.familyFunctions()) {
            if (listed.add(f.name())) {
                t.add().set("name", f.name()).set("is_aggregate", false).set("case_insensitive", f.caseInsensitive())
                    .set("alias_to", f.aliasTo()).set("origin", "System");
            }
        }
        return t.source();
    }

    private static void function(SystemTable t, String name, boolean aggregate, String aliasTo) {
        // the SQL-standard spellings are case-insensitive, ClickHouse's own names are not
        boolean ci = aggregate ? List.of("count", "sum", "min", "max", "avg").contains(name)
            : !aliasTo.isEmpty() && name.equals(name.toLowerCase(java.util.Locale.ROOT)) && !CASE_SENSITIVE_ALIASES.contains(name);
        t.add().set("name", name).set("is_aggregate", aggregate).set("case_insensitive", ci).set("alias_to", aliasTo)
            .set("origin", "System");
    }

    static TableSource dataTypeFamilies() {
        SystemTable t = SystemTable.of("data_type_families");
        for (String name : TYPES) {
            t.add().set("name", name).set("case_insensitive", 0L).set("alias_to", "");
        }
        for (Map.Entry<String, String> a : TYPE_ALIASES.entrySet()) {
            t.add().set("name", a.getKey()).set("case_insensitive", 1L).set("alias_to", a.getValue());
        }
        return t.source();
    }

    static TableSource tableEngines() {
        SystemTable t = SystemTable.of("table_engines");
        for (String e : ENGINES) {
            boolean mt = e.endsWith("MergeTree");
            t.add().set("name", e).set("supports_settings", mt).set("supports_sort_order", mt)
                .set("supports_replication", e.startsWith("Replicated")).set("supports_deduplication", mt)
                .set("supports_parallel_insert", mt);
        }
        return t.source();
    }

    static TableSource keywords() {
        SystemTable t = SystemTable.of("keywords");
        for (String k : KEYWORDS) {
            t.add().set("keyword", k);
        }
        return t.source();
    }

    /** The time zones the server loads by name (a fixed offset, {@code Fixed/UTC+05:30:00}, is not listed, as in ClickHouse). */
    /** system.collations: the engine's collations (name, language), recorded from it into {@code /system/collations.tsv}. */
    static TableSource collations() {
        SystemTable t = SystemTable.of("collations");
        for (List<String> r : SystemTableSchema.read("collations.tsv")) {
            t.add().set("name", r.get(0)).set("language", dev.chdedup.stub.types.ByteStrings.fromText(r.get(1)));
        }
        return t.source();
    }

    static TableSource timeZones() {
        SystemTable t = SystemTable.of("time_zones");
        for (String z : dev.chdedup.stub.types.TimeZones.names()) {
            t.add().set("time_zone", z);
        }
        return t.source();
    }
}
