package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DistributedTargetTest {
    private static final DistributedTarget.ShardTable R1 = new DistributedTarget.ShardTable("h1", "ReplicatedMergeTree", 100);
    private static final DistributedTarget.ShardTable R2 = new DistributedTarget.ShardTable("h2", "ReplicatedMergeTree", 100);

    private static DistributedTarget target(String key, int shards, List<DistributedTarget.ShardTable> tables,
                                            Map<String, DistributedTarget.Computed> computed, String batch) {
        return new DistributedTarget("two_shards", "default", "loc", key, shards, tables, computed, batch);
    }

    @Test
    void engineArgumentsAsEitherReleasePrintsThem() {
        // 18.16 prints names bare or quoted as written; 26.x quotes them; a key may hold commas and strings
        assertArrayEquals(new String[] {"two_shards", "default", "loc", "cityHash64(id)"},
            DistributedTarget.engineArguments("CREATE TABLE default.dist ( id UInt64) ENGINE = Distributed(two_shards, default, loc, cityHash64(id))"));
        assertArrayEquals(new String[] {"'c'", "'db'", "'t'", "sipHash64(a, concat(b, ',)'))", "'policy'"},
            DistributedTarget.engineArguments("CREATE TABLE x.d (`a` UInt8, `b` String) ENGINE = Distributed('c', 'db', 't', sipHash64(a, concat(b, ',)')), 'policy')"
                + " SETTINGS fsync_after_insert = 0"));
        assertArrayEquals(new String[] {"c", "db", "t"}, DistributedTarget.engineArguments("CREATE TABLE d (a UInt8) engine=distributed(c, db, t)"));
        assertNull(DistributedTarget.engineArguments("CREATE TABLE t (a UInt8) ENGINE = MergeTree ORDER BY a"));
        assertEquals("it's", DistributedTarget.name("'it\\'s'"));
        assertEquals("two_shards", DistributedTarget.name("two_shards"));
    }

    @Test
    void aKeyIsDeterministicUnlessItCallsChanceTheClockOrTheServer() {
        assertNull(DistributedTarget.nonDeterministicFunction("cityHash64(id, toString(ts))"));
        assertNull(DistributedTarget.nonDeterministicFunction("intHash64(user_id) % 16"));
        assertNull(DistributedTarget.nonDeterministicFunction("id"));
        assertNull(DistributedTarget.nonDeterministicFunction("cityHash64('rand()', now_col)"), "a string or a column named like one");
        assertEquals("rand()", DistributedTarget.nonDeterministicFunction("rand()"));
        assertEquals("rand64()", DistributedTarget.nonDeterministicFunction("cityHash64(id) + rand64 ()"));
        assertEquals("now()", DistributedTarget.nonDeterministicFunction("toYYYYMM(now())"));
        assertEquals("generateUUIDv4()", DistributedTarget.nonDeterministicFunction("cityHash64(generateUUIDv4())"));
        assertEquals(Set.of("id", "ts", "now_col"), DistributedTarget.columns("cityHash64(id, toString(ts), now_col, 'lit')"));
        assertEquals(Set.of("a b"), DistributedTarget.columns("sipHash64(`a b`)"));
    }

    @Test
    void aDeterministicKeyOverShardsThatKeepALogRetriesExactly() {
        DistributedTarget d = target("cityHash64(id)", 2, List.of(R1, R2), Map.of(), null);
        assertNull(d.tableBlocker());
        assertNull(d.blocker(null));
        assertNull(d.blocker(List.of("id", "s")));
        assertEquals(100, d.window());
        assertTrue(d.replicated());
    }

    @Test
    void aRandomKeyIsNamedAsTheReasonNotToRetry() {
        DistributedTarget d = target("rand()", 2, List.of(R1, R2), Map.of(), null);
        String why = d.tableBlocker();
        assertTrue(why.contains("sharding key rand()") && why.contains("not deterministic"), why);
        assertTrue(d.remedy().contains("cityHash64"), d.remedy());
    }

    @Test
    void aKeyOverAColumnLeftToARandomDefaultBlocksOnlyTheInsertsThatLeaveItOut() {
        Map<String, DistributedTarget.Computed> computed = Map.of("u", new DistributedTarget.Computed(false, "generateUUIDv4()"));
        DistributedTarget d = target("cityHash64(u)", 2, List.of(R1, R2), computed, null);
        assertNull(d.tableBlocker());
        assertNull(d.blocker(List.of("id", "u")));
        assertNull(d.blocker(null), "an INSERT without a column list sends every insertable column");
        String why = d.blocker(List.of("id"));
        assertTrue(why.contains("leaves to its DEFAULT generateUUIDv4()"), why);
        DistributedTarget m = target("cityHash64(u)", 2, List.of(R1, R2), Map.of("u", new DistributedTarget.Computed(true, "now()")), null);
        assertTrue(m.tableBlocker().contains("MATERIALIZED now()"), m.tableBlocker());
    }

    @Test
    void aShardWithoutALogOrWithoutTheTableBlocks() {
        DistributedTarget plain = target("id", 2, List.of(R1, new DistributedTarget.ShardTable("h2", "MergeTree", 0)), Map.of(), null);
        assertTrue(plain.tableBlocker().contains("on shard host h2 keeps no deduplication log (engine MergeTree)"), plain.tableBlocker());
        assertEquals(0, plain.window());
        assertFalse(plain.replicated());
        DistributedTarget missing = target("id", 2, List.of(R1), Map.of(), null);
        assertTrue(missing.tableBlocker().startsWith("1 of the 2 shards"), missing.tableBlocker());
        assertEquals(0, missing.window());
        DistributedTarget unknown = target("id", 0, List.of(), Map.of(), null);
        assertTrue(unknown.tableBlocker().contains("not one the server knows"), unknown.tableBlocker());
    }

    @Test
    void oneShardTakesEveryRowWhateverTheKey() {
        assertNull(target("rand()", 1, List.of(R1), Map.of(), null).blocker(List.of("id")));
        assertNull(target("", 1, List.of(R1), Map.of(), "distributed_directory_monitor_batch_inserts = 1").tableBlocker());
    }

    @Test
    void backgroundSendsThatBatchBlock() {
        String why = target("id", 2, List.of(R1, R2), Map.of(), "distributed_directory_monitor_batch_inserts = 1").tableBlocker();
        assertTrue(why.contains("distributed_directory_monitor_batch_inserts = 1"), why);
    }

    @Test
    void theInsertsColumnListIsReadInEveryForm() {
        assertEquals(List.of("id", "s"), InsertColumns.named("INSERT INTO d (id, s) VALUES (?, ?)"));
        assertEquals(List.of("id", "a b"), InsertColumns.named("INSERT INTO db.d (`id`, `a b`) FORMAT RowBinary"));
        assertEquals(List.of("id"), InsertColumns.named("insert into d (id) select number from numbers(3)"));
        assertNull(InsertColumns.named("INSERT INTO d VALUES (1, 'a')"));
        assertNull(InsertColumns.named("INSERT INTO d SELECT * FROM src WHERE x IN (1, 2)"));
    }
}
