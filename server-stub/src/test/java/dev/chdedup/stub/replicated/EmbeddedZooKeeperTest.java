package dev.chdedup.stub.replicated;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EmbeddedZooKeeperTest {
    /** An ensemble of three takes nine ports at once; one port chosen twice keeps a node from starting. */
    @Test
    void freePortsAreDistinctEvenWhenManyAreTakenAtOnce() throws Exception {
        for (int round = 0; round < 50; round++) {
            int[] ports = EmbeddedZooKeeper.freePorts(9);
            assertEquals(9, Arrays.stream(ports).distinct().count(), Arrays.toString(ports));
            assertEquals(0, Arrays.stream(ports).filter(p -> p <= 0 || p > 65535).count(), Arrays.toString(ports));
        }
    }
}
