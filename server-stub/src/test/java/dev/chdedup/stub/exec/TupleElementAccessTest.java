package dev.chdedup.stub.exec;

/**
 * A tuple's elements by name or number after a dot ({@code t.x}, {@code t.1}, {@code t.a.c}), on a column or a WITH
 * alias, as ClickHouse reads them; a name the tuple lacks stays an unknown identifier. Held to the engine's answers.
 */
class TupleElementAccessTest extends EngineAnswers {
    @Override
    String[][] cases() {
        // {query, answer}: the answers are ClickHouse 26.7's, taken from the engine through the oracle (shared/oracle)
        return new String[][] {
            {"WITH (1, 'a')::Tuple(x UInt8, y String) AS t SELECT t.x, t.y", "1\ta"},
            {"SELECT t.x FROM (SELECT (1, 'a')::Tuple(x UInt8, y String) AS t)", "1"},
            {"SELECT t.1, t.2 FROM (SELECT (1, 'a') AS t)", "1\ta"},
            {"WITH (1, 2) AS t SELECT t.1", "1"},
            {"SELECT t.z FROM (SELECT (1, 'a')::Tuple(x UInt8, y String) AS t)", "Code: 47 UNKNOWN_IDENTIFIER"},
            {"WITH CAST(((1, 2), 3) AS Tuple(a Tuple(b UInt8, c UInt8), d UInt8)) AS t SELECT t.a.c, t.d, t.a", "2\t3\t(1,2)"},
            {"WITH mergeTreePartInfo('all_12_25_7_4') AS info SELECT info.partition_id, info.min_block, info.max_block, info.level, info.mutation", "all\t12\t25\t7\t4"},
            {"SELECT s.x + 1 FROM (SELECT CAST((number, 'n') AS Tuple(x UInt64, y String)) AS s FROM numbers(3)) ORDER BY 1", "1\n2\n3"},
        };
    }
}
