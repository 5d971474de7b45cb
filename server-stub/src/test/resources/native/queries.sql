SELECT toInt8(-5) a, toInt16(-300) b, toInt32(-70000) c, toInt64(-5000000000) d, toUInt8(250) e, toUInt16(65000) f, toUInt32(4000000000) g, toUInt64('18000000000000000000') h
SELECT toInt128('-170141183460469231731687303715884105727') a, toUInt128('340282366920938463463374607431768211455') b, toInt256('-12345678901234567890123456789') c, toUInt256('115792089237316195423570985008687907853269984665640564039457584007913129639935') d
SELECT toFloat32(1.5) a, toFloat64(-2.25) b, toFloat64('nan') c, toFloat32('inf') d, toFloat64('-0') e, toFloat64(0.1) f
SELECT true a, false b, CAST(1 AS Bool) c
SELECT 'hello' a, '' b, 'a\tb\nc' c, toFixedString('ab', 4) d, unhex('00FF80') e
SELECT toDate('2024-02-29') a, toDate32('1900-01-01') b, toDate32('2299-12-31') c, toDate('1970-01-01') d
SELECT toDateTime('2024-01-02 03:04:05', 'UTC') a, toDateTime('2024-01-02 03:04:05', 'Asia/Tokyo') b
SELECT toDateTime64('2024-01-02 03:04:05.678', 3, 'UTC') a, toDateTime64('1960-01-02 03:04:05.123456', 6, 'UTC') b
SELECT toDecimal32('-1.25', 2) a, toDecimal64('123456789.123', 3) b, toDecimal128('-1.5', 10) c, toDecimal256('2.5', 40) d, toDecimal32('3', 0) e
SELECT toUUID('01234567-89ab-cdef-0123-456789abcdef') a, toIPv4('192.168.1.10') b, toIPv6('2001:db8::1') c, toIPv6('::ffff:1.2.3.4') d
SELECT CAST('b' AS Enum8('a' = 1, 'b' = -2)) a, CAST('y' AS Enum16('x' = 1000, 'y' = -1000)) b
SELECT CAST(NULL AS Nullable(UInt32)) a, CAST(7 AS Nullable(UInt32)) b, CAST(NULL AS Nullable(String)) c, CAST('z' AS Nullable(String)) d
SELECT number, if(number % 2 = 0, NULL, toString(number)) s FROM numbers(4)
SELECT [1, 2, 3] a, CAST([] AS Array(String)) b, ['x', 'yy'] c, [[1], [2, 3]] d, [NULL, 1] e
SELECT number, range(number) r, arrayMap(x -> toString(x), range(number)) s FROM numbers(4)
SELECT (1, 'x') a, CAST((2, 'y') AS Tuple(id UInt8, name String)) b, ((1, 2), [3]) c
SELECT map('a', 1, 'b', 2) a, CAST(map() AS Map(String, UInt64)) b, map(1, [NULL, 'x']) c
SELECT number, map(toString(number), number) m FROM numbers(3)
SELECT CAST('abc' AS LowCardinality(String)) a, CAST('x' AS LowCardinality(Nullable(String))) b
SELECT NULL a
SELECT number, toString(number) s, toDate('2024-01-01') + number d FROM numbers(1000)
SELECT 1 x WHERE 0
SELECT CAST(toString(number) AS LowCardinality(String)) a FROM numbers(300)
SELECT CAST([] AS Array(LowCardinality(String))) a, CAST('[[''x''], []]' AS Array(Array(LowCardinality(String)))) b
SELECT CAST(map('a', NULL, 'b', 1) AS Map(LowCardinality(String), Nullable(UInt8))) m, [(1, 'a'), (2, 'b')] t
SELECT [toDateTime(1, 'UTC')] a, toNullable(toDateTime(1, 'UTC')) b, (toDateTime(1, 'UTC'), 1) c, toDateTime(1, 'UTC') d
SELECT number, toString(number) s FROM numbers(100000)
SELECT toString(number % 7) s, count() c FROM numbers(1000) GROUP BY s ORDER BY s
> CREATE TABLE native_t (k UInt32, lc LowCardinality(String), lcn LowCardinality(Nullable(String)), arr Array(Nullable(String)), nest Array(Array(UInt16)), tup Tuple(a Int32, b Nullable(String)), m Map(String, Array(UInt8)), fs FixedString(3), e Enum8('one' = 1, 'two' = 2), dt DateTime('Europe/Berlin'), d64 DateTime64(3, 'UTC'), dec Decimal(20, 4)) ENGINE = MergeTree ORDER BY k
> INSERT INTO native_t VALUES (3, 'b', NULL, ['x', NULL], [[1, 2], []], (-1, NULL), {'k': [1]}, 'abc', 'two', '2024-06-01 12:00:00', '2024-06-01 12:00:00.123', 12.3456), (1, 'a', 'n', [], [], (5, 's'), {}, 'x', 'one', '2024-01-01 00:00:00', '1970-01-01 00:00:00.000', -1), (2, 'b', 'n', [NULL], [[3]], (0, ''), {'a': [], 'b': [2, 3]}, '', 'one', '2000-02-29 23:59:59', '2100-01-01 00:00:00.999', 0)
SELECT * FROM native_t ORDER BY k
SELECT lc, lcn FROM native_t ORDER BY k DESC
SELECT k, lc FROM native_t WHERE k > 5
SELECT [] a, [NULL] b
SELECT toBFloat16(1.5) a
SELECT CAST((1.5, 2.5) AS Point) p, CAST([(1, 2)] AS Ring) r
> CREATE TABLE native_agg (k UInt8, s SimpleAggregateFunction(sum, UInt64), a AggregateFunction(sum, UInt64), n Nested(x UInt8, y String)) ENGINE = AggregatingMergeTree ORDER BY (k, n.x, n.y)
> INSERT INTO native_agg SELECT 1, 5, sumState(toUInt64(7)), [1, 2], ['a', 'b']
SELECT * FROM native_agg
SELECT toNullable(true) b, CAST(NULL AS Nullable(Bool)) c
SELECT CAST('x' AS LowCardinality(FixedString(2))) a, CAST(5 AS LowCardinality(UInt64)) b, CAST(NULL AS LowCardinality(Nullable(UInt64))) c SETTINGS allow_suspicious_low_cardinality_types = 1
