package dev.chdedup.stub.access;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.sql.Parser;
import dev.chdedup.stub.sql.Statement;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Base64;

/**
 * The statements that changed the SQL-made users, roles, settings profiles and grants, appended to
 * {@code access/statements.log} under the data directory (one line each: the user who ran it, then the statement in
 * Base64) and replayed in order at start, so {@link AccessControl}'s local_directory survives a restart as
 * ClickHouse's DiskAccessStorage does. A statement that fails on replay (it failed then too, or names an entity
 * gone since) is skipped; a torn last line is ignored.
 */
final class AccessStatementsLog {
    private final Path file;

    AccessStatementsLog(Path dataDir) throws IOException {
        this.file = dataDir.resolve("access").resolve("statements.log");
        Files.createDirectories(file.getParent());
    }

    void replay(AccessControl access) throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        for (String line : Files.readAllLines(file, StandardCharsets.US_ASCII)) {
            String[] parts = line.split(" ", 2);
            String sql;
            try {
                sql = new String(Base64.getDecoder().decode(parts[1]), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
                continue; // blank or torn
            }
            try {
                Statement st = Parser.parse(sql);
                if (st instanceof Statement.AccessEntity) {
                    access.execute((Statement.AccessEntity) st);
                } else if (st instanceof Statement.Grant) {
                    access.execute((Statement.Grant) st, parts[0]);
                } else if (st instanceof Statement.SetRole) {
                    access.setDefaultRole((Statement.SetRole) st, parts[0]);
                }
            } catch (ChException e) {
                // nothing to replay
            }
        }
    }

    synchronized void append(String user, String sql) {
        String line = user.replace(' ', '_') + " " + Base64.getEncoder().encodeToString(sql.strip().getBytes(StandardCharsets.UTF_8)) + "\n";
        try {
            Files.writeString(file, line, StandardCharsets.US_ASCII, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
