package dev.chdedup.stub.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.chdedup.stub.junit.StubClusterExtension;
import dev.chdedup.stub.server.StubServer;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A schedule is a function of its seed, draws only what has weight, and its runner applies faults and heals them. */
class FaultScheduleTest {
    @RegisterExtension
    StubClusterExtension extension = StubClusterExtension.builder().replicas(3).build();

    @Test
    void theSameSeedPlansTheSameStepsAndAnotherSeedOthers() {
        FaultSchedule a = FaultSchedule.builder(42).allTypes().build();
        List<FaultSchedule.Step> plan = a.plan(200, 3, 3);
        assertEquals(plan, FaultSchedule.builder(42).allTypes().build().plan(200, 3, 3));
        assertNotEquals(plan, FaultSchedule.builder(43).allTypes().build().plan(200, 3, 3));
        assertEquals(EnumSet.allOf(FaultType.class), plan.stream().map(FaultSchedule.Step::type).collect(Collectors.toCollection(() -> EnumSet.noneOf(FaultType.class))));
        assertTrue(plan.stream().allMatch(s -> s.target() >= 1 && s.target() <= 3 && s.gapMillis() >= 0));
    }

    @Test
    void roundRobinDecksFireEveryTypeOncePerDeckInASeededOrder() {
        FaultSchedule s = FaultSchedule.builder(5).allTypes().roundRobin().build();
        List<FaultSchedule.Step> plan = s.plan(FaultType.values().length * 3, 3, 3);
        for (int deck = 0; deck < 3; deck++) {
            List<FaultType> cards = plan.subList(deck * FaultType.values().length, (deck + 1) * FaultType.values().length).stream()
                .map(FaultSchedule.Step::type).toList();
            assertEquals(EnumSet.allOf(FaultType.class), EnumSet.copyOf(cards), "deck " + deck + ": " + cards);
        }
        assertNotEquals(plan.subList(0, 10), plan.subList(10, 20), "each deck is shuffled anew");
        assertEquals(plan, FaultSchedule.builder(5).allTypes().roundRobin().build().plan(FaultType.values().length * 3, 3, 3));
    }

    @Test
    void onlyWeightedTypesAreDrawnAndNoZooKeeperNodeKillWithoutAnEnsemble() {
        FaultSchedule s = FaultSchedule.builder(7).weight(FaultType.KILL_REPLICA, 3).weight(FaultType.KILL_ZOOKEEPER_NODE, 1).build();
        Set<FaultType> drawn = s.plan(100, 3, 1).stream().map(FaultSchedule.Step::type).collect(Collectors.toSet());
        assertEquals(Set.of(FaultType.KILL_REPLICA), drawn);
        assertThrows(IllegalStateException.class, () -> FaultSchedule.builder(1).weight(FaultType.LOST_ACK, 0).build());
    }

    @Test
    void theRunnerAppliesFaultsInPlanOrderAndHealsOnClose() throws Exception {
        StubCluster cluster = extension.cluster();
        Sql.createTable(cluster);
        FaultSchedule s = FaultSchedule.builder(11).weight(FaultType.KILL_REPLICA, 1).weight(FaultType.LOST_ACK, 1)
            .weight(FaultType.EXPIRE_SESSION, 1).meanGap(Duration.ofMillis(50)).build();
        FaultSchedule.Runner runner = s.start(cluster.faults(), cluster.size(), "default", "t");
        Sql.waitFor("four faults", Duration.ofSeconds(60), () -> runner.applied() >= 4 || runner.failure() != null);
        runner.close();
        assertNull(runner.failure());
        List<FaultType> planned = s.plan(runner.applied(), 3, 1).stream().map(FaultSchedule.Step::type).toList();
        assertEquals(planned, cluster.faults().log().stream().map(ClusterFaults.Fired::type).toList(), "the log follows the plan");
        assertTrue(cluster.replicas().stream().allMatch(r -> r.state() == StubServer.State.STARTED), "healed: every replica runs");
        for (int i = 1; i <= 3; i++) {
            Sql.query(cluster, i, "INSERT INTO t VALUES (" + i + ", 1)"); // answered: no failpoint is left armed
        }
    }
}
