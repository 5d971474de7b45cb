package dev.chdedup.stub.mergetree;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Where one part's file is now, and who still reads it, so that a query holds no open file for a part it has not
 * reached yet (one file open at a time, whatever the number of parts) and yet never loses a part that a merge or
 * a drop removes meanwhile. A query's snapshot takes a lease on each of its parts under the parts lock; removing
 * the part renames its file to a temporary name ({@link #moveTo}, also under the lock: a crash never brings it
 * back) and deletes it once the last lease is released. A lease a query never releases (a client gone mid-result)
 * leaves the temporary file to the next load, which deletes it.
 */
final class PartFile {
    /** The part file, or the directory of a part of the older layout. */
    private Path root;
    /** Where the rows are read from: {@link #root} itself (a part directory, a part file), or its data.bin. */
    private Path data;
    private int leases;
    private boolean removed;
    /** Set by the one caller that deletes the removed file: the last release and deleteIfUnread may both find it unread. */
    private boolean deleting;

    PartFile(Path root, Path data) {
        this.root = root;
        this.data = data;
    }

    synchronized Path data() {
        return data;
    }

    /** Opens the data file where it is now; a removal cannot rename it between looking it up and opening it. */
    synchronized java.nio.channels.FileChannel open() throws IOException {
        return java.nio.channels.FileChannel.open(data, java.nio.file.StandardOpenOption.READ);
    }

    /** Opens file {@code name} of a part directory where it is now. */
    synchronized java.nio.channels.FileChannel open(String name) throws IOException {
        return java.nio.channels.FileChannel.open(data.resolve(name), java.nio.file.StandardOpenOption.READ);
    }

    synchronized Path root() {
        return root;
    }

    synchronized void acquire() {
        leases++;
    }

    /** Ends a lease; deletes the file if the part was removed and this was the last one. */
    void release() {
        Path delete = null;
        synchronized (this) {
            if (--leases == 0) {
                delete = takeDeletion();
            }
        }
        deleteQuietly(delete);
    }

    /** Renames the file to {@code tmp} (the part is being removed); the caller holds the parts lock. */
    synchronized void moveTo(Path tmp) throws IOException {
        relocate(tmp);
        removed = true;
    }

    /** Renames the file to {@code to} and keeps it (a detached part); queries reading it go on reading it there. */
    synchronized void relocate(Path to) throws IOException {
        Path relative = root.relativize(data);
        Files.move(root, to, StandardCopyOption.ATOMIC_MOVE);
        data = relative.toString().isEmpty() ? to : to.resolve(relative);
        root = to;
    }

    /** Deletes the removed file now if no query reads it, else when the last one is done. */
    void deleteIfUnread() {
        Path delete;
        synchronized (this) {
            delete = leases == 0 ? takeDeletion() : null;
        }
        deleteQuietly(delete);
    }

    /** The removed file's root for the first caller that finds it unread, null for any other; under this lock. */
    private Path takeDeletion() {
        if (!removed || deleting) {
            return null;
        }
        deleting = true;
        return root;
    }

    private static void deleteQuietly(Path p) {
        if (p == null) {
            return;
        }
        try {
            DataPartStorageOnDisk.deleteRecursively(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
