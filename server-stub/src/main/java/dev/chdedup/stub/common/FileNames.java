package dev.chdedup.stub.common;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Turns database and table names into file names and back, as ClickHouse's {@code Common/escapeForFileName} does:
 * the bytes {@code [A-Za-z0-9_]} are kept and every other byte of the UTF-8 name becomes {@code %XX} (upper-case
 * hex), so no name can be absolute, contain a separator or be {@code .} or {@code ..}, and a plain name is its own
 * file name (data directories written before escaping load unchanged). It also refuses names ClickHouse refuses
 * and checks that a built path stays below its root, so a bug elsewhere cannot reach outside the data directory.
 */
public final class FileNames {
    /** Longest escaped name: file systems allow 255 bytes and the metadata file appends {@code .sql.tmp}. */
    static final int MAX_ESCAPED_LENGTH = 240;

    private FileNames() {
    }

    public static String escapeForFileName(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
                sb.append((char) c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                    .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return sb.toString();
    }

    /** The inverse of {@link #escapeForFileName}; a {@code %} not followed by two hex digits is kept as it is. */
    public static String unescapeForFileName(String fileName) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(fileName.length());
        byte[] b = fileName.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '%' && i + 2 < b.length && Character.digit(b[i + 1], 16) >= 0 && Character.digit(b[i + 2], 16) >= 0) {
                out.write(Character.digit(b[i + 1], 16) * 16 + Character.digit(b[i + 2], 16));
                i += 2;
            } else {
                out.write(b[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    /** Refuses a database or table name that cannot become a file name ({@code what} is "Database" or "Table"). */
    public static void checkName(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, what + " name cannot be empty");
        }
        if (name.indexOf('\0') >= 0) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, what + " name cannot contain a zero byte");
        }
        if (escapeForFileName(name).length() > MAX_ESCAPED_LENGTH) {
            throw new ChException(ErrorCode.ARGUMENT_OUT_OF_BOUND, what + " name is too long: its file name would exceed "
                + MAX_ESCAPED_LENGTH + " bytes");
        }
    }

    /** {@code parent/escape(name)}, checked to be a direct child of {@code parent}. */
    public static Path child(Path parent, String name) {
        Path p = parent.resolve(escapeForFileName(name));
        if (!p.normalize().getParent().equals(parent.normalize())) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Name " + name + " does not make a file name");
        }
        return p;
    }
}
