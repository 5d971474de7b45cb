package dev.chdedup.stub.distributed;

import dev.chdedup.stub.common.FileNames;
import dev.chdedup.stub.data.Column;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.format.NativeBlockInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The files of one directory of a Distributed table and the sender that empties it, as ClickHouse's {@code
 * DistributedAsyncInsertDirectoryQueue}: files {@code <n>.bin} are sent in the order of their numbers to the shard or
 * replica the directory names ({@code shardN_replicaM}, {@code shardN_all_replicas}: one live replica of the shard, the
 * next on a connection failure; or 18.16's {@code user@host:port} names), each with the settings it carries, and removed
 * once sent. A file that cannot be read or that the shard refuses as corrupted is moved to {@code broken/}; any other
 * failure keeps it queued and the sender sleeps {@code sleep_time * 2^errors}, at most {@code max_sleep_time}, before
 * the next try. With {@code background_insert_batch} the files with the same query and settings go as one insert
 * ({@link #processFilesWithBatching}); a batch that fails goes file by file under {@code split_batch_on_failure}. A file
 * sent and not yet removed when the server dies is sent again at the next start: the shard's deduplication (the token
 * the file carries, or the block's hash) drops it.
 */
public final class DistributedAsyncInsertDirectoryQueue {
    private static final ScheduledExecutorService SENDERS = Executors.newScheduledThreadPool(2, r -> {
        Thread t = new Thread(r, "DistrAsyncInsert");
        t.setDaemon(true);
        return t;
    });

    /** What system.distribution_queue shows of a directory. */
    public record Status(String dataPath, boolean isBlocked, long errorCount, long filesCount, long bytesCount, long brokenFilesCount,
                         long brokenBytesCount, String lastException, Instant lastExceptionTime) {
    }

    private final StorageDistributed storage;
    private final Path path;
    private final String name;
    /** Held while files are sent: the sender and a SYSTEM FLUSH DISTRIBUTED never send the same file twice at once. */
    private final Object sendLock = new Object();
    /** The next run of the sender, and when; guarded by this. */
    private ScheduledFuture<?> scheduled;
    private long scheduledAtNanos;
    private volatile long errorCount;
    private volatile long sleepTimeMs;
    private volatile ChException lastException;
    private volatile Instant lastExceptionTime;
    private volatile boolean stopped;

    DistributedAsyncInsertDirectoryQueue(StorageDistributed storage, Path path, String name) {
        this.storage = storage;
        this.path = path;
        this.name = name;
        this.sleepTimeMs = storage.distributedSettings().sleepTimeMs();
    }

    public String name() {
        return name;
    }

    /** The number of a queued file ({@code <n>.bin}), 0 for any other file. */
    static long fileNumber(Path f) {
        String n = f.getFileName().toString();
        if (!n.endsWith(".bin")) {
            return 0;
        }
        try {
            return Long.parseLong(n.substring(0, n.length() - 4));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** A replica's directory name as 18.16 wrote it: {@code user[:password]@host:port[#database]}, each part escaped. */
    static String legacyName(Cluster.Address a) {
        return FileNames.escapeForFileName(a.user()) + (a.password().isEmpty() ? "" : ":" + FileNames.escapeForFileName(a.password())) + "@"
            + FileNames.escapeForFileName(a.host()) + ":" + a.port()
            + (a.defaultDatabase().isEmpty() ? "" : "#" + FileNames.escapeForFileName(a.defaultDatabase()));
    }

    /** A file was queued: the sender runs after {@code delayMs} unless it runs sooner. */
    void addFileAndSchedule(long delayMs) {
        schedule(delayMs);
    }

    synchronized void schedule(long delayMs) {
        if (stopped) {
            return;
        }
        long at = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
        if (scheduled != null && !scheduled.isDone() && scheduledAtNanos - at <= 0) {
            return;
        }
        if (scheduled != null) {
            scheduled.cancel(false);
        }
        scheduledAtNanos = at;
        scheduled = SENDERS.schedule(this::run, delayMs, TimeUnit.MILLISECONDS);
    }

    /** One run of the sender: every queued file, then again after the sleep while files remain. */
    private void run() {
        synchronized (this) {
            scheduled = null; // this run is under way: the next schedule() sets the one after it
        }
        if (stopped || storage.sendsBlocked()) {
            return;
        }
        synchronized (sendLock) {
            if (stopped) {
                return;
            }
            DistributedSettings s = storage.distributedSettings();
            try {
                processFiles();
                errorCount /= 2;
                sleepTimeMs = s.sleepTimeMs();
            } catch (RuntimeException e) {
                errorCount++;
                sleepTimeMs = Math.min((long) (s.sleepTimeMs() * Math.pow(2, Math.min(errorCount, 40))), s.maxSleepTimeMs());
                lastException = e instanceof ChException c ? c : new ChException(ErrorCode.UNKNOWN_EXCEPTION, String.valueOf(e.getMessage()), e);
                lastExceptionTime = Instant.now();
            }
        }
        if (!pendingFiles().isEmpty()) {
            schedule(sleepTimeMs);
        }
    }

    /** SYSTEM FLUSH DISTRIBUTED: every queued file sent now, even while sends are stopped; an error that keeps one is thrown. */
    void flushAllData() {
        synchronized (sendLock) {
            if (!stopped) {
                processFiles();
            }
        }
    }

    /** The queued files, in the order of their numbers. */
    List<Path> pendingFiles() {
        try (Stream<Path> s = Files.list(path)) {
            return s.filter(f -> fileNumber(f) > 0 && Files.isRegularFile(f)).sorted((a, b) -> Long.compare(fileNumber(a), fileNumber(b)))
                .toList();
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void processFiles() {
        if (storage.distributedSettings().batch()) {
            processFilesWithBatching();
            return;
        }
        for (Path f : pendingFiles()) {
            if (stopped) {
                return;
            }
            processFile(f);
        }
    }

    /** A queued file read whole, or null when it is broken and was moved to {@code broken/}. */
    private DistributedAsyncInsertHeader.File readOrSetAside(Path f) {
        try {
            return DistributedAsyncInsertHeader.read(Files.readAllBytes(f), f.toString());
        } catch (ChException e) {
            if (isDistributedSendBroken(e.code(), false)) {
                markAsBroken(List.of(f));
                return null;
            }
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends one file and removes it; a broken one goes to {@code broken/}; any other failure is thrown, the file kept. */
    private void processFile(Path f) {
        DistributedAsyncInsertHeader.File file = readOrSetAside(f);
        if (file == null) {
            return;
        }
        try {
            send(file.header(), columnsOf(file.nativeBlock(), f), file.nativeBlock());
        } catch (ChException e) {
            if (isDistributedSendBroken(e.code(), true)) {
                markAsBroken(List.of(f));
                return;
            }
            throw new ChException(e.code(), e.getMessage() + ": While sending " + f, e);
        }
        remove(List.of(f));
    }

    /**
     * Batch mode: consecutive files of the same query and settings go as one insert of their blocks; a batch that
     * fails goes file by file under {@code split_batch_on_failure}, else a broken one goes to {@code broken/} whole and
     * any other failure is thrown.
     */
    private void processFilesWithBatching() {
        List<Path> batch = new ArrayList<>();
        List<byte[]> blocks = new ArrayList<>();
        DistributedAsyncInsertHeader first = null;
        for (Path f : pendingFiles()) {
            DistributedAsyncInsertHeader.File file = readOrSetAside(f);
            if (file == null) {
                continue;
            }
            if (first != null && !(first.insertQuery().equals(file.header().insertQuery()) && first.settings().equals(file.header().settings()))) {
                sendBatch(first, batch, blocks);
                batch.clear();
                blocks.clear();
            }
            if (batch.isEmpty()) {
                first = file.header();
            }
            batch.add(f);
            blocks.add(file.nativeBlock());
        }
        if (!batch.isEmpty()) {
            sendBatch(first, batch, blocks);
        }
    }

    private void sendBatch(DistributedAsyncInsertHeader header, List<Path> files, List<byte[]> blocks) {
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        for (byte[] b : blocks) {
            body.writeBytes(b);
        }
        try {
            send(header, columnsOf(blocks.get(0), files.get(0)), body.toByteArray());
        } catch (ChException e) {
            if (storage.distributedSettings().splitBatchOnFailure() && files.size() > 1) {
                for (Path f : files) {
                    processFile(f);
                }
                return;
            }
            if (isDistributedSendBroken(e.code(), true)) {
                markAsBroken(files);
                return;
            }
            throw new ChException(e.code(), e.getMessage() + ": While sending a batch of " + files.size() + " files", e);
        }
        remove(files);
    }

    /** The columns of a Native block (its header), as the INSERT sent with it names them. */
    private static List<Column> columnsOf(byte[] nativeBlock, Path f) {
        try {
            List<dev.chdedup.stub.data.Block> blocks = new NativeBlockInputStream(new ByteArrayInputStream(nativeBlock)).readAll();
            if (blocks.isEmpty()) {
                throw new ChException(ErrorCode.EMPTY_DATA_PASSED, "The file " + f + " has no block");
            }
            return blocks.get(0).columns();
        } catch (IOException e) {
            throw new ChException(ErrorCode.CANNOT_READ_ALL_DATA, "Cannot read the block of " + f + ": " + e.getMessage(), e);
        }
    }

    /** Sends blocks to the directory's replica, or to one live replica of its shard; an error the replica answered is thrown. */
    private void send(DistributedAsyncInsertHeader header, List<Column> columns, byte[] nativeBody) {
        String table = storage.remoteDatabase().isEmpty() ? Connection.quote(storage.remoteTable())
            : Connection.quote(storage.remoteDatabase()) + "." + Connection.quote(storage.remoteTable());
        ConnectionPoolWithFailover.tryEach(storage.server().clusters(), addresses(), dev.chdedup.stub.exec.Settings.DEFAULTS, c -> {
            c.insertEncoded(table, columns, nativeBody, header.settings());
            return null;
        });
    }

    /** The replicas the directory's name stands for, in order. */
    private List<Cluster.Address> addresses() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("shard(\\d+)_(?:replica(\\d+)|all_replicas)").matcher(name);
        if (m.matches()) {
            Cluster cluster = storage.cluster();
            int shard = Integer.parseInt(m.group(1));
            if (shard < 1 || shard > cluster.shards().size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Shard " + shard + " of directory " + name + " is not in cluster " + cluster.name());
            }
            List<Cluster.Address> replicas = cluster.shard(shard).replicas();
            if (m.group(2) == null) {
                return replicas;
            }
            int replica = Integer.parseInt(m.group(2));
            if (replica < 1 || replica > replicas.size()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Replica " + replica + " of directory " + name + " is not in cluster " + cluster.name());
            }
            return List.of(replicas.get(replica - 1));
        }
        List<Cluster.Address> out = new ArrayList<>();
        for (String part : name.split(",")) {
            java.util.regex.Matcher l = java.util.regex.Pattern.compile("([^:@]*)(?::([^@]*))?@(.*):(\\d+)(?:#(.*))?").matcher(part);
            if (!l.matches()) {
                throw new ChException(ErrorCode.BAD_ARGUMENTS, "Cannot parse the address of directory " + name);
            }
            out.add(new Cluster.Address(FileNames.unescapeForFileName(l.group(3)), Integer.parseInt(l.group(4)),
                FileNames.unescapeForFileName(l.group(1)), l.group(2) == null ? "" : FileNames.unescapeForFileName(l.group(2)),
                l.group(5) == null ? "" : FileNames.unescapeForFileName(l.group(5)), false, 0, 0));
        }
        return out;
    }

    /** ClickHouse's {@code isDistributedSendBroken}: errors that no retry can cure, for which a file is set aside. */
    static boolean isDistributedSendBroken(ErrorCode code, boolean remoteError) {
        return code == ErrorCode.CHECKSUM_DOESNT_MATCH || code == ErrorCode.EMPTY_DATA_PASSED || code == ErrorCode.CANNOT_READ_ALL_DATA
            || (!remoteError && code == ErrorCode.ATTEMPT_TO_READ_AFTER_EOF);
    }

    private void markAsBroken(List<Path> files) {
        try {
            Path broken = path.resolve("broken");
            Files.createDirectories(broken);
            for (Path f : files) {
                Files.move(f, broken.resolve(f.getFileName()), StandardCopyOption.ATOMIC_MOVE);
            }
            DistributedSink.syncDirectory(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void remove(List<Path> files) {
        try {
            for (Path f : files) {
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The sender stops (the server stops or the table goes); files stay. Waits for a send under way. */
    void shutdown() {
        synchronized (this) {
            stopped = true;
            if (scheduled != null) {
                scheduled.cancel(false);
            }
        }
        synchronized (sendLock) {
            // a send under way ends before the table's files are touched
        }
    }

    /** TRUNCATE: the sender stops and the directory goes with its files. */
    void shutdownAndDropAllData() throws IOException {
        shutdown();
        dev.chdedup.stub.mergetree.DataPartStorageOnDisk.deleteRecursively(path);
    }

    public Status status() {
        long files = 0;
        long bytes = 0;
        for (Path f : pendingFiles()) {
            files++;
            bytes += sizeOf(f);
        }
        long brokenFiles = 0;
        long brokenBytes = 0;
        Path broken = path.resolve("broken");
        if (Files.isDirectory(broken)) {
            try (Stream<Path> s = Files.list(broken)) {
                for (Path f : (Iterable<Path>) s::iterator) {
                    brokenFiles++;
                    brokenBytes += sizeOf(f);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        ChException last = lastException;
        return new Status(path + "/", storage.sendsBlocked(), errorCount, files, bytes, brokenFiles, brokenBytes,
            last == null ? "" : "Code: " + last.code().code + ". DB::Exception: " + last.getMessage(), lastExceptionTime);
    }

    private static long sizeOf(Path f) {
        try {
            return Files.size(f);
        } catch (IOException e) {
            return 0; // sent and removed meanwhile
        }
    }
}
