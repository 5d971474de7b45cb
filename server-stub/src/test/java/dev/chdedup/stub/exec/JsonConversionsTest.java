package dev.chdedup.stub.exec;

/**
 * Conversions among JSON, Dynamic, Variant and the concrete types as ClickHouse 26.7 has them: JSON to Dynamic (a
 * value of type JSON) and to String (its text), not to Map (TYPE_MISMATCH) or a number; Dynamic and Variant to a
 * concrete type by their value's own type (a NULL the default of a non-Nullable type), a String value parsed;
 * Variant to Dynamic and back; supertypes of if and arrays mixing Dynamic (Dynamic) or Variant (the Variant of all
 * the types); Array(JSON) elements as JSON objects in JSONEachRow and as quoted text in TabSeparated, Values and CSV.
 */
class JsonConversionsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT '{\"a\":1,\"b\":{\"c\":\"x\"}}'::JSON AS j, j::Dynamic AS d, dynamicType(d), toTypeName(d), CAST(j, 'String') AS s, toTypeName(s) FORMAT TSV SETTINGS output_format_json_quote_64bit_integers = 1", "{\"a\":\"1\",\"b\":{\"c\":\"x\"}}\t{\"a\":\"1\",\"b\":{\"c\":\"x\"}}\tJSON\tDynamic\t{\"a\":\"1\",\"b\":{\"c\":\"x\"}}\tString"},
            {"SELECT CAST('{\"a\":1,\"b\":{\"c\":\"x\"}}'::JSON, 'Map(String, String)') AS m, toTypeName(m) FORMAT TSV", "Code: 53 TYPE_MISMATCH"},
            {"SELECT CAST('{\"a\":1,\"b\":2}'::JSON, 'Map(String, UInt8)') AS m FORMAT TSV", "Code: 53 TYPE_MISMATCH"},
            {"SELECT CAST(CAST(42, 'Dynamic'), 'UInt8') AS a, CAST(CAST('12', 'Dynamic'), 'Int32') AS b, CAST(CAST(1.5, 'Dynamic'), 'String') AS c, toTypeName(c) FORMAT TSV", "42\t12\t1.5\tString"},
            {"SELECT CAST(CAST('x', 'Dynamic'), 'Int32')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT CAST(CAST(NULL, 'Dynamic'), 'Int32')", "0"},
            {"SELECT CAST(CAST(NULL, 'Dynamic'), 'Nullable(Int32)') AS a, toTypeName(a) FORMAT TSV", "\\N\tNullable(Int32)"},
            {"SELECT CAST(CAST(7, 'Variant(UInt8, String)'), 'UInt16') AS a, CAST(CAST('7', 'Variant(UInt8, String)'), 'UInt16') AS b, CAST(CAST(7, 'Variant(UInt8, String)'), 'String') AS c FORMAT TSV", "7\t7\t7"},
            {"SELECT CAST(CAST(7, 'Variant(UInt8, String)'), 'Dynamic') AS d, dynamicType(d) FORMAT TSV", "7\tUInt8"},
            {"SELECT CAST(CAST(7, 'Dynamic'), 'Variant(UInt8, String)') AS v, variantType(v) FORMAT TSV", "7\tUInt8"},
            {"SELECT CAST(CAST(7, 'UInt8'), 'Variant(UInt16, String)') AS v, variantType(v) FORMAT TSV", "Code: 70 CANNOT_CONVERT_TYPE"},
            {"SELECT if(number = 0, CAST(1, 'Dynamic'), CAST('a', 'Dynamic')) AS x, toTypeName(x), dynamicType(x) FROM numbers(2) FORMAT TSV", "1\tDynamic\tUInt8\na\tDynamic\tString"},
            {"SELECT [1, 'a'] AS x", "Code: 386 NO_COMMON_TYPE"},
            {"SELECT [CAST(1, 'Dynamic'), 2] AS x, toTypeName(x) FORMAT TSV", "[1,2]\tArray(Dynamic)"},
            {"SELECT [CAST(1, 'Variant(UInt8, String)'), 2] AS x, toTypeName(x) FORMAT TSV", "[1,2]\tArray(Variant(String, UInt8))"},
            {"SELECT if(number = 0, CAST(1, 'Variant(UInt8, String)'), CAST('s', 'Variant(UInt8, String)')) AS x, toTypeName(x) FROM numbers(2) FORMAT TSV", "1\tVariant(String, UInt8)\ns\tVariant(String, UInt8)"},
            {"SELECT if(1, CAST(1, 'Dynamic'), 2) AS x, toTypeName(x) FORMAT TSV", "1\tDynamic"},
            {"SELECT ['{\"a\":1}'::JSON, '{\"b\":\"x\"}'::JSON] AS x, toTypeName(x) FORMAT TSV SETTINGS output_format_json_quote_64bit_integers = 1", "['{\"a\":\"1\"}','{\"b\":\"x\"}']\tArray(JSON)"},
            {"SELECT ['{\"a\":1}'::JSON, '{\"b\":\"x\"}'::JSON] AS x FORMAT JSONEachRow SETTINGS output_format_json_quote_64bit_integers = 1", "{\"x\":[{\"a\":\"1\"},{\"b\":\"x\"}]}"},
            {"SELECT '{\"a\":[{\"x\":1},{\"y\":[{\"z\":2}]}]}'::JSON AS j, j.a AS d FORMAT JSONEachRow SETTINGS output_format_json_quote_64bit_integers = 1", "{\"j\":{\"a\":[{\"x\":\"1\"},{\"y\":[{\"z\":\"2\"}]}]},\"d\":[{\"x\":\"1\"},{\"y\":[{\"z\":\"2\"}]}]}"},
            {"SELECT '{\"a\":[{\"x\":1}]}'::JSON AS j, j.a AS d FORMAT Values SETTINGS output_format_json_quote_64bit_integers = 1", "('{\"a\":[{\"x\":\"1\"}]}',['{\"x\":\"1\"}'])"},
            {"SELECT '{\"a\":[{\"x\":1}]}'::JSON AS j, j.a AS d FORMAT CSV SETTINGS output_format_json_quote_64bit_integers = 1", "\"{\"\"a\"\":[{\"\"x\"\":\"\"1\"\"}]}\",\"['{\"\"x\"\":\"\"1\"\"}']\""},
            {"SELECT toTypeName(CAST('{\"a\":1}', 'JSON')::Dynamic) FORMAT TSV", "Dynamic"},
            {"SELECT CAST(CAST(1, 'Dynamic'), 'JSON')", "Code: 53 TYPE_MISMATCH"},
            {"SELECT CAST(CAST('{\"a\":1}', 'Dynamic'), 'JSON') AS j FORMAT TSV SETTINGS output_format_json_quote_64bit_integers = 1", "{\"a\":\"1\"}"}

        };
    }
}
