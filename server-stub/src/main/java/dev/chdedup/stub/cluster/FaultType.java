package dev.chdedup.stub.cluster;

import dev.chdedup.stub.fault.FaultKind;

/**
 * The kinds of fault a cluster suffers in a chaos run (issue 10's list), as {@link ClusterFaults} logs them and a
 * {@link FaultSchedule} draws them: what happens to a client's insert (its acknowledgement lost, its request cut, its
 * response held past the socket timeout, the complete rows of its cut body committed), to a replica (killed, also while
 * it leads or while a quorum insert waits on it; its session expired), to ZooKeeper (stopped, one ensemble node killed) and to the insert path's ZooKeeper
 * requests ({@code insert_keeper_fault_injection_probability}).
 */
public enum FaultType {
    /** The insert commits, then the client gets no answer (reset, close, or 319). */
    LOST_ACK,
    /** The request is cut before it is executed: nothing is written. */
    CUT_REQUEST,
    /** The insert commits and its response is held past the client's socket timeout. */
    HOLD_RESPONSE,
    /**
     * The request body is cut halfway and the server commits the complete rows it got, as 18.16 does; the client sees a
     * reset, or 200 with Code 209 in its header (a compressed body fails instead, and nothing is written).
     */
    COMMITTED_PREFIX,
    KILL_REPLICA,
    /** The replica leading the table's merges is killed. */
    KILL_LEADER,
    /** A replica with replication work queued (a quorum insert may be waiting on its fetch) is killed. */
    KILL_QUORUM_REPLICA,
    EXPIRE_SESSION,
    STOP_ZOOKEEPER,
    KILL_ZOOKEEPER_NODE,
    KEEPER_FAULT_INJECTION;

    /** What a stub failpoint does to a client's insert. */
    public static FaultType of(FaultKind kind) {
        switch (kind) {
            case DROP_AFTER_COMMIT:
            case CLOSE_AFTER_COMMIT:
            case ERROR_AFTER_COMMIT:
                return LOST_ACK;
            case DELAY_RESPONSE:
                return HOLD_RESPONSE;
            case COMMIT_CUT_BODY:
            case COMMIT_CUT_BODY_200:
                return COMMITTED_PREFIX;
            default:
                return CUT_REQUEST;
        }
    }
}
