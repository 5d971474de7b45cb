package dev.chdedup.driver.journal;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One INSERT execution as the journal keeps it until it is acknowledged: everything needed to re-send it
 * byte-identically (the statement as rendered, the token, the settings pinned for it) plus its target table, its
 * row count where known, and the time it was journaled, which decides whether the table's deduplication window
 * still protects a re-send. Also the binary form of an entry inside a journal record.
 */
public record JournalEntry(long id, String token, String database, String table, String kind, long rows, String sql,
                           Map<String, String> settings, long createdMillis) {
    public JournalEntry {
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    /** {@code database.table}, or just the table when the statement names no database. */
    public String target() {
        return (database == null ? "" : database + ".") + table;
    }

    /** The same entry under another id (the journal assigns ids when it appends). */
    JournalEntry withId(long newId) {
        return new JournalEntry(newId, token, database, table, kind, rows, sql, settings, createdMillis);
    }

    void writeTo(DataOutputStream out) throws IOException {
        out.writeLong(id);
        out.writeLong(createdMillis);
        out.writeLong(rows);
        writeString(out, token);
        writeString(out, database);
        writeString(out, table);
        writeString(out, kind);
        writeString(out, sql);
        out.writeInt(settings.size());
        for (Map.Entry<String, String> e : settings.entrySet()) {
            writeString(out, e.getKey());
            writeString(out, e.getValue());
        }
    }

    static JournalEntry readFrom(DataInputStream in) throws IOException {
        long id = in.readLong();
        long created = in.readLong();
        long rows = in.readLong();
        String token = readString(in);
        String database = readString(in);
        String table = readString(in);
        String kind = readString(in);
        String sql = readString(in);
        int n = in.readInt();
        if (n < 0 || n > 10_000) {
            throw new IOException("bad settings count " + n);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
            settings.put(readString(in), readString(in));
        }
        return new JournalEntry(id, token, database, table, kind, rows, sql, settings, created);
    }

    /** A string as its UTF-8 length (-1 for null) and bytes: statements can be far longer than writeUTF allows. */
    static void writeString(DataOutputStream out, String s) throws IOException {
        if (s == null) {
            out.writeInt(-1);
            return;
        }
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    static String readString(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n == -1) {
            return null;
        }
        if (n < 0 || n > in.available()) {
            throw new IOException("bad string length " + n);
        }
        byte[] b = new byte[n];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
