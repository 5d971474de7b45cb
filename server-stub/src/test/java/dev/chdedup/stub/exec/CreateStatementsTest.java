package dev.chdedup.stub.exec;

/**
 * CREATE statements and the definitions the engine shows for them: CREATE TABLE ... AS SELECT (the query's columns,
 * its rows inserted), CREATE OR REPLACE, CREATE TABLE AS another, a materialized view with POPULATE; the lightweight
 * UPDATE (refused without enable_block_number_column, as 26.7 refuses it); a CTE that reads an alias of the WITH
 * before it; SHOW CREATE, DESCRIBE and system.columns writing expressions as the engine's formatter does
 * ({@code (a * 2) + 1}, {@code (x = 1) AND (NOT y)}, {@code 1500.}, {@code toIntervalDay(1)}) and keeping CODECs,
 * comments and the parentheses of a key, for MergeTree and Memory tables. The answers are ClickHouse 26.7's, recorded
 * through the oracle (shared/oracle).
 */
class CreateStatementsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        return new String[][] {
            {"CREATE TABLE ek1 (a UInt8) ENGINE = MergeTree", ""},
            {"SHOW CREATE TABLE ek1", "CREATE TABLE default.ek1\\n(\\n    `a` UInt8\\n)\\nENGINE = MergeTree\\nORDER BY tuple()\\nSETTINGS index_granularity = 8192"},
            {"CREATE TABLE ek2 (a UInt8, b String) ENGINE = ReplacingMergeTree PARTITION BY a", ""},
            {"SELECT sorting_key, primary_key FROM system.tables WHERE name = 'ek2'", "\t"},
            {"CREATE TABLE ek3 (a UInt8) ENGINE = MergeTree SETTINGS create_table_empty_primary_key_by_default = 0", "Code: 36 BAD_ARGUMENTS"},
            {"DROP TABLE IF EXISTS m1", ""},
            {"DROP TABLE IF EXISTS m2", ""},
            {"DROP TABLE IF EXISTS m3", ""},
            {"CREATE TABLE m1 (a UInt8 DEFAULT 1+2, b String, c Nullable(Int32) COMMENT 'cc', d Array(String) CODEC(ZSTD(1))) ENGINE=MergeTree PARTITION BY (a%2) ORDER BY (a,b) SETTINGS index_granularity=1024 COMMENT 'x'", ""},
            {"SHOW CREATE TABLE m1", "CREATE TABLE default.m1\\n(\\n    `a` UInt8 DEFAULT 1 + 2,\\n    `b` String,\\n    `c` Nullable(Int32) COMMENT \\'cc\\',\\n    `d` Array(String) CODEC(ZSTD(1))\\n)\\nENGINE = MergeTree\\nPARTITION BY (a % 2)\\nORDER BY (a, b)\\nSETTINGS index_granularity = 1024\\nCOMMENT \\'x\\'"},
            {"INSERT INTO m1 (b) VALUES ('q')", ""},
            {"CREATE TABLE m2 ENGINE = MergeTree ORDER BY a AS SELECT a, b FROM m1", ""},
            {"SELECT * FROM m2", "3\tq"},
            {"SHOW CREATE TABLE m2", "CREATE TABLE default.m2\\n(\\n    `a` UInt8,\\n    `b` String\\n)\\nENGINE = MergeTree\\nORDER BY a\\nSETTINGS index_granularity = 8192"},
            {"CREATE OR REPLACE TABLE m2 (z UInt8) ENGINE = MergeTree ORDER BY z", ""},
            {"SHOW CREATE TABLE m2", "CREATE TABLE default.m2\\n(\\n    `z` UInt8\\n)\\nENGINE = MergeTree\\nORDER BY z\\nSETTINGS index_granularity = 8192"},
            {"CREATE TABLE m3 AS m1", ""},
            {"SHOW CREATE TABLE m3", "CREATE TABLE default.m3\\n(\\n    `a` UInt8 DEFAULT 1 + 2,\\n    `b` String,\\n    `c` Nullable(Int32) COMMENT \\'cc\\',\\n    `d` Array(String) CODEC(ZSTD(1))\\n)\\nENGINE = MergeTree\\nPARTITION BY (a % 2)\\nORDER BY (a, b)\\nSETTINGS index_granularity = 1024\\nCOMMENT \\'x\\'"},
            {"UPDATE m1 SET b = 'w' WHERE a = 3", "Code: 48 NOT_IMPLEMENTED"},
            {"SELECT b FROM m1", "q"},
            {"WITH 1 AS x, y AS (SELECT x + 1 AS z) SELECT * FROM y", "2"},
            {"WITH ((SELECT 1 AS q)) AS t SELECT t", "1"},
            {"CREATE MATERIALIZED VIEW mv1 ENGINE = MergeTree ORDER BY a POPULATE AS SELECT a, count() AS n FROM m1 GROUP BY a", ""},
            {"SELECT * FROM mv1", "3\t1"},
            {"DROP TABLE IF EXISTS u1", ""},
            {"CREATE TABLE u1 (a UInt8, b String) ENGINE=MergeTree ORDER BY a SETTINGS enable_block_number_column=1, enable_block_offset_column=1", ""},
            {"INSERT INTO u1 VALUES (1,'x'),(2,'y')", ""},
            {"UPDATE u1 SET b = 'z' WHERE a = 1", ""},
            {"SELECT * FROM u1 ORDER BY a", "1\tz\n2\ty"},
            {"UPDATE u1 SET a = 5 WHERE a = 1", "Code: 420 CANNOT_UPDATE_COLUMN"},
            {"UPDATE u1 SET b = 'q' WHERE 1", ""},
            {"SELECT * FROM u1 ORDER BY a", "1\tq\n2\tq"},
            {"UPDATE nope SET b = 'z' WHERE a = 1", "Code: 60 UNKNOWN_TABLE"},
            {"UPDATE u1 SET c = 1 WHERE 1", "Code: 16 NO_SUCH_COLUMN_IN_TABLE"},
            {"CREATE OR REPLACE TABLE u1 (z String) ENGINE = MergeTree ORDER BY z", ""},
            {"SELECT count() FROM u1", "0"},
            {"CREATE TABLE IF NOT EXISTS m2 ENGINE = MergeTree ORDER BY a AS SELECT 1 AS a", ""},
            {"CREATE TABLE m4 (a UInt64, s String) ENGINE = MergeTree ORDER BY a AS SELECT number, toString(number) FROM numbers(3)", ""},
            {"SELECT * FROM m4 ORDER BY a", "0\t0\n1\t1\n2\t2"},
            {"CREATE TABLE m5 ENGINE = Memory AS SELECT number % 2 AS k, count() AS c FROM numbers(10) GROUP BY k", ""},
            {"SELECT * FROM m5 ORDER BY k", "0\t5\n1\t5"},
            {"SHOW CREATE TABLE m5", "CREATE TABLE default.m5\\n(\\n    `k` UInt8,\\n    `c` UInt64\\n)\\nENGINE = Memory"},
            {"WITH 2 AS x, y AS (SELECT x * 10 AS z), w AS (SELECT z + x AS v FROM y) SELECT * FROM w", "22"},
            {"DROP TABLE IF EXISTS f5", ""},
            {"CREATE TABLE f5 (a UInt8, b UInt8 DEFAULT a+a+a, c UInt8 DEFAULT a = 1 AND a = 2 AND NOT a, d UInt8 DEFAULT -a, e Array(UInt8) DEFAULT [1,2], f String DEFAULT 'it''s', g UInt8 DEFAULT a IN (1,2), h UInt8 DEFAULT if(a>1, 1, 0), i Float64 DEFAULT 1.5e3, j UInt8 DEFAULT CAST(a, 'UInt8'), k UInt8 DEFAULT a::UInt8, l Date DEFAULT today() - INTERVAL 1 DAY, m UInt8 DEFAULT e[1], n UInt8 DEFAULT (a, 2).2, p UInt8 DEFAULT a % 3 BETWEEN 1 AND 2, q Nullable(UInt8) DEFAULT NULL, r UInt8 DEFAULT a IS NULL, s UInt8 DEFAULT lower('X') LIKE '%x', t String DEFAULT concat('x', toString(a)), u Float64 DEFAULT 0.25, v UInt8 DEFAULT a > 1 ? 2 : 3, w String DEFAULT 'a' || 'b', x Float64 DEFAULT 1e-7, y Int64 DEFAULT -5) ENGINE=MergeTree PARTITION BY (a % 4) ORDER BY (a, b) PRIMARY KEY a", ""},
            {"SHOW CREATE TABLE f5", "CREATE TABLE default.f5\\n(\\n    `a` UInt8,\\n    `b` UInt8 DEFAULT (a + a) + a,\\n    `c` UInt8 DEFAULT (a = 1) AND (a = 2) AND (NOT a),\\n    `d` UInt8 DEFAULT -a,\\n    `e` Array(UInt8) DEFAULT [1, 2],\\n    `f` String DEFAULT \\'it\\\\\\'s\\',\\n    `g` UInt8 DEFAULT a IN (1, 2),\\n    `h` UInt8 DEFAULT if(a > 1, 1, 0),\\n    `i` Float64 DEFAULT 1500.,\\n    `j` UInt8 DEFAULT CAST(a, \\'UInt8\\'),\\n    `k` UInt8 DEFAULT CAST(a, \\'UInt8\\'),\\n    `l` Date DEFAULT today() - toIntervalDay(1),\\n    `m` UInt8 DEFAULT e[1],\\n    `n` UInt8 DEFAULT (a, 2).2,\\n    `p` UInt8 DEFAULT ((a % 3) >= 1) AND ((a % 3) <= 2),\\n    `q` Nullable(UInt8) DEFAULT NULL,\\n    `r` UInt8 DEFAULT a IS NULL,\\n    `s` UInt8 DEFAULT lower(\\'X\\') LIKE \\'%x\\',\\n    `t` String DEFAULT concat(\\'x\\', toString(a)),\\n    `u` Float64 DEFAULT 0.25,\\n    `v` UInt8 DEFAULT if(a > 1, 2, 3),\\n    `w` String DEFAULT concat(\\'a\\', \\'b\\'),\\n    `x` Float64 DEFAULT 1e-7,\\n    `y` Int64 DEFAULT -5\\n)\\nENGINE = MergeTree\\nPARTITION BY (a % 4)\\nPRIMARY KEY a\\nORDER BY (a, b)\\nSETTINGS index_granularity = 8192"},
            {"SELECT name, default_kind, default_expression FROM system.columns WHERE database = currentDatabase() AND table = 'f5' ORDER BY position", "a\t\t\nb\tDEFAULT\t(a + a) + a\nc\tDEFAULT\t(a = 1) AND (a = 2) AND (NOT a)\nd\tDEFAULT\t-a\ne\tDEFAULT\t[1, 2]\nf\tDEFAULT\t\\'it\\\\\\'s\\'\ng\tDEFAULT\ta IN (1, 2)\nh\tDEFAULT\tif(a > 1, 1, 0)\ni\tDEFAULT\t1500.\nj\tDEFAULT\tCAST(a, \\'UInt8\\')\nk\tDEFAULT\tCAST(a, \\'UInt8\\')\nl\tDEFAULT\ttoday() - toIntervalDay(1)\nm\tDEFAULT\te[1]\nn\tDEFAULT\t(a, 2).2\np\tDEFAULT\t((a % 3) >= 1) AND ((a % 3) <= 2)\nq\tDEFAULT\tNULL\nr\tDEFAULT\ta IS NULL\ns\tDEFAULT\tlower(\\'X\\') LIKE \\'%x\\'\nt\tDEFAULT\tconcat(\\'x\\', toString(a))\nu\tDEFAULT\t0.25\nv\tDEFAULT\tif(a > 1, 2, 3)\nw\tDEFAULT\tconcat(\\'a\\', \\'b\\')\nx\tDEFAULT\t1e-7\ny\tDEFAULT\t-5"},
            {"DESCRIBE TABLE m1", "a\tUInt8\tDEFAULT\t1 + 2\t\t\t\nb\tString\t\t\t\t\t\nc\tNullable(Int32)\t\t\tcc\t\t\nd\tArray(String)\t\t\t\tZSTD(1)\t"},
            {"DROP TABLE IF EXISTS s1", ""},
            {"CREATE TABLE s1 (a UInt8 DEFAULT 1+1, b String COMMENT 'c') ENGINE = Memory", ""},
            {"SHOW CREATE TABLE s1", "CREATE TABLE default.s1\\n(\\n    `a` UInt8 DEFAULT 1 + 1,\\n    `b` String COMMENT \\'c\\'\\n)\\nENGINE = Memory"},
            {"ALTER TABLE m1 MODIFY COLUMN b String CODEC(LZ4)", ""},
            {"ALTER TABLE m1 MODIFY COLUMN d REMOVE CODEC", ""},
            {"SHOW CREATE TABLE m1", "CREATE TABLE default.m1\\n(\\n    `a` UInt8 DEFAULT 1 + 2,\\n    `b` String CODEC(LZ4),\\n    `c` Nullable(Int32) COMMENT \\'cc\\',\\n    `d` Array(String)\\n)\\nENGINE = MergeTree\\nPARTITION BY (a % 2)\\nORDER BY (a, b)\\nSETTINGS index_granularity = 1024\\nCOMMENT \\'x\\'"},
        };
    }
}
