package dev.chdedup.stub.dedup;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.exec.Settings;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Query;
import dev.chdedup.stub.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The deduplication decision from the settings and their precedence, for plain, async and INSERT SELECT inserts. */
class DeduplicationPolicyTest {
    private static Settings s(String... kv) {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return Settings.DEFAULTS.with(m);
    }

    private static Query select(String sql) {
        return ((Statement.SelectStmt) Parser.parse(sql)).query();
    }

    @Test
    void plainAndAsyncInserts() {
        assertTrue(DeduplicationPolicy.forInsert(s(), false));
        assertTrue(DeduplicationPolicy.forInsert(s(), true), "26.2: async inserts are deduplicated by default");
        assertFalse(DeduplicationPolicy.forInsert(s("deduplicate_insert", "disable"), true));
        assertTrue(DeduplicationPolicy.forInsert(s("deduplicate_insert", "enable", "insert_deduplicate", "0"), false));
        Settings legacy = s("deduplicate_insert", "backward_compatible_choice");
        assertTrue(DeduplicationPolicy.forInsert(legacy, false));
        assertFalse(DeduplicationPolicy.forInsert(legacy, true), "async_insert_deduplicate defaults to 0");
        assertTrue(DeduplicationPolicy.forInsert(s("deduplicate_insert", "backward_compatible_choice", "async_insert_deduplicate", "1"), true));
        assertFalse(DeduplicationPolicy.forInsert(s("deduplicate_insert", "backward_compatible_choice", "insert_deduplicate", "0"), false));
        ChException bad = assertThrows(ChException.class, () -> DeduplicationPolicy.forInsert(s("deduplicate_insert", "maybe"), false));
        assertEquals(ErrorCode.BAD_ARGUMENTS, bad.code());
    }

    @Test
    void compatibilityRestoresTheOldDefaults() {
        assertTrue(DeduplicationPolicy.legacy(s("compatibility", "25.8")));
        assertTrue(DeduplicationPolicy.legacy(s("compatibility", "26.1")));
        assertFalse(DeduplicationPolicy.legacy(s("compatibility", "26.2")));
        assertFalse(DeduplicationPolicy.legacy(s()));
        assertFalse(DeduplicationPolicy.forInsert(s("compatibility", "25.8"), true));
        assertFalse(DeduplicationPolicy.forInsert(s("compatibility", "25.8", "insert_deduplicate", "0"), false));
        assertTrue(DeduplicationPolicy.forInsert(s("compatibility", "25.8", "insert_deduplicate", "0", "deduplicate_insert", "enable"), false));
        Query unstable = select("SELECT number FROM numbers(3)");
        assertTrue(DeduplicationPolicy.forInsertSelect(s("compatibility", "25.8"), unstable, false));
        assertFalse(DeduplicationPolicy.forInsertSelect(s(), unstable, false));
        ChException bad = assertThrows(ChException.class, () -> DeduplicationPolicy.legacy(s("compatibility", "new")));
        assertEquals(ErrorCode.BAD_ARGUMENTS, bad.code());
    }

    @Test
    void insertSelectModes() {
        Query stable = select("SELECT number FROM numbers(3) ORDER BY ALL");
        Query unstable = select("SELECT number FROM numbers(3)");
        assertTrue(DeduplicationPolicy.forInsertSelect(s(), stable, false));
        assertTrue(DeduplicationPolicy.forInsertSelect(s(), unstable, true), "a token stands in for stability");
        assertFalse(DeduplicationPolicy.forInsertSelect(s("deduplicate_insert_select", "disable"), stable, true));
        assertTrue(DeduplicationPolicy.forInsertSelect(s("deduplicate_insert_select", "enable_even_for_bad_queries"), unstable, false));
        assertFalse(DeduplicationPolicy.forInsertSelect(s("deduplicate_insert_select", "enable_even_for_bad_queries",
            "deduplicate_insert", "disable"), unstable, false));
        assertTrue(DeduplicationPolicy.forInsertSelect(s("deduplicate_insert_select", "force_enable"), stable, false));
        ChException refused = assertThrows(ChException.class,
            () -> DeduplicationPolicy.forInsertSelect(s("deduplicate_insert_select", "force_enable"), unstable, false));
        assertEquals(ErrorCode.DEDUPLICATION_IS_NOT_POSSIBLE, refused.code());
    }
}
