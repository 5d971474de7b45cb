package dev.chdedup.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.sql.SQLException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** How the executor recognizes that the server refused one of its settings (Code 115, UNKNOWN_SETTING), in both phrasings. */
class InsertExecutorTest {
    /** What the executor sends besides the user's SQL, in its order: the token first, then the pinned settings. */
    private static final Set<String> OURS = new LinkedHashSet<>(List.of(InsertExecutor.TOKEN, "max_insert_block_size",
        "min_insert_block_size_rows", "min_insert_block_size_bytes", "insert_deduplicate", "deduplicate_insert", "deduplicate_insert_select"));

    private static SQLException server(String message, int code) {
        return new SQLException(message, "HY000", code);
    }

    @Test
    void newPhrasing() {
        SQLException e = server("Code: 115. DB::Exception: Setting insert_deduplication_token is neither a builtin setting nor started with"
            + " the prefix 'custom_' registered for user-defined settings. (UNKNOWN_SETTING) (version 21.8.15.7)", 115);
        assertEquals(InsertExecutor.TOKEN, InsertExecutor.refusedSetting(e, OURS));
    }

    @Test
    void newPhrasingWithTheCodeOnlyInTheMessage() {
        SQLException e = server("Code: 115. DB::Exception: Setting deduplicate_insert is neither a builtin setting nor started with the"
            + " prefix 'custom_' registered for user-defined settings. Maybe you meant ['deduplicate_insert_select']. (UNKNOWN_SETTING)", 0);
        assertEquals("deduplicate_insert", InsertExecutor.refusedSetting(e, OURS));
    }

    @Test
    void oldPhrasing() {
        assertEquals(InsertExecutor.TOKEN, InsertExecutor.refusedSetting(
            server("Code: 115, e.displayText() = DB::Exception: Unknown setting insert_deduplication_token (version 20.8.3.18)", 115), OURS));
        assertEquals("deduplicate_insert_select", InsertExecutor.refusedSetting(
            server("Code: 115. DB::Exception: Unknown setting 'deduplicate_insert_select'. (UNKNOWN_SETTING) (version 24.3.1.1)", 115), OURS));
    }

    @Test
    void theExactNameWinsOverOneItContains() {
        // deduplicate_insert is a prefix of deduplicate_insert_select: the message's name decides, not the first match of a substring
        assertEquals("deduplicate_insert_select", InsertExecutor.refusedSetting(
            server("Code: 115. DB::Exception: Setting deduplicate_insert_select is neither a builtin setting nor started with the prefix"
                + " 'custom_' registered for user-defined settings. (UNKNOWN_SETTING)", 115), OURS));
    }

    @Test
    void theCodeMayComeFromACause() {
        SQLException named = new SQLException("Query failed: Code: 115. DB::Exception: Unknown setting insert_deduplicate", "HY000", 0,
            new RuntimeException("Code: 115. DB::Exception: Unknown setting insert_deduplicate"));
        assertEquals("insert_deduplicate", InsertExecutor.refusedSetting(named, OURS));
    }

    @Test
    void aSettingThatIsNotOursIsNotRefusedOnOurBehalf() {
        assertNull(InsertExecutor.refusedSetting(server("Code: 115. DB::Exception: Setting max_partitions_per_insert_blocks is neither a"
            + " builtin setting nor started with the prefix 'custom_' registered for user-defined settings. (UNKNOWN_SETTING)", 115), OURS));
        // a suggestion that names one of ours does not make it the refused one
        assertNull(InsertExecutor.refusedSetting(server("Code: 115. DB::Exception: Setting insert_dedup is neither a builtin setting nor"
            + " started with the prefix 'custom_' registered for user-defined settings. Maybe you meant ['insert_deduplicate']."
            + " (UNKNOWN_SETTING)", 115), OURS));
    }

    @Test
    void otherCodesAreNotRefusals() {
        assertNull(InsertExecutor.refusedSetting(server("Code: 62. DB::Exception: Syntax error near insert_deduplication_token", 62), OURS));
        assertNull(InsertExecutor.refusedSetting(server("Unknown setting insert_deduplication_token", 0), OURS));
        assertNull(InsertExecutor.refusedSetting(server("Code: 202. DB::Exception: Too many simultaneous queries", 202), OURS));
    }

    @Test
    void onlyTheSettingsStillSentCount() {
        SQLException e = server("Code: 115. DB::Exception: Unknown setting insert_deduplication_token", 115);
        assertNull(InsertExecutor.refusedSetting(e, Set.of("insert_deduplicate", "max_insert_block_size")));
    }
}
