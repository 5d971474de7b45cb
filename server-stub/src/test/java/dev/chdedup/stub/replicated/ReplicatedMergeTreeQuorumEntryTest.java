package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.error.ChException;
import dev.chdedup.stub.error.ErrorCode;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The texts of quorum/status (or quorum/parallel/<part>) and quorum/last_part, as a real 18.16 wrote them (02d). */
class ReplicatedMergeTreeQuorumEntryTest {
    /** quorum/status while r2 was frozen, from clickhouse-observed/02d-quorum-frozen.txt. */
    static final String OBSERVED_STATUS = "version: 1\npart_name: all_4_4_0\nrequired_number_of_replicas: 2\nactual_number_of_replicas: 1\n"
        + "replicas:\nr1\n";

    @Test
    void theEntryOfTheWriterIsTheTextARealServerWrote() {
        assertEquals(OBSERVED_STATUS, ReplicatedMergeTreeQuorumEntry.of("all_4_4_0", 2, "r1").toText());
        ReplicatedMergeTreeQuorumEntry e = ReplicatedMergeTreeQuorumEntry.parse(OBSERVED_STATUS);
        assertEquals("all_4_4_0", e.partName());
        assertEquals(2, e.required());
        assertEquals(java.util.List.of("r1"), java.util.List.copyOf(e.replicas()));
    }

    @Test
    void addingReplicasCountsEachOnceInOrder() {
        ReplicatedMergeTreeQuorumEntry e = ReplicatedMergeTreeQuorumEntry.of("all_0_0_0", 3, "r2").withReplica("r1").withReplica("r2");
        assertEquals(2, e.replicas().size());
        assertTrue(!e.satisfied());
        e = e.withReplica("r3");
        assertTrue(e.satisfied());
        assertEquals("version: 1\npart_name: all_0_0_0\nrequired_number_of_replicas: 3\nactual_number_of_replicas: 3\nreplicas:\nr1\nr2\nr3\n",
            e.toText());
        assertEquals(e, ReplicatedMergeTreeQuorumEntry.parse(e.toText()));
    }

    @Test
    void hostileEntriesAreParseErrors() {
        for (String bad : new String[] {"", "version: 2\n", "version: 1\npart_name: x\nrequired_number_of_replicas: 2\nactual_number_of_replicas: 3\n"
            + "replicas:\nr1\n", "version: 1\npart_name: x\nrequired_number_of_replicas: two\nactual_number_of_replicas: 1\nreplicas:\nr1\n",
            "version: 1\nname: x\nrequired_number_of_replicas: 2\nactual_number_of_replicas: 1\nreplicas:\nr1\n"}) {
            RuntimeException e = assertThrows(RuntimeException.class, () -> ReplicatedMergeTreeQuorumEntry.parse(bad), bad);
            assertTrue(e instanceof ChException && ((ChException) e).code() == ErrorCode.CANNOT_PARSE_TEXT || e instanceof NumberFormatException, bad);
        }
    }

    @Test
    void lastPartIsTheTextARealServerWroteAndKeepsOnePartPerPartition() {
        assertEquals(Map.of(), ReplicatedMergeTreeQuorumAddedParts.parse("").parts(), "a new table's last_part is empty");
        ReplicatedMergeTreeQuorumAddedParts p = ReplicatedMergeTreeQuorumAddedParts.parse("").with("all", "all_2_2_0");
        assertEquals("version: 2\nparts count: 1\nall\tall_2_2_0\n", p.toText(), "02d-quorum.txt");
        p = p.with("all", "all_4_4_0").with("201901", "201901_7_7_0");
        assertEquals("version: 2\nparts count: 2\n201901\t201901_7_7_0\nall\tall_4_4_0\n", p.toText());
        assertEquals(new TreeMap<>(Map.of("all", "all_4_4_0", "201901", "201901_7_7_0")), ReplicatedMergeTreeQuorumAddedParts.parse(p.toText()).parts());
        assertEquals(Map.of("all", "all_3_3_0"), ReplicatedMergeTreeQuorumAddedParts.parse("all_3_3_0").parts(), "format version 1");
        assertThrows(ChException.class, () -> ReplicatedMergeTreeQuorumAddedParts.parse("version: 2\nparts count: 2\nall\tall_1_1_0\n"));
        assertThrows(ChException.class, () -> ReplicatedMergeTreeQuorumAddedParts.parse("garbage"));
    }

    @Test
    void anEmulated1816WordsTheTimeoutAsTheRealOneDid() {
        ReplicatedMergeTreeQuorum.Insert q = new ReplicatedMergeTreeQuorum.Insert(2, false, 5000,
            dev.chdedup.stub.compat.CompatibilityProfile.CLICKHOUSE_18_16, 0);
        ChException e = ReplicatedMergeTreeQuorum.unknownStatus(q, new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Timeout while waiting for quorum"));
        assertEquals(ErrorCode.UNKNOWN_STATUS_OF_INSERT, e.code());
        // 02d-quorum-frozen.txt, (d3)
        assertEquals("Unknown status, client must retry. Reason: Code: 159, e.displayText() = DB::Exception: Timeout while waiting for quorum,"
            + " e.what() = DB::Exception", e.getMessage());
        ChException current = ReplicatedMergeTreeQuorum.unknownStatus(new ReplicatedMergeTreeQuorum.Insert(2, true, 5000, null, 0),
            new ChException(ErrorCode.TIMEOUT_EXCEEDED, "Timeout while waiting for quorum"));
        assertEquals("Unknown status, client must retry. Reason: Code: 159. DB::Exception: Timeout while waiting for quorum. (TIMEOUT_EXCEEDED)",
            current.getMessage());
        assertEquals("Quorum for previous write has not been satisfied yet. Status: " + OBSERVED_STATUS,
            ReplicatedMergeTreeQuorum.unsatisfiedPrevious(OBSERVED_STATUS).getMessage(), "02d (d3): the 286 after the timeout");
    }
}
