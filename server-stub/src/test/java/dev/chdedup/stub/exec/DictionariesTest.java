package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.chdedup.stub.server.StubServer;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dictionaries as ClickHouse 26.7 has them: CREATE [OR REPLACE] DICTIONARY [IF NOT EXISTS] with the layouts FLAT,
 * HASHED, SPARSE_HASHED, HASHED_ARRAY, COMPLEX_KEY_HASHED (also taken by a simple layout when the key is complex),
 * RANGE_HASHED (both lookup strategies), DIRECT and CACHE, over a table, a WHERE or a QUERY of the server's own tables
 * or SOURCE(NULL()), with DEFAULTs, EXPRESSIONs and a HIERARCHICAL attribute; the definition's errors; loading on first
 * use, a failed load kept and thrown, SYSTEM RELOAD DICTIONARY and DICTIONARIES; dictGet, dictGetOrDefault,
 * dictGetOrNull, dictHas and dictGet&lt;Type&gt; with their result types and errors (keys converted without loss, complex
 * keys as tuples, a range's point), the hierarchy functions, dictGet in a materialized view, a dictionary read as a
 * table (joined too) and through dictionary(), SHOW CREATE, SHOW DICTIONARIES, EXISTS, DESCRIBE, DROP, DETACH and
 * ATTACH, system.dictionaries, system.tables and system.columns. The answers are the engine's, taken
 * through the oracle (shared/oracle); the dictionaries and their source survive a restart, and a LIFETIME reloads them.
 */
class DictionariesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: ClickHouse 26.7's answers, recorded from the engine (chDB 3.4.0)
        return new String[][] {
            {"DROP DATABASE IF EXISTS dicts", ""},
            {"CREATE DATABASE dicts", ""},
            {"CREATE TABLE dicts.src (id UInt64, name String, val Float64, parent UInt64) ENGINE = MergeTree ORDER BY id", ""},
            {"INSERT INTO dicts.src VALUES (1, 'a', 1.5, 0), (2, 'b', 2.5, 1), (3, 'c', 3.5, 2)", ""},
            {"CREATE DICTIONARY dicts.d (id UInt64, name String DEFAULT 'none', val Float64 DEFAULT -1, parent UInt64 DEFAULT 0 HIERARCHICAL) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(MIN 300 MAX 1000)", ""},
            {"SELECT name, status, type, key.names, key.types, attribute.names, attribute.types, element_count, source, lifetime_min, lifetime_max, comment FROM system.dictionaries WHERE database = 'dicts'", "d\tNOT_LOADED\t\t['id']\t['UInt64']\t['name','val','parent']\t['String','Float64','UInt64']\t0\t\t0\t0\t"},
            {"SELECT dictGet('dicts.d', 'name', toUInt64(2)), dictGet('dicts.d', 'name', 5), dictGetOrDefault('dicts.d', 'name', 5, 'x'), dictHas('dicts.d', 1), dictHas('dicts.d', 9), dictGetOrNull('dicts.d', 'val', 9)", "b\tnone\tx\t1\t0\t\\N"},
            {"SELECT name, status, type, element_count, source, lifetime_min, lifetime_max, query_count, found_rate FROM system.dictionaries WHERE database = 'dicts'", "d\tLOADED\tHashed\t3\tClickHouse: dicts.src\t300\t1000\t7\t0.2857142857142857"},
            {"SELECT dictGet('dicts.d', 'val', 3), toTypeName(dictGet('dicts.d', 'val', 3)), toTypeName(dictGetOrNull('dicts.d', 'val', 3)), toTypeName(dictHas('dicts.d', 3))", "3.5\tFloat64\tNullable(Float64)\tUInt8"},
            {"SELECT dictGet('dicts.d', ('name', 'val'), 2)", "('b',2.5)"},
            {"SELECT dictGetOrDefault('dicts.d', ('name', 'val'), 7, ('q', 9.5))", "('q',9.5)"},
            {"SELECT dictGetOrNull('dicts.d', ('name', 'val'), 7)", "(NULL,NULL)"},
            {"SELECT dictGetOrNull('dicts.d', 'name', 1), dictGetOrNull('dicts.d', 'name', 10)", "a\t\\N"},
            {"SELECT dictGetString('dicts.d', 'name', 3), dictGetFloat64('dicts.d', 'val', 3), dictGetUInt64('dicts.d', 'parent', 3)", "c\t3.5\t2"},
            {"SELECT dictGetStringOrDefault('dicts.d', 'name', 9, 'zz'), dictGetUInt64OrDefault('dicts.d', 'parent', 9, 42)", "zz\t42"},
            {"SELECT dictGetUInt32('dicts.d', 'parent', 3)", "Code: 53 TYPE_MISMATCH"},
            {"SELECT dictGetString('dicts.d', 'val', 3)", "Code: 53 TYPE_MISMATCH"},
            {"SELECT dictGet('dicts.d', 'nosuch', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT dictGet('dicts.d', ('name', 'nosuch'), 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT dictGet('dicts.nope', 'name', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT dictGet('d', 'name', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT dictGet('dicts.src', 'name', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT dictGet('dicts.d', 'name')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT dictGet('dicts.d', 'name', 1, 2)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT dictGetOrDefault('dicts.d', 'name', 1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT dictHas('dicts.d')", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT dictGet(1, 'name', 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dictGet('dicts.d', 1, 1)", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dictGet('dicts.d', 'name', 'x')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT dictGet('dicts.d', 'name', '3'), dictGet('dicts.d', 'name', 2.0), dictGet('dicts.d', 'name', toInt32(1))", "c\tb\ta"},
            {"SELECT dictGet('dicts.d', 'name', toInt8(-1))", "Code: 70 CANNOT_CONVERT_TYPE"},
            {"SELECT dictGet('dicts.d', 'name', 1.5)", "Code: 70 CANNOT_CONVERT_TYPE"},
            {"SELECT dictGet('dicts.d', 'name', (1, 2))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dictGet('dicts.d', 'name', NULL), dictHas('dicts.d', NULL)", "\\N\t\\N"},
            {"SELECT dictGet('dicts.d', 'name', toNullable(1)), toTypeName(dictGet('dicts.d', 'name', toNullable(1)))", "a\tNullable(String)"},
            {"SELECT dictGetOrDefault('dicts.d', 'val', 99, 'str')", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT dictGetOrDefault('dicts.d', 'val', 99, 7), dictGetOrDefault('dicts.d', 'name', 99, 7)", "7\t7"},
            {"SELECT dictGetOrDefault('dicts.d', 'name', 99, NULL)", "Code: 70 CANNOT_CONVERT_TYPE"},
            {"SELECT dictGetOrDefault('dicts.d', ('name', 'val'), 99, ('x', 'y'))", "Code: 6 CANNOT_PARSE_TEXT"},
            {"SELECT number, dictGet('dicts.d', 'name', number), dictHas('dicts.d', number) FROM numbers(5)", "0\tnone\t0\n1\ta\t1\n2\tb\t1\n3\tc\t1\n4\tnone\t0"},
            {"SELECT id, dictGet('dicts.d', 'name', id) AS n, dictGetOrDefault('dicts.d', 'val', id + 1, toFloat64(-5)) FROM dicts.src ORDER BY id", "1\ta\t2.5\n2\tb\t3.5\n3\tc\t-5"},
            {"SELECT dictGetHierarchy('dicts.d', 3), dictGetHierarchy('dicts.d', 99), dictGetHierarchy('dicts.d', 0), toTypeName(dictGetHierarchy('dicts.d', 3))", "[3,2,1]\t[]\t[]\tArray(UInt64)"},
            {"SELECT dictIsIn('dicts.d', 3, 1), dictIsIn('dicts.d', 1, 3), dictIsIn('dicts.d', 3, 3), dictIsIn('dicts.d', 99, 99)", "1\t0\t1\t0"},
            {"SELECT dictGetChildren('dicts.d', 1), dictGetChildren('dicts.d', 0), dictGetDescendants('dicts.d', 1, 0), dictGetDescendants('dicts.d', 1, 2)", "[2]\t[1]\t[2,3]\t[3]"},
            {"SELECT * FROM dicts.d ORDER BY id", "1\ta\t1.5\t0\n2\tb\t2.5\t1\n3\tc\t3.5\t2"},
            {"SELECT * FROM dictionary('dicts.d') ORDER BY id", "1\ta\t1.5\t0\n2\tb\t2.5\t1\n3\tc\t3.5\t2"},
            {"SELECT name FROM dictionary(dicts.d) WHERE id > 1 ORDER BY id", "b\nc"},
            {"SELECT * FROM dictionary('dicts.nope')", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT count() FROM dicts.d", "3"},
            {"DESCRIBE dicts.d", "id\tUInt64\t\t\t\t\t\nname\tString\t\t\t\t\t\nval\tFloat64\t\t\t\t\t\nparent\tUInt64\t\t\t\t\t"},
            {"SHOW CREATE DICTIONARY dicts.d", "CREATE DICTIONARY dicts.d\\n(\\n    `id` UInt64,\\n    `name` String DEFAULT \\'none\\',\\n    `val` Float64 DEFAULT -1,\\n    `parent` UInt64 DEFAULT 0 HIERARCHICAL\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'src\\'))\\nLIFETIME(MIN 300 MAX 1000)\\nLAYOUT(HASHED())"},
            {"SHOW CREATE TABLE dicts.d", "CREATE DICTIONARY dicts.d\\n(\\n    `id` UInt64,\\n    `name` String DEFAULT \\'none\\',\\n    `val` Float64 DEFAULT -1,\\n    `parent` UInt64 DEFAULT 0 HIERARCHICAL\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'src\\'))\\nLIFETIME(MIN 300 MAX 1000)\\nLAYOUT(HASHED())"},
            {"EXISTS DICTIONARY dicts.d", "1"},
            {"EXISTS TABLE dicts.d", "1"},
            {"EXISTS DICTIONARY dicts.src", "0"},
            {"SELECT name, engine FROM system.tables WHERE database = 'dicts' ORDER BY name", "d\tDictionary\nsrc\tMergeTree"},
            {"SHOW TABLES FROM dicts", "d\nsrc"},
            {"INSERT INTO dicts.src VALUES (4, 'd', 4.5, 3)", ""},
            {"SELECT dictGet('dicts.d', 'name', 4), dictGetHierarchy('dicts.d', 4)", "none\t[]"},
            {"SYSTEM RELOAD DICTIONARY dicts.d", ""},
            {"SELECT dictGet('dicts.d', 'name', 4), dictGetHierarchy('dicts.d', 4), dictIsIn('dicts.d', 4, 2)", "d\t[4,3,2,1]\t1"},
            {"SELECT element_count, query_count FROM system.dictionaries WHERE name = 'd' AND database = 'dicts'", "4\t3"},
            {"SYSTEM RELOAD DICTIONARY dicts.nope", "Code: 36 BAD_ARGUMENTS"},
            {"SYSTEM RELOAD DICTIONARY dicts.src", "Code: 36 BAD_ARGUMENTS"},
            {"INSERT INTO dicts.d VALUES (9, 'z', 1, 0)", "Code: 48 NOT_IMPLEMENTED"},
            {"TRUNCATE TABLE dicts.d", "Code: 62 SYNTAX_ERROR"},
            {"DROP TABLE dicts.d", "Code: 520 CANNOT_DETACH_DICTIONARY_AS_TABLE"},
            {"CREATE TABLE dicts.d (x UInt8) ENGINE = Memory", "Code: 387 DICTIONARY_ALREADY_EXISTS"},
            {"CREATE DICTIONARY dicts.d (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 387 DICTIONARY_ALREADY_EXISTS"},
            {"CREATE DICTIONARY IF NOT EXISTS dicts.d (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"CREATE DICTIONARY dicts.src (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 57 TABLE_ALREADY_EXISTS"},
            {"CREATE DICTIONARY dicts.e1 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED())", "Code: 489 INCORRECT_DICTIONARY_DEFINITION"},
            {"CREATE DICTIONARY dicts.e2 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LIFETIME(0)", "Code: 489 INCORRECT_DICTIONARY_DEFINITION"},
            {"CREATE DICTIONARY dicts.e3 (id UInt64, name String) PRIMARY KEY id LAYOUT(HASHED()) LIFETIME(0)", "Code: 489 INCORRECT_DICTIONARY_DEFINITION"},
            {"CREATE DICTIONARY dicts.e4 (id UInt64, name String) SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 489 INCORRECT_DICTIONARY_DEFINITION"},
            {"CREATE DICTIONARY dicts.e5 (id UInt64, name String) PRIMARY KEY nokey SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 489 INCORRECT_DICTIONARY_DEFINITION"},
            {"CREATE DICTIONARY dicts.e6 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(NOSUCH()) LIFETIME(0)", "Code: 137 UNKNOWN_ELEMENT_IN_CONFIG"},
            {"CREATE DICTIONARY dicts.e7 (id UInt64, name String) PRIMARY KEY id SOURCE(NOSUCH(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 137 UNKNOWN_ELEMENT_IN_CONFIG"},
            {"CREATE DICTIONARY dicts.e8 (id UInt64, name String, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 36 BAD_ARGUMENTS"},
            {"CREATE DICTIONARY dicts.e9 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(MIN 5 MAX 2)", "Code: 36 BAD_ARGUMENTS"},
            {"CREATE DICTIONARY dicts.e10 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(DIRECT()) LIFETIME(5)", "Code: 36 BAD_ARGUMENTS"},
            {"CREATE DICTIONARY dicts.e11 (id UInt64, name String DEFAULT concat('a', 'b')) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 62 SYNTAX_ERROR"},
            {"CREATE DICTIONARY dicts.e12 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src' DB 'dicts')) LAYOUT(HASHED()) LIFETIME(MIN 5)", "Code: 62 SYNTAX_ERROR"},
            {"CREATE DICTIONARY dicts.e13 (id UInt64, s Date, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(RANGE_HASHED()) RANGE(MIN s MAX nosuch) LIFETIME(0)", "Code: 489 INCORRECT_DICTIONARY_DEFINITION"},
            {"CREATE DICTIONARY dicts.e14 (id UInt64, name String) LAYOUT(HASHED()) SOURCE(CLICKHOUSE(TABLE 'src')) LIFETIME(0) PRIMARY KEY id", "Code: 62 SYNTAX_ERROR"},
            {"CREATE DICTIONARY nodb.e (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 81 UNKNOWN_DATABASE"},
            {"SELECT count() FROM system.dictionaries WHERE database = 'dicts'", "1"},
            {"CREATE TABLE dicts.ck (a String, b UInt32, v Nullable(Int32), s String) ENGINE = MergeTree ORDER BY a", ""},
            {"INSERT INTO dicts.ck VALUES ('x', 1, 10, 'p'), ('x', 2, NULL, 'q'), ('y', 1, 30, 'r')", ""},
            {"CREATE DICTIONARY dicts.c (a String, b UInt32, v Nullable(Int32) DEFAULT 7, s String DEFAULT '?') PRIMARY KEY a, b SOURCE(CLICKHOUSE(TABLE 'ck' DB 'dicts')) LAYOUT(COMPLEX_KEY_HASHED()) LIFETIME(MIN 1 MAX 10)", ""},
            {"SELECT dictGet('dicts.c', 'v', ('x', 1)), dictGet('dicts.c', 'v', ('x', 2)), dictGet('dicts.c', 'v', ('z', 2)), toTypeName(dictGet('dicts.c', 'v', ('x', 2)))", "10\t\\N\t7\tNullable(Int32)"},
            {"SELECT dictGet('dicts.c', 's', ('x', toUInt8(1))), dictGet('dicts.c', 's', (1, 1)), dictHas('dicts.c', ('y', 1)), dictHas('dicts.c', ('y', 2))", "p\t?\t1\t0"},
            {"SELECT dictGet('dicts.c', 's', ('x', -1))", "Code: 70 CANNOT_CONVERT_TYPE"},
            {"SELECT dictGet('dicts.c', 's', 'x')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT dictGet('dicts.c', 's', ('x', 1, 2))", "Code: 53 TYPE_MISMATCH"},
            {"SELECT dictGetOrDefault('dicts.c', 's', ('q', 1), 'def')", "def"},
            {"SELECT dictGetHierarchy('dicts.c', ('x', 1))", "Code: 1 UNSUPPORTED_METHOD"},
            {"SELECT * FROM dicts.c ORDER BY a, b", "x\t1\t10\tp\nx\t2\t\\N\tq\ny\t1\t30\tr"},
            {"SELECT type, key.names, key.types, attribute.names, attribute.types, element_count, source FROM system.dictionaries WHERE name = 'c'", "ComplexKeyHashed\t['a','b']\t['String','UInt32']\t['v','s']\t['Nullable(Int32)','String']\t3\tClickHouse: dicts.ck"},
            {"SHOW CREATE DICTIONARY dicts.c", "CREATE DICTIONARY dicts.c\\n(\\n    `a` String,\\n    `b` UInt32,\\n    `v` Nullable(Int32) DEFAULT 7,\\n    `s` String DEFAULT \\'?\\'\\n)\\nPRIMARY KEY a, b\\nSOURCE(CLICKHOUSE(TABLE \\'ck\\' DB \\'dicts\\'))\\nLIFETIME(MIN 1 MAX 10)\\nLAYOUT(COMPLEX_KEY_HASHED())"},
            {"CREATE DICTIONARY dicts.sk (id String, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.sk', 'name', '1'), dictGet('dicts.sk', 'name', 2), dictHas('dicts.sk', 'a')", "a\tb\t0"},
            {"SELECT type, key.names, key.types FROM system.dictionaries WHERE name = 'sk'", "ComplexKeyHashed\t['id']\t['String']"},
            {"CREATE DICTIONARY dicts.f (id UInt64, name String DEFAULT 'n/a') PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(FLAT()) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.f', 'name', 2), dictGet('dicts.f', 'name', 100000000)", "b\tn/a"},
            {"SELECT type, element_count FROM system.dictionaries WHERE name = 'f'", "Flat\t4"},
            {"CREATE DICTIONARY dicts.f3 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src' WHERE 'id % 2 = 1')) LAYOUT(FLAT(MAX_ARRAY_SIZE 3)) LIFETIME(0)", ""},
            {"SELECT * FROM dicts.f3", "Code: 69 ARGUMENT_OUT_OF_BOUND"},
            {"SELECT status FROM system.dictionaries WHERE name = 'f3'", "FAILED"},
            {"CREATE DICTIONARY dicts.w (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src' WHERE 'id % 2 = 1')) LAYOUT(SPARSE_HASHED()) LIFETIME(0)", ""},
            {"SELECT * FROM dicts.w ORDER BY id", "1\ta\n3\tc"},
            {"SELECT type FROM system.dictionaries WHERE name = 'w'", "SparseHashed"},
            {"CREATE DICTIONARY dicts.q (id UInt64, s String) PRIMARY KEY id SOURCE(CLICKHOUSE(QUERY 'SELECT id, name AS s FROM dicts.src WHERE id < 3')) LAYOUT(HASHED_ARRAY()) LIFETIME(MIN 0 MAX 0)", ""},
            {"SELECT * FROM dicts.q ORDER BY id", "1\ta\n2\tb"},
            {"SELECT type, source FROM system.dictionaries WHERE name = 'q'", "HashedArray\tClickHouse: dicts."},
            {"SHOW CREATE DICTIONARY dicts.q", "CREATE DICTIONARY dicts.q\\n(\\n    `id` UInt64,\\n    `s` String\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(QUERY \\'SELECT id, name AS s FROM dicts.src WHERE id < 3\\'))\\nLIFETIME(MIN 0 MAX 0)\\nLAYOUT(HASHED_ARRAY())"},
            {"CREATE DICTIONARY dicts.q2 (id UInt64, s String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src' QUERY 'SELECT 1')) LAYOUT(FLAT()) LIFETIME(0)", ""},
            {"SELECT * FROM dicts.q2", "Code: 1 UNSUPPORTED_METHOD"},
            {"CREATE DICTIONARY dicts.q3 (id UInt64, s String) PRIMARY KEY id SOURCE(CLICKHOUSE()) LAYOUT(FLAT()) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.q3', 's', 1)", "Code: 1 UNSUPPORTED_METHOD"},
            {"CREATE DICTIONARY dicts.x (id UInt64, up String EXPRESSION upper(name), bang String EXPRESSION concat(name, '!')) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(FLAT()) LIFETIME(0)", ""},
            {"SELECT * FROM dicts.x ORDER BY id", "1\tA\ta!\n2\tB\tb!\n3\tC\tc!\n4\tD\td!"},
            {"SHOW CREATE DICTIONARY dicts.x", "CREATE DICTIONARY dicts.x\\n(\\n    `id` UInt64,\\n    `up` String EXPRESSION upper(name),\\n    `bang` String EXPRESSION concat(name, \\'!\\')\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'src\\'))\\nLIFETIME(MIN 0 MAX 0)\\nLAYOUT(FLAT())"},
            {"CREATE DICTIONARY dicts.x3 (id UInt64, up String EXPRESSION nosuchcol) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(FLAT()) LIFETIME(0)", ""},
            {"SELECT * FROM dicts.x3", "Code: 47 UNKNOWN_IDENTIFIER"},
            {"CREATE DICTIONARY dicts.bad (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'missing')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.bad', 'name', 1)", "Code: 60 UNKNOWN_TABLE"},
            {"SELECT status, error_count, last_exception != '', type FROM system.dictionaries WHERE name = 'bad'", "FAILED\t1\t1\t"},
            {"SELECT dictGet('dicts.bad', 'name', 1) FROM numbers(0)", "Code: 60 UNKNOWN_TABLE"},
            {"SELECT * FROM dicts.bad", "Code: 60 UNKNOWN_TABLE"},
            {"SYSTEM RELOAD DICTIONARY dicts.bad", "Code: 60 UNKNOWN_TABLE"},
            {"DROP DICTIONARY dicts.bad", ""},
            {"DROP DICTIONARY dicts.bad", "Code: 60 UNKNOWN_TABLE"},
            {"DROP DICTIONARY IF EXISTS dicts.bad", ""},
            {"DROP DICTIONARY dicts.src", "Code: 80 INCORRECT_QUERY"},
            {"CREATE DICTIONARY dicts.p1 (a String, b UInt32, s String DEFAULT 'ab', n Int32 DEFAULT -3, f Float32 DEFAULT -1.5, z Nullable(String) DEFAULT NULL, arr Array(UInt8) DEFAULT [1, 2], dt Date DEFAULT '2024-01-02') PRIMARY KEY (a, b) SOURCE(NULL()) LAYOUT(COMPLEX_KEY_HASHED()) LIFETIME(MAX 10 MIN 1)", ""},
            {"SHOW CREATE DICTIONARY dicts.p1", "CREATE DICTIONARY dicts.p1\\n(\\n    `a` String,\\n    `b` UInt32,\\n    `s` String DEFAULT \\'ab\\',\\n    `n` Int32 DEFAULT -3,\\n    `f` Float32 DEFAULT -1.5,\\n    `z` Nullable(String) DEFAULT NULL,\\n    `arr` Array(UInt8) DEFAULT [1, 2],\\n    `dt` Date DEFAULT \\'2024-01-02\\'\\n)\\nPRIMARY KEY a, b\\nSOURCE(NULL())\\nLIFETIME(MIN 1 MAX 10)\\nLAYOUT(COMPLEX_KEY_HASHED())"},
            {"SELECT dictGet('dicts.p1', 's', ('a', 1)), dictGet('dicts.p1', 'n', ('a', 1)), dictGet('dicts.p1', 'f', ('a', 1)), dictGet('dicts.p1', 'z', ('a', 1)), dictGet('dicts.p1', 'arr', ('a', 1)), dictGet('dicts.p1', 'dt', ('a', 1))", "ab\t-3\t-1.5\t\\N\t[1,2]\t2024-01-02"},
            {"SELECT type, source, element_count, lifetime_min, lifetime_max FROM system.dictionaries WHERE name = 'p1'", "ComplexKeyHashed\tNull\t0\t1\t10"},
            {"SELECT count() FROM dicts.p1", "0"},
            {"CREATE TABLE dicts.rates (cur String, id UInt64, start Date, end Nullable(Date), rate Float64) ENGINE = MergeTree ORDER BY id", ""},
            {"INSERT INTO dicts.rates VALUES ('usd', 1, '2024-01-01', '2024-01-31', 1.1), ('usd', 1, '2024-02-01', NULL, 1.2), ('eur', 2, '2024-01-15', '2024-03-01', 0.9)", ""},
            {"CREATE DICTIONARY dicts.r (id UInt64, start Date, end Nullable(Date), rate Float64 DEFAULT 0) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'rates')) LAYOUT(RANGE_HASHED()) RANGE(MIN start MAX end) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.r', 'rate', 1, toDate('2024-01-10')), dictGet('dicts.r', 'rate', 1, toDate('2024-05-10')), dictGet('dicts.r', 'rate', 1, toDate('2023-05-10')), dictGet('dicts.r', 'rate', 2, toDate('2024-03-01'))", "1.1\t1.2\t0\t0.9"},
            {"SELECT dictGet('dicts.r', 'rate', 1, 19740), dictGet('dicts.r', 'rate', 1, toDateTime('2024-01-10 00:00:00'))", "1.1\t1.1"},
            {"SELECT dictGet('dicts.r', 'rate', 1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT dictGet('dicts.r', 'rate', 1, '2024-01-10')", "Code: 44 ILLEGAL_COLUMN"},
            {"SELECT dictHas('dicts.r', 1, toDate('2024-01-10')), dictHas('dicts.r', 1, toDate('2023-01-10'))", "1\t0"},
            {"SELECT dictHas('dicts.r', 1)", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
            {"SELECT dictGetOrDefault('dicts.r', 'rate', 1, toDate('2020-01-01'), 5.5)", "5.5"},
            {"SELECT dictGet('dicts.r', 'start', 1, toDate('2024-01-10'))", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT * FROM dicts.r ORDER BY id, start", "1\t2024-01-01\t2024-01-31\t1.1\n1\t2024-02-01\t2149-06-06\t1.2\n2\t2024-01-15\t2024-03-01\t0.9"},
            {"DESCRIBE dicts.r", "id\tUInt64\t\t\t\t\t\nstart\tDate\t\t\t\t\t\nend\tDate\t\t\t\t\t\nrate\tFloat64\t\t\t\t\t"},
            {"SELECT type, key.names, key.types, attribute.names, attribute.types, element_count FROM system.dictionaries WHERE name = 'r'", "RangeHashed\t['id']\t['UInt64']\t['rate']\t['Float64']\t3"},
            {"SHOW CREATE DICTIONARY dicts.r", "CREATE DICTIONARY dicts.r\\n(\\n    `id` UInt64,\\n    `start` Date,\\n    `end` Nullable(Date),\\n    `rate` Float64 DEFAULT 0\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'rates\\'))\\nLIFETIME(MIN 0 MAX 0)\\nLAYOUT(RANGE_HASHED())\\nRANGE(MIN start MAX end)"},
            {"CREATE TABLE dicts.ov (id UInt64, a Date, b Date, v String) ENGINE = MergeTree ORDER BY tuple()", ""},
            {"INSERT INTO dicts.ov VALUES (1, '2024-01-01', '2024-12-31', 'wide'), (1, '2024-03-01', '2024-03-31', 'march'), (1, '2023-12-01', '2024-01-10', 'early')", ""},
            {"CREATE DICTIONARY dicts.ovmin (id UInt64, a Date, b Date, v String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'ov')) LAYOUT(RANGE_HASHED()) RANGE(MIN a MAX b) LIFETIME(0)", ""},
            {"CREATE DICTIONARY dicts.ovmax (id UInt64, a Date, b Date, v String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'ov')) LAYOUT(RANGE_HASHED(range_lookup_strategy 'max')) RANGE(MIN a MAX b) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.ovmin', 'v', 1, toDate('2024-03-15')), dictGet('dicts.ovmin', 'v', 1, toDate('2024-01-05')), dictGet('dicts.ovmax', 'v', 1, toDate('2024-03-15')), dictGet('dicts.ovmax', 'v', 1, toDate('2024-01-05'))", "wide\tearly\tmarch\twide"},
            {"CREATE DICTIONARY dicts.norange (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(RANGE_HASHED()) LIFETIME(0)", ""},
            {"SELECT * FROM dicts.norange", "Code: 36 BAD_ARGUMENTS"},
            {"CREATE TABLE dicts.dup (id UInt64, v String) ENGINE = MergeTree ORDER BY tuple()", ""},
            {"INSERT INTO dicts.dup VALUES (1, 'first'), (1, 'second'), (2, 'x')", ""},
            {"CREATE DICTIONARY dicts.duph (id UInt64, v String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'dup')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"CREATE DICTIONARY dicts.dupf (id UInt64, v String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'dup')) LAYOUT(FLAT()) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.duph', 'v', 1), dictGet('dicts.dupf', 'v', 1)", "first\tsecond"},
            {"SELECT name, element_count FROM system.dictionaries WHERE name LIKE 'dup%' ORDER BY name", "dupf\t2\nduph\t2"},
            {"CREATE DICTIONARY dicts.di (id UInt64, name String DEFAULT 'n/a') PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(DIRECT())", ""},
            {"SELECT dictGet('dicts.di', 'name', 2), dictGet('dicts.di', 'name', 9), dictHas('dicts.di', 3)", "b\tn/a\t1"},
            {"INSERT INTO dicts.src VALUES (5, 'e', 5.5, 4)", ""},
            {"SELECT dictGet('dicts.di', 'name', 5), dictGet('dicts.d', 'name', 5)", "e\tnone"},
            {"SELECT * FROM dicts.di ORDER BY id", "1\ta\n2\tb\n3\tc\n4\td\n5\te"},
            {"SELECT type, element_count, status, lifetime_min, lifetime_max FROM system.dictionaries WHERE name = 'di'", "Direct\t0\tLOADED\t0\t0"},
            {"SHOW CREATE DICTIONARY dicts.di", "CREATE DICTIONARY dicts.di\\n(\\n    `id` UInt64,\\n    `name` String DEFAULT \\'n/a\\'\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'src\\'))\\nLAYOUT(DIRECT())"},
            {"CREATE DICTIONARY dicts.ca (id UInt64, name String DEFAULT 'n/a') PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(CACHE(SIZE_IN_CELLS 10)) LIFETIME(60)", ""},
            {"SELECT dictGet('dicts.ca', 'name', 2), dictGet('dicts.ca', 'name', 9), dictHas('dicts.ca', 3)", "b\tn/a\t1"},
            {"SELECT * FROM dicts.ca ORDER BY id", "2\tb\n3\tc"},
            {"SELECT type, element_count FROM system.dictionaries WHERE name = 'ca'", "Cache\t3"},
            {"SHOW CREATE DICTIONARY dicts.ca", "CREATE DICTIONARY dicts.ca\\n(\\n    `id` UInt64,\\n    `name` String DEFAULT \\'n/a\\'\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'src\\'))\\nLIFETIME(MIN 0 MAX 60)\\nLAYOUT(CACHE(SIZE_IN_CELLS 10))"},
            {"CREATE DICTIONARY dicts.g (id UInt64, name String DEFAULT 'x' INJECTIVE, up String EXPRESSION upper(name), p UInt64 DEFAULT 0 HIERARCHICAL) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src' DB 'dicts' USER 'default' PASSWORD 'secret' WHERE 'id > 1')) LAYOUT(HASHED(SHARDS 2)) LIFETIME(300) SETTINGS(format_csv_allow_single_quotes = 0) COMMENT 'my dict'", ""},
            {"SHOW CREATE DICTIONARY dicts.g", "CREATE DICTIONARY dicts.g\\n(\\n    `id` UInt64,\\n    `name` String DEFAULT \\'x\\' INJECTIVE,\\n    `up` String EXPRESSION upper(name),\\n    `p` UInt64 DEFAULT 0 HIERARCHICAL\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'src\\' DB \\'dicts\\' USER \\'default\\' PASSWORD \\'[HIDDEN]\\' WHERE \\'id > 1\\'))\\nLIFETIME(MIN 0 MAX 300)\\nLAYOUT(HASHED(SHARDS 2))\\nSETTINGS(format_csv_allow_single_quotes = 0)\\nCOMMENT \\'my dict\\'"},
            {"SELECT name, comment FROM system.dictionaries WHERE name = 'g'", "g\tmy dict"},
            {"SELECT create_table_query FROM system.tables WHERE database = 'dicts' AND name = 'g'", "CREATE DICTIONARY dicts.g (`id` UInt64, `name` String DEFAULT \\'x\\' INJECTIVE, `up` String EXPRESSION upper(name), `p` UInt64 DEFAULT 0 HIERARCHICAL) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE \\'src\\' DB \\'dicts\\' USER \\'default\\' PASSWORD \\'[HIDDEN]\\' WHERE \\'id > 1\\')) LIFETIME(MIN 0 MAX 300) LAYOUT(HASHED(SHARDS 2)) SETTINGS(format_csv_allow_single_quotes = 0) COMMENT \\'my dict\\'"},
            {"CREATE DICTIONARY dicts.k2 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(table src)) layout(hashed) LIFETIME(0)", ""},
            {"SHOW CREATE DICTIONARY dicts.k2", "CREATE DICTIONARY dicts.k2\\n(\\n    `id` UInt64,\\n    `name` String\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE src))\\nLIFETIME(MIN 0 MAX 0)\\nLAYOUT(HASHED)"},
            {"CREATE DICTIONARY dicts.n (id UInt64) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(1)", ""},
            {"SELECT dictHas('dicts.n', 1), dictHas('dicts.n', 7)", "1\t0"},
            {"CREATE OR REPLACE DICTIONARY dicts.c (a String, b UInt32, s String DEFAULT 'new') PRIMARY KEY a, b SOURCE(CLICKHOUSE(TABLE 'ck')) LAYOUT(COMPLEX_KEY_HASHED()) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.c', 's', ('zz', 1)), dictGet('dicts.c', 's', ('x', 2))", "new\tq"},
            {"SELECT status, attribute.names FROM system.dictionaries WHERE name = 'c'", "LOADED\t['s']"},
            {"CREATE OR REPLACE DICTIONARY dicts.fresh (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SELECT dictGet('dicts.fresh', 'name', 1)", "a"},
            {"DROP DICTIONARY dicts.f3", ""},
            {"DROP DICTIONARY dicts.q2", ""},
            {"DROP DICTIONARY dicts.q3", ""},
            {"DROP DICTIONARY dicts.x3", ""},
            {"DROP DICTIONARY dicts.norange", ""},
            {"CREATE DICTIONARY dicts.bad2 (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'later')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SELECT dictHas('dicts.bad2', 1)", "Code: 60 UNKNOWN_TABLE"},
            {"SYSTEM RELOAD DICTIONARIES", "Code: 60 UNKNOWN_TABLE"},
            {"CREATE TABLE dicts.later (id UInt64, name String) ENGINE = Memory", ""},
            {"INSERT INTO dicts.later VALUES (1, 'one')", ""},
            {"SELECT dictHas('dicts.bad2', 1)", "Code: 60 UNKNOWN_TABLE"},
            {"SYSTEM RELOAD DICTIONARIES", ""},
            {"SELECT dictGet('dicts.bad2', 'name', 1), dictGet('dicts.f', 'name', 5)", "one\te"},
            {"SELECT name, status FROM system.dictionaries WHERE database = 'dicts' AND status != 'NOT_LOADED' ORDER BY name", "bad2\tLOADED\nc\tLOADED\nca\tLOADED\nd\tLOADED\ndi\tLOADED\ndupf\tLOADED\nduph\tLOADED\nf\tLOADED\nfresh\tLOADED\nn\tLOADED\novmax\tLOADED\novmin\tLOADED\np1\tLOADED\nq\tLOADED\nr\tLOADED\nsk\tLOADED\nw\tLOADED\nx\tLOADED"},
            {"SELECT name FROM system.dictionaries WHERE database = 'dicts' AND status = 'NOT_LOADED' ORDER BY name", "g\nk2"},
            {"SHOW DICTIONARIES FROM dicts LIKE 'd%'", "d\ndi\ndupf\nduph"},
            {"DETACH DICTIONARY dicts.fresh", ""},
            {"DETACH DICTIONARY dicts.fresh", "Code: 60 UNKNOWN_TABLE"},
            {"DETACH DICTIONARY IF EXISTS dicts.fresh", ""},
            {"SELECT dictGet('dicts.fresh', 'name', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"EXISTS DICTIONARY dicts.fresh", "0"},
            {"CREATE DICTIONARY dicts.fresh (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", "Code: 57 TABLE_ALREADY_EXISTS"},
            {"ATTACH DICTIONARY dicts.fresh", ""},
            {"ATTACH DICTIONARY dicts.fresh", "Code: 387 DICTIONARY_ALREADY_EXISTS"},
            {"ATTACH DICTIONARY IF NOT EXISTS dicts.fresh", ""},
            {"SELECT dictGet('dicts.fresh', 'name', 1)", "a"},
            {"DETACH TABLE dicts.fresh", "Code: 520 CANNOT_DETACH_DICTIONARY_AS_TABLE"},
            {"DETACH DICTIONARY dicts.src", "Code: 80 INCORRECT_QUERY"},
            {"DETACH DICTIONARY dicts.fresh PERMANENTLY", ""},
            {"ATTACH DICTIONARY dicts.fresh", ""},
            {"SELECT dictGet('dicts.fresh', 'name', 2)", "b"},
            {"ATTACH DICTIONARY dicts.nope", "Code: 390 CANNOT_GET_CREATE_TABLE_QUERY"},
            {"DROP DATABASE dicts", ""},
            {"SELECT count() FROM system.dictionaries WHERE database = 'dicts'", "0"},
            {"SELECT dictGet('dicts.d', 'name', 1)", "Code: 36 BAD_ARGUMENTS"},
            {"DROP DATABASE IF EXISTS dx", ""},
            {"CREATE DATABASE dx", ""},
            {"CREATE TABLE dx.src (id UInt64, name String) ENGINE = MergeTree ORDER BY id", ""},
            {"INSERT INTO dx.src VALUES (1, 'a'), (2, 'b')", ""},
            {"CREATE DICTIONARY dx.d (id UInt64, name String DEFAULT '-') PRIMARY KEY id SOURCE(CLICKHOUSE(HOST 'localhost' PORT 9000 TABLE 'src' DB 'dx')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SELECT name, type, position FROM system.columns WHERE database = 'dx' AND table = 'd' ORDER BY position", "id\tUInt64\t1\nname\tString\t2"},
            {"CREATE TABLE dx.events (id UInt64, k UInt64) ENGINE = MergeTree ORDER BY id", ""},
            {"CREATE TABLE dx.enriched (id UInt64, name String) ENGINE = MergeTree ORDER BY id", ""},
            {"CREATE MATERIALIZED VIEW dx.mv TO dx.enriched AS SELECT id, dictGet('dx.d', 'name', k) AS name FROM dx.events", ""},
            {"INSERT INTO dx.events VALUES (10, 1), (11, 2), (12, 3)", ""},
            {"SELECT * FROM dx.enriched ORDER BY id", "10\ta\n11\tb\n12\t-"},
            {"SELECT dictGet('dx.d', 'name', k) AS n, count() FROM dx.events GROUP BY n ORDER BY n", "-\t1\na\t1\nb\t1"},
            {"SELECT e.id, d.name FROM dx.events AS e LEFT JOIN dx.d AS d ON e.k = d.id ORDER BY e.id", "10\ta\n11\tb\n12\t"},
            {"CREATE DICTIONARY dx.remote (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(HOST 'example.invalid' PORT 9000 TABLE 'src')) LAYOUT(HASHED()) LIFETIME(0)", ""},
            {"SHOW DICTIONARIES FROM dx", "d\nremote"},
            {"DETACH DICTIONARY dx.d", ""},
            {"SELECT dictGet('dx.d', 'name', toUInt64(number)) FROM system.numbers LIMIT 3", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT database, name FROM system.dictionaries WHERE database = 'dx' ORDER BY name", "dx\tremote"},
            {"DROP DATABASE dx", ""},
        };
    }

    /** A shop's products, a dictionary over them and one over a query, with the engine's answers (recorded as above). */
    private static final String[][] SHOP = {
                    {"DROP DATABASE IF EXISTS shop", ""},
                    {"CREATE DATABASE shop", ""},
                    {"CREATE TABLE shop.products (id UInt64, title String, price Decimal(10, 2)) ENGINE = MergeTree ORDER BY id", ""},
                    {"INSERT INTO shop.products VALUES (1, 'pen', 1.5), (2, 'ink', 7)", ""},
                    {"CREATE DICTIONARY shop.product_dict (id UInt64, title String DEFAULT '?', price Decimal(10, 2) DEFAULT 0) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'products')) LAYOUT(FLAT()) LIFETIME(MIN 300 MAX 600) COMMENT 'catalog'", ""},
                    {"CREATE DICTIONARY shop.by_title (title String, id UInt64) PRIMARY KEY title SOURCE(CLICKHOUSE(QUERY 'SELECT title, id FROM shop.products')) LAYOUT(COMPLEX_KEY_HASHED()) LIFETIME(0)", ""},
                    {"SELECT name, status FROM system.dictionaries WHERE database = 'shop' ORDER BY name", "by_title\tNOT_LOADED\nproduct_dict\tNOT_LOADED"},
                    {"SHOW CREATE DICTIONARY shop.product_dict", "CREATE DICTIONARY shop.product_dict\\n(\\n    `id` UInt64,\\n    `title` String DEFAULT \\'?\\',\\n    `price` Decimal(10, 2) DEFAULT 0\\n)\\nPRIMARY KEY id\\nSOURCE(CLICKHOUSE(TABLE \\'products\\'))\\nLIFETIME(MIN 300 MAX 600)\\nLAYOUT(FLAT())\\nCOMMENT \\'catalog\\'"},
                    {"SELECT dictGet('shop.product_dict', ('title', 'price'), toUInt64(2)), dictGet('shop.product_dict', 'title', 3), dictGet('shop.by_title', 'id', 'pen')", "('ink',7)\t?\t1"},
                    {"SELECT * FROM shop.product_dict ORDER BY id", "1\tpen\t1.5\n2\tink\t7"},
                    {"SELECT name, status, type, element_count, comment FROM system.dictionaries WHERE database = 'shop' ORDER BY name", "by_title\tLOADED\tComplexKeyHashed\t2\t\nproduct_dict\tLOADED\tFlat\t2\tcatalog"},
                    {"SELECT name, engine FROM system.tables WHERE database = 'shop' ORDER BY name", "by_title\tDictionary\nproduct_dict\tDictionary\nproducts\tMergeTree"},
    };

    /** The reads of {@link #SHOP} after its CREATE statements: the same answers again once the server restarted. */
    private static final int SHOP_READS = 6;

    /**
     * The dictionaries' definitions (metadata/shop/*.sql) and their source's parts load again at start: the
     * dictionaries are there, not loaded until used, and answer as before; a dropped one stays dropped, a detached one
     * (not PERMANENTLY) comes back, and a dictionary loaded after the restart reads the rows inserted before it.
     */
    @Test
    void dictionariesAndTheirSourceSurviveARestart(@TempDir Path dataDir) throws Exception {
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertAnswers(s, SHOP);
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertAnswers(s, java.util.Arrays.copyOfRange(SHOP, SHOP_READS, SHOP.length));
            assertEquals("", answer(s, "DROP DICTIONARY shop.by_title"));
            assertEquals("", answer(s, "INSERT INTO shop.products VALUES (3, 'cap', 2)"));
            assertEquals("pen", answer(s, "SELECT dictGet('shop.product_dict', 'title', 1)"));
            assertEquals("", answer(s, "DETACH DICTIONARY shop.product_dict"));
            assertEquals("0", answer(s, "EXISTS DICTIONARY shop.product_dict"));
        }
        try (StubServer s = StubServer.builder().port(0).dataDir(dataDir).build().start()) {
            assertEquals("product_dict", answer(s, "SELECT name FROM system.dictionaries WHERE database = 'shop'"));
            assertEquals("0", answer(s, "EXISTS DICTIONARY shop.by_title"));
            assertEquals("cap\t3", answer(s, "SELECT dictGet('shop.product_dict', 'title', 3), count() FROM shop.product_dict"));
        }
    }

    /**
     * LIFETIME(1) reloads the dictionary once its second is over, on the next use (the engine draws the time between
     * MIN and MAX and reloads in the background); LIFETIME(0) keeps what the first use loaded until SYSTEM RELOAD.
     */
    @Test
    void aDictionaryReloadsOnceItsLifetimeIsOver() throws Exception {
        try (StubServer s = StubServer.builder().port(0).build().start()) {
            answer(s, "CREATE TABLE colors (id UInt64, name String) ENGINE = MergeTree ORDER BY id");
            answer(s, "INSERT INTO colors VALUES (1, 'red')");
            answer(s, "CREATE DICTIONARY short (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'colors')) LAYOUT(HASHED()) LIFETIME(1)");
            answer(s, "CREATE DICTIONARY forever (id UInt64, name String) PRIMARY KEY id SOURCE(CLICKHOUSE(TABLE 'colors')) LAYOUT(FLAT()) LIFETIME(0)");
            assertEquals("red\t0\t0", answer(s, "SELECT dictGet('short', 'name', 1), dictHas('short', 2), dictHas('forever', 2)"));
            answer(s, "INSERT INTO colors VALUES (2, 'green')");
            long deadline = System.nanoTime() + 10_000_000_000L;
            String seen = answer(s, "SELECT dictHas('short', 2)");
            while (!seen.equals("1") && System.nanoTime() < deadline) {
                Thread.sleep(50); // polled until the condition holds or the deadline passes
                seen = answer(s, "SELECT dictHas('short', 2)");
            }
            assertEquals("1", seen, "LIFETIME(1) reloads within its second");
            assertEquals("0", answer(s, "SELECT dictHas('forever', 2)"), "LIFETIME(0) never reloads by itself");
            assertEquals("", answer(s, "SYSTEM RELOAD DICTIONARY forever"));
            assertEquals("green", answer(s, "SELECT dictGet('forever', 'name', 2)"));
            assertEquals("1", answer(s, "SELECT last_successful_update_time > toDateTime(0) FROM system.dictionaries WHERE name = 'short'"));
        }
    }
}
