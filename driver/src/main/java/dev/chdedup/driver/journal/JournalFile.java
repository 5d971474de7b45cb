package dev.chdedup.driver.journal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The journal's file: a header, then records framed as {@code [int length][int CRC32C][payload]}, each payload an
 * entry or the mark that an entry is done. An entry's append is durable before it returns (a group commit: one
 * {@code force} covers every record written before it, whichever thread asks); done marks are not forced, since a
 * lost mark only makes the entry re-sent with its own token, which the server drops. Recovery keeps every whole
 * record and cuts a torn one at the end (a crash mid-append, whose insert never started); damage followed by
 * whole records is corruption and refuses to open. The file is compacted so that its size follows the entries in
 * flight: emptied when none is, rewritten with only the live ones (temporary file, fsync, atomic rename) when it
 * holds more than twice their size. Test hook: the system property {@code dev.chdedup.journal.appendPauseMs} pauses
 * that long between the two halves of every appended record, so that a kill can land mid-append.
 */
final class JournalFile implements Closeable {
    private static final Logger LOG = LoggerFactory.getLogger(JournalFile.class);
    static final String NAME = "journal.bin";
    private static final int MAGIC = 0x43484a31;
    private static final int VERSION = 1;
    static final int HEADER = 8;
    static final byte ENTRY = 1;
    static final byte DONE = 2;
    /** An entry with a payload kind (text or a RowBinary body); see {@link JournalEntry}. */
    static final byte ENTRY_WITH_PAYLOAD = 3;
    private static final int MAX_RECORD = 1 << 30;
    /** Below this size the file is not rewritten (emptying it when nothing is in flight is always done). */
    static final long COMPACT_MIN_BYTES = 256 * 1024;
    private static final long APPEND_PAUSE_MS = Long.getLong("dev.chdedup.journal.appendPauseMs", 0);

    private final Path dir;
    private final Path file;
    private volatile FileChannel channel;
    /** Bytes of the file that hold header and records; every append writes at this offset. */
    private volatile long size;
    private final Object syncLock = new Object();
    /** The size covered by the last force. */
    private long synced;
    /** The records of the entries not done, by id, in append order; liveBytes is the sum of their lengths. */
    private final Map<Long, byte[]> live = new LinkedHashMap<>();
    private long liveBytes;

    /** What recovery found: the entries not done, oldest first, and the bytes of a torn record it cut off. */
    record Recovery(List<JournalEntry> entries, long tornBytes) {
    }

    private JournalFile(Path dir) {
        this.dir = dir;
        this.file = dir.resolve(NAME);
    }

    /** Opens (or creates) the journal file in {@code dir}, recovering its entries and leaving only them in it. */
    static JournalFile open(Path dir, List<JournalEntry> recovered, long[] tornBytes) throws IOException {
        JournalFile f = new JournalFile(dir);
        byte[] all = Files.exists(f.file) ? Files.readAllBytes(f.file) : new byte[0];
        Recovery r = recover(all, f.file);
        for (JournalEntry e : r.entries()) {
            byte[] frame = frame(ENTRY, e);
            f.live.put(e.id(), frame);
            f.liveBytes += frame.length;
        }
        f.channel = FileChannel.open(f.file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        synchronized (f) {
            f.rewriteUnlocked();
        }
        recovered.addAll(r.entries());
        tornBytes[0] = r.tornBytes();
        return f;
    }

    static Recovery recover(byte[] all, Path file) throws IOException {
        if (all.length < HEADER) {
            return new Recovery(List.of(), all.length);
        }
        ByteBuffer b = ByteBuffer.wrap(all);
        if (b.getInt() != MAGIC || b.getInt() != VERSION) {
            throw new IOException(file + " is not a chdedup journal (version " + VERSION + ")");
        }
        Map<Long, JournalEntry> entries = new LinkedHashMap<>();
        int pos = HEADER;
        while (pos < all.length) {
            String bad = null;
            int len = -1;
            if (all.length - pos < 8) {
                bad = "incomplete record header";
            } else {
                len = b.getInt(pos);
                int crc = b.getInt(pos + 4);
                if (len < 9 || len > MAX_RECORD || (long) pos + 8 + len > all.length) {
                    bad = "record length " + len + " past the end";
                } else if (crc(all, pos + 8, len) != crc) {
                    bad = "checksum mismatch";
                }
            }
            if (bad != null) {
                boolean tail = len < 0 || (long) pos + 8 + len >= all.length || zeros(all, pos);
                if (!tail) {
                    throw new IOException(file + " is damaged at offset " + pos + " (" + bad + ") with whole records after it;"
                        + " move it away to start an empty journal, after checking its pending inserts");
                }
                LOG.warn("Journal {}: cutting a torn record of {} bytes at offset {} ({}): a crash interrupted its append,"
                    + " so its insert never started", file, all.length - pos, pos, bad);
                return new Recovery(new ArrayList<>(entries.values()), all.length - pos);
            }
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(all, pos + 8, len))) {
                byte type = in.readByte();
                if (type == ENTRY) {
                    JournalEntry e = JournalEntry.readFrom(in);
                    entries.put(e.id(), e);
                } else if (type == ENTRY_WITH_PAYLOAD) {
                    JournalEntry e = JournalEntry.readWithPayload(in);
                    entries.put(e.id(), e);
                } else if (type == DONE) {
                    entries.remove(in.readLong());
                } else {
                    throw new IOException(file + ": unknown record type " + type + " at offset " + pos);
                }
            }
            pos += 8 + len;
        }
        return new Recovery(new ArrayList<>(entries.values()), 0);
    }

    private static boolean zeros(byte[] all, int from) {
        for (int i = from; i < all.length; i++) {
            if (all[i] != 0) {
                return false;
            }
        }
        return true;
    }

    private static int crc(byte[] b, int off, int len) {
        CRC32C c = new CRC32C();
        c.update(b, off, len);
        return (int) c.getValue();
    }

    static byte[] frame(byte type, JournalEntry e) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + e.sql().length() + (e.data() == null ? 0 : e.data().length));
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(0);
        out.writeInt(0);
        if (type == ENTRY && e.rowBinary()) {
            out.writeByte(ENTRY_WITH_PAYLOAD);
            out.writeByte(JournalEntry.PAYLOAD_ROW_BINARY);
        } else {
            out.writeByte(type);
        }
        e.writeTo(out);
        out.flush();
        return seal(bytes.toByteArray());
    }

    private static byte[] doneFrame(long id) {
        ByteBuffer b = ByteBuffer.allocate(8 + 9);
        b.putLong(0).put(DONE).putLong(id);
        return seal(b.array());
    }

    /** Fills in the length and checksum of a frame whose payload starts at byte 8. */
    private static byte[] seal(byte[] f) {
        ByteBuffer.wrap(f).putInt(0, f.length - 8).putInt(4, crc(f, 8, f.length - 8));
        return f;
    }

    /** Appends {@code e} and returns once it is durable. */
    void append(JournalEntry e) throws IOException {
        byte[] f = frame(ENTRY, e);
        long end;
        synchronized (this) {
            ensureOpen();
            if (APPEND_PAUSE_MS > 0) {
                int half = f.length / 2;
                write(channel, ByteBuffer.wrap(f, 0, half), size);
                LOG.warn("test hook: pausing {} ms inside the append of {}", APPEND_PAUSE_MS, e.token());
                pause();
                write(channel, ByteBuffer.wrap(f, half, f.length - half), size + half);
            } else {
                write(channel, ByteBuffer.wrap(f), size);
            }
            size += f.length;
            end = size;
            live.put(e.id(), f);
            liveBytes += f.length;
        }
        sync(end);
    }

    /** Group commit: one force covers every record written before it; a caller whose record it covered returns at once. */
    private void sync(long upTo) throws IOException {
        synchronized (syncLock) {
            if (synced >= upTo) {
                return;
            }
            long target = size;
            channel.force(false);
            synced = target;
        }
    }

    /** Marks entry {@code id} done (not forced) and compacts the file when it holds mostly finished entries. */
    synchronized void done(long id) throws IOException {
        byte[] f = live.remove(id);
        if (f == null) {
            return;
        }
        ensureOpen();
        liveBytes -= f.length;
        if (live.isEmpty()) {
            channel.truncate(HEADER);
            size = HEADER;
            synchronized (syncLock) {
                synced = Math.min(synced, HEADER);
            }
            return;
        }
        byte[] d = doneFrame(id);
        write(channel, ByteBuffer.wrap(d), size);
        size += d.length;
        if (size > COMPACT_MIN_BYTES && size > 2 * liveBytes) {
            rewriteUnlocked();
        }
    }

    /** Replaces the file by one holding only the live records: temporary file, force, atomic rename, force the directory. */
    private void rewriteUnlocked() throws IOException {
        Path tmp = dir.resolve(NAME + ".tmp");
        long n = HEADER;
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
            StandardOpenOption.WRITE)) {
            write(out, ByteBuffer.allocate(HEADER).putInt(MAGIC).putInt(VERSION).flip(), 0);
            for (byte[] f : live.values()) {
                write(out, ByteBuffer.wrap(f), n);
                n += f.length;
            }
            out.force(true);
        }
        synchronized (syncLock) {
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory();
            channel.close();
            channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
            size = n;
            synced = n;
        }
    }

    private void forceDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("Cannot force directory {} ({}); the rename is durable once the file system flushes it", dir, e.toString());
        }
    }

    private static void write(FileChannel ch, ByteBuffer b, long at) throws IOException {
        long p = at;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
    }

    private static void pause() {
        try {
            Thread.sleep(APPEND_PAUSE_MS);
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    /** The file's current size in bytes. */
    long size() {
        return size;
    }

    synchronized int liveCount() {
        return live.size();
    }

    private void ensureOpen() throws IOException {
        if (!channel.isOpen()) {
            throw new IOException("the journal " + file + " is closed");
        }
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }
}
