package dev.chdedup.stub.exec;

/**
 * ORDER BY, GROUP BY and LIMIT BY as ClickHouse 26.7 reads and sorts: an integer literal there is the select list's
 * item it numbers (enable_positional_arguments, from the end when negative, BAD_ARGUMENTS outside the list,
 * ILLEGAL_AGGREGATION for an aggregate put into GROUP BY, a constant when the setting is off); NaN and then NULL sort
 * last in either direction, and first with NULLS FIRST, over rows and over a MergeTree part's columns; {@code inf} and
 * {@code nan} are Float64 literals in any case, NaN is unordered in comparisons, and isNaN, isFinite, isInfinite.
 */
class OrderByAndPositionsTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT number FROM numbers(3) ORDER BY 1 DESC", "2\n1\n0"},
            {"SELECT number % 3 AS g, count() FROM numbers(10) GROUP BY 1 ORDER BY 1", "0\t4\n1\t3\n2\t3"},
            {"SELECT number % 3 AS g, count() AS c FROM numbers(10) GROUP BY 1 ORDER BY 2 DESC, 1 DESC", "0\t4\n2\t3\n1\t3"},
            {"SELECT number FROM numbers(3) ORDER BY 0", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT number FROM numbers(3) ORDER BY 5", "Code: 36 BAD_ARGUMENTS"},
            {"SELECT number FROM numbers(3) ORDER BY -1", "0\n1\n2"},
            {"SELECT number, 10 - number AS r FROM numbers(3) ORDER BY -1", "2\t8\n1\t9\n0\t10"},
            {"SELECT number FROM numbers(3) ORDER BY 1 + 1 DESC", "0\n1\n2"},
            {"SELECT * FROM (SELECT number AS a, 3 - number AS b FROM numbers(3)) ORDER BY 2", "2\t1\n1\t2\n0\t3"},
            {"SELECT number % 2 AS g, number FROM numbers(6) ORDER BY 2 DESC LIMIT 1 BY 1", "1\t5\n0\t4"},
            {"SELECT number FROM numbers(3) ORDER BY 1 DESC SETTINGS enable_positional_arguments = 0", "0\n1\n2"},
            {"SELECT number % 3, count() FROM numbers(10) GROUP BY 1 ORDER BY 1 SETTINGS enable_positional_arguments = 0", "Code: 215 NOT_AN_AGGREGATE"},
            {"SELECT count() FROM numbers(10) GROUP BY 1", "Code: 184 ILLEGAL_AGGREGATION"},
            {"SELECT number % 3 AS g, sum(number) FROM numbers(10) GROUP BY 1 HAVING sum(number) > 10 ORDER BY 2", "1\t12\n2\t15\n0\t18"},
            {"SELECT number FROM numbers(3) ORDER BY 1.5 DESC", "0\n1\n2"},
            {"SELECT arrayJoin([3, NULL, 1, NULL, 2]) AS x ORDER BY x DESC FORMAT JSONCompactEachRow", "[3]\n[2]\n[1]\n[null]\n[null]"},
            {"SELECT arrayJoin([3, NULL, 1, NULL, 2]) AS x ORDER BY x FORMAT JSONCompactEachRow", "[1]\n[2]\n[3]\n[null]\n[null]"},
            {"SELECT arrayJoin([3, NULL, 1, NULL, 2]) AS x ORDER BY x DESC NULLS FIRST FORMAT JSONCompactEachRow", "[null]\n[null]\n[3]\n[2]\n[1]"},
            {"SELECT arrayJoin([3, NULL, 1, NULL, 2]) AS x ORDER BY x ASC NULLS FIRST FORMAT JSONCompactEachRow", "[null]\n[null]\n[1]\n[2]\n[3]"},
            {"SELECT arrayJoin([3, nan, 1, -inf, 2, inf]) AS x ORDER BY x DESC FORMAT JSONCompactEachRow", "[null]\n[3]\n[2]\n[1]\n[null]\n[null]"},
            {"SELECT arrayJoin([3, nan, 1, -inf, 2, inf]) AS x ORDER BY x FORMAT JSONCompactEachRow", "[null]\n[1]\n[2]\n[3]\n[null]\n[null]"},
            {"SELECT arrayJoin([3, nan, 1, NULL, 2]) AS x ORDER BY x DESC FORMAT JSONCompactEachRow", "[3]\n[2]\n[1]\n[null]\n[null]"},
            {"SELECT arrayJoin([3, nan, 1, NULL, 2]) AS x ORDER BY x NULLS FIRST FORMAT JSONCompactEachRow", "[null]\n[null]\n[1]\n[2]\n[3]"},
            {"SELECT arrayJoin([3, nan, 1, NULL, 2]) AS x ORDER BY x DESC NULLS FIRST FORMAT JSONCompactEachRow", "[null]\n[null]\n[3]\n[2]\n[1]"},
            {"SELECT arrayJoin(['b', NULL, 'a']) AS x ORDER BY x DESC FORMAT JSONCompactEachRow", "[\"b\"]\n[\"a\"]\n[null]"},
            {"SELECT number % 3 AS g, count() FROM numbers(10) GROUP BY 1 ORDER BY 1 FORMAT JSONCompactEachRow", "[0, 4]\n[1, 3]\n[2, 3]"},
            {"SELECT number % 3 AS g, count() FROM numbers(10) GROUP BY g ORDER BY 2 DESC, 1 FORMAT JSONCompactEachRow", "[0, 4]\n[1, 3]\n[2, 3]"},
            {"SELECT inf, -inf, nan, -nan, Inf, NaN, INF, NAN, infinity, toTypeName(nan), toTypeName(inf)", "inf\t-inf\tnan\tnan\tinf\tnan\tinf\tnan\tinf\tFloat64\tFloat64"},
            {"SELECT nan = nan, inf > 1e308, isNaN(-nan), isInfinite(-inf)", "0\t1\t1\t1"},
            {"SELECT x FROM (SELECT 1 AS nan, 2 AS x) WHERE nan = 1", ""},
            {"SELECT isNaN(nan), isNaN(1), isNaN(toFloat32(0) / 0), isFinite(inf), isFinite(1.5), isFinite(3), isInfinite(-inf), isInfinite(2), isInfinite(nan), toTypeName(isNaN(1))", "1\t0\t1\t0\t1\t1\t1\t0\t0\tUInt8"},
            {"SELECT isNaN(CAST(NULL, 'Nullable(Float64)')), toTypeName(isNaN(CAST(NULL, 'Nullable(Float64)')))", "\\N\tNullable(UInt8)"},
            {"SELECT isNaN('a')", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT isFinite(toDecimal32(1, 2))", "Code: 43 ILLEGAL_TYPE_OF_ARGUMENT"},
            {"SELECT nan != nan, nan < 1, nan > 1, nan <= nan, nan >= 1, 1 != nan, toFloat32(nan) = toFloat32(nan), inf = inf, -inf < inf", "1\t0\t0\t0\t0\t1\t0\t1\t1"},
            {"SELECT count() FROM (SELECT arrayJoin([1, nan, 2]) AS x) WHERE x = x", "2"},
            {"DROP TABLE IF EXISTS sort_nulls", ""},
            {"CREATE TABLE sort_nulls (k UInt32, n Nullable(Int32), f Float64, s Nullable(String)) ENGINE = MergeTree ORDER BY k", ""},
            {"INSERT INTO sort_nulls SELECT number, if(number % 4 = 0, NULL, toInt32(number % 7) - 3), if(number % 5 = 0, nan, if(number % 11 = 0, -inf, number / 4)), if(number % 3 = 0, NULL, toString(number % 10)) FROM numbers(60)", ""},
            {"SELECT k, n FROM sort_nulls ORDER BY n DESC, k LIMIT 20", "6\t3\n13\t3\n27\t3\n34\t3\n41\t3\n55\t3\n5\t2\n19\t2\n26\t2\n33\t2\n47\t2\n54\t2\n11\t1\n18\t1\n25\t1\n39\t1\n46\t1\n53\t1\n3\t0\n10\t0"},
            {"SELECT k, n FROM sort_nulls ORDER BY n, k DESC LIMIT 20", "49\t-3\n42\t-3\n35\t-3\n21\t-3\n14\t-3\n7\t-3\n57\t-2\n50\t-2\n43\t-2\n29\t-2\n22\t-2\n15\t-2\n1\t-2\n58\t-1\n51\t-1\n37\t-1\n30\t-1\n23\t-1\n9\t-1\n2\t-1"},
            {"SELECT k, n FROM sort_nulls ORDER BY n DESC NULLS FIRST, k LIMIT 20", "0\t\\N\n4\t\\N\n8\t\\N\n12\t\\N\n16\t\\N\n20\t\\N\n24\t\\N\n28\t\\N\n32\t\\N\n36\t\\N\n40\t\\N\n44\t\\N\n48\t\\N\n52\t\\N\n56\t\\N\n6\t3\n13\t3\n27\t3\n34\t3\n41\t3"},
            {"SELECT k, f FROM sort_nulls ORDER BY f DESC, k LIMIT 20", "59\t14.75\n58\t14.5\n57\t14.25\n56\t14\n54\t13.5\n53\t13.25\n52\t13\n51\t12.75\n49\t12.25\n48\t12\n47\t11.75\n46\t11.5\n43\t10.75\n42\t10.5\n41\t10.25\n39\t9.75\n38\t9.5\n37\t9.25\n36\t9\n34\t8.5"},
            {"SELECT k, f FROM sort_nulls ORDER BY f, k LIMIT 20", "11\t-inf\n22\t-inf\n33\t-inf\n44\t-inf\n1\t0.25\n2\t0.5\n3\t0.75\n4\t1\n6\t1.5\n7\t1.75\n8\t2\n9\t2.25\n12\t3\n13\t3.25\n14\t3.5\n16\t4\n17\t4.25\n18\t4.5\n19\t4.75\n21\t5.25"},
            {"SELECT k, f FROM sort_nulls ORDER BY f NULLS FIRST, k LIMIT 20", "0\tnan\n5\tnan\n10\tnan\n15\tnan\n20\tnan\n25\tnan\n30\tnan\n35\tnan\n40\tnan\n45\tnan\n50\tnan\n55\tnan\n11\t-inf\n22\t-inf\n33\t-inf\n44\t-inf\n1\t0.25\n2\t0.5\n3\t0.75\n4\t1"},
            {"SELECT s, count() FROM sort_nulls GROUP BY 1 ORDER BY 1 DESC", "9\t4\n8\t4\n7\t4\n6\t4\n5\t4\n4\t4\n3\t4\n2\t4\n1\t4\n0\t4\n\\N\t20"},
            {"SELECT s, n, count() FROM sort_nulls GROUP BY 1, 2 ORDER BY 3 DESC, 1, 2 LIMIT 6", "\\N\t\\N\t5\n\\N\t-1\t3\n0\t\\N\t2\n2\t\\N\t2\n4\t\\N\t2\n6\t\\N\t2"},
            {"SELECT k % 3, sum(k) FROM sort_nulls GROUP BY 1 ORDER BY 2 DESC", "2\t610\n1\t590\n0\t570"},
        };
    }
}
