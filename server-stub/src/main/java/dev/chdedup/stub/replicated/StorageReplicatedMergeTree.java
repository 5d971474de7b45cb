package dev.chdedup.stub.replicated;

import dev.chdedup.stub.compat.SettingsChangesHistory;
import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import dev.chdedup.stub.fault.CrashPoint;
import dev.chdedup.stub.mergetree.DataPartStorageOnDisk;
import dev.chdedup.stub.mergetree.IMergeTreeDataPart;
import dev.chdedup.stub.mergetree.MergeTreeData;
import dev.chdedup.stub.mergetree.MergeTreeDataMergerMutator;
import dev.chdedup.stub.mergetree.MergeTreePartInfo;
import dev.chdedup.stub.mergetree.MergeTreeSettings;
import dev.chdedup.stub.mergetree.StorageMergeTree;
import dev.chdedup.stub.mergetree.TableColumn;
import dev.chdedup.stub.mergetree.TableDefinition;
import dev.chdedup.stub.sql.Expr;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ReplicatedMergeTree table, after ClickHouse's {@code StorageReplicatedMergeTree}: the local parts are a
 * {@link MergeTreeData} (through {@link StorageMergeTree}, which reads them), and everything that changes the
 * part set goes through ZooKeeper. CREATE makes the table's and the replica's znodes ({@link ReplicatedPaths}) and
 * activates the replica ({@code is_active}, host, leader election); an insert commits in two multis
 * ({@link #commitPart}); OPTIMIZE and DROP PARTITION/TRUNCATE write MERGE_PARTS and DROP_RANGE entries to the log;
 * the {@link ReplicatedMergeTreeQueue} applies the log on every replica, fetching parts through
 * {@link DataPartsExchange}. Block numbers come from ZooKeeper and start at 0.
 */
public final class StorageReplicatedMergeTree extends StorageMergeTree {
    private static final Logger LOG = LoggerFactory.getLogger(StorageReplicatedMergeTree.class);

    private final ReplicationContext context;
    private final ReplicatedPaths paths;
    private final String zookeeperPath;
    private final ReplicatedMergeTreeQueue queue;
    private final ReplicatedMergeTreeMutations mutations;
    /** Partitions whose {@code block_numbers/<partition>} node is known to exist. */
    private final Set<String> knownPartitions = ConcurrentHashMap.newKeySet();
    /** Parts whose commit multi had an unknown outcome, kept so the queue can add them if the commit did land. */
    private final Map<String, UncertainPart> uncertainParts = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicLong replicaListChanges = new java.util.concurrent.atomic.AtomicLong();
    private final org.apache.curator.framework.api.CuratorWatcher replicaListWatcher = event -> replicaListChanges.incrementAndGet();
    private volatile ReplicaList replicaList;
    /**
     * The files of parts between their commit multi and their activation here: a replica that saw the log entry may
     * fetch one in that moment (it fetches only parts ZooKeeper lists under this replica, so only committed ones).
     */
    private final Map<String, byte[]> committing = new ConcurrentHashMap<>();
    private volatile String leaderNode;
    /** This table's UUID, as {@code creator_info} and {@code table_shared_id} name it (the stub keeps none on disk). */
    private final java.util.UUID tableUuid = java.util.UUID.randomUUID();
    private volatile boolean readonly;
    private final ReplicatedMergeTreeRestartingThread restarting;
    private final ReplicatedMergeTreeCleanupThread cleanup;
    private final ReplicatedMergeTreePartCheckThread partCheck;

    public StorageReplicatedMergeTree(String database, String name, TableDefinition def, Path dir, ReplicationContext context)
        throws IOException {
        this(database, name, def, dir, context, java.util.Map.of());
    }

    /** The table over its parts, reading the columns {@code renamedFrom} names (new to old) under their new names. */
    public StorageReplicatedMergeTree(String database, String name, TableDefinition def, Path dir, ReplicationContext context,
                                      java.util.Map<String, String> renamedFrom) throws IOException {
        super(database, name, def, dir, null, renamedFrom);
        this.context = context;
        List<Expr> args = def.engineArgs() == null ? List.of() : def.engineArgs();
        if (args.size() == 1 || args.size() > 2) {
            throw new ChException(ErrorCode.NUMBER_OF_ARGUMENTS_DOESNT_MATCH, "Storage ReplicatedMergeTree requires 0 or 2 parameters: path in"
                + " ZooKeeper, replica name");
        }
        String pathPattern = args.isEmpty() ? ReplicationContext.DEFAULT_REPLICA_PATH : literal(args.get(0), "path in ZooKeeper");
        String replicaPattern = args.isEmpty() ? "{replica}" : literal(args.get(1), "replica name");
        String zkPath = context.substitute(pathPattern, database, name);
        if (zkPath.endsWith("/")) {
            zkPath = zkPath.substring(0, zkPath.length() - 1);
        }
        if (!zkPath.startsWith("/")) {
            zkPath = "/" + zkPath;
        }
        this.zookeeperPath = zkPath;
        String replica = context.substitute(replicaPattern, database, name);
        if (replica.isEmpty() || replica.contains("/")) {
            throw new ChException(ErrorCode.BAD_ARGUMENTS, "Replica name must not be empty nor contain '/': " + replica);
        }
        this.paths = new ReplicatedPaths(zkPath, replica, context.config().legacyBlocksDirectory());
        this.queue = new ReplicatedMergeTreeQueue(this);
        this.mutations = new ReplicatedMergeTreeMutations(this);
        ReplicatedTableNodes.createTableIfNotExists(this);
        ReplicatedTableNodes.createReplicaIfNotExists(this);
        ReplicatedTableNodes.createNewZooKeeperNodes(this);
        activateReplica();
        try {
            CloneReplica.cloneReplicaIfNeeded(this, false);
            mutations.load();
        } catch (Exception e) {
            throw zookeeperError("cloning a lost replica or loading the mutation pointer", e);
        }
        context.register(this);
        partCheck = new ReplicatedMergeTreePartCheckThread(this).start();
        restarting = new ReplicatedMergeTreeRestartingThread(this, zk().curator());
        cleanup = new ReplicatedMergeTreeCleanupThread(this).start(); // before the queue, whose DROP_RANGE wakes it
        queue.start();
    }

    private static String literal(Expr e, String what) {
        if (e instanceof Expr.Literal && ((Expr.Literal) e).value() instanceof String) {
            return (String) ((Expr.Literal) e).value();
        }
        if (e instanceof Expr.Literal && ((Expr.Literal) e).value() instanceof byte[]) {
            return new String((byte[]) ((Expr.Literal) e).value(), java.nio.charset.StandardCharsets.UTF_8);
        }
        throw new ChException(ErrorCode.BAD_ARGUMENTS, "ReplicatedMergeTree: the " + what + " must be a string literal, got " + e);
    }

    /**
     * A setting the table's CREATE or ALTER did not set takes the server's MergeTree default: on a server playing an
     * older release, that release's ({@code MergeTreeSettings::applyCompatibilitySetting}).
     */
    @Override
    public long setting(String n) {
        if (context == null || settings().containsKey(n)) { // context is null while the super constructor runs
            return super.setting(n);
        }
        String old = SettingsChangesHistory.mergeTreeSettingUnder(n, context.config().compatibility());
        return old == null ? super.setting(n) : MergeTreeSettings.getLong(Map.of(n, old), n);
    }

    ZooKeeperClient zk() {
        return context.zookeeper();
    }

    ReplicatedPaths paths() {
        return paths;
    }

    java.util.UUID tableUuid() {
        return tableUuid;
    }

    ReplicationContext context() {
        return context;
    }

    public ReplicatedMergeTreeQueue queue() {
        return queue;
    }

    ReplicatedMergeTreeMutations mutations() {
        return mutations;
    }

    ReplicatedMergeTreeCleanupThread cleanupThread() {
        return cleanup;
    }

    public String zookeeperPath() {
        return zookeeperPath;
    }

    public String replicaName() {
        return paths.replicaName();
    }

    public String replicaPath() {
        return paths.replica();
    }

    String replicaPathOf(String replica) {
        return paths.replica(replica);
    }

    /** The local part set (package access for the queue). */
    MergeTreeData parts() {
        return data();
    }

    MergeTreeDataMergerMutator merger() {
        return mergerMutator();
    }

    boolean fsyncParts() {
        return fsync();
    }

    /** The text of the {@code columns} nodes, as ClickHouse's ColumnsDescription writes it ({@link ReplicatedMergeTreeAlter#columnsText}). */
    String columnsText() {
        return ReplicatedMergeTreeAlter.columnsText(definition());
    }

    String metadataText() {
        return metadataText(definition(), settings());
    }

    /** The text of the {@code metadata} nodes for a definition ({@link ReplicatedMergeTreeTableMetadata}). */
    private String metadataText(TableDefinition def, Map<String, String> settings) {
        return ReplicatedMergeTreeTableMetadata.text(def, settings, paths.legacyBlocksDirectory());
    }

    /** The ALTER_METADATA entry this replica's queue executed and whose definition is still to be applied here. */
    private volatile ReplicatedMergeTreeLogEntry.AlterMetadata pendingAlter;

    void pendingAlter(ReplicatedMergeTreeLogEntry.AlterMetadata alter) {
        pendingAlter = alter;
    }

    /** The pending ALTER_METADATA, taken once its entry is removed from the queue: the server then applies it. */
    ReplicatedMergeTreeLogEntry.AlterMetadata takePendingAlter() {
        ReplicatedMergeTreeLogEntry.AlterMetadata a = pendingAlter;
        pendingAlter = null;
        return a;
    }

    /**
     * ALTER of the schema from this replica ({@link ReplicatedMergeTreeAlter#alter}): writes the shared columns,
     * metadata and ALTER_METADATA entry for {@code newDefinition}, with the mutation of {@code mutationCommands} (a type
     * change, DROP or RENAME COLUMN; null: none) whose row function here is {@code function}; returns the alter version,
     * which {@link #metadataVersion} reaches on a replica that applied it, and the mutation's name.
     */
    public AlterStarted alterMetadata(TableDefinition newDefinition, boolean haveMutation, String mutationCommands,
                                      MergeTreeDataMergerMutator.RowMutation function) {
        checkWritable();
        String metadata = metadataText(newDefinition, settings());
        AlterStarted started = ReplicatedMergeTreeAlter.alter(this, newDefinition, metadata, haveMutation || mutationCommands != null,
            mutationCommands);
        if (started.mutation() != null) {
            mutations.registered(started.mutation(), function);
        }
        return started;
    }

    /** An ALTER this replica wrote: its metadata version and the name of its mutation node (null without one). */
    public record AlterStarted(int version, String mutation) {
    }

    /** Waits for mutation {@code name} as {@code alter_sync} says: 1 this replica, 2 every replica (inactive ones up to the timeout). */
    public void waitMutation(String name, long alterSync, long inactiveTimeoutMs) {
        if (alterSync > 0) {
            mutations.waitMutation(name, alterSync >= 2, inactiveTimeoutMs);
        }
    }

    /** The commands of the mutations written with the ALTER of metadata version {@code alterVersion} (its renames among them). */
    public List<String> mutationCommandsOfAlter(int alterVersion) {
        try {
            return mutations.commandsOfAlter(alterVersion);
        } catch (Exception e) {
            throw zookeeperError("reading the mutations of ALTER version " + alterVersion, e);
        }
    }

    /** A local CREATE statement after an ALTER_METADATA entry ({@link ReplicatedMergeTreeAlter#applied}). */
    public static dev.chdedup.stub.sql.Statement.CreateTable definitionAfter(dev.chdedup.stub.sql.Statement.CreateTable local,
                                                                           ReplicatedMergeTreeLogEntry.AlterMetadata alter) {
        return ReplicatedMergeTreeAlter.applied(local, alter);
    }

    /** The metadata version this replica has applied ({@code metadata_version}), 0 before any ALTER. */
    public int metadataVersion() {
        try {
            String v = zk().get(paths.replicaNode("metadata_version"));
            return v == null || v.isBlank() ? 0 : Integer.parseInt(v.strip());
        } catch (Exception e) {
            throw zookeeperError("reading the metadata version", e);
        }
    }

    /**
     * Stops this object before the server opens the table again with a new definition (an ALTER): its threads end,
     * it leaves the leader election and the context, and commits nothing more; ZooKeeper keeps the replica.
     */
    @Override
    public void shutdown() {
        super.shutdown();
        context.unregister(this);
        shutdown(false);
        try {
            if (leaderNode != null) {
                zk().tryDelete(leaderNode);
            }
        } catch (Exception e) {
            LOG.debug("Leaving the leader election of {}: {}", paths.replica(), e.toString());
        }
    }

    String hostText() {
        return "host: " + context.config().host() + "\nport: " + context.interserverPort() + "\ntcp_port: 0\ndatabase: " + database()
            + "\ntable: " + name() + "\nscheme: http\n";
    }

    /**
     * Marks the replica active: {@code is_active} (ephemeral; a stale one left by this server's own earlier session is
     * replaced, another server's is waited out), the host node with this start's interserver port, and a node in the
     * leader election.
     */
    private synchronized void activateReplica() {
        ZooKeeperClient zk = zk();
        String id = context.activeNodeIdentifier();
        String ours = id.substring(id.indexOf("random:"));
        long deadline = System.currentTimeMillis() + 2L * context.config().sessionTimeoutMs() + 5_000;
        try {
            while (true) {
                try {
                    zk.create(paths.replicaNode("is_active"), id, CreateMode.EPHEMERAL);
                    break;
                } catch (KeeperException.NodeExistsException e) {
                    String v = zk.get(paths.replicaNode("is_active"));
                    if (v != null && v.endsWith(ours)) {
                        zk.tryDelete(paths.replicaNode("is_active"));
                        continue;
                    }
                    if (System.currentTimeMillis() > deadline) {
                        throw new ChException(ErrorCode.REPLICA_IS_ALREADY_ACTIVE, "Replica " + paths.replica()
                            + " appears to be already active. If you're sure it's not, try again in a minute or remove znode "
                            + paths.replicaNode("is_active") + " manually");
                    }
                    Thread.sleep(100);
                }
            }
            zk.set(paths.replicaNode("host"), hostText());
            leaderNode = zk.create(paths.leaderElection() + "/leader_election-", replicaName(), CreateMode.EPHEMERAL_SEQUENTIAL);
            readonly = false;
        } catch (ChException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw zookeeperError("activating the replica", e);
        } catch (Exception e) {
            throw zookeeperError("activating the replica", e);
        }
    }

    void setReadonly(boolean ro) {
        readonly = ro;
    }

    /** After the session came back: re-creates {@code is_active} and the leader-election node if the old session took them. */
    synchronized void activateReplicaIfInactive() {
        try {
            String v = zk().get(paths.replicaNode("is_active"));
            boolean ours = v != null && zk().exists(paths.replicaNode("is_active")).getEphemeralOwner()
                == zk().curator().getZookeeperClient().getZooKeeper().getSessionId();
            if (ours && leaderNode != null && zk().exists(leaderNode) != null) {
                return;
            }
            if (leaderNode != null) {
                zk().tryDelete(leaderNode);
                leaderNode = null;
            }
        } catch (Exception e) {
            throw zookeeperError("checking the replica's activity", e);
        }
        activateReplica();
        try {
            // marked lost while its session was gone: its queue and pointer are no longer worth replaying
            if (CloneReplica.cloneReplicaIfNeeded(this, false)) {
                queue.reload();
            }
        } catch (Exception e) {
            throw zookeeperError("cloning a lost replica", e);
        }
    }

    static ChException zookeeperError(String what, Exception e) {
        return new ChException(ErrorCode.UNEXPECTED_ZOOKEEPER_ERROR, "ZooKeeper error while " + what + ": " + e.getMessage(), e);
    }

    /** Whether this replica holds the smallest node of the leader election. */
    public boolean isLeader() {
        String mine = leaderNode;
        if (mine == null) {
            return false;
        }
        try {
            List<String> c = new ArrayList<>(zk().children(paths.leaderElection()));
            c.sort(null);
            return !c.isEmpty() && mine.endsWith("/" + c.get(0));
        } catch (Exception e) {
            return false;
        }
    }

    /** How many replicas of the table have {@code is_active}. */
    public int activeReplicas() {
        try {
            int n = 0;
            for (String r : zk().children(paths.replicas())) {
                if (zk().exists(paths.replica(r) + "/is_active") != null) {
                    n++;
                }
            }
            return n;
        } catch (Exception e) {
            throw zookeeperError("counting active replicas", e);
        }
    }

    public int totalReplicas() {
        try {
            return replicaNames().size();
        } catch (Exception e) {
            throw zookeeperError("counting replicas", e);
        }
    }

    /** The names under {@code replicas/}, as read last with a watch; read again once the watch fired (any event: a change, a lost session). */
    List<String> replicaNames() throws Exception {
        ZooKeeperClient zk = zk();
        long session = zk.curator().getZookeeperClient().getZooKeeper().getSessionId();
        long changes = replicaListChanges.get();
        ReplicaList cached = replicaList;
        if (cached != null && cached.changes() == changes && cached.session() == session && cached.zk() == zk) {
            return cached.names();
        }
        List<String> names = List.copyOf(zk.children(paths.replicas(), replicaListWatcher));
        replicaList = new ReplicaList(zk, session, changes, names);
        return names;
    }

    private record ReplicaList(ZooKeeperClient zk, long session, long changes, List<String> names) {
    }

    public boolean isReadonly() {
        return readonly || !zk().connected();
    }

    void checkWritable() {
        if (isReadonly()) {
            throw new ChException(ErrorCode.TABLE_IS_READ_ONLY, "Table is in readonly mode (replica path: " + paths.replica() + ")");
        }
    }

    /**
     * The insert commit, after ClickHouse's {@code ReplicatedMergeTreeSink::commitPart}, for one partition's sorted
     * rows: writes the temporary part, then sends (1) one multi that checks the block id is new and takes the block
     * number ({@link EphemeralLockInZooKeeper}) and (2) one multi that stores the block id with the part name, the
     * GET_PART log entry, the part under this replica and the lock's removal; only then is the part made active here.
     * A duplicate (the id exists, in either multi) writes nothing and returns null. A ZooKeeper error before (2) is
     * UNEXPECTED_ZOOKEEPER_ERROR with nothing written; an error while (2) was in flight is UNKNOWN_STATUS_OF_INSERT.
     */
    public IMergeTreeDataPart commitPart(String partitionId, List<Object[]> sortedRows, String blockId) {
        return commitPart(partitionId, sortedRows, blockId, KeeperFaultInjection.NONE);
    }

    /** {@link #commitPart(String, List, String)} with ZooKeeper faults injected ({@code insert_keeper_fault_injection_probability}). */
    public IMergeTreeDataPart commitPart(String partitionId, List<Object[]> sortedRows, String blockId, KeeperFaultInjection faults) {
        return commitPart(partitionId, sortedRows, ids(blockId), faults, null, ZooKeeperRetriesControl.none());
    }

    private static List<String> ids(String blockId) {
        return blockId == null ? List.of() : List.of(blockId);
    }

    /**
     * {@link #commitPart(String, List, String, KeeperFaultInjection)} for a part with several block ids (an async
     * insert batch, one per query; a view's block, one per source token): every id is checked and stored in the same
     * two multis, and any one of them existing makes the part a duplicate (null); the GET_PART entry's block_id is
     * the id when there is exactly one.
     */
    public IMergeTreeDataPart commitPart(String partitionId, List<Object[]> sortedRows, List<String> blockIds, KeeperFaultInjection faults) {
        return commitPart(partitionId, sortedRows, blockIds, faults, null, ZooKeeperRetriesControl.none());
    }

    /**
     * {@link #commitPart(String, List, String, KeeperFaultInjection)} for a quorum insert ({@code quorum} not null, its
     * precondition checked): the commit multi also starts the part's quorum ({@link ReplicatedMergeTreeQuorum#createOp})
     * and the call returns once the quorum is reached; a duplicate waits for the quorum of the part that has the block.
     */
    IMergeTreeDataPart commitPart(String partitionId, List<Object[]> sortedRows, String blockId, KeeperFaultInjection faults,
                        ReplicatedMergeTreeQuorum.Insert quorum) {
        return commitPart(partitionId, sortedRows, ids(blockId), faults, quorum, ZooKeeperRetriesControl.none());
    }

    /** {@link #commitPart(String, List, List, KeeperFaultInjection, ReplicatedMergeTreeQuorum.Insert, ZooKeeperRetriesControl)} for one block id. */
    IMergeTreeDataPart commitPart(String partitionId, List<Object[]> sortedRows, String blockId, KeeperFaultInjection faults,
                        ReplicatedMergeTreeQuorum.Insert quorum, ZooKeeperRetriesControl retries) {
        return commitPart(partitionId, sortedRows, ids(blockId), faults, quorum, retries);
    }

    /**
     * The commit with {@code retries} of the ZooKeeper requests that a lost connection failed: the check-and-lock multi
     * is sent again; the commit multi is sent again only once ZooKeeper shows it was not applied (the lock is there,
     * the part node is not), so a retry never commits a block twice; when that cannot be found out in the retries, the
     * outcome stays unknown (319).
     */
    IMergeTreeDataPart commitPart(String partitionId, List<Object[]> sortedRows, List<String> blockIds, KeeperFaultInjection faults,
                        ReplicatedMergeTreeQuorum.Insert quorum, ZooKeeperRetriesControl retries) {
        String blockId = blockIds.size() == 1 ? blockIds.get(0) : null;
        checkWritable();
        ZooKeeperClient zk = zk();
        MergeTreeData.TempPart tmp = data().writeTempPart(partitionId, sortedRows, blockIds, fsync());
        EphemeralLockInZooKeeper lock;
        while (true) {
            try {
                ensureBlockNumbersNode(zk, partitionId);
                List<CuratorOp> checks = new ArrayList<>(2 * blockIds.size());
                for (String id : blockIds) {
                    checks.add(zk.op().create().forPath(paths.blockId(id), new byte[0]));
                    checks.add(zk.op().delete().forPath(paths.blockId(id)));
                }
                faults.beforeRequest(paths.blockNumbers(partitionId));
                lock = EphemeralLockInZooKeeper.acquire(zk, paths.blockNumbers(partitionId) + "/block-", checks);
                break;
            } catch (KeeperException.NodeExistsException e) {
                tmp.discard();
                return duplicate(blockId, quorum);
            } catch (Exception e) {
                if (!retries.retryAfter(e)) {
                    tmp.discard();
                    throw zookeeperError("allocating a block number", e);
                }
            }
        }
        MergeTreePartInfo info = new MergeTreePartInfo(partitionId, lock.number(), lock.number(), 0);
        String part = info.name();
        byte[] file;
        try {
            // under its final name before the commit, as ClickHouse's PreActive part: whatever a crash interrupts from
            // here on, the next start finds the file and keeps it or detaches it by what ZooKeeper says (PartCheck)
            tmp = data().precommit(tmp, info);
            file = DataPartStorageOnDisk.bytesOf(tmp.file().tmp());
        } catch (IOException | RuntimeException e) {
            lock.unlock(zk);
            tmp.discard();
            throw e instanceof ChException c ? c : new ChException(ErrorCode.CANNOT_WRITE_TO_FILE_DESCRIPTOR, "Cannot write part " + part
                + ": " + e.getMessage(), e);
        }
        committing.put(part, file);
        try {
            return commitLocked(zk, blockIds, faults, quorum, retries, tmp, lock, file, info);
        } finally {
            committing.remove(part);
        }
    }

    /** The commit multi of {@link #commitPart} and what follows it, once the block number is taken and the part precommitted. */
    private IMergeTreeDataPart commitLocked(ZooKeeperClient zk, List<String> blockIds, KeeperFaultInjection faults, ReplicatedMergeTreeQuorum.Insert quorum,
                                  ZooKeeperRetriesControl retries, MergeTreeData.TempPart tmp, EphemeralLockInZooKeeper lock, byte[] file, MergeTreePartInfo info) {
        String part = info.name();
        String blockId = blockIds.size() == 1 ? blockIds.get(0) : null;
        try {
            List<CuratorOp> ops = new ArrayList<>(5 + blockIds.size());
            for (String id : blockIds) {
                ops.add(zk.op().create().forPath(paths.blockId(id), ZooKeeperClient.bytes(part)));
            }
            ops.add(zk.op().create().withMode(CreateMode.PERSISTENT_SEQUENTIAL).forPath(paths.log() + "/log-",
                ZooKeeperClient.bytes(ReplicatedMergeTreeLogEntry.getPart(replicaName(), blockId, part, quorum == null ? 0 : quorum.required()).toText())));
            int quorumOp = quorum == null ? -1 : ops.size();
            if (quorum != null) {
                ops.add(ReplicatedMergeTreeQuorum.createOp(zk, paths, quorum, part));
            }
            ops.addAll(partNodeOps(zk, part, file));
            ops.add(lock.unlockOp(zk));
            boolean resent = false;
            while (true) {
                boolean lostAnswer = faults.afterRequest();
                try {
                    if (!lostAnswer) {
                        faults.beforeRequest(paths.log());
                    }
                    CrashPoint.BEFORE_KEEPER_COMMIT.reached();
                    zk.multi(ops);
                    CrashPoint.AFTER_KEEPER_COMMIT.reached();
                    if (lostAnswer) {
                        throw new KeeperException.ConnectionLossException();
                    }
                    break;
                } catch (KeeperException.NodeExistsException e) {
                    // a multi sent again finds the nodes of the first one when that one landed after all: a read on
                    // another ZooKeeper node can miss a write still in flight from the lost connection
                    Boolean earlier = resent ? landedEarlier(zk, part) : Boolean.FALSE;
                    if (earlier == null) {
                        uncertainParts.put(part, new UncertainPart(tmp, lock));
                        throw new ChException(ErrorCode.UNKNOWN_STATUS_OF_INSERT, "Unknown status, client must retry. Reason: " + e.getMessage(), e);
                    }
                    if (earlier) {
                        break;
                    }
                    return existsOnCommit(zk, e, quorumOp, lock, tmp, blockId, quorum);
                } catch (KeeperException e) {
                    // an injected lost answer with no retries stands for a client that cannot find out: unknown
                    Boolean committed = lostAnswer && !retries.enabled() ? null : commitStatus(zk, part, lock, retries);
                    if (committed == null) {
                        uncertainParts.put(part, new UncertainPart(tmp, lock));
                        throw new ChException(ErrorCode.UNKNOWN_STATUS_OF_INSERT, "Unknown status, client must retry. Reason: " + e.getMessage(), e);
                    }
                    if (committed) {
                        break;
                    }
                    if (!retries.retryAfter(e)) {
                        lock.unlock(zk);
                        tmp.discard();
                        throw zookeeperError("committing part " + part, e);
                    }
                    resent = true;
                } catch (ChException e) {
                    throw e;
                } catch (Exception e) {
                    // not an answer from ZooKeeper (an interrupt, a client closed under the request): the multi may
                    // have been applied, so the part stays until that is known (PartCheck settles it)
                    uncertainParts.put(part, new UncertainPart(tmp, lock));
                    throw new ChException(ErrorCode.UNKNOWN_STATUS_OF_INSERT, "Unknown status, client must retry. Reason: " + e, e);
                }
            }
        } catch (ChException e) {
            throw e;
        } catch (Exception e) {
            lock.unlock(zk);
            tmp.discard();
            throw zookeeperError("committing part " + part, e);
        }
        LOG.debug("{}.{} (Replicated OutputStream): Wrote block with ID '{}', part {}{}", database(), name(), blockIds, part,
            quorum == null ? "" : ", quorum " + quorum.required());
        IMergeTreeDataPart added = data().renameTempPartAndAdd(tmp, info);
        queue.wakeUp();
        if (quorum != null) {
            ReplicatedMergeTreeQuorum.waitForQuorum(this, quorum, part);
        }
        return added;
    }

    /**
     * Whether the NodeExists of a re-sent commit multi comes from the first send, applied after all: this replica's
     * node of {@code part} exists (the part's name is this insert's own block number); null when the read fails.
     */
    private Boolean landedEarlier(ZooKeeperClient zk, String part) {
        try {
            return zk.exists(paths.part(replicaName(), part)) != null;
        } catch (Exception readFailed) {
            return null;
        }
    }

    /**
     * The commit multi found a node that exists: the quorum node of a non-parallel insert another writer started
     * (UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE) or the block id (a duplicate). Nothing was committed either way.
     */
    private IMergeTreeDataPart existsOnCommit(ZooKeeperClient zk, KeeperException e, int quorumOp, EphemeralLockInZooKeeper lock,
                                    MergeTreeData.TempPart tmp, String blockId, ReplicatedMergeTreeQuorum.Insert quorum) throws Exception {
        lock.unlock(zk);
        tmp.discard();
        if (quorumOp >= 0 && ZooKeeperClient.failedOp(e) == quorumOp) {
            String status = zk.get(paths.quorumStatus());
            throw status != null ? ReplicatedMergeTreeQuorum.unsatisfiedPrevious(status)
                : new ChException(ErrorCode.UNSATISFIED_QUORUM_FOR_PREVIOUS_WRITE, "Another quorum insert has been already started");
        }
        return duplicate(blockId, quorum);
    }

    /**
     * A block whose id exists: nothing is written (null). For a quorum insert, a retry must not pass before the part
     * that has the block reached its quorum, so it waits for that part's quorum (named by the block id's node).
     */
    private IMergeTreeDataPart duplicate(String blockId, ReplicatedMergeTreeQuorum.Insert quorum) {
        LOG.info("{}.{} (Replicated OutputStream): Block with ID {} already exists; ignoring it.", database(), name(), blockId);
        if (quorum != null) {
            String existing;
            try {
                existing = zk().get(paths.blockId(blockId));
            } catch (Exception e) {
                throw ReplicatedMergeTreeQuorum.unknownStatus(quorum, zookeeperError("reading block id " + blockId, e));
            }
            if (existing != null && !existing.isEmpty()) {
                ReplicatedMergeTreeQuorum.waitForQuorum(this, quorum, existing);
            }
        }
        return null;
    }

    /**
     * After the commit multi failed on the connection: whether it was applied (the part's node under this replica
     * exists), not applied (the block number's lock still exists and the part node does not), or unknown (null:
     * ZooKeeper cannot tell, within the retries), as ClickHouse's insert retries find out; a read that fails on the
     * connection is retried. (No fault is injected into these reads: an unanswered one would leave the lock held.)
     */
    private Boolean commitStatus(ZooKeeperClient zk, String part, EphemeralLockInZooKeeper lock, ZooKeeperRetriesControl retries) {
        while (true) {
            try {
                if (zk.exists(paths.part(replicaName(), part)) != null) {
                    return true;
                }
                return zk.exists(lock.path()) != null ? Boolean.FALSE : null;
            } catch (Exception e) {
                if (!retries.retryAfter(e)) {
                    return null;
                }
            }
        }
    }

    private void ensureBlockNumbersNode(ZooKeeperClient zk, String partitionId) throws Exception {
        if (!knownPartitions.contains(partitionId)) {
            zk.tryCreate(paths.blockNumbers(partitionId), "");
            knownPartitions.add(partitionId);
        }
    }

    /**
     * Parts written by the paths that go around the insert sink (async insert batches, a materialized view's output
     * into this table) commit through ZooKeeper too, with their block ids ({@link #commitPart(String, List, List,
     * KeeperFaultInjection)}), so a retry on any replica is a duplicate; null when ZooKeeper has one of the ids.
     */
    @Override
    public IMergeTreeDataPart writePart(String partitionId, List<Object[]> sortedRows, List<String> blockIds, java.util.function.Consumer<IMergeTreeDataPart> whileHeld) {
        IMergeTreeDataPart part = commitPart(partitionId, sortedRows, blockIds, KeeperFaultInjection.NONE);
        if (part != null) {
            whileHeld.accept(part);
        }
        return part;
    }

    /** Which of {@code ids} ZooKeeper already holds under the table's block ids (one read each). */
    @Override
    public java.util.Set<String> existingBlockIds(java.util.Collection<String> ids) {
        java.util.Set<String> out = new java.util.HashSet<>();
        try {
            for (String id : ids) {
                if (zk().exists(paths.blockId(id)) != null) {
                    out.add(id);
                }
            }
        } catch (Exception e) {
            throw zookeeperError("reading block ids", e);
        }
        return out;
    }

    /** The ops that record {@code part} under this replica: the part node and its columns and checksums children. */
    List<CuratorOp> partNodeOps(ZooKeeperClient zk, String part, byte[] file) throws Exception {
        String p = paths.part(replicaName(), part);
        return List.of(zk.op().create().forPath(p, new byte[0]), zk.op().create().forPath(p + "/columns", ZooKeeperClient.bytes(columnsText())),
            zk.op().create().forPath(p + "/checksums", ZooKeeperClient.bytes(DataPartsExchange.checksum(file))));
    }

    /** The ops that remove {@code part}'s nodes under this replica (children first). */
    List<CuratorOp> removePartNodeOps(ZooKeeperClient zk, String part) throws Exception {
        String p = paths.part(replicaName(), part);
        List<CuratorOp> ops = new ArrayList<>(3);
        for (String child : zk.children(p)) {
            ops.add(zk.op().delete().forPath(p + "/" + child));
        }
        if (zk.exists(p) != null) {
            ops.add(zk.op().delete().forPath(p));
        }
        return ops;
    }

    /**
     * A part whose commit multi had an unknown outcome: on disk under its final name, not active. The queue takes it
     * back when the part's own GET_PART entry shows the commit landed; {@link ReplicatedMergeTreePartCheckThread}
     * discards it (and releases its block number) once ZooKeeper shows it did not.
     */
    record UncertainPart(MergeTreeData.TempPart tmp, EphemeralLockInZooKeeper lock) {
    }

    /** Whether this replica's own insert of {@code part} is between its commit multi and its activation here. */
    boolean committingHere(String part) {
        return committing.containsKey(part);
    }

    /** A part whose commit had an unknown outcome, taken back by the queue once the log shows it did land. */
    MergeTreeData.TempPart takeUncertainPart(String part) {
        UncertainPart u = uncertainParts.remove(part);
        return u == null ? null : u.tmp();
    }

    /** The parts whose commit outcome is still unknown, for the part check. */
    Map<String, UncertainPart> uncertainParts() {
        return uncertainParts;
    }

    /**
     * A read under {@code select_sequential_consistency}: only the parts up to each partition's last quorum part (and
     * before the one whose quorum is in progress); REPLICA_IS_NOT_IN_QUORUM when this replica lacks a last quorum part.
     */
    @Override
    public java.util.Iterator<dev.chdedup.stub.data.Block> readSequentiallyConsistent(int maxBlockSize, boolean withVirtuals) {
        ReplicatedMergeTreeQueueExecutor local = new ReplicatedMergeTreeQueueExecutor(this);
        Map<String, Long> max = ReplicatedMergeTreeQuorum.maxAddedBlocks(this, data().activeParts().stream().map(IMergeTreeDataPart::info).toList(),
            local::hasPartLocally);
        return read(maxBlockSize, withVirtuals, p -> p.info().maxBlock() <= max.getOrDefault(p.info().partitionId(), -1L));
    }

    /** The file of an active part, for a replica fetching it; null when this replica has no such part. */
    byte[] partFileForFetch(String partName) {
        MergeTreeData d = data();
        synchronized (d) {
            IMergeTreeDataPart p = d.activePart(partName);
            if (p == null) {
                return committing.get(partName);
            }
            try {
                return p.bytesForFetch();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /**
     * OPTIMIZE: assigns a merge of each partition's active parts (or {@code onlyPartition}'s) by writing MERGE_PARTS to
     * the log, after ClickHouse's merge selecting; the queue of every replica then runs it. A range that spans a block
     * number still being committed is not assigned. Waits for this replica to apply what it assigned.
     */
    @Override
    public boolean optimize(String onlyPartition, boolean fin) {
        checkWritable();
        return ReplicatedMergeAssigner.assignAll(this, onlyPartition, fin);
    }

    @Override
    public List<IMergeTreeDataPart> dropPartition(String partitionId) {
        checkWritable();
        return ReplicatedMergeAssigner.dropRange(this, partitionId);
    }

    @Override
    public List<IMergeTreeDataPart> truncate() {
        checkWritable();
        // every partition that ever took a block number, as ClickHouse's truncate lists block_numbers: a part another
        // replica wrote and this one has not fetched yet is dropped too
        java.util.TreeSet<String> partitions = new java.util.TreeSet<>(data().activeParts().stream().map(x -> x.info().partitionId()).toList());
        try {
            partitions.addAll(zk().children(paths().node("block_numbers")));
        } catch (Exception e) {
            throw zookeeperError("listing the partitions to truncate", e);
        }
        List<IMergeTreeDataPart> gone = new ArrayList<>();
        for (String p : partitions) {
            gone.addAll(ReplicatedMergeAssigner.dropRange(this, p));
        }
        return gone;
    }

    /** DROP PART: a DROP_RANGE of exactly that part's block range, so every replica drops it (and its block ids go). */
    @Override
    public IMergeTreeDataPart dropPart(String partName) {
        checkWritable();
        IMergeTreeDataPart p = data().activePart(partName);
        if (p == null) {
            throw new ChException(ErrorCode.NO_SUCH_DATA_PART, "No part " + partName + " in committed state");
        }
        ReplicatedMergeAssigner.dropRange(this, new MergeTreePartInfo(p.info().partitionId(), p.info().minBlock(), p.info().maxBlock(), 999_999_999,
            p.info().mutation()));
        return p;
    }

    /** ALTER DELETE/UPDATE with {@code mutations_sync=0}: see {@link #mutate(String, MergeTreeDataMergerMutator.RowMutation, long, long)}. */
    @Override
    public void mutate(String commands, MergeTreeDataMergerMutator.RowMutation function) {
        mutate(commands, function, 0, 120_000);
    }

    /**
     * ALTER DELETE/UPDATE through {@code mutations/} ({@link ReplicatedMergeTreeMutations}); waits for this replica
     * ({@code mutationsSync=1}) or every replica (2), giving up on a replica inactive for {@code inactiveTimeoutMs}.
     */
    public void mutate(String commands, MergeTreeDataMergerMutator.RowMutation function, long mutationsSync, long inactiveTimeoutMs) {
        checkWritable();
        mutations.mutate(commands, function, mutationsSync, inactiveTimeoutMs);
    }

    /** Replicated mutations are resumed by the queue (MUTATE_PART entries stay in ZooKeeper), not from local files. */
    @Override
    public void resumeMutations(java.util.function.Function<String, MergeTreeDataMergerMutator.RowMutation> compiler) {
        queue.wakeUp();
    }

    /** KILL MUTATION: removes {@code mutations/<id>}; every replica stops applying it (see ReplicatedMergeTreeMutations#kill). */
    @Override
    public boolean killMutation(String mutationId) {
        checkWritable();
        return mutations.kill(mutationId);
    }

    @Override
    public List<dev.chdedup.stub.mergetree.MergeTreeMutationStatus> mutationStatuses() {
        return mutations.statuses();
    }

    /** Stops the queue (server stop or kill); ZooKeeper is left as it is. */
    /** Stops the table's threads; {@code abrupt} (a crash) interrupts the queue's thread where it waits rather than letting it finish its step. */
    void shutdown(boolean abrupt) {
        cleanup.close();
        partCheck.close();
        restarting.close();
        queue.close(abrupt);
    }

    /** DROP TABLE: removes this replica's nodes, and the table's when it was the last replica; then the local data. */
    @Override
    public void drop() throws IOException {
        cleanup.close();
        partCheck.close();
        restarting.close();
        queue.close();
        context.unregister(this);
        context.dropped(this);
        try {
            ZooKeeperClient zk = zk();
            if (leaderNode != null) {
                zk.tryDelete(leaderNode);
            }
            zk.deleteRecursive(paths.replica());
            if (zk.children(paths.replicas()).isEmpty()) {
                zk.deleteRecursive(zookeeperPath);
            }
        } catch (Exception e) {
            LOG.warn("Dropping {} left nodes in ZooKeeper: {}", paths.replica(), e.toString());
        }
        super.drop();
    }
}
