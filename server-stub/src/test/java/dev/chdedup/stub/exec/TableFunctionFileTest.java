package dev.chdedup.stub.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.server.StubServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table function file() over the server's user_files directory. The answers are ClickHouse 26.7's for the same
 * files (the engine through the oracle, shared/oracle, reading them by absolute path as chDB has no user_files); the
 * refusal of a path outside user_files is the server's (StorageFile's DATABASE_ACCESS_DENIED), which chDB does not
 * apply; the empty file's message is checked as the official client-v2 suite checks it.
 */
class TableFunctionFileTest {
    private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void readsTheFilesOfUserFilesOnly() throws Exception {
        Path userFiles = dir.resolve("user_files");
        try (StubServer s = StubServer.builder().port(0).userFilesPath(userFiles).build().start()) {
            Files.writeString(userFiles.resolve("t1.csv"), "1,a\n2,b\n", StandardCharsets.UTF_8);
            Files.writeString(userFiles.resolve("empty.csv"), "");
            Files.writeString(dir.resolve("outside.csv"), "1,a\n");
            String[][] cases = {
                {"SELECT * FROM file('t1.csv', 'CSV', 'a Int32, b String')", "1\ta\n2\tb"},
                {"SELECT * FROM file('t1.csv', 'CSV', 'a Int32, b String', 'none')", "1\ta\n2\tb"},
                {"SELECT b, a + 1 FROM file('t1.csv', 'auto', 'a Int32, b String') ORDER BY a DESC", "b\t3\na\t2"},
                {"SELECT * FROM file('nonexist.csv', 'CSV', 'a Int32')", "Code: 107 FILE_DOESNT_EXIST"},
                {"SELECT * FROM file('nonexist.csv')", "Code: 400 CANNOT_STAT"},
                {"SELECT * FROM file('empty.csv')", "Code: 636 CANNOT_EXTRACT_TABLE_STRUCTURE"},
                {"SELECT * FROM file('empty.csv', 'CSV', 'a Int32')", ""},
                {"SELECT * FROM file('t1.csv', 'Foo', 'a Int32')", "Code: 73 UNKNOWN_FORMAT"},
                {"SELECT * FROM file()", "Code: 42 NUMBER_OF_ARGUMENTS_DOESNT_MATCH"},
                {"SELECT * FROM file('../outside.csv', 'CSV', 'a Int32, b String')", "Code: 291 DATABASE_ACCESS_DENIED"},
                {"SELECT * FROM file('" + dir.resolve("outside.csv") + "', 'CSV', 'a Int32, b String')", "Code: 291 DATABASE_ACCESS_DENIED"},
                {"SELECT * FROM file('" + userFiles.resolve("t1.csv") + "', 'CSV', 'a Int32, b String')", "1\ta\n2\tb"},
            };
            EngineAnswers.assertAnswers(s, cases);
            String empty = new String(HTTP.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(s.httpUrl() + "/"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("CREATE TABLE from_csv ENGINE MergeTree ORDER BY () AS SELECT * FROM file('empty.csv')"))
                .build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray()).body(), StandardCharsets.UTF_8);
            assertTrue(empty.contains("You can specify the structure manually: (in file/uri " + userFiles.toAbsolutePath().resolve("empty.csv")
                + "). (CANNOT_EXTRACT_TABLE_STRUCTURE)"), empty);
            assertEquals("Code: 60 UNKNOWN_TABLE", EngineAnswers.answer(s, "SELECT * FROM from_csv"), "the refused CREATE made nothing");
        }
    }
}
