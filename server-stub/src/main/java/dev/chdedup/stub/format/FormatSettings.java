package dev.chdedup.stub.format;

import dev.chdedup.stub.compat.SettingsChangesHistory;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Map;

/**
 * The ClickHouse settings that steer the input and output formats, read once from a query's settings map
 * ({@code format_csv_delimiter}, {@code input_format_skip_unknown_fields}, ...) into an immutable holder with
 * ClickHouse's current defaults for anything not given. Unknown keys are ignored here: the settings layer
 * owns their validation. Mirrors the part of ClickHouse's {@code FormatSettings} the stub implements.
 */
public final class FormatSettings {
    /** All defaults, as a fresh ClickHouse server has them. */
    public static final FormatSettings DEFAULTS = of(Map.of());

    /** input_format_skip_unknown_fields (1): ignore input columns/keys the table does not have. */
    public final boolean skipUnknownFields;
    /** input_format_null_as_default (1): NULL for a non-Nullable column becomes the column default. */
    public final boolean nullAsDefault;
    /** input_format_with_names_use_header (1): map *WithNames header names to columns. */
    public final boolean withNamesUseHeader;
    /** input_format_with_types_use_header (1): check *WithNamesAndTypes header types against columns. */
    public final boolean withTypesUseHeader;
    /** input_format_values_interpret_expressions (1): evaluate non-literal Values as SQL expressions. */
    public final boolean valuesInterpretExpressions;
    /**
     * input_format_values_deduce_templates_of_expressions (1): ClickHouse parses a row of expressions as a template,
     * which evaluates them too, so an expression is refused only with both off (SUPPORT_IS_DISABLED).
     */
    public final boolean valuesDeduceTemplates;

    /** format_csv_delimiter (','). */
    public final char csvDelimiter;
    /** format_csv_allow_single_quotes (0) and format_csv_allow_double_quotes (1). */
    public final boolean csvAllowSingleQuotes;
    public final boolean csvAllowDoubleQuotes;
    /** input_format_csv_empty_as_default (1): an empty unquoted CSV field is the column default. */
    public final boolean csvEmptyAsDefault;
    /** input_format_csv_trim_whitespaces (1): trim spaces and tabs around unquoted CSV fields. */
    public final boolean csvTrimWhitespaces;
    /** input_format_csv_unquoted_null_literal_as_null (0): unquoted NULL in CSV is NULL. */
    public final boolean csvUnquotedNullLiteralAsNull;
    /** format_csv_null_representation ('\N'). */
    public final String csvNullRepresentation;
    /** output_format_csv_crlf_end_of_line (0). */
    public final boolean csvCrlfOutput;

    /** input_format_tsv_empty_as_default (0): an empty TSV field is the column default. */
    public final boolean tsvEmptyAsDefault;
    /** format_tsv_null_representation ('\N'). */
    public final String tsvNullRepresentation;
    /** input_format_tsv_crlf_end_of_line (0): accept "\r\n" line ends in TSV input. */
    public final boolean tsvCrlfInput;
    /** output_format_tsv_crlf_end_of_line (0). */
    public final boolean tsvCrlfOutput;
    /** input_format_tsv_skip_trailing_empty_lines (0) / input_format_csv_skip_trailing_empty_lines (0). */
    public final boolean tsvSkipTrailingEmptyLines;
    public final boolean csvSkipTrailingEmptyLines;

    /** output_format_json_quote_64bit_integers (0 since 25.8, 1 before): (U)Int64/128/256 as JSON strings. */
    public final boolean jsonQuote64bitIntegers;
    /** output_format_binary_encode_types_in_binary_format (0): RowBinaryWithNamesAndTypes names its types in the binary type encoding. */
    public final boolean binaryEncodeTypes;
    /** output_format_binary_write_json_as_string (0): RowBinary writes a JSON value as a String of its text. */
    public final boolean binaryWriteJsonAsString;
    /** input_format_binary_read_json_as_string (0): RowBinary reads a JSON value from a String of its text. */
    public final boolean binaryReadJsonAsString;
    /** output_format_json_quote_64bit_floats (0). */
    public final boolean jsonQuote64bitFloats;
    /** output_format_json_quote_denormals (0): nan/inf as strings; otherwise null. */
    public final boolean jsonQuoteDenormals;
    /** output_format_json_quote_decimals (0). */
    public final boolean jsonQuoteDecimals;
    /** output_format_json_escape_forward_slashes (1). */
    public final boolean jsonEscapeForwardSlashes;
    /** output_format_json_validate_utf8 (0): JSONEachRow replaces invalid UTF-8 with U+FFFD (JSON always does). */
    public final boolean jsonValidateUtf8;
    /** output_format_json_named_tuples_as_objects (1). */
    public final boolean jsonNamedTuplesAsObjects;
    /** output_format_json_array_of_rows (0): JSONEachRow output as one JSON array. */
    public final boolean jsonArrayOfRows;
    /** output_format_json_pretty_print (1): nested values in the JSON format over several lines. */
    public final boolean jsonPrettyPrint;
    /** output_format_write_statistics (1): the "statistics" object of the JSON formats. */
    public final boolean writeStatistics;

    /** date_time_input_format ('best_effort' since 26.5, 'basic' before); 'best_effort' also accepts ISO 8601 offsets and RFC 1123. */
    public final String dateTimeInputFormat;

    private FormatSettings(Map<String, String> m) {
        skipUnknownFields = bool(m, "input_format_skip_unknown_fields", true);
        nullAsDefault = bool(m, "input_format_null_as_default", true);
        withNamesUseHeader = bool(m, "input_format_with_names_use_header", true);
        withTypesUseHeader = bool(m, "input_format_with_types_use_header", true);
        valuesInterpretExpressions = bool(m, "input_format_values_interpret_expressions", true);
        valuesDeduceTemplates = bool(m, "input_format_values_deduce_templates_of_expressions", true);
        csvDelimiter = oneChar(m, "format_csv_delimiter", ',');
        csvAllowSingleQuotes = bool(m, "format_csv_allow_single_quotes", false);
        csvAllowDoubleQuotes = bool(m, "format_csv_allow_double_quotes", true);
        csvEmptyAsDefault = bool(m, "input_format_csv_empty_as_default", true);
        csvTrimWhitespaces = bool(m, "input_format_csv_trim_whitespaces", true);
        csvUnquotedNullLiteralAsNull = bool(m, "input_format_csv_unquoted_null_literal_as_null", false);
        csvNullRepresentation = m.getOrDefault("format_csv_null_representation", "\\N");
        csvCrlfOutput = bool(m, "output_format_csv_crlf_end_of_line", false);
        tsvEmptyAsDefault = bool(m, "input_format_tsv_empty_as_default", false);
        tsvNullRepresentation = m.getOrDefault("format_tsv_null_representation", "\\N");
        tsvCrlfInput = bool(m, "input_format_tsv_crlf_end_of_line", false);
        tsvCrlfOutput = bool(m, "output_format_tsv_crlf_end_of_line", false);
        tsvSkipTrailingEmptyLines = bool(m, "input_format_tsv_skip_trailing_empty_lines", false);
        csvSkipTrailingEmptyLines = bool(m, "input_format_csv_skip_trailing_empty_lines", false);
        // 25.8 stopped quoting them by default; a compatibility with an earlier release (the 18.16 and 22.1 profiles set
        // one) keeps the old default
        jsonQuote64bitIntegers = bool(m, "output_format_json_quote_64bit_integers",
            defaultOf(m, "output_format_json_quote_64bit_integers", "0").equals("1"));
        binaryEncodeTypes = bool(m, "output_format_binary_encode_types_in_binary_format", false);
        binaryWriteJsonAsString = bool(m, "output_format_binary_write_json_as_string", false);
        binaryReadJsonAsString = bool(m, "input_format_binary_read_json_as_string", false);
        jsonQuote64bitFloats = bool(m, "output_format_json_quote_64bit_floats", false);
        jsonQuoteDenormals = bool(m, "output_format_json_quote_denormals", false);
        jsonQuoteDecimals = bool(m, "output_format_json_quote_decimals", false);
        jsonEscapeForwardSlashes = bool(m, "output_format_json_escape_forward_slashes", true);
        jsonValidateUtf8 = bool(m, "output_format_json_validate_utf8", false);
        jsonNamedTuplesAsObjects = bool(m, "output_format_json_named_tuples_as_objects", true);
        jsonArrayOfRows = bool(m, "output_format_json_array_of_rows", false);
        jsonPrettyPrint = bool(m, "output_format_json_pretty_print", true);
        writeStatistics = bool(m, "output_format_write_statistics", true);
        String dt = m.getOrDefault("date_time_input_format", defaultOf(m, "date_time_input_format", "best_effort")).trim().toLowerCase();
        if (!dt.equals("basic") && !dt.equals("best_effort") && !dt.equals("best_effort_us")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS,
                "Unexpected value of DateTimeInputFormat: '" + dt + "'");
        }
        dateTimeInputFormat = dt;
    }

    /** Reads the format settings out of a query's settings (names as ClickHouse spells them). */
    public static FormatSettings of(Map<String, String> settings) {
        return new FormatSettings(settings == null ? Map.of() : settings);
    }

    public boolean bestEffortDateTime() {
        return !dateTimeInputFormat.equals("basic");
    }

    /** The default of {@code name}: {@code current}, or its value before a later change where compatibility names an earlier release. */
    private static String defaultOf(Map<String, String> m, String name, String current) {
        String old = SettingsChangesHistory.settingUnder(name, m.get("compatibility"));
        return old != null ? old : current;
    }

    private static boolean bool(Map<String, String> m, String key, boolean def) {
        String v = m.get(key);
        if (v == null) {
            return def;
        }
        switch (v.trim().toLowerCase()) {
            case "1": case "true": case "yes": case "on": case "enable": case "enabled":
                return true;
            case "0": case "false": case "no": case "off": case "disable": case "disabled": case "":
                return false;
            default:
                try {
                    return Long.parseLong(v.trim()) != 0;
                } catch (NumberFormatException e) {
                    throw new ChException(ErrorCode.BAD_ARGUMENTS,
                        "Cannot parse boolean value of setting " + key + ": '" + v + "'");
                }
        }
    }

    private static char oneChar(Map<String, String> m, String key, char def) {
        String v = m.get(key);
        if (v == null) {
            return def;
        }
        if (v.length() != 1) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS,
                "A setting's value string has to be an exactly one character long: " + key + " = '" + v + "'");
        }
        return v.charAt(0);
    }
}
