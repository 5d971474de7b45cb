package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.mergetree.MergeTreeSettings;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tables recorded from ClickHouse 26.7 load and agree with the stub's parsers: every setting of the engine is
 * known, every recorded default is a value of its recorded type, every enum type's refusal carries the code the
 * engine gave, and the settings the official client sends are accepted.
 */
class RecordedSettingsTest {
    /** The types SettingFields parses itself; every other recorded type must be a recorded enum. */
    private static final Set<String> SCALAR = Set.of("Bool", "BoolAuto", "UInt64", "UInt32", "NonZeroUInt64", "Int64", "Int32", "Float",
        "Double", "FloatAuto", "String", "Seconds", "Milliseconds", "UInt64Auto", "MaxThreads", "Char", "Map", "Timezone", "URI");

    @Test
    void theEnginesTablesAreLoaded() {
        assertEquals("26.7.2.1", RecordedSettings.engineVersion());
        assertEquals(1721, RecordedSettings.settings().size());
        assertEquals(354, RecordedSettings.mergeTreeSettings().size());
        assertTrue(KnownSettings.all().keySet().containsAll(RecordedSettings.settings().keySet()));
        assertTrue(MergeTreeSettings.all().keySet().containsAll(RecordedSettings.mergeTreeSettings().keySet()));
        // descriptions keep the engine's line breaks (TabSeparated escapes undone)
        assertTrue(RecordedSettings.mergeTreeSettings().get("adaptive_write_buffer_initial_size").description().startsWith("\n"));
    }

    @Test
    void everyRecordedTypeIsParsedAndEveryDefaultIsAValueOfItsType() {
        for (Map<String, RecordedSettings.Row> table : List.of(RecordedSettings.settings(), RecordedSettings.mergeTreeSettings())) {
            for (RecordedSettings.Row r : table.values()) {
                assertTrue(SCALAR.contains(r.type()) || RecordedSettings.enumType(r.type()) != null, r.name() + ": " + r.type());
                SettingFields.parse(r.type(), r.name(), r.defaultValue());
            }
        }
    }

    @Test
    void enumRefusalsCarryTheEnginesCodes() {
        assertEquals(ErrorCode.UNKNOWN_LOAD_BALANCING, RecordedSettings.enumType("LoadBalancing").code());
        assertEquals(ErrorCode.UNKNOWN_JOIN, RecordedSettings.enumType("JoinAlgorithm").code());
        assertTrue(RecordedSettings.enumType("JoinAlgorithm").multiple());
        ChException e = assertThrows(ChException.class, () -> Settings.DEFAULTS.with(Map.of("load_balancing", "bogus")));
        assertEquals("Unexpected value of LoadBalancing: 'bogus'. Must be one of ['round_robin', 'first_or_random', 'in_order',"
            + " 'hostname_longest_common_suffix', 'hostname_levenshtein_distance', 'nearest_hostname', 'hostname_longest_common_prefix',"
            + " 'random']", e.getMessage());
        Settings.DEFAULTS.with(Map.of("join_algorithm", "hash, direct", "mysql_datatypes_support_level", ""));
    }

    @Test
    void theSettingsTheOfficialClientSendsAreKnown() {
        Settings s = Settings.DEFAULTS.with(Map.of("output_format_binary_write_json_as_string", "1", "input_format_binary_read_json_as_string", "1",
            "allow_experimental_time_time64_type", "1", "allow_experimental_qbit_type", "1", "flatten_nested", "0"));
        assertTrue(s.getBool("output_format_binary_write_json_as_string"));
        assertEquals("enable_time_time64_type", RecordedSettings.settings().get("allow_experimental_time_time64_type").aliasFor());
    }

    @Test
    void theHandWrittenDefinitionsStayAuthoritative() {
        assertEquals("2", KnownSettings.get("max_threads").defaultValue()); // the stub's own, not the engine's auto(N)
        assertEquals("0", KnownSettings.get("async_insert").defaultValue()); // the stub's: a 26.2+ server and the library engine have 1
        assertEquals("LoadBalancing", KnownSettings.get("load_balancing").type()); // the engine's enum refines String
        assertEquals("NonZeroUInt64", KnownSettings.get("max_block_size").type());
        assertNotNull(KnownSettings.get("input_format_connection_handling")); // the stub's own setting
        assertEquals("480", MergeTreeSettings.all().get("old_parts_lifetime").defaultValue());
    }

    @Test
    void unknownNamesStayUnknownSetting() {
        ChException e = assertThrows(ChException.class, () -> Settings.DEFAULTS.with(Map.of("no_such_setting", "1")));
        assertEquals(ErrorCode.UNKNOWN_SETTING, e.code());
        assertEquals("Setting no_such_setting is neither a builtin setting nor started with the prefix 'custom_' registered for"
            + " user-defined settings", e.getMessage());
        ChException m = assertThrows(ChException.class, () -> MergeTreeSettings.forCreate(Map.of("no_such_setting", "1"), "MergeTree"));
        assertEquals(ErrorCode.UNKNOWN_SETTING, m.code());
        assertEquals("Unknown setting 'no_such_setting': for storage MergeTree", m.getMessage());
        assertEquals(Map.of("index_granularity", "64"), MergeTreeSettings.forCreate(Map.of("flatten_nested", "0", "index_granularity", "64"),
            "MergeTree"));
    }

    @Test
    void typesAreCheckedAsTheEngineChecksThem() {
        // codes taken from ClickHouse 26.7 (SELECT 1 SETTINGS x = '...')
        Object[][] cases = {
            {"max_insert_block_size", "0", ErrorCode.BAD_ARGUMENTS},
            {"max_block_size", "", ErrorCode.ATTEMPT_TO_READ_AFTER_EOF},
            {"max_bytes_ratio_before_external_sort", "x", ErrorCode.CANNOT_PARSE_NUMBER},
            {"max_bytes_ratio_before_external_sort", " 1", ErrorCode.CANNOT_PARSE_NUMBER},
            {"insert_keeper_fault_injection_probability", "inf", ErrorCode.CANNOT_PARSE_NUMBER},
            {"async_insert_busy_timeout_max_ms", "1.5", ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED},
            {"http_response_headers", "bogus", ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED},
            {"http_response_headers", "{'a':1}", ErrorCode.CANNOT_PARSE_QUOTED_STRING},
            {"http_response_headers", "{'a':'b'", ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED},
            {"session_timezone", "europe/berlin", ErrorCode.BAD_ARGUMENTS},
            {"query_plan_join_swap_table", "AUTO", ErrorCode.CANNOT_PARSE_BOOL},
            {"promql_evaluation_time", "AUTO", ErrorCode.CANNOT_PARSE_NUMBER},
            {"insert_quorum", "bogus", ErrorCode.CANNOT_PARSE_INPUT_ASSERTION_FAILED},
            {"format_avro_schema_registry_url", "::: bad", ErrorCode.POCO_EXCEPTION},
            {"max_execution_time", "1e30", ErrorCode.BAD_ARGUMENTS},
            {"totals_mode", "always", ErrorCode.UNKNOWN_TOTALS_MODE},
            {"union_default_mode", "UNIQUE", ErrorCode.UNKNOWN_UNION},
        };
        for (Object[] c : cases) {
            ChException e = assertThrows(ChException.class, () -> Settings.DEFAULTS.with(Map.of((String) c[0], (String) c[1])), c[0] + "=" + c[1]);
            assertEquals(c[2], e.code(), c[0] + "=" + c[1]);
        }
        Settings.DEFAULTS.with(Map.of("http_response_headers", "{'a':'b', 'c': 'd'}", "format_csv_delimiter", "", "max_execution_time", "-1.5",
            "os_thread_priority", "-5", "session_timezone", "Europe/Berlin", "insert_quorum", "auto", "evaluation_time", "auto"));
    }
}
