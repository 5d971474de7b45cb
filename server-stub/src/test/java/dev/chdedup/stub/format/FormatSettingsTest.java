package dev.chdedup.stub.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Settings parsing and ClickHouse's defaults. */
class FormatSettingsTest {

    @Test
    void defaultsAreClickHouses() {
        FormatSettings d = FormatSettings.DEFAULTS;
        assertTrue(d.skipUnknownFields);
        assertTrue(d.nullAsDefault);
        assertFalse(d.jsonQuote64bitIntegers, "since 25.8");
        assertTrue(FormatSettings.of(java.util.Map.of("compatibility", "22.1.3.7")).jsonQuote64bitIntegers, "before 25.8");
        assertFalse(d.jsonQuoteDenormals);
        assertTrue(d.jsonEscapeForwardSlashes);
        assertTrue(d.jsonPrettyPrint);
        assertTrue(d.csvEmptyAsDefault);
        assertFalse(d.tsvEmptyAsDefault);
        assertEquals(',', d.csvDelimiter);
        assertEquals("\\N", d.tsvNullRepresentation);
        assertTrue(d.bestEffortDateTime(), "since 26.5");
        assertFalse(FormatSettings.of(Map.of("compatibility", "26.4")).bestEffortDateTime(), "basic before 26.5");
        assertTrue(FormatSettings.of(null).writeStatistics);
    }

    @Test
    void parsesClickHouseSpellings() {
        FormatSettings s = FormatSettings.of(Map.of("input_format_skip_unknown_fields", "false",
            "output_format_json_quote_64bit_integers", "0", "format_csv_delimiter", "|",
            "date_time_input_format", "best_effort", "input_format_null_as_default", "True", "unrelated", "x"));
        assertFalse(s.skipUnknownFields);
        assertFalse(s.jsonQuote64bitIntegers);
        assertEquals('|', s.csvDelimiter);
        assertTrue(s.bestEffortDateTime());
        assertTrue(s.nullAsDefault);
    }

    @Test
    void rejectsBadValues() {
        ChException d = assertThrows(ChException.class, () -> FormatSettings.of(Map.of("format_csv_delimiter", ";;")));
        assertEquals(ErrorCode.BAD_ARGUMENTS, d.code());
        assertThrows(ChException.class, () -> FormatSettings.of(Map.of("input_format_null_as_default", "maybe")));
        assertThrows(ChException.class, () -> FormatSettings.of(Map.of("date_time_input_format", "fancy")));
    }
}
