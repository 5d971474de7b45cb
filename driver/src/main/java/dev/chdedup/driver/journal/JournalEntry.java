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
 * still protects a re-send. Also the binary form of an entry inside a journal record. A text entry ({@code data} null)
 * re-sends {@code sql} as the request; a RowBinary entry re-sends {@code sql} ({@code INSERT ... FORMAT RowBinary}) with
 * {@code data}, the body byte for byte. A text entry is written in the first record format (type 1), so an older
 * driver still reads it; a RowBinary entry in the second (type 3: a payload kind byte, the fields, the body).
 */
public record JournalEntry(long id, String token, String database, String table, String kind, long rows, String sql,
                           Map<String, String> settings, long createdMillis, byte[] data) {
    /** The payload kinds of a type-3 record. */
    static final byte PAYLOAD_TEXT = 0;
    static final byte PAYLOAD_ROW_BINARY = 1;

    public JournalEntry {
        settings = Collections.unmodifiableMap(new LinkedHashMap<>(settings));
    }

    public JournalEntry(long id, String token, String database, String table, String kind, long rows, String sql,
                        Map<String, String> settings, long createdMillis) {
        this(id, token, database, table, kind, rows, sql, settings, createdMillis, null);
    }

    /** Equal fields, the body compared by content. */
    @Override
    public boolean equals(Object o) {
        return o instanceof JournalEntry e && id == e.id && rows == e.rows && createdMillis == e.createdMillis
            && java.util.Objects.equals(token, e.token) && java.util.Objects.equals(database, e.database)
            && java.util.Objects.equals(table, e.table) && java.util.Objects.equals(kind, e.kind) && java.util.Objects.equals(sql, e.sql)
            && settings.equals(e.settings) && java.util.Arrays.equals(data, e.data);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(id, token, sql) * 31 + java.util.Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "JournalEntry[id=" + id + ", token=" + token + ", table=" + target() + ", kind=" + kind + ", rows=" + rows + ", sql="
            + (sql.length() > 200 ? sql.substring(0, 200) + "..." : sql) + (data == null ? "" : ", RowBinary body of " + data.length + " bytes") + "]";
    }

    /** Whether this entry is a RowBinary body (re-sent with {@link #data}), not SQL text. */
    public boolean rowBinary() {
        return data != null;
    }

    /** {@code database.table}, or just the table when the statement names no database. */
    public String target() {
        return (database == null ? "" : database + ".") + table;
    }

    /** The same entry under another id (the journal assigns ids when it appends). */
    JournalEntry withId(long newId) {
        return new JournalEntry(newId, token, database, table, kind, rows, sql, settings, createdMillis, data);
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
        if (data != null) {
            out.writeInt(data.length);
            out.write(data);
        }
    }

    /** Reads a type-3 record's entry: its payload kind, the fields of a type-1 entry, and a RowBinary body. */
    static JournalEntry readWithPayload(DataInputStream in) throws IOException {
        byte payload = in.readByte();
        if (payload != PAYLOAD_TEXT && payload != PAYLOAD_ROW_BINARY) {
            throw new IOException("unknown payload kind " + payload);
        }
        JournalEntry e = readFrom(in);
        if (payload == PAYLOAD_TEXT) {
            return e;
        }
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IOException("bad body length " + n);
        }
        byte[] body = new byte[n];
        in.readFully(body);
        return new JournalEntry(e.id, e.token, e.database, e.table, e.kind, e.rows, e.sql, e.settings, e.createdMillis, body);
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
