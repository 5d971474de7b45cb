package dev.chdedup.stub.storages;

import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.format.FormatSettings;
import dev.chdedup.stub.format.Formats;
import dev.chdedup.stub.format.RowReader;
import dev.chdedup.stub.exec.BlockStreams;
import dev.chdedup.stub.exec.SelectExecutor;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the table function {@code file(path [, format [, structure [, compression_method]]])} reads over the server's
 * user_files directory, as ClickHouse's StorageFile reads one file (TableFunctionFile, in the SELECT executor, gives it
 * the constant arguments): a relative path is taken in that
 * directory and an absolute one must lie inside it (DATABASE_ACCESS_DENIED); the format is the argument or, for
 * {@code auto}, the one the file's extension names (FormatFactory::getFormatFromFileName); the structure is the
 * argument's. Without a structure the engine infers one from the data: the stub answers as the engine does for a
 * file that is missing (CANNOT_STAT) or empty (CANNOT_EXTRACT_TABLE_STRUCTURE) and does not infer any other
 * (NOT_IMPLEMENTED). Globs and compressed files are not read.
 */
public final class StorageFile {
    private StorageFile() {
    }

    /** File extensions and the formats they name, as FormatFactory::getFormatFromFileName maps them. */
    private static final Map<String, String> FORMAT_OF_EXTENSION = Map.ofEntries(Map.entry("csv", "CSV"),
        Map.entry("tsv", "TSV"), Map.entry("tsvwithnames", "TSVWithNames"), Map.entry("json", "JSON"), Map.entry("ndjson", "JSONEachRow"),
        Map.entry("jsonl", "JSONEachRow"), Map.entry("tskv", "TSKV"), Map.entry("native", "Native"), Map.entry("values", "Values"));

    /**
     * The rows of {@code file(name, format, structure, compression)} read from under {@code userFiles}: {@code format}
     * and {@code compression} may be {@code auto}, {@code columns} null for a structure to infer.
     */
    public static SelectExecutor.Stream read(Path userFiles, String name, String format, List<Column> columns, String compression,
                                             int maxBlock) {
        Path file = resolve(userFiles, name);
        if (format.equalsIgnoreCase("auto")) {
            format = formatOf(file);
        } else if (!Formats.isKnown(format)) {
            throw new ChException(ErrorCode.UNKNOWN_FORMAT, "Unknown format " + format);
        }
        if (!compression.equalsIgnoreCase("auto") && !compression.equalsIgnoreCase("none")) {
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub reads no compressed files: compression_method " + compression);
        }
        boolean exists = Files.isRegularFile(file);
        if (columns == null) {
            String cannot = "The table structure cannot be extracted from a " + format + " format file";
            String manually = "You can specify the structure manually: (in file/uri " + file + ")";
            if (!exists) {
                throw new ChException(ErrorCode.CANNOT_STAT, "Cannot stat file " + file + ": , errno: 2, strerror: No such file or directory: "
                    + cannot + ". " + manually);
            }
            if (size(file) == 0) {
                throw new ChException(ErrorCode.CANNOT_EXTRACT_TABLE_STRUCTURE, cannot + ". Error:\n" + cannot + ": the file is empty.\n" + manually);
            }
            throw new ChException(ErrorCode.NOT_IMPLEMENTED, "The stub infers no table structure from a file's data: give file() a structure. "
                + manually);
        }
        if (!exists) {
            throw new ChException(ErrorCode.FILE_DOESNT_EXIST, "File " + file + " doesn't exist");
        }
        List<Object[]> rows = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            RowReader reader = Formats.openInput(format, in, columns, FormatSettings.DEFAULTS, null);
            for (Object[] row = reader.next(); row != null; row = reader.next()) {
                for (int i = 0; i < row.length; i++) {
                    if (row[i] == RowReader.DEFAULT || row[i] == RowReader.DEFAULT_OR_ZERO) {
                        row[i] = columns.get(i).type().defaultValue();
                    }
                }
                rows.add(row);
            }
        } catch (IOException e) {
            throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read file " + file + ": " + e.getMessage());
        }
        return new SelectExecutor.Stream(columns, BlockStreams.chunk(columns, rows, maxBlock));
    }

    /** {@code name} in {@code userFiles}; an absolute name (or one that climbs out) must stay inside it. */
    private static Path resolve(Path userFiles, String name) {
        if (userFiles == null) {
            throw new ChException(ErrorCode.DATABASE_ACCESS_DENIED, "The table function file is not available: this server has no user_files");
        }
        Path root = userFiles.toAbsolutePath().normalize();
        Path file = root.resolve(name).normalize();
        boolean inside = file.startsWith(root);
        try {
            // a symbolic link is followed as the engine follows it: its target must be inside too
            inside &= !Files.exists(file) || file.toRealPath().startsWith(root.toRealPath());
        } catch (IOException e) {
            inside = false;
        }
        if (!inside) {
            throw new ChException(ErrorCode.DATABASE_ACCESS_DENIED, "File `" + file + "` is not inside `" + root + "/`");
        }
        return file;
    }

    /** The format the file's extension names. */
    private static String formatOf(Path file) {
        String n = file.getFileName() == null ? "" : file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        String format = dot < 0 ? null : FORMAT_OF_EXTENSION.get(n.substring(dot + 1).toLowerCase(Locale.ROOT));
        if (format == null) {
            throw new ChException(ErrorCode.CANNOT_EXTRACT_TABLE_STRUCTURE, "The data format cannot be detected by the file's extension and the stub "
                + "does not detect it by the contents: you can specify the format manually: (in file/uri " + file + ")");
        }
        return format;
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new ChException(ErrorCode.CANNOT_STAT, "Cannot stat file " + file + ": " + e.getMessage());
        }
    }
}
