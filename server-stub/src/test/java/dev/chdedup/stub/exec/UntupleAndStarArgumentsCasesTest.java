package dev.chdedup.stub.exec;

/**
 * Single stragglers of the function corpus beyond their documented examples, held to the engine's answers: untuple
 * in a select list (element names, an alias's prefix, a non-tuple's error), * among the arguments of a function inside
 * an aggregate (groupBitXor(cityHash64(*))), a FixedString's length as a constant, and a MergeTree created without
 * ORDER BY or PRIMARY KEY (an empty key, as create_table_empty_primary_key_by_default makes it).
 */
class UntupleAndStarArgumentsCasesTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"SELECT untuple((1, 'a'))", "1\ta"},
            {"SELECT untuple(CAST((1, 'a') AS Tuple(x UInt8, y String)))", "1\ta"},
            {"SELECT untuple((1, 'a')) AS t FORMAT TSVWithNames", "t.1\tt.2\n1\ta"},
            {"SELECT untuple(mortonDecode(3, 53)), untuple(hilbertDecode(2, 31))", "1\t2\t3\t3\t4"},
            {"SELECT untuple(1)", "Code: 1 UNSUPPORTED_METHOD"},
            {"SELECT untuple(tuple(number, number * 2)), number FROM numbers(3)", "0\t0\t0\n1\t2\t1\n2\t4\t2"},
            {"SELECT isConstant(length(toFixedString(materialize('a'), 3))), length(toFixedString(materialize('a'), 3)), length(CAST(NULL, 'Nullable(FixedString(3))')), length(toNullable(toFixedString('ab', 3)))", "1\t3\t\\N\t3"},
            {"DROP TABLE IF EXISTS nokey", ""},
            {"CREATE TABLE nokey (a UInt32, b String) ENGINE = MergeTree", ""},
            {"INSERT INTO nokey VALUES (2, 'x'), (1, 'y')", ""},
            {"SELECT sum(a), groupBitXor(cityHash64(*)), count(*) FROM nokey", "3\t11870175229670210278\t2"},
            {"SELECT cityHash64(*) FROM nokey ORDER BY a", "15661201451127126923\n9073793123177562477"},
            {"DROP TABLE nokey", ""},
        };
    }
}
