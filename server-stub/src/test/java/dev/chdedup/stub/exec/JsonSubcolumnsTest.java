package dev.chdedup.stub.exec;

/**
 * JSON path subcolumns as ClickHouse 26.7 reads them: {@code j.a.b} (Dynamic, NULL when absent or an object), typed
 * paths of the type's hints, {@code j.^a} (the sub-object as JSON), {@code j.a[].x} (paths of an array of objects,
 * Array(JSON) with half the types and a quarter of the paths), {@code j.a.:Int64} (dynamicElement), and the type's
 * canonical name with SKIP and SKIP REGEXP applied; in WHERE and ORDER BY (a Dynamic key refused unless allowed),
 * with the engine's errors; dynamicType, dynamicElement, variantType, variantElement and a Variant's {@code v.T}.
 * 64-bit integers are quoted in JSON text (the stub's default, set on the engine's side when recording).
 */
class JsonSubcolumnsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT '{\"a\":{\"b\":1,\"c\":[{\"x\":1},{\"x\":2,\"y\":\"s\"}]},\"d\":\"s\",\"e\":[1,2]}'::JSON AS j, j.a.b, toTypeName(j.a.b), dynamicType(j.a.b), j.^a, toTypeName(j.^a), j.a, toTypeName(j.a), dynamicType(j.a), j.nope FORMAT TSVWithNames SETTINGS output_format_json_quote_64bit_integers = 1", "j\tj.a.b\ttoTypeName(j.a.b)\tdynamicType(j.a.b)\tj.^`a`\ttoTypeName(j.^`a`)\tj.a\ttoTypeName(j.a)\tdynamicType(j.a)\tj.nope\n{\"a\":{\"b\":\"1\",\"c\":[{\"x\":\"1\"},{\"x\":\"2\",\"y\":\"s\"}]},\"d\":\"s\",\"e\":[\"1\",\"2\"]}\t1\tDynamic\tInt64\t{\"b\":\"1\",\"c\":[{\"x\":\"1\"},{\"x\":\"2\",\"y\":\"s\"}]}\tJSON\t\\N\tDynamic\tNone\t\\N"},
            {"SELECT '{\"a\":{\"b\":1,\"c\":[{\"x\":1},{\"x\":2,\"y\":\"s\"}]},\"d\":\"s\",\"e\":[1,2]}'::JSON AS j, j.a.c, dynamicType(j.a.c), j.a.c[].x, toTypeName(j.a.c[].x), j.a.c[].y, j.a.c.:`Array(JSON)`, toTypeName(j.a.c.:`Array(JSON)`) FORMAT TSVWithNames SETTINGS output_format_json_quote_64bit_integers = 1", "j\tj.a.c\tdynamicType(j.a.c)\tj.a.c.:`Array(JSON)`.x\ttoTypeName(j.a.c.:`Array(JSON)`.x)\tj.a.c.:`Array(JSON)`.y\tj.a.c.:`Array(JSON)`\ttoTypeName(j.a.c.:`Array(JSON)`)\n{\"a\":{\"b\":\"1\",\"c\":[{\"x\":\"1\"},{\"x\":\"2\",\"y\":\"s\"}]},\"d\":\"s\",\"e\":[\"1\",\"2\"]}\t['{\"x\":\"1\"}','{\"x\":\"2\",\"y\":\"s\"}']\tArray(JSON(max_dynamic_types=16, max_dynamic_paths=256))\t[1,2]\tArray(Dynamic(max_types=16))\t[NULL,'s']\t['{\"x\":\"1\"}','{\"x\":\"2\",\"y\":\"s\"}']\tArray(JSON(max_dynamic_types=16, max_dynamic_paths=256))"},
            {"SELECT '{\"a\":{\"b\":1,\"c\":[{\"x\":1},{\"x\":2,\"y\":\"s\"}]},\"d\":\"s\",\"e\":[1,2]}'::JSON AS j, j.e[1], toTypeName(j.e[1]), dynamicType(j.e[1]), j.a.b.:Int64, toTypeName(j.a.b.:Int64), j.a.b.:String, j.d.:String, j.e.:`Array(Nullable(Int64))`, j.^nope, j.^a.b, j.^a.c FORMAT TSVWithNames SETTINGS output_format_json_quote_64bit_integers = 1", "j\tarrayElement(j.e, 1)\ttoTypeName(arrayElement(j.e, 1))\tdynamicType(arrayElement(j.e, 1))\tj.a.b.:`Int64`\ttoTypeName(j.a.b.:`Int64`)\tj.a.b.:`String`\tj.d.:`String`\tj.e.:`Array(Nullable(Int64))`\tj.^`nope`\tj.^`a`.b\tj.^`a`.c\n{\"a\":{\"b\":\"1\",\"c\":[{\"x\":\"1\"},{\"x\":\"2\",\"y\":\"s\"}]},\"d\":\"s\",\"e\":[\"1\",\"2\"]}\t1\tDynamic\tInt64\t1\tNullable(Int64)\t\\N\ts\t[1,2]\t{}\t{}\t{}"},
            {"SELECT '{\"a\":[[{\"x\":1}]],\"b\":{\"c\":1}}'::JSON(max_dynamic_types=4, max_dynamic_paths=10, b.d String) AS j, dynamicType(j.a), toTypeName(j.^b), j.^b, j FORMAT TSV SETTINGS output_format_json_quote_64bit_integers = 1", "{\"a\":[[{\"x\":\"1\"}]],\"b\":{\"c\":\"1\",\"d\":\"\"}}\tArray(Array(JSON(max_dynamic_types=2, max_dynamic_paths=2)))\tJSON(max_dynamic_types=4, max_dynamic_paths=10, d String)\t{\"c\":\"1\",\"d\":\"\"}\t{\"a\":[[{\"x\":\"1\"}]],\"b\":{\"c\":\"1\",\"d\":\"\"}}"},
            {"SELECT '{\"a\":[{\"x\":1}]}'::JSON(max_dynamic_types=4, max_dynamic_paths=10) AS j, dynamicType(j.a), toTypeName(j.a[].x), j.a[].x FORMAT TSV SETTINGS output_format_json_quote_64bit_integers = 1", "{\"a\":[{\"x\":\"1\"}]}\tArray(JSON(max_dynamic_types=2, max_dynamic_paths=2))\tArray(Dynamic(max_types=2))\t[1]"},
            {"SELECT toTypeName('{}'::JSON(SKIP REGEXP 'x.*', b.c String, max_dynamic_types=4, SKIP z, `a b` Int8, max_dynamic_paths=10)), toTypeName('{}'::JSON(max_dynamic_paths=1024, max_dynamic_types=32)), toTypeName('{}'::JSON()) FORMAT TSV", "JSON(max_dynamic_types=4, max_dynamic_paths=10, `a b` Int8, `b.c` String, SKIP z, SKIP REGEXP \\'x.*\\')\tJSON\tJSON"},
            {"SELECT '{\"xa\":1,\"b\":{\"xc\":2,\"d\":3},\"z\":{\"q\":1},\"zz\":4}'::JSON(SKIP REGEXP '^x', SKIP z) AS j FORMAT TSV SETTINGS output_format_json_quote_64bit_integers = 1", "{\"b\":{\"d\":\"3\",\"xc\":\"2\"},\"zz\":\"4\"}"},
            {"DROP TABLE IF EXISTS json_sub", ""},
            {"CREATE TABLE json_sub (id UInt32, j JSON(a UInt32, SKIP z, max_dynamic_paths=2)) ENGINE = Memory", ""},
            {"INSERT INTO json_sub VALUES (1, '{\"a\":5,\"b\":{\"c\":\"x\"},\"z\":1}'), (2, '{\"a\":3,\"b\":{\"c\":2},\"d\":[1,2]}'), (3, '{\"b\":{\"c\":1.5},\"q\":{\"r\":true}}')", ""},
            {"SELECT id, j, j.a, toTypeName(j.a), j.b.c, toTypeName(j.b.c), dynamicType(j.b.c), j.z, j.^b, j.q.r FROM json_sub ORDER BY id SETTINGS output_format_json_quote_64bit_integers = 1", "1\t{\"a\":5,\"b\":{\"c\":\"x\"}}\t5\tUInt32\tx\tDynamic\tString\t\\N\t{\"c\":\"x\"}\t\\N\n2\t{\"a\":3,\"b\":{\"c\":\"2\"},\"d\":[\"1\",\"2\"]}\t3\tUInt32\t2\tDynamic\tInt64\t\\N\t{\"c\":\"2\"}\t\\N\n3\t{\"a\":0,\"b\":{\"c\":1.5},\"q\":{\"r\":true}}\t0\tUInt32\t1.5\tDynamic\tFloat64\t\\N\t{\"c\":1.5}\ttrue"},
            {"SELECT toTypeName(j), toTypeName(j.^b) FROM json_sub LIMIT 1", "JSON(max_dynamic_paths=2, a UInt32, SKIP z)\tJSON(max_dynamic_paths=2, SKIP z)"},
            {"SELECT id FROM json_sub WHERE j.a > 3", "1"},
            {"SELECT id FROM json_sub WHERE j.b.c.:Int64 = 2", "2"},
            {"SELECT id FROM json_sub ORDER BY j.b.c", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT id FROM json_sub ORDER BY j.b.c SETTINGS allow_suspicious_types_in_order_by = 1", "3\n2\n1"},
            {"SELECT id FROM json_sub ORDER BY j.b.c.:Float64, id", "3\n1\n2"},
            {"SELECT id, j.b.c.:Int32, j.q.r.:Bool FROM json_sub ORDER BY id", "1\t\\N\t\\N\n2\t\\N\t\\N\n3\t\\N\ttrue"},
            {"SELECT id, j.b.c.:Nope FROM json_sub", "Code: 47 UNKNOWN_IDENTIFIER"},
            {"SELECT id.a FROM json_sub", "Code: 47 UNKNOWN_IDENTIFIER"},
            {"SELECT id.^a FROM json_sub", "Code: 47 UNKNOWN_IDENTIFIER"},
            {"SELECT j.a.:Int64 FROM json_sub", "Code: 47 UNKNOWN_IDENTIFIER"},
            {"SELECT j.^a FROM json_sub", "{}\n{}\n{}"},
            {"SELECT json_sub.j.a FROM json_sub ORDER BY id", "5\n3\n0"},
            {"SELECT j.d[2], j.d[5] FROM json_sub ORDER BY id", "\\N\t\\N\n2\t\\N\n\\N\t\\N"},
            {"SELECT j.b.c[1] FROM json_sub ORDER BY id", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"DROP TABLE IF EXISTS variant_sub", ""},
            {"CREATE TABLE variant_sub (id UInt8, v Variant(String, UInt64, Array(UInt8))) ENGINE = Memory", ""},
            {"INSERT INTO variant_sub VALUES (1, 1), (2, 'a'), (3, NULL), (4, [1])", ""},
            {"SELECT v, variantType(v), toTypeName(variantType(v)), variantElement(v, 'String'), variantElement(v, 'Array(UInt8)'), v.UInt64, toTypeName(v.UInt64), v.String FROM variant_sub ORDER BY id", "1\tUInt64\tEnum8(\\'None\\' = -1, \\'Array(UInt8)\\' = 0, \\'String\\' = 1, \\'UInt64\\' = 2)\t\\N\t[]\t1\tNullable(UInt64)\t\\N\na\tString\tEnum8(\\'None\\' = -1, \\'Array(UInt8)\\' = 0, \\'String\\' = 1, \\'UInt64\\' = 2)\ta\t[]\t\\N\tNullable(UInt64)\ta\n\\N\tNone\tEnum8(\\'None\\' = -1, \\'Array(UInt8)\\' = 0, \\'String\\' = 1, \\'UInt64\\' = 2)\t\\N\t[]\t\\N\tNullable(UInt64)\t\\N\n[1]\tArray(UInt8)\tEnum8(\\'None\\' = -1, \\'Array(UInt8)\\' = 0, \\'String\\' = 1, \\'UInt64\\' = 2)\t\\N\t[1]\t\\N\tNullable(UInt64)\t\\N"},
            {"SELECT v.Int8 FROM variant_sub", "Code: 47 UNKNOWN_IDENTIFIER"},
            {"SELECT dynamicType(1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dynamicElement(1, 'Int64')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dynamicElement('a'::Dynamic, 'Nope')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT dynamicElement('a'::Dynamic, 'String'), toTypeName(dynamicElement('a'::Dynamic, 'String')), dynamicType('a'::Dynamic), dynamicType(NULL::Dynamic)", "a\tNullable(String)\tString\tNone"},
            // an unknown escape in a string literal keeps its backslash, so JSON text reads its own \\u escapes
            {"SELECT '{\"c\":\"\\u00e9\",\"d\":\"a\\\\\"b\"}'::JSON AS j, j.c, j.d, 'a\\qb', length('a\\u00e9'), 'x\\%', 'q\\'', 'n\\/' FORMAT TSV", "{\"c\":\"é\",\"d\":\"a\\\\\"b\"}\té\ta\"b\ta\\\\qb\t7\tx\\\\%\tq\\'\tn/"}

        };
    }
}
