package dev.chdedup.stub.format;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The format registry: resolves a format name as ClickHouse's FormatFactory does (names and aliases such as
 * TSV, TSVWithNames, JSONLines are matched case-insensitively, as in current ClickHouse), tells the HTTP layer
 * the Content-Type ClickHouse sends for it, and opens a {@link RowReader} or {@link RowWriter} over a stream.
 */
public final class Formats {
    private static final String TSV_TYPE = "text/tab-separated-values; charset=UTF-8";
    private static final String TEXT_TYPE = "text/plain; charset=UTF-8";
    private static final String JSON_TYPE = "application/json; charset=UTF-8";
    private static final String BINARY_TYPE = "application/octet-stream";

    private record Info(String name, boolean input, boolean output) {
    }

    private static final Map<String, Info> BY_LOWER = new HashMap<>();

    static {
        both("TabSeparated", "TSV");
        both("TabSeparatedRaw", "TSVRaw", "Raw");
        both("TabSeparatedWithNames", "TSVWithNames");
        both("TabSeparatedWithNamesAndTypes", "TSVWithNamesAndTypes");
        both("TabSeparatedRawWithNames", "TSVRawWithNames", "RawWithNames");
        both("TabSeparatedRawWithNamesAndTypes", "TSVRawWithNamesAndTypes", "RawWithNamesAndTypes");
        both("CSV");
        both("CSVWithNames");
        both("CSVWithNamesAndTypes");
        both("JSONEachRow", "JSONLines", "NDJSON");
        register(new Info("JSON", false, true));
        register(new Info("JSONCompact", false, true));
        register(new Info("JSONEachRowWithProgress", false, true));
        register(new Info("JSONCompactEachRowWithProgress", false, true));
        both("Values");
        both("RowBinary");
        both("RowBinaryWithNames");
        both("RowBinaryWithNamesAndTypes");
        register(new Info("RowBinaryWithDefaults", true, false));
        both("TSKV");
        both("Native");
        register(new Info("Null", false, true));
        for (String f : new String[] {"JSONCompactEachRow", "JSONCompactEachRowWithNames", "JSONCompactEachRowWithNamesAndTypes",
            "JSONCompactStringsEachRow", "JSONCompactStringsEachRowWithNames", "JSONCompactStringsEachRowWithNamesAndTypes",
            "JSONStringsEachRow", "Vertical", "Markdown", "Pretty", "PrettyCompact", "PrettySpace"}) {
            register(new Info(f, false, true));
        }
        BY_LOWER.put("md", BY_LOWER.get("markdown"));
        for (String p : new String[] {"Pretty", "PrettyCompact", "PrettySpace"}) {
            for (String v : new String[] {"MonoBlock", "NoEscapes", "NoEscapesMonoBlock"}) {
                BY_LOWER.put((p + v).toLowerCase(Locale.ROOT), BY_LOWER.get(p.toLowerCase(Locale.ROOT)));
            }
        }
    }

    private Formats() {
    }

    private static void both(String name, String... aliases) {
        Info i = new Info(name, true, true);
        register(i);
        for (String a : aliases) {
            BY_LOWER.put(a.toLowerCase(Locale.ROOT), i);
        }
    }

    private static void register(Info i) {
        BY_LOWER.put(i.name.toLowerCase(Locale.ROOT), i);
    }

    private static Info info(String name) {
        Info i = name == null ? null : BY_LOWER.get(name.toLowerCase(Locale.ROOT));
        if (i == null) {
            throw new ChException(ErrorCode.UNKNOWN_FORMAT, "Unknown format " + name);
        }
        return i;
    }

    /** Whether the format {@code name} writes output; UNKNOWN_FORMAT if there is none so named. */
    public static boolean isOutput(String name) {
        return info(name).output;
    }

    public static boolean isKnown(String name) {
        return name != null && BY_LOWER.containsKey(name.toLowerCase(Locale.ROOT));
    }

    /** The registered spelling for a name or alias ({@code tsv} -> {@code TabSeparated}); UNKNOWN_FORMAT if none. */
    public static String canonicalName(String name) {
        return info(name).name;
    }

    /** The Content-Type ClickHouse's HTTP handler sends with a result in this format. */
    public static String contentType(String formatName) {
        String n = canonicalName(formatName);
        if (n.startsWith("TabSeparated") || n.equals("TSKV")) {
            return TSV_TYPE;
        }
        if (n.startsWith("CSV")) {
            return "text/csv; charset=UTF-8; header=" + (n.equals("CSV") ? "absent" : "present");
        }
        if (n.equals("JSON") || n.equals("JSONCompact")) {
            return JSON_TYPE;
        }
        if (n.equals("JSONEachRow") || n.endsWith("EachRowWithProgress") || n.equals("JSONStringsEachRow")) {
            return "application/x-ndjson; charset=UTF-8";
        }
        if (n.startsWith("JSONCompact") && n.contains("EachRow")) {
            return JSON_TYPE;
        }
        if (n.startsWith("RowBinary") || n.equals("Native")) {
            return BINARY_TYPE;
        }
        return TEXT_TYPE;
    }

    /**
     * Opens a reader of rows for {@code columns} (the INSERT's target columns, in order). {@code settings} may be
     * null for the defaults; {@code expr} evaluates non-literal Values expressions and may be null.
     */
    public static RowReader openInput(String formatName, InputStream in, List<Column> columns, FormatSettings settings,
                                      ValueExpressions expr) {
        Info i = info(formatName);
        if (!i.input) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Format " + i.name + " is not suitable for input");
        }
        FormatSettings s = settings == null ? FormatSettings.DEFAULTS : settings;
        String n = i.name;
        switch (n) {
            case "CSV": return new CsvReader(in, columns, s, false, false);
            case "CSVWithNames": return new CsvReader(in, columns, s, true, false);
            case "CSVWithNamesAndTypes": return new CsvReader(in, columns, s, true, true);
            case "JSONEachRow": return new JsonEachRowReader(in, columns, s);
            case "Values": return new ValuesReader(in, columns, s, expr);
            case "RowBinary": return new RowBinaryReader(in, columns, s, false, false, false);
            case "RowBinaryWithNames": return new RowBinaryReader(in, columns, s, true, false, false);
            case "RowBinaryWithNamesAndTypes": return new RowBinaryReader(in, columns, s, true, true, false);
            case "RowBinaryWithDefaults": return new RowBinaryReader(in, columns, s, false, false, true);
            case "TSKV": return new TskvReader(in, columns, s);
            case "Native": return new NativeReader(in, columns, s);
            default:
                return new TsvReader(in, columns, s, n.contains("Raw"), n.contains("WithNames"), n.endsWith("AndTypes"));
        }
    }

    /** Opens a writer of rows of {@code columns}; call {@link RowWriter#finish()} at the end. */
    public static RowWriter openOutput(String formatName, OutputStream out, List<Column> columns,
                                       FormatSettings settings) {
        Info i = info(formatName);
        if (!i.output) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Format " + i.name + " is not suitable for output");
        }
        FormatSettings s = settings == null ? FormatSettings.DEFAULTS : settings;
        String n = i.name;
        try {
            switch (n) {
                case "CSV": return new CsvWriter(out, columns, s, false, false);
                case "CSVWithNames": return new CsvWriter(out, columns, s, true, false);
                case "CSVWithNamesAndTypes": return new CsvWriter(out, columns, s, true, true);
                case "JSONEachRow": return new JsonEachRowWriter(out, columns, s);
                case "JSON": return new JsonWriter(out, columns, s, false);
                case "JSONCompact": return new JsonWriter(out, columns, s, true);
                case "JSONEachRowWithProgress": return new JsonEachRowWithProgressWriter(out, columns, s, false);
                case "JSONCompactEachRowWithProgress": return new JsonEachRowWithProgressWriter(out, columns, s, true);
                case "Values": return new ValuesWriter(out, columns);
                case "RowBinary": return new RowBinaryWriter(out, columns, false, false, s);
                case "RowBinaryWithNames": return new RowBinaryWriter(out, columns, true, false, s);
                case "RowBinaryWithNamesAndTypes": return new RowBinaryWriter(out, columns, true, true, s);
                case "TSKV": return new TskvWriter(out, columns, s);
                case "Native": return new NativeWriter(out, columns);
                case "Null": return new NullWriter(out);
                case "JSONStringsEachRow": return new JsonEachRowWriter(out, columns, s, true);
                case "Vertical": return new VerticalWriter(out, columns);
                case "Markdown": return new MarkdownWriter(out, columns);
                case "Pretty": return new PrettyWriter(out, columns, PrettyWriter.Style.FULL);
                case "PrettyCompact": return new PrettyWriter(out, columns, PrettyWriter.Style.COMPACT);
                case "PrettySpace": return new PrettyWriter(out, columns, PrettyWriter.Style.SPACE);
                default:
                    if (n.startsWith("JSONCompact")) {
                        return new JsonCompactEachRowWriter(out, columns, s, n.contains("Strings"), n.contains("WithNames"),
                            n.endsWith("AndTypes"));
                    }
                    return new TsvWriter(out, columns, s, n.contains("Raw"), n.contains("WithNames"),
                        n.endsWith("AndTypes"));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
